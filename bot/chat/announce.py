"""Getting a stored turn's board to the players, whatever Discord does meanwhile.

Once a turn is committed it is announced in the match's thread. When the thread is
gone, the board goes to the match's channel and a new thread is opened on it; when
the thread refuses posts (locked), the board goes to the channel, and so do the next
ones until the thread is usable again (homes.py). When Discord fails
(5xx, timeouts), the announcement is retried in the background with backoff until
it lands, and a board is recorded as delivered only after Discord accepted it, so a
restart neither loses one nor posts one twice (before re-posting, the channel's
latest board is checked: a stop between a post and its record must not duplicate it).

The mover is always told the truth: a change that was stored is never reported as
"nothing happened" (:meth:`Announcer.after_commit`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from i18n import on_its_own

from ..domain.model import MatchRow
from ..domain.outcome import Outcome
from ..service.describe import last_turn
from ..service.matches import MatchService
from .failures import landed_anyway, reply_error
from .homes import MatchHomes, describe_failure
from .outgoing import mention_only, png_file
from .speech import in_public, to_person
from .words import boards, outcomes, posting, premoves

log = logging.getLogger(__name__)

TASK_PREFIX = "hexplay-announce"
# Seconds after which an interaction is deferred before its answer is drawn (Discord drops answers after 3 s).
LATE_SECONDS = 1.0

ViewFor = Callable[[Outcome], "discord.ui.View | None"]


class Undelivered(Exception):
    """The board could not be posted anywhere right now; the message says why, for the player."""


@dataclass
class Delivered:
    message: discord.Message
    note: str = ""  # for the mover when the board is not where they would look first


class Announcer:
    attempt_timeout = 8.0  # seconds one post may take before it counts as failed (and is retried)
    answer_within = 2.0  # seconds the mover waits for the post before being told the truth anyway
    retry_delays: tuple[float, ...] = (2, 5, 15, 30, 60, 120, 300, 600, 600, 600, 600, 600)  # about an hour

    def __init__(self, client: discord.Client, service: MatchService, homes: MatchHomes, view_for: ViewFor) -> None:
        self.client = client
        self.service = service
        self.homes = homes
        self.view_for = view_for  # the board's buttons (chat/views.py), given by the composition root
        self._retrying: dict[int, asyncio.Task[None]] = {}
        self._owed: dict[int, int] = {}  # match -> the latest version whose board failed to post here

    def text_of(self, outcome: Outcome) -> str:
        return outcomes.announcement_text(outcome, self.service.clock.now())

    # -- one attempt ----------------------------------------------------------------

    async def announce(self, outcome: Outcome, prefix: str = "", unless_superseded: bool = False) -> Delivered | None:
        """Post the outcome's board (thread, else channel) and record it; on failure retry in the background.

        With ``unless_superseded`` (catch-up boards), nothing is posted once a later turn was stored:
        that turn's own board shows the position, and an older board after it would mislead.
        The board is said in the server's language, whoever's interaction caused it.
        """
        async with in_public(self.service.languages, outcome.match.guild_id):
            return await self._announce(outcome, prefix, unless_superseded)

    async def _announce(self, outcome: Outcome, prefix: str, unless_superseded: bool) -> Delivered | None:
        match = outcome.match
        if unless_superseded and await self._superseded(match):
            return None
        try:
            delivered = await self._post(match, prefix + self.text_of(outcome), outcome)
        except Undelivered as error:
            await self.service.release_announcement(match.id)  # whoever retries may claim it
            log.warning(
                "match %s: board of version %s not delivered (%s); retrying in the background",
                match.id,
                match.version,
                error,
            )
            self.retry_later(match.id, match.version)
            raise
        await self.service.mark_announced(match.id, match.version, delivered.message.channel.id, delivered.message.id)
        return delivered

    async def _superseded(self, match: MatchRow) -> bool:
        current = await self.service.read(match.id)
        return current is None or current.version > match.version

    @staticmethod
    def description(outcome: Outcome) -> str:
        """The board's alt text: the position after the outcome, and the turn it was drawn with."""
        assert outcome.game is not None
        notation = next((c.notation for c in reversed(outcome.changes) if c.kind == "turn"), "")
        return boards.board_description(outcome.match, outcome.game, last_turn(outcome.events, notation))

    def board_message(self, outcome: Outcome, png: bytes) -> dict[str, Any]:
        """The board's picture, pings and buttons, as send() takes them."""
        kwargs: dict[str, Any] = {
            "file": png_file(png, description=self.description(outcome)),
            "allowed_mentions": mention_only(outcome.mention_user_ids),
        }
        view = self.view_for(outcome)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    async def _post(self, match: MatchRow, content: str, outcome: Outcome) -> Delivered:
        assert outcome.game is not None
        png = await self.service.render(match, outcome.game, outcome.events)

        async def send(channel: discord.abc.Messageable, text: str) -> discord.Message:
            return await asyncio.wait_for(
                channel.send(text[:2000], **self.board_message(outcome, png)), self.attempt_timeout
            )

        in_thread = match.thread_id is not None
        home, problem = await self.homes.first_place(match)
        if home is not None:
            try:
                return Delivered(await send(home, content))
            except discord.HTTPException as error:
                if not in_thread and isinstance(error, discord.NotFound):
                    raise Undelivered(posting.channel_gone()) from None
                if isinstance(error, discord.DiscordServerError) or not in_thread:
                    raise Undelivered(describe_failure(error)) from None
                problem = self.homes.thread_refused(match, error)
            except (TimeoutError, aiohttp.ClientError, OSError) as error:
                raise Undelivered(describe_failure(error)) from None
        if not in_thread:
            raise Undelivered(problem)
        parent = await self.homes.channel(match.channel_id)
        if parent is None:
            raise Undelivered(posting.and_channel_gone(problem))
        try:
            message = await send(parent, content)
        except (discord.HTTPException, TimeoutError, aiohttp.ClientError, OSError) as error:
            raise Undelivered(posting.and_channel_refused(problem, describe_failure(error))) from None
        new_thread = await self._new_thread(match, message) if problem == posting.thread_deleted() else None
        note = posting.posted_in_channel(problem, match.channel_id, new_thread, problem == posting.thread_deleted())
        return Delivered(message, note)

    async def _new_thread(self, match: MatchRow, message: discord.Message) -> int | None:
        """Open a new thread for a match whose thread was deleted; the match plays on there (its id, or None)."""
        try:
            thread = await message.create_thread(name=posting.thread_name(match), auto_archive_duration=10080)
        except discord.HTTPException as error:
            log.info("match %s: no new thread (%s); playing in the channel", match.id, error)
            await self.service.set_thread(match.id, None)
            return None
        await self.service.set_thread(match.id, thread.id)
        return thread.id

    # -- in the background ---------------------------------------------------------------

    def retry_later(self, match_id: int, version: int) -> None:
        """Keep trying to post the match's board of ``version``, which failed to post, until it lands or a later
        change's own post shows the position (one task per match: a later failure is owed to the same task)."""
        self._owed[match_id] = max(version, self._owed.get(match_id, 0))
        running = self._retrying.get(match_id)
        if running is not None and not running.done():
            return
        self._retrying[match_id] = asyncio.create_task(self._retry(match_id), name=f"{TASK_PREFIX}-{match_id}")

    async def _retry(self, match_id: int) -> None:
        on_its_own()  # minutes later: the server's language as it is then, not as the interaction found it
        try:
            await self._retry_owed(match_id)
        finally:
            self._owed.pop(match_id, None)

    async def _retry_owed(self, match_id: int) -> None:
        for attempt, delay in enumerate(self.retry_delays, start=1):
            await asyncio.sleep(delay)
            match = await self.service.read(match_id)
            if match is None or match.quarantine is not None or match.announced_version >= match.version:
                return  # delivered meanwhile (a later turn's board, or a restart's catch-up)
            if match.version > self._owed.get(match_id, 0):
                # a later change: its own command is posting its board right now (a failure of that post is
                # owed here next), and posting it from here as well would show it twice
                return
            if not await self.service.claim_announcement(match_id):
                continue  # another process is posting it: look again later
            try:
                outcome = await self.service.missed(match_id)
                async with in_public(self.service.languages, outcome.match.guild_id):
                    if await self.already_shown(outcome) or await self._superseded(outcome.match):
                        return
                    delivered = await self._post(outcome.match, posting.delayed() + self.text_of(outcome), outcome)
            except Undelivered as error:
                log.warning("match %s: board still not delivered after %d tries (%s)", match_id, attempt, error)
                await self.service.release_announcement(match_id)
                continue
            except Exception:
                log.exception("match %s: retrying its board failed", match_id)
                await self.service.release_announcement(match_id)
                continue
            await self.service.mark_announced(
                match_id, outcome.match.version, delivered.message.channel.id, delivered.message.id
            )
            log.info("match %s: board delivered on try %d", match_id, attempt)
            return
        log.error(
            "match %s: board still not delivered after %d tries; the next start-up will post it",
            match_id,
            len(self.retry_delays),
        )

    async def already_shown(self, outcome: Outcome) -> bool:
        """Whether the home channel's latest board already shows this outcome (a stop came between post and
        record); if so it is recorded as delivered."""
        match = outcome.match
        home = await self.homes.channel(match.home_channel_id)
        me = self.client.user
        if home is None or me is None or not hasattr(home, "history"):
            return False
        # What happened, not the whole line: its clock note ("time runs out in …") may have changed since
        # the board was posted (a stop past the deadline, or an outage that moved it)
        said = outcomes.what_happened(outcome) or self.text_of(outcome)
        try:
            async for message in home.history(limit=20):
                if message.author.id != me.id or not message.attachments:
                    continue
                if said in message.content:  # the latest board is this one
                    await self.service.mark_announced(match.id, match.version, message.channel.id, message.id)
                    return True
                return False
        except discord.HTTPException:
            return False
        return False

    async def close(self) -> None:
        for task in self._retrying.values():
            task.cancel()
        self._retrying.clear()

    # -- after a change is stored --------------------------------------------------------

    async def post_board(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """Show the new position: in reply when typed in the match's home, else there and privately here.

        The turn is already stored, so the mover is told so within Discord's 3 seconds whatever
        happens to the post (deferring first, as a post in the thread may be slow or fail).
        """
        match, game = outcome.match, outcome.game
        assert game is not None
        if interaction.channel_id == match.home_channel_id:
            late = (discord.utils.utcnow() - interaction.created_at).total_seconds() > LATE_SECONDS
            if late:  # a slow moment: acknowledge now, or Discord drops the answer after 3 s
                await interaction.response.defer(thinking=True)
            async with in_public(self.service.languages, match.guild_id):  # the board is for everyone
                png = await self.service.render(match, game, outcome.events)
                kwargs = dict(content=self.text_of(outcome), **self.board_message(outcome, png))
            if late:
                message_id: int | None = (await interaction.followup.send(wait=True, **kwargs)).id
            else:
                message_id = (await interaction.response.send_message(**kwargs)).message_id
            if message_id is not None:
                await self.service.mark_announced(match.id, match.version, match.home_channel_id, message_id)
            await self.notify_ending(outcome)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        attempt = asyncio.create_task(self.announce(outcome), name=f"{TASK_PREFIX}-{match.id}-now")
        done, _ = await asyncio.wait({attempt}, timeout=self.answer_within)
        now = self.service.clock.now()
        if attempt in done and attempt.exception() is None:
            delivered = attempt.result()
            assert delivered is not None
            text = posting.done_elsewhere(outcome, now, delivered.message.channel.id, delivered.note)
        else:
            if attempt in done:
                reason = str(attempt.exception())  # Undelivered: logged and retried by the announcer
            else:
                reason = posting.discord_slow()
                attempt.add_done_callback(lambda task: task.cancelled() or task.exception())  # retried inside
            text = posting.after_commit(outcome, now, reason)
        await interaction.followup.send(text[:2000], ephemeral=True, allowed_mentions=mention_only(None))
        await self.notify_ending(outcome)

    async def after_commit(
        self, interaction: discord.Interaction, outcome: Outcome, announce: Callable[[], Awaitable[Any]]
    ) -> None:
        """Announce a stored change; if that fails, the mover still learns that it was stored."""
        try:
            await announce()
        except Exception as error:
            self.retry_later(outcome.match.id, outcome.match.version)  # records the board if it landed, else posts it
            if landed_anyway(error):
                log.info("match %s: its reply landed although Discord answered it with an error", outcome.match.id)
                return
            log.warning(
                "match %s: change stored (version %s) but its announcement failed: %r",
                outcome.match.id,
                outcome.match.version,
                error,
            )
            await reply_error(
                interaction, posting.after_commit(outcome, self.service.clock.now(), posting.discord_refused())
            )

    async def announce_in_home(self, outcome: Outcome) -> None:
        """Post a change made away from the match's home (an offer's or a claim's button, the computer)."""
        if outcome.game is not None:
            with contextlib.suppress(Undelivered):  # logged and retried in the background
                await self.announce(outcome)
        await self.notify_ending(outcome)

    async def notify_ending(self, outcome: Outcome) -> None:
        """After a board: retire lapsed offers; tell players whose conditional moves it cleared and post the
        conditional answer played after it; for a finished game, DM the players whose reminders come by DM."""
        await self.retire_lapsed_offers(outcome)
        await self.follow_conditional(outcome)
        if not outcome.finished or outcome.game is None:
            return
        for user_id in outcome.ending_dm_user_ids:
            async with to_person(self.service.languages, user_id):
                text = outcomes.ending_dm(outcome, self.service.clock.now())
            try:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                await user.send(text, allowed_mentions=mention_only(None))
            except discord.HTTPException as error:  # closed DMs: the ping in the match is enough
                log.info("no end-of-game DM for %s (%s)", user_id, error)

    async def follow_conditional(self, outcome: Outcome) -> None:
        """A move's consequences for conditional moves: a private notice (a DM, as every notice not answering
        an interaction of its own) to each player whose lines it cleared; the board of the answer played."""
        last = outcome.changes[-1] if outcome.changes else None
        for user_id, why in outcome.premoves_cleared:
            async with to_person(self.service.languages, user_id):
                text = premoves.premoves_cleared(outcome.match, user_id, why, last.notation if last is not None else "")
            try:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                await user.send(text, allowed_mentions=mention_only(None))
            except discord.HTTPException as error:  # closed DMs: their /premove shows none left
                log.info(
                    "match %s: no notice of cleared conditional moves for %s (%s)", outcome.match.id, user_id, error
                )
        if outcome.answered is not None:
            await self.announce_in_home(outcome.answered)

    async def retire_lapsed_offers(self, outcome: Outcome) -> None:
        """Offers that a move lapsed lose their buttons, and say why."""
        for channel_id, message_id in outcome.lapsed_offers:
            channel = await self.homes.channel(channel_id)
            if channel is None:
                continue
            try:
                message = await channel.fetch_message(message_id)
                async with in_public(self.service.languages, outcome.match.guild_id):
                    content = posting.lapsed(message.content)[:2000]
                await message.edit(content=content, view=None, allowed_mentions=mention_only(None))
            except discord.HTTPException as error:  # its buttons still answer "no longer open"
                log.info("match %s: could not retire the lapsed offer %s (%s)", outcome.match.id, message_id, error)
