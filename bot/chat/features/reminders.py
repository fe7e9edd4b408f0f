"""The reminder loop: asks the service what is due and delivers it.

A pass sends concurrently: up to ``in_flight`` notices at once, each request paid for from the
bot's request budget (chat/pacing.py), so that hundreds of due reminders go out in seconds
instead of one after another for minutes, without a storm of 429s. Time-limit notices start
first, so a time-out never waits behind reminders. One pass runs at a time, and a reminder is
marked sent only once Discord has taken it, and only for the turn it was about: none is sent twice.

A notice that Discord refuses everywhere it may go (DMs closed, the thread gone or locked, the
channel gone) is tried on ``give_up_after`` passes, counted in the database so that restarts do
not start the count again; then it stops for this turn. A reminder says so where the match lives
(its thread, else its channel); what cannot be posted anywhere is logged, once. Discord failing
(5xx, time-outs) refuses nothing: the next pass tries again.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from i18n import t

from ...domain.outcome import DeadlineJob, ReminderJob, TurnNotice
from ...service.timelimits import TIMED_OUT, together
from ..context import Chat, chat_of
from ..door import handle_press
from ..homes import TRANSIENT, Refused, describe_failure
from ..outgoing import mention_only
from ..speech import in_public, to_person
from ..words import reminders as words
from .timelimits import ClaimButton

log = logging.getLogger(__name__)


class SnoozeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:snooze:(?P<match>\d+):(?P<ply>\d+)"):
    def __init__(self, match_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("Snooze for this turn"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"hx:snooze:{match_id}:{ply}",
            )
        )
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> SnoozeButton:
        return cls(int(match["match"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            match = await chat_of(interaction).service.snooze(self.match_id, interaction.user.id, self.ply)
            await interaction.response.send_message(words.snoozed(match), ephemeral=True)

        await handle_press(interaction, run)


ITEMS = (SnoozeButton,)

Job = TypeVar("Job", ReminderJob, DeadlineJob, TurnNotice)


class ReminderLoop:
    give_up_after = 3  # passes on which a notice was refused everywhere before it stops for this turn
    in_flight = 16  # notices sent at once: enough to keep the request budget busy while each waits for Discord
    # Reminders claimed at a time: ~11 s of sending at 45 requests a second, far inside a claim's 5-minute lease
    batch = 500

    def __init__(self, client: discord.Client, chat: Chat, tell_paused: Callable[[], Awaitable[None]]) -> None:
        self.client = client
        self.chat = chat
        self.homes = chat.announcer.homes
        self.budget = chat.budget
        self.tell_paused = tell_paused  # the players of matches set aside since the last pass are told
        self._pass = asyncio.Lock()  # one pass at a time, so a reminder is never sent twice

    async def stop(self, grace: float) -> None:
        """Let a pass under way finish (bounded): cut half-way, a reminder sent but not yet marked sent
        would be sent again after the restart."""
        try:
            await asyncio.wait_for(self._pass.acquire(), grace)
        except TimeoutError:
            log.warning("a reminder pass was still running after %.0f s at shutdown", grace)
            return
        # holding the pass lock for good: no new pass starts before the loop is cancelled

    async def run_forever(self) -> None:
        await self.client.wait_until_ready()
        while not self.client.is_closed():
            await asyncio.sleep(self.chat.settings.reminder_check_seconds)
            try:
                await self.run_once()
            except Exception:
                log.exception("reminder pass failed")

    async def run_once(self) -> int:
        """Deliver every due time-limit warning, time-out and reminder; returns how many were sent (a warning
        and a reminder of the same turn, due together, go as one message and count as one)."""
        async with self._pass:
            await self.chat.timelimits.heartbeat()
            turns = _Turns(self.in_flight)
            deadlines = await self.chat.timelimits.due()
            # time-outs start at once; warnings wait for the reminders' claim, to go with a reminder due with them
            sending = [turns.start(self._deadline, job) for job in deadlines if job.level == TIMED_OUT]
            warnings = [job for job in deadlines if job.level != TIMED_OUT]
            sent = 0
            try:
                reminders, more = await self.chat.service.due_reminder_batch(self.batch)
            except Exception:  # the warnings claimed are still sent, not left to their lease
                await asyncio.gather(*sending, *(turns.start(self._deadline, job) for job in warnings))
                raise
            warnings, reminders, pairs = together(warnings, reminders)
            sending += [turns.start(self._deadline, job) for job in warnings]
            sending += [turns.start(self._together, pair) for pair in pairs]
            sending += [turns.start(self._reminder, job) for job in reminders]
            try:
                while more:
                    sent += sum(await asyncio.gather(*sending))  # this batch within its lease, then the next
                    reminders, more = await self.chat.service.due_reminder_batch(self.batch)
                    sending = [turns.start(self._reminder, job) for job in reminders]
            except Exception:
                await asyncio.gather(*sending)  # the notices under way are finished and recorded
                raise
            sent += sum(await asyncio.gather(*sending))
            await self.tell_paused()  # matches set aside since the last pass (damage found while serving)
            return sent

    # -- reminders -----------------------------------------------------------------------

    async def _reminder(self, job: ReminderJob) -> bool:
        try:
            await self.deliver(job)
        except Refused as refusal:
            await self._reminder_refused(job, str(refusal))
            return False
        except TRANSIENT as error:
            log.warning(
                "match %s: reminder for %s not delivered (%s); the next pass tries again",
                job.match.id,
                job.user_id,
                describe_failure(error),
            )
            await self.chat.service.release_reminder(job)
            return False
        self.chat.tally.reminder_sent()  # delivered, whatever recording it does next
        await self.chat.service.reminder_done(job)
        return True

    async def deliver(self, job: ReminderJob) -> None:
        """By DM if the player wants them so, else (or if that fails) by a ping in the match's home.

        Never in the channel when the thread cannot take it: every reminder of the turn would land there.
        It is the player's own reminder: it is said in their language, even pinged in the thread.
        """
        async with to_person(self.chat.service.languages, job.user_id):
            await self._deliver(job)

    async def _deliver(self, job: ReminderJob) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(SnoozeButton(job.match.id, job.ply))
        view.add_item(discord.ui.Button(label=t("Open the board"), url=self._link(job)))
        text = words.board_link(words.reminder(job, self.chat.now()), self._link(job))
        no_dm = ""
        if job.via == "dm":
            no_dm = await self._dm(job.user_id, text, view)
            if not no_dm:
                return
            log.info("no DM for %s (%s); pinging in the match instead", job.user_id, no_dm)
        try:
            await self.homes.post(
                job.match,
                f"<@{job.user_id}> {text}",
                pace=self.budget,
                channel_fallback=False,
                view=view,
                allowed_mentions=mention_only(job.user_id),
            )
        except Refused as refusal:
            raise Refused(words.both(no_dm, str(refusal)) if no_dm else str(refusal)) from None

    async def _reminder_refused(self, job: ReminderJob, why: str) -> None:
        tries = await self.chat.service.refused_try(job.match.id, "reminder", job.match.version)
        if tries < self.give_up_after:
            log.info(
                "match %s: reminder for %s refused (%s; try %d of %d)",
                job.match.id,
                job.user_id,
                why,
                tries,
                self.give_up_after,
            )
            await self.chat.service.release_reminder(job)  # the next pass tries again
            return
        if not await self.chat.service.give_up_reminder(
            job.match.id, job.user_id, job.ply
        ):  # the next turn gets a new one
            return  # the turn moved on meanwhile: nothing to stop
        told = await self._say_reminders_stopped(job, why)
        log.warning(
            "match %s: giving up the reminder for %s on this turn after %d refused tries (%s); %s",
            job.match.id,
            job.user_id,
            tries,
            why,
            told,
        )

    async def _say_reminders_stopped(self, job: ReminderJob, why: str) -> str:
        """Where the match lives (its thread, else its channel); returns where it was said, or why not."""
        async with in_public(self.chat.service.languages, job.match.guild_id):
            text = words.reminders_stopped(job, why)
        try:
            message = await self.homes.post(
                job.match, text[:2000], pace=self.budget, allowed_mentions=mention_only(job.user_id)
            )
        except Refused as refusal:
            return f"no place in the match takes a word about it either ({refusal})"  # the log's words
        except TRANSIENT as error:
            return f"the word about it was not posted ({describe_failure(error)})"
        return f"said so in channel {message.channel.id}"

    # -- a reminder and a warning due together -------------------------------------------

    async def _together(self, notice: TurnNotice) -> bool:
        """One message for both; each is then recorded (or released, or counted as refused) as it would be alone."""
        try:
            async with to_person(self.chat.service.languages, notice.user_id):
                await self._deliver_together(notice)
        except Refused as refusal:
            await self._deadline_refused(notice.warning, str(refusal))
            await self._reminder_refused(notice.reminder, str(refusal))
            return False
        except TRANSIENT as error:
            log.warning(
                "match %s: reminder and time-limit warning for %s not delivered (%s); the next pass tries again",
                notice.match.id,
                notice.user_id,
                describe_failure(error),
            )
            await self.chat.timelimits.release(notice.warning)
            await self.chat.service.release_reminder(notice.reminder)
            return False
        self.chat.tally.reminder_sent()
        await self.chat.timelimits.done(notice.warning)
        await self.chat.service.reminder_done(notice.reminder)
        return True

    async def _deliver_together(self, notice: TurnNotice) -> None:
        """As a warning goes (by DM if the player wants them so, else a ping where the match lives, its channel if
        the thread cannot take it), with the reminder's Snooze too."""
        view = discord.ui.View(timeout=None)
        view.add_item(SnoozeButton(notice.match.id, notice.reminder.ply))
        view.add_item(discord.ui.Button(label=t("Open the board"), url=self._link(notice.warning)))
        text = words.reminder_with_warning(notice)
        if notice.via == "dm":
            no_dm = await self._dm(notice.user_id, text, view)
            if not no_dm:
                return
            log.info("no DM for %s (%s); reminder and warning in the match instead", notice.user_id, no_dm)
        await self.homes.post(
            notice.match,
            f"<@{notice.user_id}> {text}",
            pace=self.budget,
            view=view,
            allowed_mentions=mention_only(notice.user_id),
        )

    # -- time limits ---------------------------------------------------------------------

    async def _deadline(self, job: DeadlineJob) -> bool:
        try:
            await self.deliver_deadline(job)
        except Refused as refusal:
            await self._deadline_refused(job, str(refusal))
            return False
        except TRANSIENT as error:
            log.warning(
                "match %s: time-limit notice (level %d) not delivered (%s); the next pass tries again",
                job.match.id,
                job.level,
                describe_failure(error),
            )
            await self.chat.timelimits.release(job)
            return False
        await self.chat.timelimits.done(job)
        return True

    async def deliver_deadline(self, job: DeadlineJob) -> None:
        """A warning goes to the player to move (as their reminders do); a time-out to the match, with Claim.

        Both go to the match's channel when its thread cannot take them: a time-out's Claim button must be
        somewhere, and losing on time is worse than a ping in the channel. A time-out is said in the server's
        language (every player reads it), a warning in its player's.
        """
        languages = self.chat.service.languages
        async with (
            in_public(languages, job.match.guild_id) if job.level == TIMED_OUT else to_person(languages, job.user_id)
        ):
            await self._deliver_deadline(job)

    async def _deliver_deadline(self, job: DeadlineJob) -> None:
        view = discord.ui.View(timeout=None)
        if job.level == TIMED_OUT:
            view.add_item(ClaimButton(job.match.id, job.ply, words.claim_label(len(job.claimant_ids))))
            await self.homes.post(
                job.match,
                words.deadline(job),
                pace=self.budget,
                view=view,
                allowed_mentions=mention_only(job.claimant_ids + [job.user_id]),
            )
            return
        view.add_item(discord.ui.Button(label=t("Open the board"), url=self._link(job)))
        if job.via == "dm":
            no_dm = await self._dm(job.user_id, words.deadline(job), view)
            if not no_dm:
                return
            log.info("no DM for %s (%s); warning in the match instead", job.user_id, no_dm)
        await self.homes.post(
            job.match,
            f"<@{job.user_id}> {words.deadline(job)}",
            pace=self.budget,
            view=view,
            allowed_mentions=mention_only(job.user_id),
        )

    async def _deadline_refused(self, job: DeadlineJob, why: str) -> None:
        what = "time-out notice" if job.level == TIMED_OUT else "time-limit warning"
        tries = await self.chat.service.refused_try(job.match.id, f"deadline-{job.level}", job.match.version)
        if tries < self.give_up_after:
            log.info("match %s: %s refused (%s; try %d of %d)", job.match.id, what, why, tries, self.give_up_after)
            await self.chat.timelimits.release(job)  # the next pass tries again
            return
        await self.chat.timelimits.done(job)  # as if sent: no place in the match takes it
        log.warning(
            "match %s: %s for %s given up after %d refused tries; no place in the match takes it (%s)",
            job.match.id,
            what,
            job.user_id,
            tries,
            why,
        )

    # -- shared ------------------------------------------------------------------------------

    async def _dm(self, user_id: int, text: str, view: discord.ui.View) -> str:
        """Send a direct message: "" once sent, else why not."""
        user = self.client.get_user(user_id)
        opened = user is not None and user.dm_channel is not None
        await self.budget.spend(1 if opened else 2)  # opening the DM channel is a request of its own
        try:
            channel = await self.client.create_dm(user or discord.Object(user_id))
            await channel.send(text, view=view)
        except discord.Forbidden:
            return words.dms_closed()
        except (discord.HTTPException, *TRANSIENT) as error:
            return describe_failure(error)
        return ""

    def _link(self, job: ReminderJob | DeadlineJob) -> str:
        match = job.match
        if match.board_message_id and match.board_channel_id:
            return f"https://discord.com/channels/{match.guild_id}/{match.board_channel_id}/{match.board_message_id}"
        return f"https://discord.com/channels/{match.guild_id}/{match.home_channel_id}"


class _Turns:
    """Who may send now: ``in_flight`` notices at once, and one at a time per place they go to.

    Discord lets a channel take five posts per five seconds, and discord.py holds back a request to
    an exhausted bucket; a hundred pings due in one channel would otherwise hold every slot while
    they wait, and the DMs and other matches' notices behind them would wait too. Waiting for its
    place holds no slot.
    """

    def __init__(self, in_flight: int) -> None:
        self._slots = asyncio.Semaphore(in_flight)
        self._places: dict[tuple[str, int], asyncio.Semaphore] = collections.defaultdict(asyncio.Semaphore)

    def start(self, send: Callable[[Job], Awaitable[bool]], job: Job) -> asyncio.Task[bool]:
        async def in_turn() -> bool:
            async with self._places[_place(job)], self._slots:
                try:
                    return await send(job)
                except Exception:  # one notice's bug must not stop the others
                    log.exception("match %s: a reminder or time-limit notice failed", job.match.id)
                    return False

        return asyncio.create_task(in_turn())


def _place(job: ReminderJob | DeadlineJob | TurnNotice) -> tuple[str, int]:
    """Where the notice goes first: the player's DMs, or the match's home (its thread, or the channel)."""
    return ("dm", job.user_id) if job.via == "dm" else ("home", job.match.home_channel_id)  # time-outs: "ping"
