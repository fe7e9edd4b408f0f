"""The web face: one page that acts as any sandbox user, over the emulator's user actions.

The page talks JSON to ``/api/*`` and receives changes on a websocket (``/api/live``). Every
action goes through the emulator exactly as a Discord client's would (``invoke``,
``autocomplete``, ``press``, ``select``, ``user_message``), so the bot cannot tell the
difference. What each user may see, and how it is sent to the page, is :mod:`sandbox.views`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from emulator import DiscordEmulator, EmulatorError
from emulator.interactions import InteractionResult
from emulator.models import Channel, Guild, Message, User
from i18n import speaking, t

from . import words
from .activity import ActivityFace, activity_json
from .clockfile import ClockFile
from .composer import ComposerError, Pending, Suggestion, lenient_values, option_values, parse, suggest
from .views import Views

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
HISTORY = 200  # messages a channel shows when opened (the newest)
ACTION_TIMEOUT = 10.0
AUTOCOMPLETE_TIMEOUT = 3.0
PROCESS_WATCH_SECONDS = 0.5  # how often the processes' state is compared with what the pages were sent

Processes = Callable[[], list[dict[str, Any]]]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Client:
    """One open page (one browser tab) acting as ``user``."""

    def __init__(self, user: User, socket: web.WebSocketResponse) -> None:
        self.user = user
        self.socket = socket
        self.queue: asyncio.Queue[str] = asyncio.Queue()

    async def pump(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):  # the tab went away
            while True:
                text = await self.queue.get()
                await self.socket.send_str(text)


class WebFace:
    def __init__(
        self,
        emu: DiscordEmulator,
        clock: ClockFile,
        processes: Processes | None = None,
        activity: ActivityFace | None = None,
    ) -> None:
        self.emu = emu
        self.activity = activity  # the Activity's page, proxy and sign-in (sandbox/activity.py), when served
        self.clock = clock
        # the bot and worker processes as /api/state lists them (sandbox.fleet.Fleet.snapshot, or the one bot)
        self.processes: Processes = processes or list
        self._processes_seen = ""
        self.views = Views(emu)
        self.clients: set[Client] = set()
        self._channels_seen = ""
        self._violations_seen = 0
        emu.observers.append(self._on_change)
        self.app = web.Application(middlewares=[only_this_machine])
        routes = [
            web.get("/", self.index),
            web.get("/api/state", self.state),
            web.get("/api/messages", self.messages),
            web.get("/api/live", self.live),
            web.post("/api/send", self.send),
            web.post("/api/suggest", self.suggest),
            web.post("/api/press", self.press),
            web.post("/api/select", self.select),
            web.post("/api/clock", self.advance_clock),
            web.get("/api/debug", self.debug),
            web.get("/api/words", self.words),
            web.get("/lib/elision.js", words.elision),
            web.get("/files/{attachment_id}/{filename}", self.file),
            web.static("/static", STATIC),
            web.post("/api/launch", self.launch),
            *(activity.routes() if activity is not None else []),
            web.get("/{user}", self.index),
        ]
        self.app.add_routes(routes)

    def humans(self) -> list[User]:
        return self.views.humans()

    def guild_named(self, value: object) -> Guild:
        """The ``guild`` parameter: a guild id, or its position in /api/state's list (1, 2, …); the first if
        not given."""
        guilds = list(self.emu.store.guilds.values())
        raw = "" if value is None else str(value).strip()
        if not raw:
            return guilds[0]
        if raw.isdigit():
            found = next((g for g in guilds if g.id == int(raw)), None)
            if found is None and 1 <= int(raw) <= len(guilds):
                found = guilds[int(raw) - 1]
            if found is not None:
                return found
        raise web.HTTPNotFound(text=f"no sandbox server {raw!r}: give a guild id from /api/state or 1 to {len(guilds)}")

    def games_channel(self, guild: Guild) -> Channel:
        """A server's first text channel (#games)."""
        channel = next((c for c in self.views.guild_channels(guild.id) if not c.is_thread), None)
        if channel is None:
            raise web.HTTPNotFound(text=f"{guild.name} has no text channel")
        return channel

    def user_named(self, name: str) -> User:
        found = next((u for u in self.humans() if u.name == name.lower()), None)
        if found is None:
            raise web.HTTPNotFound(text=f"no sandbox user {name!r}; try " + ", ".join(u.name for u in self.humans()))
        return found

    # ------------------------------------------------------------------ live updates

    def _on_change(self, event: str, obj: Any) -> None:
        if isinstance(obj, Message):
            self.views.note(event, obj)
            for client in self.clients:
                if event == "message_deleted" or not self.views.can_see(client.user, obj):
                    if event != "message_created":
                        self._push(client, {"type": "deleted", "id": str(obj.id), "channel_id": str(obj.channel_id)})
                else:
                    self._push(client, {"type": "message", "message": self.views.message_json(obj)})
        self._push_channels_if_changed()
        if len(self.emu.violations) != self._violations_seen:
            self._violations_seen = len(self.emu.violations)
            for client in self.clients:
                self._push(client, {"type": "violations", "count": self._violations_seen})

    def _push(self, client: Client, frame: dict[str, Any]) -> None:
        client.queue.put_nowait(json.dumps(frame))

    def _push_channels_if_changed(self) -> None:
        channels = [self.views.channel_json(c) for c in self.views.guild_channels()]
        text = json.dumps([(c["id"], c["name"], c["archived"]) for c in channels])
        if text != self._channels_seen:
            self._channels_seen = text
            for client in self.clients:
                self._push(client, {"type": "channels", "channels": channels})

    # ------------------------------------------------------------------ pages

    async def index(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("user")
        if name is None:
            raise web.HTTPFound("/" + self.humans()[0].name)
        self.user_named(name)
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    def _push_processes_if_changed(self) -> None:
        processes = self.processes()
        text = json.dumps(processes)
        if text != self._processes_seen:
            self._processes_seen = text
            for client in self.clients:
                self._push(client, {"type": "processes", "processes": processes})

    async def watch_processes(self) -> None:
        """Tell the pages when a process starts, dies, restarts or (dis)connects (run as a task)."""
        while True:
            self._push_processes_if_changed()
            await asyncio.sleep(PROCESS_WATCH_SECONDS)

    async def state(self, request: web.Request) -> web.Response:
        user = self.user_named(request.query.get("user", ""))
        guild = self.guild_named(request.query.get("guild"))
        dm = self.emu.dm_channel(user)
        guilds = [
            {"id": str(g.id), "name": g.name, "position": index + 1}
            for index, g in enumerate(self.emu.store.guilds.values())
        ]
        return web.json_response(
            {
                "me": {"id": str(user.id), "name": user.name},
                "users": [{"id": str(u.id), "name": u.name, "bot": u.bot} for u in self.emu.store.users.values()],
                "guild": {"id": str(guild.id), "name": guild.name},
                "guilds": guilds,
                "processes": self.processes(),
                "channels": [self.views.channel_json(c) for c in self.views.guild_channels(guild.id)],
                "dm": {"id": str(dm.id), "last_message_id": str(dm.last_message_id or 0)},
                "clock_offset": self.clock.offset,
                "bot_connected": self.emu.bot_connected,
                "violations": len(self.emu.violations),
                "commands": self.command_names(user, self.games_channel(guild)),
            }
        )

    def command_names(self, user: User, channel: Channel) -> list[dict[str, Any]]:
        """Each command the player's Discord shows, by its English name: its name and options' names as they read
        them (amelie's ``/jouer jeu: adversaire:``), for the page's own examples of what to type."""
        english = {c["id"]: c for c in self.emu.commands(channel.guild_id)}
        named = []
        for seen in self.emu.command_list(user, channel):
            default = english.get(seen["id"])
            if default is None:
                continue
            options = zip(default.get("options") or [], seen.get("options") or [], strict=False)
            named.append(
                {
                    "english": default["name"],
                    "name": seen["name"],
                    "options": {o["name"]: s["name"] for o, s in options},
                }
            )
        return named

    async def debug(self, request: web.Request) -> web.Response:
        """For contributors: what the emulator refused, and Discord's rate limits in use."""
        return web.json_response(
            {
                "violations": self.emu.violations,
                "rejections": [vars(r) for r in self.emu.rejections[-50:]],
                "rate_limits": self.emu.rate_limiter.snapshot(),
            },
            dumps=lambda data: json.dumps(data, indent=2, default=str),
        )

    async def messages(self, request: web.Request) -> web.Response:
        user = self.user_named(request.query.get("user", ""))
        channel = self._channel(dict(request.query))
        visible = [m for m in self.emu.store.channel_messages[channel.id] if self.views.can_see(user, m)]
        return web.json_response([self.views.message_json(m) for m in visible[-HISTORY:]])

    async def live(self, request: web.Request) -> web.WebSocketResponse:
        user = self.user_named(request.query.get("user", ""))
        socket = web.WebSocketResponse(heartbeat=20)
        await socket.prepare(request)
        client = Client(user, socket)
        self.clients.add(client)
        pump = asyncio.create_task(client.pump())
        try:
            async for frame in socket:
                if frame.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self.clients.discard(client)
            pump.cancel()
        return socket

    async def close_clients(self) -> None:
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.socket.close()

    async def file(self, request: web.Request) -> web.Response:
        raw = request.match_info["attachment_id"]
        attachment = self.emu.store.attachments.get(int(raw)) if raw.isdigit() else None
        if attachment is None or attachment.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        return web.Response(
            body=attachment.data,
            content_type=attachment.content_type,
            headers={"Cache-Control": "max-age=31536000, immutable"},
        )

    # ------------------------------------------------------------------ actions

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], User]:
        try:
            body = await request.json()
        except ValueError:
            raise web.HTTPBadRequest(text="expected JSON") from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="expected a JSON object")
        return body, self.user_named(str(body.get("user", "")))

    def _channel(self, body: dict[str, Any]) -> Channel:
        """``channel`` (an id) in ``guild`` if one is given; without a channel, the guild's #games."""
        guild = self.guild_named(body.get("guild")) if body.get("guild") not in (None, "") else None
        if body.get("channel") in (None, ""):
            return self.games_channel(guild or self.guild_named(None))
        try:
            channel = self.emu.channel(int(body.get("channel", 0)))
        except (ValueError, TypeError, EmulatorError):
            raise web.HTTPNotFound(text="no such channel") from None
        if guild is not None and not channel.is_dm and channel.guild_id != guild.id:
            raise web.HTTPNotFound(text=f"that channel is not in {guild.name}")
        return channel

    def _in_guild(self, body: dict[str, Any], message_id: int) -> None:
        """A press or select with a ``guild``: its message must be in that server (or a DM)."""
        if body.get("guild") in (None, ""):
            return
        guild = self.guild_named(body.get("guild"))
        message = self.emu.store.messages.get(message_id)
        channel = None if message is None else self.emu.store.channels.get(message.channel_id)
        if channel is not None and not channel.is_dm and channel.guild_id != guild.id:
            raise web.HTTPNotFound(text=f"that message is not in {guild.name}")

    async def _act(self, action: Callable[[], Awaitable[Any]]) -> web.Response:
        """Run a user action; the page shows ``error`` like Discord's client shows a refusal."""
        try:
            result = await action()
        except ComposerError as error:
            return web.json_response({"error": str(error)})
        except EmulatorError as error:
            return web.json_response({"error": _plain(str(error))})
        errors = list(getattr(result, "errors", None) or [])
        if getattr(result, "modal", None):
            errors.append(t("The bot opened a form (modal); the sandbox cannot show forms yet."))
        answer: dict[str, Any] = {"ok": True, "errors": errors}
        if isinstance(result, InteractionResult) and result.activity is not None:  # LAUNCH_ACTIVITY: open the frame
            answer["activity"] = {**(activity_json(result) or {}), "application_id": str(self.emu.application_id)}
        return web.json_response(answer)

    async def send(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        with speaking(user.locale):  # the composer's refusals, as the player's Discord client says them
            return await self._send(user, body)

    async def _send(self, user: User, body: dict[str, Any]) -> web.Response:
        channel = self._channel(body)
        text = str(body.get("text", "")).strip()
        if not text:
            return web.json_response({"error": t("Nothing to send.")})
        if not text.startswith("/"):
            return await self._act(lambda: self.emu.user_message(user, channel, text))
        commands = self.commands_of(user, channel, text)

        async def run() -> Any:
            parsed = parse(text, commands)
            values = option_values(parsed, self.user_ids())
            return await self.emu.invoke(user, channel, parsed.name, values, timeout=ACTION_TIMEOUT)

        return await self._act(run)

    def commands_of(self, user: User, channel: Channel, text: str) -> list[dict[str, Any]]:
        """The commands as ``user``'s Discord shows them (amelie's in French); the English ones when the
        typed command is one of those (Discord takes a command's default name from anyone)."""
        seen = self.emu.command_list(user, channel)
        typed = text[1:].split(" ", 1)[0] if text.startswith("/") else ""
        if typed and not any(c["name"] == typed for c in seen):
            english = self.emu.commands(channel.guild_id)
            if any(c["name"] == typed for c in english):
                return english
        return seen

    async def words(self, request: web.Request) -> web.Response:
        """The page's own words in the player's language (sandbox/words.py)."""
        user = self.user_named(request.query.get("user", ""))
        return web.json_response(words.page_words(user.locale))

    def user_ids(self) -> dict[str, int]:
        return {u.name.lower(): u.id for u in self.humans()}

    async def suggest(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        with speaking(user.locale):  # the pop-up's titles and refusals in the player's language
            return await self._suggest(user, body)

    async def _suggest(self, user: User, body: dict[str, Any]) -> web.Response:
        channel = self._channel(body)
        text = str(body.get("text", ""))
        commands = self.commands_of(user, channel, text)
        pending = suggest(text, commands, [u.name for u in self.humans()])
        if pending is None:
            return web.json_response({"title": None, "items": []})
        if pending.ask_bot:
            pending = await self._ask_bot(user, channel, text, commands, pending)
        items = [{"label": s.label, "detail": s.detail, "text": s.text} for s in pending.suggestions]
        return web.json_response({"title": pending.title, "items": items})

    async def _ask_bot(
        self, user: User, channel: Channel, text: str, commands: list[dict[str, Any]], pending: Pending
    ) -> Pending:
        """The bot's own autocomplete, through an AUTOCOMPLETE interaction as Discord sends it."""
        focused = pending.ask_bot
        assert focused is not None
        parsed = parse(text, commands)
        values = lenient_values(parsed, self.user_ids(), focused)
        try:
            choices = await self.emu.autocomplete(
                user, channel, parsed.name, values, focused=focused, timeout=AUTOCOMPLETE_TIMEOUT
            )
        except EmulatorError as error:
            return Pending(t("{title} — no answer from the bot ({why})", title=pending.title, why=_plain(str(error))))
        suggestions = [Suggestion(str(c["name"]), "", f"{pending.prefix}{c['value']} ") for c in choices]
        title = pending.title if suggestions else t("{title} — the bot suggests nothing for this", title=pending.title)
        return Pending(title, suggestions)

    @staticmethod
    def _message_id(body: dict[str, Any]) -> int:
        raw = str(body.get("message", ""))
        if not raw.isdigit():
            raise web.HTTPBadRequest(text="message must be a message id")
        return int(raw)

    async def press(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        message_id, custom_id = self._message_id(body), str(body.get("custom_id", ""))
        self._in_guild(body, message_id)
        return await self._act(lambda: self.emu.press(user, message_id, custom_id, timeout=ACTION_TIMEOUT))

    async def launch(self, request: web.Request) -> web.Response:
        """The App Launcher: the app's Entry Point command, as ``user`` in ``channel`` (#games by default)."""
        body, user = await self._body(request)
        channel = self._channel(body)
        return await self._act(lambda: self.emu.launch(user, channel, timeout=ACTION_TIMEOUT))

    async def select(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        message_id, custom_id = self._message_id(body), str(body.get("custom_id", ""))
        self._in_guild(body, message_id)
        values = body.get("values")
        if not isinstance(values, list):
            raise web.HTTPBadRequest(text="values must be a list")
        return await self._act(
            lambda: self.emu.select(user, message_id, custom_id, [str(v) for v in values], timeout=ACTION_TIMEOUT)
        )

    async def advance_clock(self, request: web.Request) -> web.Response:
        """One clock for every server and process (they all read the one clock file): forward by ``hours``, or back
        to the real time with ``real_time: true``. Threads idle long enough by the new time archive at once."""
        body, _ = await self._body(request)
        if body.get("guild") not in (None, ""):
            self.guild_named(body.get("guild"))
        if body.get("real_time") is True:
            offset = self.clock.real_time()
        else:
            try:
                hours = float(body.get("hours", 0))
            except (TypeError, ValueError):
                raise web.HTTPBadRequest(text="hours must be a number") from None
            if not 0 < hours <= 24 * 30:
                raise web.HTTPBadRequest(text="advance by 0 to 720 hours, or send real_time: true")
            offset = self.clock.advance(hours * 3600)
        for client in self.clients:
            self._push(client, {"type": "clock", "offset": offset})
        self.emu.archive_idle_threads()
        return web.json_response({"ok": True, "offset": offset})


@web.middleware
async def only_this_machine(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Only this machine's own page may act: the page plays as any sandbox user and shows every DM.

    A loopback ``Host`` (DNS rebinding sends another name to 127.0.0.1), no foreign ``Origin`` (a page of
    another site; a websocket's handshake carries one too), and actions in JSON: a ``text/plain`` POST is
    one any web page may send without asking, a JSON one needs a CORS preflight this server never grants.
    """
    if not _loopback(request.host):
        raise web.HTTPForbidden(text="the sandbox answers only to http://127.0.0.1 (or localhost)")
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.scheme}://{request.host}":
        raise web.HTTPForbidden(text="the sandbox acts only for its own page, not for another site's")
    if request.method == "POST" and request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(text="send the action as JSON (Content-Type: application/json)")
    return await handler(request)


def _loopback(host: str) -> bool:
    """``127.0.0.1:8765``, ``localhost``, ``[::1]:8765`` and the like: a name of this machine only."""
    name = host.lower()
    if name.startswith("["):
        name = name[1 : name.find("]")]
    elif name.count(":") == 1:
        name = name.split(":")[0]
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _plain(reason: str) -> str:
    """The emulator's reasons, in the words of Discord's client where there is one."""
    if "did not respond within" in reason:
        return t("The application did not respond.")
    if "no bot is connected" in reason or "the bot disconnected" in reason:
        return t("Hexplay is offline (the bot is not connected).")
    return reason
