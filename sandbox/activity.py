"""The Activity in the sandbox (docs/activity.md, "The sandbox"): the page, its requests to the bot, and the
Discord client's part of the Embedded App SDK's sign-in, all on the sandbox page's own origin.

Discord serves an Activity from ``https://<app>.discordsays.com`` and forwards its ``/.proxy/…`` requests to the
operator's server by the URL mapping. Here one loopback origin plays both: ``/activity/`` is the built page
(loaded in an iframe beside the chat, whose parent speaks the SDK's postMessage protocol: sandbox/static), and
``/activity/.proxy/api/activity/…`` (or ``/.proxy/api/activity/…``) goes to the bot's Activity server, HTTP and
WebSocket alike. The SDK accepts messages from its own origin, so the page runs the real SDK unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import mimetypes
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from emulator import DiscordEmulator, EmulatorError
from emulator.errors import ApiError
from emulator.interactions import InteractionResult

log = logging.getLogger(__name__)

PAGE_DIR = Path(__file__).resolve().parent.parent / "activity" / "dist"  # the page's build (activity/)
FORWARDED = ("Authorization", "Content-Type", "Accept-Language")  # request headers the proxy passes on
PROXY_TIMEOUT = 15.0
NOT_BUILT = (
    "The Activity's page is not built: run `make activity` (npm builds activity/ into activity/dist/), then reload."
)


def listening_socket(host: str = "127.0.0.1") -> socket.socket:
    """A socket listening on a free loopback port, for a bot process's Activity server: the sandbox holds it and
    hands it down (HEXPLAY_ACTIVITY_FD). A port found free and given by number could be taken by any other process
    (an outgoing connection's own port too) before the bot listened on it, and the bot then exited at start-up."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((host, 0))
        sock.listen(socket.SOMAXCONN)
    except OSError:
        sock.close()
        raise
    return sock


def handed_down(sock: socket.socket) -> dict[str, str]:
    """The bot's environment for serving the Activity on ``sock`` (passed with ``pass_fds=(sock.fileno(),)``)."""
    return {"HEXPLAY_ACTIVITY_PORT": str(sock.getsockname()[1]), "HEXPLAY_ACTIVITY_FD": str(sock.fileno())}


def activity_json(result: InteractionResult) -> dict[str, Any] | None:
    """What the sandbox page needs to open the frame after a LAUNCH_ACTIVITY answer (None: none launched)."""
    instance = result.activity
    if instance is None:
        return None
    return {
        "instance_id": instance.id,
        "channel_id": str(instance.channel_id),
        "guild_id": str(instance.guild_id) if instance.guild_id else None,
    }


class ActivityFace:
    """The sandbox's Activity routes; ``ports()`` are the bot processes' Activity servers (any one answers)."""

    def __init__(self, emu: DiscordEmulator, ports: Callable[[], list[int]], page_dir: Path = PAGE_DIR) -> None:
        self.emu = emu
        self.ports = ports
        self.page_dir = page_dir
        self._session: aiohttp.ClientSession | None = None

    def routes(self) -> list[web.AbstractRouteDef]:
        proxy = "/{prefix:(?:activity/)?}.proxy/api/activity/{tail:.*}"
        return [
            web.get("/activity", self.to_page),
            web.get("/activity/", self.page),
            web.route("*", proxy, self.proxy),
            web.get("/activity/{file:[^.].*}", self.page),
            web.post("/api/activity/authorize", self.authorize),
            web.post("/api/activity/authenticate", self.authenticate),
        ]

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=PROXY_TIMEOUT))
        return self._session

    # -- the page -----------------------------------------------------------------------------------

    async def to_page(self, request: web.Request) -> web.Response:
        raise web.HTTPFound("/activity/" + (f"?{request.query_string}" if request.query_string else ""))

    async def page(self, request: web.Request) -> web.StreamResponse:
        if not (self.page_dir / "index.html").is_file():
            return web.Response(status=404, text=NOT_BUILT)
        name = request.match_info.get("file") or "index.html"
        path = (self.page_dir / name).resolve()
        if self.page_dir.resolve() not in path.parents or not path.is_file():
            raise web.HTTPNotFound(text=f"the Activity's page has no {name}")
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return web.Response(body=path.read_bytes(), content_type=kind, headers={"Cache-Control": "no-cache"})

    # -- the Discord client's part of the sign-in ---------------------------------------------------

    async def _json(self, request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            raise web.HTTPBadRequest(text="expected JSON") from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="expected a JSON object")
        return body

    async def authorize(self, request: web.Request) -> web.Response:
        """The client's AUTHORIZE: a code for a sandbox user (the page's frame says which)."""
        body = await self._json(request)
        name = str(body.get("user", "")).lower()
        user = next((u for u in self.emu.store.users.values() if u.name == name and not u.bot), None)
        if user is None:
            raise web.HTTPNotFound(text=f"no sandbox user {name!r}")
        scopes = body.get("scope") or ["identify"]
        if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):
            raise web.HTTPBadRequest(text="scope must be a list of scopes")
        try:
            code = self.emu.oauth.authorize(user, str(body.get("client_id", "")), scopes)
        except EmulatorError as error:
            return web.json_response({"error": str(error)}, status=400)
        return web.json_response({"code": code})

    async def authenticate(self, request: web.Request) -> web.Response:
        """The client's AUTHENTICATE: the token's user and scopes, as Discord's client answers the page."""
        body = await self._json(request)
        token = body.get("access_token")
        try:
            granted = self.emu.oauth.authenticate(token if isinstance(token, str) else "")
        except ApiError:
            return web.json_response({"error": "Invalid access token"}, status=401)
        store = self.emu.store
        user = store.users[granted.user_id]
        expires = dt.datetime.fromtimestamp(granted.expires_at, dt.UTC).isoformat()
        application = {"id": str(store.application_id), "name": store.bot.name, "description": "", "icon": None}
        return web.json_response(
            {
                "access_token": token,
                "user": store.user_payload(user),
                "scopes": list(granted.scopes),
                "expires": expires,
                "application": application,
            }
        )

    # -- the proxy ----------------------------------------------------------------------------------

    async def proxy(self, request: web.Request) -> web.StreamResponse:
        path = "/api/activity/" + request.match_info["tail"]
        ports = self.ports()
        if not ports:
            return web.json_response({"error": "unavailable", "reason": "The bot is not running."}, status=503)
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._proxy_socket(request, ports, path)
        headers = {k: v for k, v in request.headers.items() if k in FORWARDED}
        body = await request.read() if request.can_read_body else None
        for port in ports:  # any bot process answers any request (several on PostgreSQL)
            url = f"http://127.0.0.1:{port}{path}"
            try:
                async with self.session().request(
                    request.method, url, params=request.query, headers=headers, data=body
                ) as answer:
                    content = await answer.read()
                    kept = {k: v for k, v in answer.headers.items() if k in ("Content-Type", "Cache-Control")}
                    return web.Response(status=answer.status, body=content, headers=kept)
            except (aiohttp.ClientConnectionError, TimeoutError) as error:
                log.info("the bot's Activity server on %s did not answer (%r)", port, error)
        return web.json_response({"error": "unavailable", "reason": "The bot did not answer; try again."}, status=503)

    async def _proxy_socket(self, request: web.Request, ports: list[int], path: str) -> web.StreamResponse:
        page = web.WebSocketResponse()
        await page.prepare(request)
        upstream: aiohttp.ClientWebSocketResponse | None = None
        for port in ports:
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                upstream = await self.session().ws_connect(f"ws://127.0.0.1:{port}{path}", params=request.query)
                break
        if upstream is None:
            await page.close(code=1013, message=b"the bot is not running")
            return page

        async def pump(source: Any, target: Any) -> None:
            async for message in source:
                if message.type == WSMsgType.TEXT:
                    await target.send_str(message.data)
                elif message.type == WSMsgType.BINARY:
                    await target.send_bytes(message.data)
                else:
                    break

        up = asyncio.ensure_future(pump(page, upstream))
        down = asyncio.ensure_future(pump(upstream, page))
        await asyncio.wait({up, down}, return_when=asyncio.FIRST_COMPLETED)
        for task in (up, down):
            task.cancel()
        code = upstream.close_code or 1000
        await upstream.close()
        await page.close(code=code, message=b"")
        return page
