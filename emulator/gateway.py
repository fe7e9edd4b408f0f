"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME and event dispatch.

Frames are plain JSON text (``compress`` in the URL is ignored: discord.py only
decompresses binary frames). Every session keeps a history of its dispatches so a
client that lost its socket can RESUME and get what it missed.

Sessions may be sharded (:mod:`emulator.sharding`): each one receives only the events of
the guilds its ``[shard_id, shard_count]`` holds, and several are connected at once.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .host import Host
from .ratelimits import RateLimits, WindowCounter
from .sharding import UNSHARDED, SessionStarts, Shard, ShardingRules, parse_shard, shard_of
from .waiting import Signal

log = logging.getLogger(__name__)

# Discord says 41250. Shorter here because the emulator asks for extra heartbeats (op 1) to
# learn that the client has processed its frames, and discord.py measures the ACK of such a
# heartbeat against its last *scheduled* one: with 41 s between those it logs spurious
# "Can't keep up … behind" warnings. 5 s keeps every ACK within its 10 s warning threshold.
HEARTBEAT_INTERVAL_MS = 5000
HISTORY_LIMIT = 5000

# Gateway intents.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# Close codes.
UNKNOWN_OPCODE = 4001
DECODE_ERROR = 4002
NOT_AUTHENTICATED = 4003
AUTHENTICATION_FAILED = 4004
ALREADY_AUTHENTICATED = 4005
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
INVALID_INTENTS = 4013
DISALLOWED_INTENTS = 4014
RATE_LIMITED = 4008
RESUMABLE_CLOSE = 4000

EventData = dict[str, Any] | Callable[["GatewaySession"], dict[str, Any]]
Outgoing = str | Callable[[], None]

# Events whose data is the guild itself: its ``id`` is the guild id.
GUILD_OBJECT_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def routing_guild_id(event: str, data: dict[str, Any]) -> int | None:
    """The guild whose shard receives the event. Discord routes by the payload: "Gateway events
    that do not contain a guild_id will only be sent to the first shard" (gateway.mdx, Sharding)."""
    raw = data.get("id") if event in GUILD_OBJECT_EVENTS else data.get("guild_id")
    return None if raw is None else int(raw)


class Connection:
    """One websocket; frames are written in order by a single writer task."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self.session: GatewaySession | None = None
        self.sync_sent = False
        self.server_close_code: int | None = None
        self.sent_events = WindowCounter()
        self._outbox: asyncio.Queue[Outgoing | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    @property
    def live(self) -> bool:
        return not self.socket.closed

    def send(self, frame: dict[str, Any] | str) -> None:
        self._outbox.put_nowait(frame if isinstance(frame, str) else json.dumps(frame))

    def after_sent(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` once everything queued so far has been written."""
        self._outbox.put_nowait(hook)

    async def _write(self) -> None:
        while True:
            item = await self._outbox.get()
            if item is None:
                return
            if callable(item):
                item()
                continue
            try:
                await self.socket.send_str(item)
            except (ConnectionError, RuntimeError):
                return

    @property
    def close_code(self) -> int | None:
        """Our code when we closed (the client's reply would echo 1000), else the client's."""
        return self.server_close_code if self.server_close_code is not None else self.socket.close_code

    async def close(self, code: int, reason: str = "") -> None:
        if self.live:
            self.server_close_code = code
            await self.socket.close(code=code, message=reason.encode())

    def stop(self) -> None:
        self._outbox.put_nowait(None)


class GatewaySession:
    def __init__(self, session_id: str, intents: int, shard: Shard = UNSHARDED) -> None:
        self.session_id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.history: collections.deque[tuple[int, str]] = collections.deque(maxlen=HISTORY_LIMIT)
        self.connection: Connection | None = None
        self.synced = False
        self.invalid = False

    @property
    def live(self) -> bool:
        return self.connection is not None and self.connection.live and not self.invalid

    def holds(self, guild_id: int | None) -> bool:
        """Whether Discord routes this guild's events here; ``None`` (DMs) goes to shard 0."""
        if guild_id is None:
            return self.shard.id == 0
        return shard_of(guild_id, self.shard.num_shards) == self.shard.id

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.history.append((self.seq, frame))
        if self.connection is not None and self.connection.live:
            self.connection.send(frame)

    def dispatched(self, event: str) -> list[dict[str, Any]]:
        """The data of every ``event`` sent to this session (within its resume history)."""
        frames = [json.loads(frame) for _, frame in self.history]
        return [frame["d"] for frame in frames if frame["t"] == event]


@dataclass(frozen=True)
class SessionInfo:
    """A connected gateway session as tests see it (``DiscordEmulator.gateway_sessions``)."""

    session_id: str
    shard_id: int
    shard_count: int
    ready: bool  # READY and its GUILD_CREATEs processed (or RESUMED and the replay processed)


class GatewayHost(Host, Protocol):
    """What the gateway needs from the emulator beyond :class:`~emulator.host.Host`."""

    privileged_intents: bool
    session_starts: SessionStarts

    @property
    def sharding(self) -> ShardingRules: ...

    @property
    def rate_limits(self) -> RateLimits: ...


class Gateway:
    def __init__(self, emulator: GatewayHost) -> None:
        self.emu = emulator
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: set[Connection] = set()
        self.signal = Signal()
        self._order: list[GatewaySession] = []

    # ------------------------------------------------------------------ state

    def ready_sessions(self) -> list[GatewaySession]:
        return [session for session in self._order if session.live and session.synced]

    def is_ready(self) -> bool:
        return bool(self.ready_sessions())

    def ready_holding(self, guild_id: int | None) -> list[GatewaySession]:
        """Ready sessions that receive this guild's events (``None``: a DM's), oldest first."""
        return [session for session in self.ready_sessions() if session.holds(guild_id)]

    def session_infos(self) -> list[SessionInfo]:
        """Every connected session, in the order they last (re)connected."""
        return [SessionInfo(s.session_id, s.shard.id, s.shard.num_shards, s.synced) for s in self._order if s.live]

    async def wait_ready(self, timeout: float, until: Callable[[], bool] | None = None) -> bool:
        """Wait until some session is ready, or until ``until()`` holds."""
        return await self.signal.wait_for(until or self.is_ready, timeout, poll=0.05)

    # -------------------------------------------------------------- dispatch

    def dispatch(self, event: str, data: EventData, *, intents: int = 0) -> int:
        """Send an event to every valid session that holds its guild (buffered for disconnected ones);
        returns how many got it.

        ``intents``: the event is only for sessions that asked for any of these bits.
        """
        count = 0
        for session in list(self.sessions.values()):
            if session.invalid or (intents and not session.intents & intents):
                continue
            payload = data(session) if callable(data) else data
            if session.holds(routing_guild_id(event, payload)):
                session.dispatch(event, payload)
                count += 1
        return count

    def dispatch_interaction(self, data: dict[str, Any]) -> bool:
        """Interactions go to one session only: the most recently (re)connected ready one that
        holds the interaction's guild (shard 0 for DMs)."""
        ready = self.ready_holding(routing_guild_id("INTERACTION_CREATE", data))
        if not ready:
            return False
        ready[-1].dispatch("INTERACTION_CREATE", data)
        return True

    async def disconnect(self, code: int = RESUMABLE_CLOSE) -> None:
        for connection in list(self.connections):
            if connection.session is not None:
                connection.session.synced = False
            await connection.close(code, "emulator requested reconnect")
        self.signal.notify()

    async def close_all(self) -> None:
        for connection in list(self.connections):
            await connection.close(1001, "emulator shutting down")
            connection.stop()

    # ---------------------------------------------------------------- socket

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(autoping=True, max_msg_size=16 * 1024 * 1024)
        await socket.prepare(request)
        connection = Connection(socket)
        self.connections.add(connection)
        connection.send({"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    payload = json.loads(message.data)
                except ValueError:
                    await connection.close(DECODE_ERROR, "Error while decoding payload.")
                    break
                limits = self.emu.rate_limits
                if limits.enabled and not connection.sent_events.allow(limits.gateway):
                    rule = limits.gateway
                    self.emu.violations.append(
                        f"gateway: more than {rule.limit} events in {rule.per:g} s (closed 4008)"
                    )
                    await connection.close(RATE_LIMITED, "Rate limited.")
                    break
                await self._on_frame(connection, payload)
        finally:
            self._on_closed(connection)
        return socket

    def _on_closed(self, connection: Connection) -> None:
        connection.stop()
        self.connections.discard(connection)
        session = connection.session
        if session is not None and session.connection is connection:
            session.connection = None
            session.synced = False
            if connection.close_code in (1000, 1001) or session.invalid:
                # A clean close from the client ends the session: the next connect must IDENTIFY.
                session.invalid = True
                self.sessions.pop(session.session_id, None)
                if session in self._order:
                    self._order.remove(session)
        self.signal.notify()

    async def _on_frame(self, connection: Connection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == 1:
            connection.send({"op": 11})
            session = connection.session
            if connection.sync_sent and session is not None and not session.synced:
                session.synced = True
                self.signal.notify()
        elif op == 2:
            await self._identify(connection, data if isinstance(data, dict) else {})
        elif op == 6:
            await self._resume(connection, data if isinstance(data, dict) else {})
        elif op == 8:
            self._request_members(connection, data if isinstance(data, dict) else {})
        elif op in (3, 4):
            if connection.session is None:
                await connection.close(NOT_AUTHENTICATED, "Not authenticated.")
        else:
            await connection.close(UNKNOWN_OPCODE, "Unknown opcode.")

    def _token_ok(self, token: Any) -> bool:
        return token in (self.emu.bot_token, f"Bot {self.emu.bot_token}")

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if connection.session is not None:
            await connection.close(ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if not self._token_ok(data.get("token")):
            await connection.close(AUTHENTICATION_FAILED, "Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0:
            await connection.close(INVALID_INTENTS, "Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS and not self.emu.privileged_intents:
            await connection.close(DISALLOWED_INTENTS, "Disallowed intent(s).")
            return
        shard = await self._valid_shard(connection, data.get("shard"))
        if shard is None or not await self._may_start_session(connection, shard):
            return
        self.emu.session_starts.start(shard)
        session = GatewaySession(secrets.token_hex(16), intents, shard)
        self.sessions[session.session_id] = session
        self._attach(connection, session)
        store = self.emu.store
        session.dispatch("READY", self._ready_payload(session, echo_shard="shard" in data))
        for guild in store.guilds.values():
            if session.holds(guild.id):
                session.dispatch("GUILD_CREATE", store.guild_payload(guild))
        self._request_sync(connection)

    async def _valid_shard(self, connection: Connection, value: Any) -> Shard | None:
        """The IDENTIFY's shard, or None once the connection is closed for it (4010, 4011)."""
        shard = parse_shard(value)
        if shard is None:
            await connection.close(INVALID_SHARD, "Invalid shard.")
            return None
        # The per-shard maximum applies to the guilds this session would hold, not to an average:
        # an unlucky spread of ids can overfill one shard of an otherwise sufficient count.
        held = sum(1 for guild_id in self.emu.store.guilds if shard_of(guild_id, shard.num_shards) == shard.id)
        if held > self.emu.sharding.max_guilds_per_shard:
            await connection.close(SHARDING_REQUIRED, "Sharding required.")
            return None
        return shard

    async def _may_start_session(self, connection: Connection, shard: Shard) -> bool:
        """Discord's identify limits: pacing per bucket (op 9), then the daily session starts."""
        starts, rules = self.emu.session_starts, self.emu.sharding
        elapsed = starts.too_soon(shard)
        if elapsed is not None:
            self.emu.violations.append(
                f"gateway: IDENTIFY of shard {list(shard)} {elapsed:.3f} s after the last session start of"
                f" its bucket ({shard.id} % max_concurrency {rules.max_concurrency} = {rules.bucket(shard)});"
                f" Discord allows one per {rules.identify_interval:g} s per bucket (answered op 9 Invalid Session)"
            )
            connection.send({"op": 9, "d": False})
            return False
        if starts.remaining == 0:
            self.emu.violations.append(
                f"gateway: IDENTIFY with no session starts left ({rules.session_start_total} per"
                f" {rules.session_start_period:g} s): Discord resets the bot token and ends every session"
                " (closed 4004; the new token is emu.bot_token)"
            )
            await self._reset_token()
            return False
        return True

    async def _reset_token(self) -> None:
        """What Discord does to a bot over its session start limit (the owner is mailed the new token)."""
        self.emu.bot_token = secrets.token_urlsafe(32)
        self.emu.session_starts.refill()
        for session in self.sessions.values():
            session.invalid = True
        self.sessions.clear()
        self._order.clear()
        for connection in list(self.connections):
            await connection.close(AUTHENTICATION_FAILED, "Authentication failed.")
        self.signal.notify()

    def _ready_payload(self, session: GatewaySession, *, echo_shard: bool) -> dict[str, Any]:
        store = self.emu.store
        guild_ids = [guild_id for guild_id in store.guilds if session.holds(guild_id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**store.user_payload(store.bot), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guild_ids],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.emu.gateway_url,
            "application": {"id": str(store.application_id), "flags": store.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
        }
        if echo_shard:
            ready["shard"] = list(session.shard)
        return ready

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        oldest = session.history[0][0] if session and session.history else 0
        if session is None or session.invalid or not self._token_ok(data.get("token")) or (seq and seq < oldest - 1):
            connection.send({"op": 9, "d": False})
            return
        previous = session.connection
        if previous is not None and previous is not connection:
            previous.session = None
            await previous.close(RESUMABLE_CLOSE, "session resumed elsewhere")
        self._attach(connection, session)
        for frame_seq, frame in session.history:
            if frame_seq > seq:
                connection.send(frame)
        session.dispatch("RESUMED", {})
        self._request_sync(connection)

    def _attach(self, connection: Connection, session: GatewaySession) -> None:
        connection.session = session
        session.connection = connection
        session.synced = False
        if session in self._order:
            self._order.remove(session)
        self._order.append(session)

    def _request_sync(self, connection: Connection) -> None:
        """Ask for a heartbeat: its arrival proves the client processed every earlier frame."""
        connection.send({"op": 1, "d": None})

        def mark() -> None:
            connection.sync_sent = True

        connection.after_sent(mark)

    def _request_members(self, connection: Connection, data: dict[str, Any]) -> None:
        session = connection.session
        store = self.emu.store
        guild = store.guilds.get(int(data.get("guild_id") or 0))
        if session is None or guild is None:
            return
        members = [store.member_payload(guild, store.users[uid]) for uid in guild.member_ids]
        session.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "presences": [],
                **({"nonce": data["nonce"]} if data.get("nonce") else {}),
            },
        )
