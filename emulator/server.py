"""The :class:`DiscordEmulator`: an aiohttp server on loopback plus the test-facing API."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import yarl
from aiohttp import web

from .activities import EMBEDDED, PRIMARY_ENTRY_POINT, Activities, OAuth2
from .archiving import archive_idle_threads, keep_archiving
from .client import ChannelLike, UserActions, UserLike
from .commandlimits import LOCALES
from .errors import ApiError, EmulatorError
from .gateway import DIRECT_MESSAGES, GUILD_MEMBERS, GUILD_MESSAGES, GUILDS, RESUMABLE_CLOSE, Gateway, SessionInfo
from .interactions import InteractionService
from .models import Channel, Guild, Message, User, new_snowflake
from .ratelimits import RateLimiter, RateLimitHit, RateLimits, WindowCounter
from .rest import RestApi
from .sharding import SessionStarts, Shard, ShardingRules, shard_of
from .store import Store
from .waiting import Signal

log = logging.getLogger(__name__)
Observer = Callable[[str, Any], None]


def patch_discord(api_base_url: str, gateway_url: str) -> None:
    """Point discord.py (process-wide) at another REST base and gateway, e.g. an emulator."""
    import discord.gateway
    import discord.http

    discord.http.Route.BASE = api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@dataclass(frozen=True)
class Rejection:
    """An error response the emulator sent (``DiscordEmulator.rejections``)."""

    method: str
    path: str
    status: int
    code: int
    description: str
    violation: bool


class DiscordEmulator(UserActions):
    """A loopback Discord (REST + gateway) that a real discord.py client connects to.

    ``violations`` lists every request that broke a Discord rule (limits, deadlines, double
    acknowledgements, unknown ids, unimplemented endpoints); ``rejections`` lists every error
    response including the 403s a correct bot must expect (closed DMs, missing permissions) and
    the 429s of Discord's rate limits (``rate_limits``; a 429 is not a violation: clients retry).
    """

    def __init__(
        self,
        bot_token: str = "test-token",
        *,
        bot_name: str = "Hexplay",
        host: str = "127.0.0.1",
        port: int = 0,
        privileged_intents: bool = True,
        default_timeout: float = 5.0,
        application_id: int | None = None,
        rate_limits: RateLimits | None = None,
        sharding: ShardingRules | None = None,
        client_secret: str | None = None,
    ) -> None:
        self.bot_token = bot_token
        self.host = host
        self.port = port
        self.privileged_intents = privileged_intents
        self.default_timeout = default_timeout
        self.interaction_deadline = 3.0  # seconds, real time, for the first callback
        self.token_lifetime = 15 * 60.0  # seconds an interaction token accepts webhook calls
        self.app_owner: User | None = None
        # As on Discord, the application id and the bot user's id are the same snowflake.
        self.application_id = application_id or new_snowflake()
        self.store = Store(User(id=self.application_id, name=bot_name, bot=True), self.application_id)
        # The application's OAuth2 (its client secret, users' codes and tokens) and its Activity (off until
        # ``enable_activities``, as for a new application): docs/emulator.md, "OAuth2 and Activities".
        self.oauth = OAuth2(self.application_id, client_secret or secrets.token_urlsafe(24))
        self.activities = Activities()
        self.violations: list[str] = []
        self.rejections: list[Rejection] = []
        self.requests: list[tuple[str, str]] = []
        # Discord's 429s: change ``emu.rate_limits`` (or pass ``rate_limits=``) to tighten, loosen or
        # disable them; ``rate_limit_hits`` lists every 429 sent (they are in ``rejections`` too).
        self.rate_limiter = RateLimiter(rate_limits if rate_limits is not None else RateLimits())
        self.rate_limit_hits: list[RateLimitHit] = []
        self._invalid_requests = WindowCounter()
        # Discord's gateway session rules: shards, session starts, identify pacing (``emu.sharding``).
        self.session_starts = SessionStarts(sharding if sharding is not None else ShardingRules())
        self.interactions = InteractionService(self)
        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self._posted: list[Message] = []
        self._posted_signal = Signal()
        self._runner: web.AppRunner | None = None
        self._archiving: asyncio.Task[None] | None = None
        # Called as observer(event, obj) after every change a user could see (see _observe).
        self.observers: list[Observer] = []

    # ------------------------------------------------------------- lifecycle

    @property
    def bot(self) -> User:
        return self.store.bot

    @property
    def bot_user(self) -> dict[str, Any]:
        return self.store.user_payload(self.store.bot)

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    async def start(self) -> None:
        if self._runner is not None:
            return
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 1024 * 1024)
        self.rest.install(app)
        app.router.add_get("/gateway", self.gateway.handle)
        self.rest.install_fallback(app)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        self.port = sock.getsockname()[1]
        await web.SockSite(runner, sock).start()
        self._runner = runner
        self.store.attachment_base_url = self.base_url
        self._archiving = asyncio.create_task(keep_archiving(self))  # threads idle long enough archive themselves

    async def stop(self) -> None:
        if self._runner is None:
            return
        if self._archiving is not None:
            self._archiving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._archiving
            self._archiving = None
        await self.gateway.close_all()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> DiscordEmulator:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    def patch_discord(self) -> None:
        """``patch_discord(self.api_base_url, self.gateway_url)``."""
        patch_discord(self.api_base_url, self.gateway_url)

    @property
    def rate_limits(self) -> RateLimits:
        return self.rate_limiter.config

    @rate_limits.setter
    def rate_limits(self, config: RateLimits) -> None:
        self.rate_limiter.config = config

    @property
    def sharding(self) -> ShardingRules:
        return self.session_starts.rules

    @sharding.setter
    def sharding(self, rules: ShardingRules) -> None:
        self.session_starts.rules = rules

    def archive_idle_threads(self) -> list[Channel]:
        """Archive the threads idle for their ``auto_archive_duration`` now (the emulator also looks every 30 s),
        as Discord does; the threads archived. Idle time is by ``store.clock``."""
        return archive_idle_threads(self)

    # --------------------------------------------------------- world building

    def enable_activities(self, *, default_entry_point: bool = True) -> None:
        """Turn on the application's Activity, as the developer portal does: the EMBEDDED flag, and (unless
        the app has one) the default Entry Point command "launch" with Discord's own handler (2)."""
        self.activities.enabled = True
        self.store.application_flags |= EMBEDDED
        commands = self.store.global_commands
        if default_entry_point and not any(c.get("type") == PRIMARY_ENTRY_POINT for c in commands):
            default = {
                "name": "launch",
                "description": "Launch this app's Activity",
                "type": PRIMARY_ENTRY_POINT,
                "handler": 2,
                "integration_types": [0, 1],
                "contexts": [0, 1, 2],
            }
            self.store.replace_commands(None, [*commands, default])

    @property
    def client_secret(self) -> str:
        """The application's OAuth2 client secret (developer portal, OAuth2): the Activity's server needs it."""
        return self.oauth.client_secret

    def create_guild(
        self, name: str, *, owner: User | None = None, shard: tuple[int, int] = (0, 1), locale: str = "en-US"
    ) -> Guild:
        """A guild with every existing user as a member; a connected bot gets GUILD_CREATE.

        ``shard=(s, n)`` gives it an id that Discord's sharding formula puts on shard ``s`` of ``n``;
        ``locale`` is its ``preferred_locale`` (a community's language, e.g. ``"fr"``).
        """
        guild = self.store.add_guild(name, owner, shard=shard, locale=_known_locale(locale))
        self.gateway.dispatch("GUILD_CREATE", self.store.guild_payload(guild, newly_joined=True))
        return guild

    def create_text_channel(
        self, guild: Guild, name: str, *, allow_threads: bool = True, bot_can_send: bool = True
    ) -> Channel:
        """``allow_threads=False`` / ``bot_can_send=False`` deny the bot those permissions (403 50013)."""
        channel = self.store.add_text_channel(guild, name, allow_threads=allow_threads, bot_can_send=bot_can_send)
        self.gateway.dispatch("CHANNEL_CREATE", self.store.channel_payload(channel), intents=GUILDS)
        self._observe("channel_created", channel)
        return channel

    def create_user(self, name: str, *, dms_open: bool = True, locale: str = "en-US") -> User:
        """A user who joins every guild; set ``user.dms_open`` any time. ``locale`` is the language of their
        Discord client (``"fr"``): sent as each interaction's ``locale``, and the command names they see."""
        user = self.store.add_user(name, dms_open=dms_open, locale=_known_locale(locale))
        for guild in self.store.guilds.values():
            payload = {**self.store.member_payload(guild, user), "guild_id": str(guild.id)}
            self.gateway.dispatch("GUILD_MEMBER_ADD", payload, intents=GUILD_MEMBERS)
        return user

    # ---------------------------------------------------------------- reading

    def guild(self, guild_id: int) -> Guild:
        return self.store.guilds[guild_id]

    def channel(self, channel_id: int) -> Channel:
        return self._channel_of(channel_id)

    def user(self, user_id: int) -> User:
        return self._user(user_id)

    def message(self, message_id: int) -> Message:
        return self.store.messages[message_id]

    def commands(self, guild: Guild | int | None = None) -> list[dict[str, Any]]:
        """The synced command dicts: global ones, plus that guild's when ``guild`` is given."""
        commands = list(self.store.global_commands)
        if guild is not None:
            commands += self.store.guild_commands.get(guild.id if isinstance(guild, Guild) else guild, [])
        return commands

    def messages(self, channel_or_id: ChannelLike, *, include_ephemeral: bool = False) -> list[Message]:
        """Messages in a channel, thread or DM, oldest first (deleted and still-"thinking" ones excluded)."""
        where = self._channel_of(channel_or_id)
        return [m for m in self.store.channel_messages[where.id] if _visible(m, include_ephemeral)]

    def threads(self, channel: ChannelLike) -> list[Channel]:
        return self.store.threads_of(self._channel_of(channel))

    def dms(self, user: UserLike) -> list[Message]:
        """Messages the bot sent to ``user``'s DM."""
        target = self._user(user)
        channel = self.store.dm_channels.get(target.id)
        if channel is None:
            return []
        return [m for m in self.store.channel_messages[channel.id] if m.author_id == self.bot.id and _visible(m, True)]

    def all_messages(self, *, include_ephemeral: bool = True) -> list[Message]:
        return sorted((m for m in self.store.messages.values() if _visible(m, include_ephemeral)), key=lambda m: m.id)

    async def wait_for_message(
        self,
        channel_or_id: ChannelLike | None = None,
        check: Callable[[Message], bool] | None = None,
        timeout: float | None = None,
        *,
        include_ephemeral: bool = False,
    ) -> Message:
        """The next message the bot posts (after this call) in that channel (any channel or DM if None)."""
        channel_id = None if channel_or_id is None else self._channel_of(channel_or_id).id
        start = len(self._posted)
        found: list[Message] = []

        def matches() -> bool:
            for message in self._posted[start:]:
                if channel_id is not None and message.channel_id != channel_id:
                    continue
                if not include_ephemeral and message.ephemeral:
                    continue
                if check is None or check(message):
                    found.append(message)
                    return True
            return False

        timeout = self.default_timeout if timeout is None else timeout
        if not await self._posted_signal.wait_for(matches, timeout):
            raise EmulatorError(f"no matching bot message within {timeout}s")
        return found[0]

    # ---------------------------------------------------------------- gateway

    @property
    def bot_connected(self) -> bool:
        return self.gateway.is_ready()

    async def wait_until_ready(self, timeout: float = 10.0, *, shard: tuple[int, int] | None = None) -> None:
        """Wait until a bot has IDENTIFIED (or RESUMED) and processed READY and every GUILD_CREATE.

        ``shard=(s, n)``: until a session identified as shard ``s`` of ``n`` is (``(0, 1)``: unsharded).
        """
        if shard is None:
            ready = await self.gateway.wait_ready(timeout)
        else:
            wanted = Shard(*shard)
            ready = await self.gateway.wait_ready(
                timeout, lambda: any(s.shard == wanted for s in self.gateway.ready_sessions())
            )
        if not ready:
            which = "" if shard is None else f" as shard {list(shard)}"
            raise EmulatorError(f"no bot became ready{which} within {timeout}s (requests so far: {self.requests[-5:]})")

    def gateway_sessions(self) -> list[SessionInfo]:
        """The connected gateway sessions (shard id and count, ready or not), last (re)connected last."""
        return self.gateway.session_infos()

    def shard_of(self, guild: Guild | int, shard_count: int) -> int:
        """The shard of ``shard_count`` that receives ``guild``'s events: ``(guild_id >> 22) % shard_count``."""
        return shard_of(guild.id if isinstance(guild, Guild) else guild, shard_count)

    async def disconnect_bot(self, code: int = RESUMABLE_CLOSE) -> None:
        """Close the bot's gateway socket; with the default code discord.py reconnects and RESUMEs."""
        await self.gateway.disconnect(code)

    # ------------------------------------------------------------------ hooks

    def _observe(self, event: str, obj: Any) -> None:
        """Tell observers (e.g. a web face) about ``message_created/updated/deleted`` (a Message,
        ephemeral ones included) and ``channel_created/updated/deleted`` (a Channel)."""
        for observer in list(self.observers):
            try:
                observer(event, obj)
            except Exception:  # an observer's bug must not break the bot's request
                log.exception("emulator observer failed on %s", event)

    def _record_rejection(self, method: str, path: str, error: ApiError) -> None:
        description = error.describe()
        self.rejections.append(Rejection(method, path, error.status, error.code, description, error.violation))
        if error.violation:
            self.violations.append(f"{method} {path}: {description}")
        limits = self.rate_limits
        if error.status in (401, 403, 429) and limits.enabled:
            rule = limits.invalid_requests
            if not self._invalid_requests.allow(rule) and self._invalid_requests.count == rule.limit + 1:
                self.violations.append(
                    f"invalid requests: more than {rule.limit} 401/403/429 responses in {rule.per:g} s"
                    f" (Discord restricts the IP), the last {method} {path}"
                )

    def _message_intent(self, channel: Channel) -> int:
        return DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES

    def _message_posted(self, message: Message) -> None:
        self._posted.append(message)
        self._posted_signal.notify()
        self._observe("message_created", message)
        if not message.ephemeral:
            channel = self.store.channels[message.channel_id]
            payload = self.store.message_payload(message)
            self.gateway.dispatch("MESSAGE_CREATE", payload, intents=self._message_intent(channel))

    def _message_edited(self, message: Message) -> None:
        self._posted_signal.notify()
        self._observe("message_updated", message)
        if not message.ephemeral:
            channel = self.store.channels[message.channel_id]
            payload = self.store.message_payload(message)
            self.gateway.dispatch("MESSAGE_UPDATE", payload, intents=self._message_intent(channel))

    def _message_deleted(self, message: Message) -> None:
        self._posted_signal.notify()
        self._observe("message_deleted", message)
        if not message.ephemeral:
            channel = self.store.channels[message.channel_id]
            payload = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild_id is not None:
                payload["guild_id"] = str(channel.guild_id)
            self.gateway.dispatch("MESSAGE_DELETE", payload, intents=self._message_intent(channel))


def _visible(message: Message, include_ephemeral: bool) -> bool:
    return not message.deleted and not message.loading and (include_ephemeral or not message.ephemeral)


def _known_locale(locale: str) -> str:
    if locale not in LOCALES:
        raise EmulatorError(f"{locale!r} is not one of Discord's locales: {sorted(LOCALES)}")
    return locale
