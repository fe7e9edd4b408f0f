"""The Activity's web server: its page, its JSON API and its live updates, on the bot process's own event loop
(aiohttp). docs/activity.md is the contract with the page.

Every request is JSON; every answer is JSON with ``Cache-Control: no-store``. A request is checked in this
order, and stops at the first "no" with nothing read or stored: the token (401), the user's pace (429), the
body (400), the match and who may see it (404, 403), then the service's own rules (409, 422, 423).
"""

from __future__ import annotations

import asyncio
import json
import logging
import mimetypes
from collections.abc import Awaitable, Callable
from pathlib import Path
from socket import AF_INET, AF_INET6, SO_ACCEPTCONN, SOCK_STREAM, SOL_SOCKET
from socket import socket as Socket
from typing import Any

from aiohttp import WSMsgType, web

from i18n import DEFAULT, LANGUAGES, speaking, t, use

from ..chat.words import activity as words
from ..domain.errors import (
    BuilderExpired,
    CannotListen,
    MatchPaused,
    Refusal,
    StalePosition,
    StorageFull,
    StoreUnavailable,
)
from . import views
from .access import Access
from .identity import BadCode, DiscordUnavailable, Identity, Unauthorized
from .live import LiveHub

log = logging.getLogger(__name__)

API = "/api/activity"
BODY_LIMIT = 16 * 1024  # bytes: the largest body this API takes (a turn of 16 actions is far smaller)
SHUTDOWN_SECONDS = 2.0
PING_SECONDS = 25.0
HELLO_SECONDS = 10.0  # a WebSocket must send its token this soon
COMPRESS_FROM = 2048  # bytes: larger answers are compressed when the page accepts it (gzip, deflate)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# Refusals of the service that are not the game's "no": the status the page acts on.
STATUSES = {
    "no_match": (404, "no_match"),
    "no_match_here": (404, "no_match"),
    "not_a_player": (403, "not_a_player"),
    "not_started": (409, "not_started"),
    "old_button": (409, "changed"),
    "changed_meanwhile": (409, "changed"),
    "builder_expired": (409, "changed"),
    "paused": (423, "paused"),
    "storage_down": (503, "unavailable"),
    "storage_unknown": (503, "unavailable"),
    "disk_full": (503, "unavailable"),
}


class Refused(Exception):
    """An answer other than 200: its status, its ``error`` and its sentence."""

    def __init__(self, status: int, error: str, reason: str, **extra: Any) -> None:
        super().__init__(f"{status} {error}: {reason}")
        self.status, self.error, self.reason, self.extra = status, error, reason, extra


def answer(data: Any, status: int = 200) -> web.Response:
    response = web.Response(status=status, body=json.dumps(data).encode(), content_type="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


class ActivityServer:
    """``HEXPLAY_ACTIVITY_PORT``'s server: a background duty of the bot (``run_forever`` / ``stop``)."""

    def __init__(
        self,
        access: Access,
        hub: LiveHub,
        *,
        host: str,
        port: int,
        page_dir: Path | None,
        inherited_fd: int | None = None,
    ) -> None:
        self.access, self.hub = access, hub
        self.host, self.wanted_port = host, port
        self.inherited_fd = inherited_fd  # HEXPLAY_ACTIVITY_FD: a listening socket handed down, served as it is
        self.page_dir = page_dir
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._starting = asyncio.Lock()
        self._stopped = asyncio.Event()
        self._sockets: set[web.WebSocketResponse] = set()

    # -- lifecycle ------------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._answers], client_max_size=BODY_LIMIT)
        app.router.add_get(f"{API}/config", self.config)
        app.router.add_post(f"{API}/token", self.token)
        app.router.add_get(f"{API}/me", self.me)
        app.router.add_get(API + "/matches/{match_id}", self.match)
        app.router.add_post(API + "/matches/{match_id}/turn", self.turn)
        app.router.add_post(API + "/matches/{match_id}/play", self.play)
        app.router.add_post(API + "/matches/{match_id}/resign", self.resign)
        app.router.add_post(API + "/matches/{match_id}/offer", self.offer)
        app.router.add_get(API + "/matches/{match_id}/live", self.live)
        app.router.add_get("/", self.page)
        app.router.add_get("/{file:[^/].*}", self.page)
        return app

    async def start(self) -> int:
        async with self._starting:
            if self._runner is None and not self._stopped.is_set():
                runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
                await runner.setup()
                try:
                    await self._site(runner).start()
                except OSError as error:
                    await runner.cleanup()
                    raise CannotListen(
                        f"HEXPLAY_ACTIVITY_PORT {self.wanted_port}: cannot listen on {self.host}:{self.wanted_port} "
                        f"({error.strerror or error})"
                    ) from None
                except CannotListen:
                    await runner.cleanup()
                    raise
                self._runner = runner
                self.port = int(runner.addresses[0][1])
                log.info("the Activity's server at http://%s:%d/", self.host, self.port)
        if self.port is None:
            raise CannotListen("the Activity's server was stopped before it listened")
        return self.port

    def _site(self, runner: web.AppRunner) -> web.BaseSite:
        """Where to serve: the port, or the listening socket handed down (HEXPLAY_ACTIVITY_FD)."""
        if self.inherited_fd is None:
            return web.TCPSite(runner, self.host, self.wanted_port)
        fd = self.inherited_fd
        try:
            sock = Socket(fileno=fd)
        except OSError as error:
            raise CannotListen(f"HEXPLAY_ACTIVITY_FD {fd} is not a socket ({error.strerror or error})") from None
        tcp = sock.family in (AF_INET, AF_INET6) and sock.type == SOCK_STREAM
        if not tcp or not sock.getsockopt(SOL_SOCKET, SO_ACCEPTCONN):
            sock.detach()  # not ours to close
            raise CannotListen(f"HEXPLAY_ACTIVITY_FD {fd} is not a listening TCP socket")
        port = int(sock.getsockname()[1])
        if self.wanted_port not in (0, port):
            sock.detach()
            raise CannotListen(
                f"HEXPLAY_ACTIVITY_FD {fd} listens on port {port}, not HEXPLAY_ACTIVITY_PORT {self.wanted_port}"
            )
        return web.SockSite(runner, sock)

    async def run_forever(self) -> None:
        await self.start()
        await asyncio.gather(self.hub.run_forever(), self._stopped.wait())

    async def stop(self, grace: float) -> None:
        self._stopped.set()
        await self.hub.stop(grace)
        for socket in list(self._sockets):
            await socket.close(code=1001, message=b"the bot is stopping")
        await self.access.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- every answer -----------------------------------------------------------------------------------

    @web.middleware
    async def _answers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        # The page's language until the user is known (_who then speaks theirs): every sentence below is said in it.
        with speaking(_accepted(request.headers.get("Accept-Language"))):
            return await self._answer(request, handler)

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            if request.method == "POST" and request.content_type != "application/json":
                raise Refused(415, "bad_request", t("The body must be JSON (Content-Type: application/json)."))
            response = await handler(request)
            body = response.body if isinstance(response, web.Response) else None
            if isinstance(body, (bytes, bytearray)) and len(body) > COMPRESS_FROM:
                response.enable_compression()  # a board's first view (Begird: ~100 KB) is ~6 times smaller
            return response
        except Refused as refused:  # (its sentence was said in the user's language, or the page's before that)
            return answer({"error": refused.error, "reason": refused.reason, **refused.extra}, refused.status)
        except Unauthorized:
            return answer({"error": "reopen", "reason": words.activity_reopen()}, 401)
        except web.HTTPRequestEntityTooLarge:
            return answer(
                {"error": "bad_request", "reason": t("The body is larger than {size} bytes.", size=BODY_LIMIT)}, 413
            )
        except web.HTTPException:
            raise
        except (DiscordUnavailable, StoreUnavailable, StorageFull) as error:
            log.warning("Activity request %s %s: %s", request.method, request.path, error)
            return answer({"error": "unavailable", "reason": words.activity_unavailable()}, 503)
        except Exception:
            log.exception("Activity request %s %s failed", request.method, request.path)
            return answer({"error": "unavailable", "reason": words.activity_failed()}, 503)

    async def _who(self, request: web.Request) -> tuple[Identity, str]:
        """The user behind the request's token and the language they read, after their pace is checked."""
        header = request.headers.get("Authorization", "")
        token = header[len("Bearer ") :].strip() if header.startswith("Bearer ") else None
        identity = await self.access.identities.of(token)
        wait = self.access.pace.take(identity.user_id)
        language = await self.access.language(identity)
        use(language)  # for the rest of this request (the middleware's speaking() ends it)
        if wait:
            raise Refused(429, "slow_down", words.activity_slow_down(), retry_after=round(wait, 2))
        return identity, language

    def _refusal(self, error: Refusal) -> Refused:
        status, code = STATUSES.get(error.reason, (422, error.reason))
        if isinstance(error, (StalePosition, BuilderExpired)):
            status, code = 409, "changed"
        if isinstance(error, MatchPaused):
            status, code = 423, "paused"
        return Refused(status, code, views.refusal(error))

    async def _body(self, request: web.Request, fields: dict[str, type]) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            raise Refused(400, "bad_request", t("The body is not JSON.")) from None
        if not isinstance(body, dict):
            raise Refused(400, "bad_request", t("The body must be a JSON object."))
        for name, kind in fields.items():
            if (
                name in body
                and body[name] is not None
                and (isinstance(body[name], bool) or not isinstance(body[name], kind))
            ):
                raise Refused(400, "bad_request", t("{field} must be a {kind}.", field=name, kind=kind.__name__))
        return body

    @staticmethod
    def _match_id(request: web.Request) -> int:
        raw = request.match_info["match_id"]
        if not raw.isdigit() or len(raw) > 18:
            raise Refused(404, "no_match", t("There is no match #{match_id}.", match_id=raw[:20]))
        return int(raw)

    # -- the routes -------------------------------------------------------------------------------------

    async def config(self, request: web.Request) -> web.Response:
        client_id = self.access.client_id()
        if client_id is None:
            raise Refused(503, "unavailable", words.activity_starting())
        return answer({"client_id": str(client_id), "scopes": ["identify"], "languages": list(LANGUAGES)})

    async def token(self, request: web.Request) -> web.Response:
        body = await self._body(request, {"code": str})
        code = body.get("code")
        if not isinstance(code, str) or not 1 <= len(code) <= 512:
            raise Refused(400, "bad_request", t("code must be the code Discord gave the page."))
        try:
            granted, identity = await self.access.exchange(code)
        except BadCode:
            raise Refused(400, "bad_code", words.activity_bad_code()) from None
        language = await self.access.language(identity)
        return answer(
            {
                "access_token": granted["access_token"],
                "expires_in": granted.get("expires_in"),
                "scope": granted.get("scope"),
                "user": {"id": str(identity.user_id), "name": identity.name},
                "language": language,
            }
        )

    async def me(self, request: web.Request) -> web.Response:
        identity, language = await self._who(request)
        query = request.query
        guild_id = _snowflake(query.get("guild_id"))
        with speaking(language):
            matches = await self.access.matches_of(identity.user_id, guild_id)
            launched = await self.access.launched(
                identity.user_id, query.get("instance_id"), _snowflake(query.get("channel_id")), matches
            )
            return answer(
                {
                    "user": {"id": str(identity.user_id), "name": identity.name},
                    "language": language,
                    "launched": launched,
                    "matches": [views.summary(m, identity.user_id) for m in matches],
                }
            )

    async def match(self, request: web.Request) -> web.Response:
        identity, language = await self._who(request)
        match_id = self._match_id(request)
        ply = request.query.get("ply")
        if ply is not None and (not ply.isdigit() or len(ply) > 6):
            raise Refused(400, "bad_request", t("ply must be a whole number."))
        with speaking(language):
            try:
                await self.access.may_see(match_id, identity.user_id)
                position = await self.access.service.position_at(match_id, int(ply) if ply is not None else None)
                offers = await self.access.offers.open_offers(match_id)
            except Refusal as error:
                raise self._refusal(error) from None
            return answer(views.match_view(position, identity.user_id, offers, request.query.get("have")))

    async def turn(self, request: web.Request) -> web.Response:
        identity, language = await self._who(request)
        match_id = self._match_id(request)
        body = await self._body(request, {"version": int, "actions": list, "have": str})
        version, actions = _turn_body(body)
        with speaking(language):
            try:
                await self.access.may_see(match_id, identity.user_id)
                match, state, legal = await self.access.service.tapped(match_id, identity.user_id, version, actions, t)
            except Refusal as error:
                raise self._refusal(error) from None
            return answer(views.built_turn(match, state, legal, body.get("have")))

    async def play(self, request: web.Request) -> web.Response:
        identity, language = await self._who(request)
        match_id = self._match_id(request)
        body = await self._body(request, {"version": int, "actions": list, "have": str})
        version, actions = _turn_body(body)
        if not actions:
            raise Refused(400, "bad_request", t("actions must list the turn's actions."))
        with speaking(language):
            try:
                seen = await self.access.may_see(match_id, identity.user_id)
                outcome = await self.access.play(match_id, identity.user_id, version, actions, seen)
                position = await self.access.service.position_at(match_id)
            except Refusal as error:
                raise self._refusal(error) from None
            played = next((c.notation for c in reversed(outcome.changes) if c.kind == "turn"), ",".join(actions))
            view = views.match_view(position, identity.user_id, [], body.get("have"))
            return answer({"played": played, "done": played, "version": outcome.match.version, "view": view})

    async def resign(self, request: web.Request) -> web.Response:
        identity, language = await self._who(request)
        match_id = self._match_id(request)
        body = await self._body(request, {"version": int, "have": str})
        with speaking(language):
            try:
                await self.access.may_see(match_id, identity.user_id)
                outcome = await self.access.resign(match_id, identity.user_id, _version(body))
                position = await self.access.service.position_at(match_id)
            except Refusal as error:
                raise self._refusal(error) from None
            view = views.match_view(position, identity.user_id, [], body.get("have"))
            return answer({"done": "resign", "version": outcome.match.version, "view": view})

    async def offer(self, request: web.Request) -> web.Response:
        identity, language = await self._who(request)
        match_id = self._match_id(request)
        body = await self._body(request, {"version": int, "kind": str, "answer": str, "have": str})
        kind, reply = body.get("kind"), body.get("answer")
        if kind not in ("draw", "undo") or reply not in (None, "accept", "decline"):
            raise Refused(400, "bad_request", t('kind must be "draw" or "undo"; answer "accept" or "decline".'))
        with speaking(language):
            try:
                await self.access.may_see(match_id, identity.user_id)
                done = await self.access.offer(match_id, identity.user_id, _version(body), kind, reply)
                position = await self.access.service.position_at(match_id)
                offers = await self.access.offers.open_offers(match_id)
            except Refusal as error:
                raise self._refusal(error) from None
            view = views.match_view(position, identity.user_id, offers, body.get("have"))
            return answer({"done": done, "version": position.match.version, "view": view})

    # -- live updates -------------------------------------------------------------------------------------

    async def live(self, request: web.Request) -> web.StreamResponse:
        match_id = self._match_id(request)
        socket = web.WebSocketResponse(heartbeat=PING_SECONDS, max_msg_size=4096)
        await socket.prepare(request)
        self._sockets.add(socket)
        try:
            await self._serve_live(socket, match_id)
        finally:
            self._sockets.discard(socket)
        return socket

    async def _serve_live(self, socket: web.WebSocketResponse, match_id: int) -> None:
        try:
            first = await socket.receive(timeout=HELLO_SECONDS)
            token = json.loads(first.data).get("token") if first.type == WSMsgType.TEXT else None
            identity = await self.access.identities.of(token if isinstance(token, str) else None)
        except (TimeoutError, ValueError, AttributeError, Unauthorized):
            await socket.close(code=4401, message=b"reopen")
            return
        try:
            match = await self.access.may_see(match_id, identity.user_id)
        except Refusal:
            await socket.close(code=4403, message=b"not allowed")
            return
        except Exception as error:  # Discord or the database did not answer: the page opens it again later
            log.warning("Activity live view of match %s: %r", match_id, error)
            await socket.close(code=1011, message=b"unavailable")
            return
        watcher = self.hub.watch(match_id, match.version)
        if watcher is None:
            await socket.close(code=1013, message=b"busy: look again later")
            return
        try:
            await socket.send_json({"type": "hello", "version": match.version})
            reading = asyncio.ensure_future(socket.receive())
            while not socket.closed:
                told = asyncio.ensure_future(watcher.queue.get())
                done, _ = await asyncio.wait({reading, told}, timeout=PING_SECONDS, return_when=asyncio.FIRST_COMPLETED)
                if told in done:
                    await socket.send_json({"type": "changed", "version": told.result()})
                else:
                    told.cancel()
                if reading in done:
                    if reading.result().type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR):
                        break
                    reading = asyncio.ensure_future(socket.receive())
                elif not done:
                    await socket.send_json({"type": "ping"})
            reading.cancel()
        except (ConnectionError, RuntimeError):  # the page went away mid-send
            pass
        finally:
            self.hub.leave(watcher)

    # -- the page -------------------------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        if self.page_dir is None or not (self.page_dir / "index.html").is_file():
            raise Refused(404, "no_page", words.activity_not_built())
        name = request.match_info.get("file") or "index.html"
        path = (self.page_dir / name).resolve()
        if self.page_dir.resolve() not in path.parents or not path.is_file():
            raise Refused(404, "no_page", t("No such file."))
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        response = web.Response(body=path.read_bytes(), content_type=kind)
        response.headers["Cache-Control"] = "no-cache" if name == "index.html" else "public, max-age=3600"
        return response


def _turn_body(body: dict[str, Any]) -> tuple[int, list[str]]:
    actions = body.get("actions", [])
    if (
        not isinstance(actions, list)
        or len(actions) > 16
        or not all(isinstance(a, str) and 0 < len(a) <= 40 for a in actions)
    ):
        raise Refused(400, "bad_request", t("actions must be a list of at most {count} actions in notation.", count=16))
    return _version(body), [a.strip() for a in actions]


def _version(body: dict[str, Any]) -> int:
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 2**53:
        raise Refused(400, "bad_request", t("version must be the match's version (a whole number)."))
    return version


def _snowflake(raw: str | None) -> int | None:
    return int(raw) if raw is not None and raw.isdigit() and len(raw) <= 20 and int(raw) < 2**64 else None


def _accepted(header: str | None) -> str:
    """The first language of an ``Accept-Language`` header Hexplay speaks (before the user is known)."""
    for part in (header or "").split(","):
        tag = part.split(";")[0].strip().replace("_", "-").split("-")[0].lower()
        if tag in LANGUAGES:
            return tag
    return DEFAULT
