"""The Discord client: wiring, start-up, and announcing what the service decided."""

from __future__ import annotations

import asyncio
import logging
import signal

import discord
import yarl
from discord.ext import commands

import render

from ai.worker import Thinker

from .clock import Clock, OffsetFileClock
from .computer import ComputerPlayer
from .config import Settings
from .delivery import TASK_PREFIX, Announcer, Undelivered
from .guilds import Guilds
from .offers import OfferNotice, Offers
from .pacing import LocalRequestBudget, RequestBudget
from .pictures import Pictures
from .ratings import Ratings
from .text import escape
from .timelimits import TimeLimits
from .service import BuilderExpired, MatchService, Outcome, ServiceError, mention
from .domain.errors import DamagedMatch, StorageFull
from .domain.model import MatchRow
from .store.base import Store
from .store.sqlite import SqliteStore
from .store.sqlite import ProcessLock
from .ui import (
    DISK_FULL_AFTER,
    DYNAMIC_ITEMS,
    SOMETHING_WENT_WRONG,
    HexplayTree,
    board_view,
    builder_view,
    landed_anyway,
    lobby_view,
    mention_only,
    offer_view,
    png_file,
    reply_error,
)

log = logging.getLogger(__name__)

# Seconds after which an interaction is deferred before its answer is drawn (Discord drops answers after 3 s).
LATE_SECONDS = 1.0
# A clean stop waits this long at most for the work in flight (handlers, a reminder pass, boards being posted).
STOP_GRACE_SECONDS = 10.0


def point_client_at(api_base_url: str, gateway_url: str) -> None:
    """Send discord.py's REST and gateway traffic to another endpoint (proxy or emulator)."""
    if api_base_url:
        discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


# The bot permissions the invite link asks for (README "Invite the bot"): View Channels, Send Messages,
# Embed Links, Attach Files, Read Message History, Create Public Threads, Send Messages in Threads.
INVITE_PERMISSIONS = 309237763072


def invite_url(application_id: int) -> str:
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}"
            f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}")


# Hexplay never joins voice: silence discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
if hasattr(discord.VoiceClient, "warn_dave"):
    discord.VoiceClient.warn_dave = False


class HexplayBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store, clock: Clock | None = None, **options) -> None:
        # Slash commands and buttons arrive as interactions whatever the intents; the bot reads no messages,
        # reactions or typing, so it asks only for servers and channels (threads). Each of its own posts
        # would otherwise come back as a gateway event to parse and cache.
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("max_messages", None)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), tree_cls=HexplayTree, **options)
        self.settings = settings
        self.store = store
        self.service = MatchService(store, clock, default_reminder_hours=settings.reminder_hours,
                                    pictures=Pictures(settings.render_processes))
        self.offers = Offers(self.service)
        self.timelimits = TimeLimits(self.service, settings.vacation_days)
        self.ratings = Ratings(self.service)
        self.servers = Guilds(self.service)
        self.service.finish_hooks.append(self.ratings.settle)
        self.computer = ComputerPlayer(self.service, self.offers,
                                       Thinker(settings.computer_processes, start_method="spawn"))
        self.computer.announce = self.announce_in_home  # its turns are posted as a person's are
        self.reminder_task: asyncio.Task | None = None
        self.request_budget: RequestBudget = LocalRequestBudget()  # what sends in bulk spends from (pacing.py)
        self.announcer = Announcer(self)
        self._caught_up = False  # missed boards are posted once, at the first on_ready
        self._started_at = self.service.clock.now()  # changes after this are announced by their own command
        self._offline_since: float | None = None  # when the gateway connection dropped, if it is down
        self.stopping = False  # set by close(): new interactions are refused while the work in flight finishes

    async def setup_hook(self) -> None:
        from .cogs import COGS
        from .reminders import ReminderLoop

        for cog in COGS:
            await self.add_cog(cog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error
        outage = await self.timelimits.recover_outage()  # before anything can judge a deadline
        if outage:
            log.warning("clocks extended by %.0f s for the time the bot was down", outage)
        rated = await self.ratings.catch_up()  # matches that finished just before a stop
        if rated:
            log.info("rated %d matches that finished before the last stop", rated)
        self.service.pictures.start()  # picture workers, if any, start meanwhile (boards use a thread until then)
        await asyncio.to_thread(render.warm_up)  # palettes: the first picture would take ~0.4 s otherwise
        set_aside = await self.service.verify_all()  # a match whose log does not replay is paused, not fatal
        if set_aside:
            log.error("matches paused (their stored data cannot be read, or their move log does not replay): %s",
                      set_aside)
        if self.settings.dev_guild_ids:
            for guild_id in self.settings.dev_guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.reminders = ReminderLoop(self)
        self.reminder_task = asyncio.create_task(self.reminders.run_forever())

    async def on_disconnect(self) -> None:
        if self._offline_since is None:
            self._offline_since = self.service.clock.now()

    async def on_resumed(self) -> None:
        await self._back_online()

    async def _back_online(self) -> None:
        """Players could not move while the gateway was down: a long gap is an outage, like a stop."""
        since, self._offline_since = self._offline_since, None
        if since is not None and await self.timelimits.connection_gap(since):
            log.warning("the Discord connection was down for %.0f s; running clocks extended",
                        self.service.clock.now() - since)

    async def on_ready(self) -> None:
        await self._back_online()
        if self.user is not None:
            self.ratings.computer_ids.add(self.user.id)  # the bot itself never counts as a rated player
        if not self._caught_up:
            self._caught_up = True
            log.info(self.connected_line())
            await self.announce_missed()
            await self.tell_paused()
            resumed = await self.computer.resume()  # its turns that a stop interrupted
            if resumed:
                log.info("the computer resumes its turn in %d matches", resumed)

    async def tell_paused(self) -> None:
        """Tell the players of each newly paused (quarantined) match, once, in its thread."""
        for match_id in await self.store.quarantined_untold():
            await self.service.for_one_match(match_id, self._tell_paused(match_id))

    async def _tell_paused(self, match_id: int) -> None:
        match = await self.store.get_match(match_id)
        if match is None or not match.home_channel_id:
            log.error("match %s is paused but its row does not say where it is played: its players "
                      "cannot be told", match_id)
            await self.store.quarantine_told(match_id)  # said once in the log, not at every pass
            return
        home = await self.channel_by_id(match.home_channel_id)
        if home is None:
            return
        mentions = " ".join(f"<@{u}>" for u in match.human_ids())
        try:
            await home.send(f"{mentions} {self.service.quarantine_notice(match)}",
                            allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException as error:
            log.warning("match %s: could not tell its players it is paused (%s)", match_id, error)
            return
        await self.store.quarantine_told(match_id)

    def connected_line(self) -> str:
        """One line for the operator: who, where, how commands were synced, and the invite link."""
        count = len(self.guilds)
        servers = f"{count} server" + ("" if count == 1 else "s")
        if self.settings.dev_guild_ids:
            ids = ", ".join(str(g) for g in self.settings.dev_guild_ids)
            synced = f"commands synced to the dev servers {ids} (they appear at once)"
        else:
            synced = "commands synced globally (the first time they may take up to an hour to appear)"
        return (f"Connected as {self.user} (id {self.user.id if self.user else '?'}) in {servers}; {synced}. "
                f"Invite it to a server: {invite_url(self.application_id or 0)}")

    async def announce_missed(self) -> None:
        """Post the boards of moves that were stored but never shown (a stop between the two).

        A board that was posted just before a stop, but not yet recorded, is found in the
        channel and recorded instead of being posted twice.
        """
        for outcome in await self.service.unannounced():
            if outcome.match.updated_at > self._started_at:
                continue  # changed since this start: its own command is announcing it
            await self.service.for_one_match(outcome.match.id, self._announce_missed(outcome))

    async def _announce_missed(self, outcome: Outcome) -> None:
        if outcome.game is None or await self.announcer.already_shown(outcome):
            return
        if outcome.started and outcome.match.thread_id is None and outcome.match.announced_version == 0:
            await self.open_missed_match(outcome)  # stopped between its start and its thread
            return
        try:
            await self.announcer.announce(outcome, prefix="(Posted after a restart.) ", unless_superseded=True)
        except Undelivered:
            return  # logged, and retried in the background
        await self.notify_ending(outcome)

    async def close(self) -> None:
        """A clean stop: refuse new interactions, let those in flight finish (bounded), then disconnect.

        Discord's HTTP session closes last: closed earlier, a handler still running (an Accept that
        is opening its match's thread) fails half-way with "Session is closed".
        """
        if self.stopping:
            return await super().close()
        self.stopping = True
        loop = asyncio.get_running_loop()
        until = loop.time() + STOP_GRACE_SECONDS
        if self.reminder_task is not None:  # a pass cut in half could send a reminder again after the restart
            await self.reminders.stop(STOP_GRACE_SECONDS)
            self.reminder_task.cancel()
        await self._finish_handlers(max(0.0, until - loop.time()))
        await self.computer.close(max(0.1, until - loop.time()))  # stops thinking; a turn being stored finishes
        await self._finish_handlers(max(0.0, until - loop.time()))  # boards of the computer's last turns
        try:  # the last moment the bot was seen alive: a long stop from here on is an outage
            await self.timelimits.heartbeat()
        except Exception:
            log.exception("could not record the heartbeat at shutdown")
        await self.announcer.close()
        await super().close()
        self.service.pictures.close()

    async def _finish_handlers(self, timeout: float) -> None:
        """Wait (bounded) for the commands and buttons already running, and the boards they are posting."""
        prefixes = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item-", "discord.py: ",
                    TASK_PREFIX)
        running = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()
                   and t.get_name().startswith(prefixes)]
        if running and timeout > 0:
            await asyncio.wait(running, timeout=timeout)

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, ServiceError):
            await reply_error(interaction, str(original))
        elif isinstance(original, DamagedMatch):
            await reply_error(interaction, await self.service.paused_by(original))
        elif isinstance(original, StorageFull):
            log.error("a write failed: the bot's disk is full")
            await reply_error(interaction, DISK_FULL_AFTER)
        elif isinstance(error, discord.app_commands.CheckFailure):
            await reply_error(interaction, str(error) or "You cannot use this command here.")
        elif landed_anyway(original):
            log.info("a reply landed although Discord answered it with an error; not answering again")
        else:
            log.error("command failed", exc_info=original)
            await reply_error(interaction, SOMETHING_WENT_WRONG)

    # -- channels ------------------------------------------------------------------

    async def channel_by_id(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel  # type: ignore[return-value]

    # -- announcing ----------------------------------------------------------------

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
            png = await self.service.render(match, game, outcome.events)
            kwargs = dict(content=outcome.line, file=png_file(png),
                          allowed_mentions=mention_only(outcome.mention_user_ids))
            view = board_view(outcome)
            if view is not None:
                kwargs["view"] = view
            if late:
                message_id: int | None = (await interaction.followup.send(wait=True, **kwargs)).id
            else:
                message_id = (await interaction.response.send_message(**kwargs)).message_id
            if message_id is not None:
                await self.store.mark_announced(match.id, match.version, match.home_channel_id, message_id)
            await self.notify_ending(outcome)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        attempt = asyncio.create_task(self.announcer.announce(outcome), name=f"{TASK_PREFIX}-{match.id}-now")
        done, _ = await asyncio.wait({attempt}, timeout=self.announcer.answer_within)
        if attempt in done and attempt.exception() is None:
            delivered = attempt.result()
            text = f"Done: {outcome.line} (see <#{delivered.message.channel.id}>)"
            if delivered.note:
                text += f"\n{delivered.note}"
        else:
            if attempt in done:
                reason = str(attempt.exception())  # Undelivered: logged and retried by the announcer
            else:
                reason = "Discord is slow to accept it"
                attempt.add_done_callback(lambda task: task.cancelled() or task.exception())  # retried inside
            text = after_commit_text(outcome, reason)
        await interaction.followup.send(text[:2000], ephemeral=True, allowed_mentions=mention_only(None))
        await self.notify_ending(outcome)

    async def after_commit(self, interaction: discord.Interaction, outcome: Outcome, announce) -> None:
        """Announce a stored change; if that fails, the mover still learns that it was stored."""
        try:
            await announce()
        except Exception as error:
            self.announcer.retry_later(outcome.match.id)  # records the board if it landed, posts it if not
            if landed_anyway(error):
                log.info("match %s: its reply landed although Discord answered it with an error", outcome.match.id)
                return
            log.warning("match %s: change stored (version %s) but its announcement failed: %r",
                        outcome.match.id, outcome.match.version, error)
            await reply_error(interaction, after_commit_text(outcome, "Discord refused the message"))

    async def play_and_announce(self, interaction: discord.Interaction, match_id: int, text: str,
                                expected_version: int | None = None) -> None:
        outcome = await self.service.play(match_id, interaction.user.id, text, expected_version=expected_version)
        await self.after_commit(interaction, outcome, lambda: self.post_board(interaction, outcome))

    async def turn_builder(self, interaction: discord.Interaction, op: str, match_id: int, version: int | None,
                           picks: list[int]) -> None:
        """The private turn builder: open it, pick or undo an action, or end (play) the turn."""
        if op == "undo":
            picks = picks[:-1]
        if op == "end":
            await self.submit_built_turn(interaction, match_id, version, picks)
            return
        try:
            match, state = await self.service.builder(match_id, interaction.user.id, version, picks)
        except BuilderExpired as expired:  # close the old builder rather than leave dead menus
            await interaction.response.edit_message(content=str(expired), attachments=[], view=None)
            return
        # A picture takes a moment: acknowledge first (Discord allows 3 s), then show it.
        if op == "open":
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        png = await self.service.render(match, state.game, state.events)
        content = f"**Your turn in {self.service.title(match)}** (only you see this). {state.summary()}"
        if state.more:
            content += f" {state.more} more actions are not in the menus: type them with /move."
        if state.full:
            content += " That is as many actions as the builder holds: end the turn, or undo."
        view = builder_view(match.id, match.version, state)
        if op == "open":
            await interaction.followup.send(content, file=png_file(png, "turn.png"), view=view, ephemeral=True)
        else:
            await interaction.edit_original_response(content=content, attachments=[png_file(png, "turn.png")],
                                                     view=view)

    async def submit_built_turn(self, interaction: discord.Interaction, match_id: int, version: int | None,
                                picks: list[int]) -> None:
        """End turn: the picked actions go through the same service call as /move."""
        try:
            _, state = await self.service.builder(match_id, interaction.user.id, version, picks)
        except BuilderExpired as expired:
            await interaction.response.edit_message(content=str(expired), attachments=[], view=None)
            return
        if not state.can_end:
            raise ServiceError(f"The turn cannot end yet: {state.why_not_end}.")
        outcome = await self.service.play(match_id, interaction.user.id, state.notation, expected_version=version)

        async def announce() -> None:
            await interaction.response.edit_message(content=f"Played `{state.notation}`.", attachments=[],
                                                    view=None)
            if outcome.game is not None:
                try:
                    await self.announcer.announce(outcome)
                except Undelivered:
                    pass  # logged and retried in the background; the mover was answered
            await self.notify_ending(outcome)

        await self.after_commit(interaction, outcome, announce)

    async def resign_and_announce(self, interaction: discord.Interaction, match_id: int) -> None:
        outcome = await self.service.resign(match_id, interaction.user.id)

        async def announce() -> None:
            await interaction.response.edit_message(content="You resigned.", view=None)
            if outcome.game is not None:
                try:
                    await self.announcer.announce(outcome)
                except Undelivered:
                    pass  # logged and retried in the background; the resignation itself is answered
            await self.notify_ending(outcome)

        await self.after_commit(interaction, outcome, announce)

    async def announce_in_home(self, outcome: Outcome) -> None:
        """Post a change made away from the match's home (an offer's or a claim's button) through the announcer."""
        if outcome.game is not None:
            try:
                await self.announcer.announce(outcome)
            except Undelivered:
                pass  # logged and retried in the background
        await self.notify_ending(outcome)

    async def offer_and_announce(self, interaction: discord.Interaction, match_id: int, kind: str) -> None:
        """/draw and /undo: post the offer in the match's home with Accept / Decline."""
        notice = await self.offers.offer(match_id, interaction.user.id, kind)
        view = offer_view(match_id, kind, notice.at_seq)
        mentions = mention_only(notice.answerer_ids)
        if interaction.channel_id == notice.match.home_channel_id:
            response = await interaction.response.send_message(notice.text, view=view, allowed_mentions=mentions)
            channel_id, message_id = notice.match.home_channel_id, response.message_id
        else:
            home = await self.channel_by_id(notice.match.home_channel_id)
            if home is None:
                raise ServiceError("The match's thread is gone; the offer cannot be shown to the other players.")
            message = await home.send(notice.text, view=view, allowed_mentions=mentions)
            await interaction.response.send_message(f"Sent in <#{notice.match.home_channel_id}>.", ephemeral=True)
            channel_id, message_id = message.channel.id, message.id
        if message_id is not None:
            await self.store.set_offer_message(notice.match.id, kind, notice.at_seq, channel_id, message_id)
        if notice.computer_ids and message_id is not None:  # the computer answers for its seats, in the background
            self.computer.run_soon(self.computer_answers(notice, channel_id, message_id),
                                   f"offer-{notice.match.id}")

    async def computer_answers(self, notice: OfferNotice, channel_id: int, message_id: int) -> None:
        """The computer's seats answer an offer (thought off the event loop); the offer message shows it."""
        for user_id in notice.computer_ids:
            answer = await self.computer.answer_offer(notice.match.id, notice.kind, notice.at_seq, user_id)
            if answer is None:
                return
            if answer.outcome is not None:  # this message says what happened: no "lapsed" note on it
                answer.outcome.lapsed_offers = tuple(o for o in answer.outcome.lapsed_offers if o[1] != message_id)
            try:
                channel = await self.channel_by_id(channel_id)
                if channel is not None:
                    message = await channel.fetch_message(message_id)
                    view = None if answer.closed else offer_view(notice.match.id, notice.kind, notice.at_seq)
                    await message.edit(content=f"{message.content}\n{answer.text}"[:2000], view=view,
                                       allowed_mentions=mention_only(None))
            except discord.HTTPException as error:  # the answer is stored; the board below still says it
                log.info("match %s: could not show the computer's answer on the offer (%s)", notice.match.id, error)
            if answer.outcome is not None:
                await self.announce_in_home(answer.outcome)
            if answer.closed:
                return

    async def offer_button(self, interaction: discord.Interaction, kind: str, match_id: int, at_seq: int,
                           accept: bool) -> None:
        try:
            answer = await self.offers.answer(match_id, interaction.user.id, kind, at_seq, accept)
        except ServiceError as error:
            if "no longer open" in str(error) or "is over" in str(error):  # a dead offer loses its buttons
                await interaction.response.edit_message(view=None)
            raise
        original = interaction.message.content if interaction.message else ""
        view = None if answer.closed else offer_view(match_id, kind, at_seq)
        if answer.outcome is not None and interaction.message is not None:  # this message says what happened
            answer.outcome.lapsed_offers = tuple(o for o in answer.outcome.lapsed_offers
                                                 if o[1] != interaction.message.id)

        async def show() -> None:
            await interaction.response.edit_message(content=f"{original}\n{answer.text}"[:2000], view=view,
                                                    allowed_mentions=mention_only(None))
            if answer.outcome is not None:
                await self.announce_in_home(answer.outcome)

        if answer.outcome is None:
            await show()
        else:  # the draw or takeback is stored: whatever Discord does now, the presser learns the truth
            await self.after_commit(interaction, answer.outcome, show)

    async def claim_button(self, interaction: discord.Interaction, match_id: int, ply: int) -> None:
        try:
            outcome = await self.timelimits.claim(match_id, interaction.user.id, ply)
        except ServiceError as error:
            if "out of date" in str(error) or "is over" in str(error):
                await interaction.response.edit_message(view=None)
            raise

        async def show() -> None:
            await interaction.response.edit_message(view=None)
            await self.announce_in_home(outcome)

        await self.after_commit(interaction, outcome, show)

    async def lobby_button(self, interaction: discord.Interaction, action: str, match_id: int) -> None:
        user = (interaction.user.id, interaction.user.display_name)
        service = self.service
        try:
            service.check_guild(await service.get(match_id), interaction.guild_id)  # as commands do
            if action == "accept":
                outcome = await service.accept(match_id, user[0])
            elif action == "decline":
                outcome = await service.decline(match_id, user[0])
            elif action == "join":
                outcome = await service.join(match_id, user)
            elif action == "start":
                outcome = await service.start(match_id, user[0])
            else:
                outcome = await service.cancel(match_id, user[0])
        except ServiceError as error:
            await self._retire_stale_lobby(interaction, match_id, str(error))
            raise
        match = outcome.match
        if outcome.started:
            await interaction.response.edit_message(content=service.lobby_text(match) + "\n" + outcome.line,
                                                    view=None, allowed_mentions=mention_only(None))
            await self.open_match(interaction, match, outcome)
        elif match.status == "lobby":
            await interaction.response.edit_message(content=service.lobby_text(match) + "\n" + outcome.line,
                                                    view=lobby_view(match, service),
                                                    allowed_mentions=mention_only(None))
        else:
            await interaction.response.edit_message(content=outcome.line, view=None,
                                                    allowed_mentions=mention_only(None))

    async def _retire_stale_lobby(self, interaction: discord.Interaction, match_id: int, reason: str) -> None:
        """A button pressed on a lobby that is no longer one: take its buttons away, then explain privately."""
        stored = await self.store.get_match(match_id)
        if stored is None or stored.status == "lobby" or interaction.response.is_done():
            return
        if stored.status == "cancelled":
            content = f"{self.service.title(stored)} was cancelled."
        else:
            content = self.service.lobby_text(stored)
        await interaction.response.edit_message(content=content, view=None, allowed_mentions=mention_only(None))

    async def retire_lapsed_offers(self, outcome: Outcome) -> None:
        """Offers that a move lapsed lose their buttons, and say why."""
        for channel_id, message_id in outcome.lapsed_offers:
            channel = await self.channel_by_id(channel_id)
            if channel is None:
                continue
            try:
                message = await channel.fetch_message(message_id)
                await message.edit(content=f"{message.content}\n(Lapsed: a turn was played first.)"[:2000],
                                   view=None, allowed_mentions=mention_only(None))
            except discord.HTTPException as error:  # its buttons still answer "no longer open"
                log.info("match %s: could not retire the lapsed offer %s (%s)", outcome.match.id, message_id, error)

    async def notify_ending(self, outcome: Outcome) -> None:
        """After a board: retire lapsed offers; for a finished game, DM the players whose reminders come by DM."""
        await self.retire_lapsed_offers(outcome)
        if not outcome.finished or outcome.game is None:
            return
        text = self.service.ending_dm(outcome)
        for user_id in outcome.ending_dm_user_ids:
            try:
                user = self.get_user(user_id) or await self.fetch_user(user_id)
                await user.send(text, allowed_mentions=mention_only(None))
            except discord.HTTPException as error:  # closed DMs: the ping in the match is enough
                log.info("no end-of-game DM for %s (%s)", user_id, error)

    async def open_match(self, interaction: discord.Interaction, match: MatchRow, outcome: Outcome,
                         lobby_message: discord.Message | None = None) -> None:
        """Give a started match its thread (when the channel allows it) and post the first board.

        Without a thread the board goes to the channel; if the bot may not post there either,
        it answers the interaction that started the match instead (interactions need no
        channel permission), so the match is always announced.
        """
        target = await self._match_thread(match, lobby_message or interaction.message)
        text, kwargs, png = await self._first_board(match, outcome)
        message: discord.Message | None = None
        if target is not None:
            try:
                message = await target.send(text, **kwargs)
            except discord.HTTPException as error:
                log.info("cannot post in the channel of match %s (%s); answering the interaction", match.id, error)
        if message is None:
            kwargs["file"] = png_file(png)  # a File is consumed by a failed send
            message = await interaction.followup.send(text, wait=True, **kwargs)
        await self.store.mark_announced(match.id, match.version, message.channel.id, message.id)

    async def open_missed_match(self, outcome: Outcome) -> None:
        """At start-up: a match that started just before a stop, its thread never opened, gets it now.

        Without this it would play in the channel for good. Its first board is posted there like any
        missed board (retried in the background if Discord refuses it now).
        """
        match = outcome.match
        lobby = None
        if match.lobby_message_id:
            channel = await self.channel_by_id(match.channel_id)
            try:
                lobby = await channel.fetch_message(match.lobby_message_id) if channel is not None else None
            except discord.HTTPException:
                lobby = None  # deleted: a thread is opened on a new starter message in the channel
        if lobby is None:
            channel = await self.channel_by_id(match.channel_id)
            lobby = await self._starter_post(channel, match) if channel is not None else None
        target = await self._match_thread(match, lobby)
        text, kwargs, _ = await self._first_board(match, outcome)
        message: discord.Message | None = None
        if target is not None:
            try:
                message = await target.send(f"(Posted after a restart.) {text}", **kwargs)
            except discord.HTTPException as error:
                log.warning("match %s: its first board was refused after a restart (%s)", match.id, error)
        if message is None:
            self.announcer.retry_later(match.id)  # until it lands, as any board Discord refused
            return
        await self.store.mark_announced(match.id, match.version, message.channel.id, message.id)

    async def _match_thread(self, match: MatchRow, lobby_message: discord.Message | None
                            ) -> discord.abc.Messageable | None:
        """Open the match's thread on its lobby message (or in the server's chosen channel) and store it.

        Returns where the match is played: its thread, else its channel (None if that is gone too).
        """
        chosen = (await self.store.guild_settings(match.guild_id)).match_channel_id
        if chosen and chosen != match.channel_id:  # /config: match threads open in the server's chosen channel
            starter = await self._starter_in(chosen, match)
            if starter is not None:
                lobby_message = starter
        if lobby_message is not None:
            names = " vs ".join(s.name for s in match.seats)
            try:
                thread: discord.abc.Messageable | None = await lobby_message.create_thread(
                    name=f"{self.service.title(match)}: {names}"[:100], auto_archive_duration=10080)
            except discord.HTTPException as error:
                # 160004: opened before a stop that came before it was stored; a message's thread has its id
                thread = await self.channel_by_id(lobby_message.id) if error.code == 160004 else None
                if thread is None:
                    log.info("no thread for match %s (%s); playing in the channel", match.id, error)
            if thread is not None:
                thread_id: int = thread.id  # type: ignore[attr-defined]  (a thread or channel has an id)
                await self.store.update_match_fields(match.id, thread_id=thread_id)
                match.thread_id = thread_id
                return thread
        return await self.channel_by_id(match.channel_id)

    async def _first_board(self, match: MatchRow, outcome: Outcome) -> tuple[str, dict, bytes]:
        """The first board of a match: its text, its send() arguments, and the picture."""
        assert outcome.game is not None
        png = await self.service.render(match, outcome.game)
        mentions = " ".join(mention(match, s.user_id) for s in sorted(match.seats, key=lambda s: s.seat))
        status = self.service.status_line(match, outcome.game) + self.service.time_note(match, " — ")
        text = f"**{self.service.title(match)}** begins: {mentions}\n{status}"
        text += "\nPlay with `/move` here; `/rules` explains the game."
        kwargs: dict = dict(file=png_file(png), allowed_mentions=mention_only(match.human_ids()))
        view = board_view(outcome)
        if view is not None:
            kwargs["view"] = view
        return text, kwargs, png

    async def _starter_in(self, channel_id: int, match: MatchRow) -> discord.Message | None:
        """The message that starts a match's thread in the server's chosen channel (None if it cannot post)."""
        channel = await self.channel_by_id(channel_id)
        return await self._starter_post(channel, match) if channel is not None else None

    async def _starter_post(self, channel: discord.abc.Messageable, match: MatchRow) -> discord.Message | None:
        """A short post naming the match, for its thread to open on (None if the bot may not post there)."""
        try:
            starter = " vs ".join(escape(s.name) for s in match.seats)
            return await channel.send(f"**{self.service.title(match)}**: {starter}", allowed_mentions=mention_only(None))
        except discord.HTTPException as error:
            log.info("cannot post a match's starter message in %s (%s)", getattr(channel, "id", "?"), error)
            return None

    async def rematch_button(self, interaction: discord.Interaction, match_id: int) -> None:
        """Rematch on a final board: a new lobby in the match's channel, the presser ready, the others invited."""
        self.service.check_guild(await self.service.get(match_id), interaction.guild_id)
        match = await self.servers.rematch(match_id, interaction.user.id)
        invited = [u for u in match.human_ids() if u != interaction.user.id]
        text = (" ".join(f"<@{u}>" for u in invited) + (": " if invited else "")
                + f"<@{interaction.user.id}> asks for a rematch.\n" + self.service.lobby_text(match))
        channel = await self.channel_by_id(match.channel_id)
        view = lobby_view(match, self.service)
        if channel is None:
            raise ServiceError("The match's channel is gone; start a new match with /play.")
        message = await channel.send(text[:2000], view=view, allowed_mentions=mention_only(invited))
        await self.store.update_match_fields(match.id, lobby_message_id=message.id)
        started = await self.service.start_if_ready(match.id)  # against the computer: nobody else to wait for
        if started is None:
            await interaction.response.send_message(f"Rematch offered in <#{match.channel_id}>.", ephemeral=True)
            return
        await interaction.response.send_message(f"Rematch started in <#{match.channel_id}>.", ephemeral=True)
        await message.edit(content=self.service.lobby_text(started.match) + "\n" + started.line, view=None,
                           allowed_mentions=mention_only(None))
        await self.open_match(interaction, started.match, started, lobby_message=message)


def after_commit_text(outcome: Outcome, reason: str) -> str:
    """The truth for a mover whose change was stored but whose board could not be shown yet."""
    return (f"Played and saved: {outcome.line}\nThe board could not be posted in the match yet ({reason}); "
            "it will be posted there as soon as Discord allows. Do not play the turn again.")


async def run(settings: Settings) -> None:
    point_client_at(settings.api_base_url, settings.gateway_url)
    lock = ProcessLock(settings.db_path)
    lock.acquire()  # before opening: a second process must not even migrate the file
    try:
        await _run_bot(settings)
    finally:
        lock.release()


async def _run_bot(settings: Settings) -> None:
    store = await SqliteStore.open(settings.db_path)
    clock = OffsetFileClock(settings.clock_offset_file) if settings.clock_offset_file else None
    bot = HexplayBot(settings, store, clock)
    try:  # a service manager's SIGTERM stops the bot as Ctrl-C does: handlers finish, picture workers stop
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
    except (NotImplementedError, RuntimeError):  # not on this platform or thread: the default (exit) stays
        pass
    try:
        async with bot:
            await bot.start(settings.token)
    finally:
        await store.close()
