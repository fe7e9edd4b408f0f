"""The Discord client: its connection, start-up and clean stop. Features live in ``features/``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import aiohttp
import discord
import yarl
from discord.ext import commands

from i18n import LANGUAGES, translations

from ..config import Settings
from ..domain.errors import DiscordUnreachable, TokenRefused
from ..domain.model import ConstraintBreach
from ..service.breaches import recheck_set_aside
from .announce import TASK_PREFIX
from .context import Chat
from .door import HexplayTree
from .launcher import has_activity, sync_with_entry_point, upsert_entry_point
from .timely import WATCHDOG_SECONDS
from .translator import CatalogTranslator
from .words import community

log = logging.getLogger(__name__)

# A clean stop waits this long at most for the work in flight (handlers, a reminder pass, boards being posted).
STOP_GRACE_SECONDS = 10.0
# The bot permissions the invite link asks for (README "Invite the bot"): View Channels, Send Messages,
# Embed Links, Attach Files, Read Message History, Create Public Threads, Send Messages in Threads.
INVITE_PERMISSIONS = 309237763072
# Held beyond Discord's interval between two IDENTIFYs of a bucket: Discord times them as they arrive, and one
# IDENTIFY may take longer to arrive than the next (network, a busy machine).
IDENTIFY_MARGIN_SECONDS = 0.5
# Tasks discord.py runs a command or a button in, and the announcer's: a clean stop lets them finish.
HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item-",
    "discord.py: ",
    TASK_PREFIX,
)

# Hexplay never joins voice: silence discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
if hasattr(discord.VoiceClient, "warn_dave"):
    discord.VoiceClient.warn_dave = False


def _why(error: Exception) -> str:
    """A connection failure's reason in a few words (aiohttp's own text repeats the host and the TLS mode)."""
    if isinstance(error, aiohttp.ClientConnectorError):
        return error.os_error.strerror or str(error.os_error)
    if isinstance(error, discord.HTTPException):
        return f"it answered {error.status}"
    return str(error) or type(error).__name__


def point_client_at(api_base_url: str, gateway_url: str) -> None:
    """Send discord.py's REST and gateway traffic to another endpoint (proxy or emulator)."""
    if api_base_url:
        discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def invite_url(application_id: int) -> str:
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    )


class Background(Protocol):
    """Work the bot runs beside its connection (the reminder loop): started once ready, stopped cleanly."""

    async def run_forever(self) -> None: ...

    async def stop(self, grace: float) -> None: ...


class IdentifyPacing(Protocol):
    """Spaces the gateway IDENTIFYs of one rate-limit bucket across every process of the bot."""

    async def __call__(self, bucket: int, interval: float) -> None: ...


class HexplayBot(commands.AutoShardedBot):
    """One process's share of the bot's gateway shards (all of them unless ``shard_ids`` says otherwise)."""

    chat: Chat

    def __init__(self, settings: Settings, identify_pacing: IdentifyPacing | None = None, **options: Any) -> None:
        # Slash commands and buttons arrive as interactions whatever the intents; the bot reads no messages,
        # reactions or typing, so it asks only for servers and channels (threads). Each of its own posts
        # would otherwise come back as a gateway event to parse and cache.
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("max_messages", None)
        options.setdefault("shard_count", settings.shard_count)
        options.setdefault("shard_ids", settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=HexplayTree,
            **options,
        )
        self.settings = settings
        self.identify_pacing = identify_pacing
        self._max_concurrency: int | None = None
        self._cogs: Sequence[commands.Cog] = ()
        self._items: Sequence[type[discord.ui.DynamicItem[Any]]] = ()
        self.reminders: Background | None = None
        self.duties: list[Background] = []
        self.reminder_task: asyncio.Task[None] | None = None
        self.verify_task: asyncio.Task[int] | None = None  # the slow check of untouched matches (once connected)
        self._caught_up = False  # missed boards are posted once, at the first on_ready
        # set once the first on_ready's catch-up is done (missed boards, conditional answers, the computer's turns)
        self.caught_up = asyncio.Event()
        self._offline_since: float | None = None  # when the gateway connection dropped, if it is down
        self.stopping = False  # set by close(): new interactions are refused while the work in flight finishes
        self.breaches_pending = False  # a large file's check still runs: what it finds is set aside afterwards
        # Seconds before an unanswered interaction is acknowledged for its handler (timely.py; tests set 0 to take
        # every interaction down the acknowledged path)
        self.answer_watchdog_seconds = WATCHDOG_SECONDS

    def serve(
        self,
        chat: Chat,
        cogs: Sequence[commands.Cog],
        items: Sequence[type[discord.ui.DynamicItem[Any]]],
        reminders: Background,
        duties: Sequence[Background] = (),
    ) -> None:
        """What the bot serves, built by the composition root (bot/runtime.py) before it starts: ``reminders``
        and the other ``duties`` (the relay of workers' boards, the metrics server) run once it is ready."""
        self.chat, self._cogs, self._items, self.reminders = chat, cogs, items, reminders
        self.duties = list(duties)
        self._started_at = chat.now()  # changes after this are announced by their own command

    async def setup_hook(self) -> None:
        for cog in self._cogs:
            await self.add_cog(cog)
        self.add_dynamic_items(*self._items)
        self.add_listener(self.chat.announcer.homes.thread_updated, "on_raw_thread_update")
        self.add_listener(self.chat.announcer.homes.thread_deleted, "on_raw_thread_delete")
        chat = self.chat
        chat.timelimits.shards = await self._shard_layout()
        outage = await chat.timelimits.recover_outage()  # before anything can judge a deadline
        if outage:
            log.warning("clocks extended by %.0f s for the time the bot was down", outage)
        rated = await chat.ratings.catch_up()  # matches that finished just before a stop
        if rated:
            log.info("rated %d matches that finished before the last stop", rated)
        chat.service.pictures.start()  # picture workers, if any, start meanwhile (boards use a thread until then)
        await chat.service.pictures.warm_up_here()
        # Matches in play are checked on first use and by a slow pass once connected (start-up does not grow
        # with the database); the paused ones now, so a repaired match is back in play at once, with the rows
        # the storage's check found breaking a constraint (a large file's check ends later: bot/runtime.py).
        breaches = await chat.service.store.constraint_breaches()
        self.breaches_pending = breaches is None
        if breaches is not None:
            await self.recheck_set_aside(breaches)
        for language in LANGUAGES:  # compiled now (~0.1 s each), not in the first French player's answer
            translations(language)
        await self.tree.set_translator(CatalogTranslator())  # the commands' names in each user's language
        await self._sync_commands()
        assert self.reminders is not None
        self.reminder_task = asyncio.create_task(self._background(self.reminders, *self.duties))

    async def recheck_set_aside(self, breaches: Sequence[ConstraintBreach]) -> None:
        """Set aside the matches and events of rows that break a constraint; put back what reads again."""
        paused, events = await recheck_set_aside(self.chat.service, self.chat.tournaments, breaches)
        if paused:
            log.error(
                "matches paused (their stored data cannot be read, breaks a constraint, or their move log does not "
                "replay): %s",
                paused,
            )
        if events:
            log.error("tournaments paused (their stored rows cannot be read or break a constraint): %s", events)

    @staticmethod
    async def _background(*duties: Background) -> None:
        await asyncio.gather(*(duty.run_forever() for duty in duties))

    async def _sync_commands(self) -> None:
        # With Activities enabled the app has an Entry Point command, which a bulk overwrite must carry
        # (Discord refuses one without it: 50240): ours goes with the slash commands (bot/chat/launcher.py).
        activity = has_activity(self)
        if not self.settings.dev_guild_ids:
            await (sync_with_entry_point(self.tree, self) if activity else self.tree.sync())
            return
        if activity:
            await upsert_entry_point(self)
        for guild_id in self.settings.dev_guild_ids:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    # -- the connection ------------------------------------------------------------------

    async def on_disconnect(self) -> None:
        if self._offline_since is None:
            self._offline_since = self.chat.now()

    async def on_resumed(self) -> None:
        await self._back_online()

    async def _back_online(self) -> None:
        """Players could not move while the gateway was down: a long gap is an outage, like a stop."""
        since, self._offline_since = self._offline_since, None
        if since is not None and await self.chat.timelimits.connection_gap(since):
            log.warning("the Discord connection was down for %.0f s; running clocks extended", self.chat.now() - since)

    async def on_ready(self) -> None:
        await self._back_online()
        if self.user is not None:
            self.chat.ratings.computer_ids.add(self.user.id)  # the bot itself never counts as a rated player
        if self._caught_up:
            return
        self._caught_up = True
        log.info(self.connected_line())
        await self.chat.opening.announce_missed(self._started_at)
        for outcome in await self.chat.service.follow_left_conditionals():  # a stop came before their answer
            await self.chat.announcer.follow_conditional(outcome)
        await self.chat.opening.tell_paused()
        resumed = await self.chat.computer.resume()  # its turns that a stop interrupted
        if resumed:
            log.info("the computer resumes its turn in %d matches", resumed)
        self.caught_up.set()
        self.verify_task = asyncio.create_task(
            self.chat.service.verify_in_background(on_set_aside=self.chat.opening.tell_paused)
        )

    def gateway_problem(self) -> str | None:
        """Why this process is not serving its shards of the gateway, or None when every one is connected
        (``/healthz``)."""
        if self.stopping:
            return "the bot is stopping"
        if not self.is_ready():
            return "not connected to the gateway yet"
        ids = self.shard_ids if self.shard_ids is not None else range(self.shard_count or 1)
        down = [i for i in ids if (shard := self.get_shard(i)) is None or shard.is_closed()]
        if down:
            return f"shard{'s' if len(down) > 1 else ''} {', '.join(map(str, down))} not connected to the gateway"
        return None

    def shard_latencies(self) -> dict[int, float]:
        """Each shard's last heartbeat round trip in seconds (infinite until the first is answered)."""
        return dict(self.latencies)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord allows one IDENTIFY per ``identify_seconds`` in each bucket (shard id modulo max_concurrency),
        counting every process of the bot: discord.py paces only its own shards, so the bucket is taken in
        the shared database. Without pacing configured (tests), discord.py's own wait."""
        if self.identify_pacing is None:
            return await super().before_identify_hook(shard_id, initial=initial)
        if self.settings.identify_seconds <= 0:
            return None  # a gateway that does not pace IDENTIFYs (set so for tests' restarts)
        bucket = (shard_id or 0) % await self._concurrency()
        await self.identify_pacing(bucket, self.settings.identify_seconds + IDENTIFY_MARGIN_SECONDS)

    async def _shard_layout(self) -> tuple[int, tuple[int, ...]]:
        """The shards in all and those this process runs, known before connecting (Discord's recommended count
        is asked for here when none is set, which discord.py then uses as it is)."""
        if self.shard_count is None:
            try:
                answer = await self.http.request(discord.http.Route("GET", "/gateway/bot"))
                self.shard_count = max(1, int(answer["shards"]))
            except (discord.HTTPException, KeyError, TypeError, ValueError):
                self.shard_count = 1
        ids = self.shard_ids if self.shard_ids is not None else list(range(self.shard_count))
        return self.shard_count, tuple(ids)

    async def _concurrency(self) -> int:
        """How many buckets IDENTIFY in parallel (``max_concurrency`` of GET /gateway/bot), asked once."""
        if self._max_concurrency is None:
            try:
                answer = await self.http.request(discord.http.Route("GET", "/gateway/bot"))
                self._max_concurrency = max(1, int(answer["session_start_limit"]["max_concurrency"]))
            except (discord.HTTPException, KeyError, TypeError, ValueError):
                self._max_concurrency = 1  # the safe assumption: one bucket
        return self._max_concurrency

    async def login(self, token: str) -> None:
        try:
            await super().login(token)
        except discord.LoginFailure:  # said to the operator in one line by python -m bot
            raise TokenRefused from None
        except (aiohttp.ClientConnectionError, discord.DiscordServerError) as error:  # one line, not a traceback
            raise DiscordUnreachable(
                f"cannot reach Discord at {discord.http.Route.BASE} ({_why(error)}): check this machine's network"
                + (", or DISCORD_API_BASE_URL" if self.settings.api_base_url else "")
            ) from None

    def connected_line(self) -> str:
        """One line for the operator: who, where, how commands were synced, and the invite link."""
        return community.connected(
            str(self.user),
            self.user.id if self.user else "?",
            len(self.guilds),
            self.settings.dev_guild_ids,
            invite_url(self.application_id or 0),
        )

    # -- a clean stop --------------------------------------------------------------------

    async def close(self) -> None:
        """A clean stop: refuse new interactions, let those in flight finish (bounded), then disconnect.

        Discord's HTTP session closes last: closed earlier, a handler still running (an Accept that
        is opening its match's thread) fails half-way with "Session is closed".
        """
        if self.stopping or not hasattr(self, "chat"):
            return await super().close()
        self.stopping = True
        loop = asyncio.get_running_loop()
        until = loop.time() + STOP_GRACE_SECONDS
        if self.verify_task is not None:
            self.verify_task.cancel()  # read-only until it sets a match aside, which is one statement
            try:
                await self.verify_task
            except asyncio.CancelledError:
                pass
            except Exception:  # logged here: a failed background check must not stop the stop
                log.exception("the background check of matches failed")
        if self.reminder_task is not None and self.reminders is not None:
            # a pass cut in half could send a reminder twice; a relay's post in flight finishes too
            background = [self.reminders, *self.duties]
            await asyncio.gather(*(duty.stop(STOP_GRACE_SECONDS) for duty in background))
            self.reminder_task.cancel()
        # a review being searched is let go (the next request searches it again); its waiters are told now
        await self.chat.reviews.close()
        await self._finish_handlers(max(0.0, until - loop.time()))
        await self.chat.computer.close(max(0.1, until - loop.time()))  # stops thinking; a turn being stored finishes
        await self._finish_handlers(max(0.0, until - loop.time()))  # boards of the computer's last turns
        try:  # the last moment the bot was seen alive: a long stop from here on is an outage
            await self.chat.timelimits.heartbeat()
        except Exception:
            log.exception("could not record the heartbeat at shutdown")
        await self.chat.announcer.close()
        await super().close()
        self.chat.service.pictures.close()

    async def _finish_handlers(self, timeout: float) -> None:
        """Wait (bounded) for the commands and buttons already running, and the boards they are posting."""
        running = [
            t
            for t in asyncio.all_tasks()
            if t is not asyncio.current_task() and not t.done() and t.get_name().startswith(HANDLER_TASKS)
        ]
        if running and timeout > 0:
            await asyncio.wait(running, timeout=timeout)
