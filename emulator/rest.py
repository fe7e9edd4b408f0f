"""The REST slice of Discord's API under ``/api/v10``, plus uploaded files under ``/attachments``.

Every response is ``Content-Type: application/json`` exactly (discord.py compares the header
string), and nothing ever answers 5xx (discord.py would retry with sleeps). Unknown routes
answer 404 and are recorded as ``unimplemented: METHOD PATH`` violations.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from . import commandlimits, limits
from .activities import (
    PRIMARY_ENTRY_POINT,
    Activities,
    OAuth2,
    OAuthError,
    check_entry_points,
    check_keeps_entry_point,
    refuse_second_entry_point,
)
from .archiving import unarchive
from .errors import ApiError, FormErrors, missing_permissions, unknown_guild, unknown_message, unknown_user
from .gateway import GUILDS, Gateway
from .host import Host
from .interactions import InteractionService
from .messaging import create_message, edit_message, enforced_nonce_duplicate, read_body
from .models import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    Channel,
    Message,
    User,
)
from .ratelimits import RATE_LIMITED_MESSAGE, Decision, RateLimiter, RateLimitHit
from .sharding import SessionStarts, ShardingRules

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


class RestHost(Host, Protocol):
    """What the REST API needs from the emulator beyond :class:`~emulator.host.Host`."""

    app_owner: User | None
    requests: list[tuple[str, str]]  # every (method, path) the bot asked for
    rate_limiter: RateLimiter
    rate_limit_hits: list[RateLimitHit]
    gateway: Gateway
    interactions: InteractionService
    session_starts: SessionStarts
    oauth: OAuth2
    activities: Activities

    @property
    def sharding(self) -> ShardingRules: ...

    def _record_rejection(self, method: str, path: str, error: ApiError) -> None: ...


class RestApi:
    def __init__(self, emulator: RestHost) -> None:
        self.emu = emulator
        self.store = emulator.store

    # -------------------------------------------------------------- plumbing

    def install(self, app: web.Application) -> None:
        routes: list[tuple[str, str, Handler, bool]] = [
            ("GET", "/users/@me", self.get_me, False),  # the bot's token, or a user's Bearer token
            ("POST", "/users/@me/channels", self.create_dm, True),
            ("GET", "/users/{user_id}", self.get_user, True),
            ("GET", "/oauth2/applications/@me", self.get_application, True),
            ("GET", "/applications/@me", self.get_application, True),
            ("GET", "/gateway", self.get_gateway, False),
            ("GET", "/gateway/bot", self.get_gateway_bot, True),
            ("GET", "/applications/{app}/commands", self.get_global_commands, True),
            ("PUT", "/applications/{app}/commands", self.put_global_commands, True),
            ("POST", "/applications/{app}/commands", self.post_global_command, True),
            ("GET", "/applications/{app}/activity-instances/{instance_id}", self.get_activity_instance, True),
            ("POST", "/oauth2/token", self.oauth2_token, False),  # authenticated by the client id and secret
            ("GET", "/applications/{app}/guilds/{guild_id}/commands", self.get_guild_commands, True),
            ("PUT", "/applications/{app}/guilds/{guild_id}/commands", self.put_guild_commands, True),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback, False),
            ("POST", "/webhooks/{app}/{token}", self.execute_webhook, False),
            ("GET", "/webhooks/{app}/{token}/messages/{message_id}", self.get_webhook_message, False),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message_id}", self.edit_webhook_message, False),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message_id}", self.delete_webhook_message, False),
            ("GET", "/channels/{channel_id}", self.get_channel, True),
            ("PATCH", "/channels/{channel_id}", self.edit_channel, True),
            ("DELETE", "/channels/{channel_id}", self.delete_channel, True),
            ("GET", "/channels/{channel_id}/messages", self.get_messages, True),
            ("POST", "/channels/{channel_id}/messages", self.post_message, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_channel_message, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message, True),
            ("POST", "/channels/{channel_id}/threads", self.create_thread, True),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread_from_message, True),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member, True),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.remove_thread_member, True),
            ("POST", "/channels/{channel_id}/typing", self.typing, True),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member, True),
        ]
        for method, path, handler, needs_auth in routes:
            app.router.add_route(method, API_PREFIX + path, self._authenticated(handler) if needs_auth else handler)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self.get_attachment)

    def install_fallback(self, app: web.Application) -> None:
        """Must be added after every other route."""
        app.router.add_route("*", "/{tail:.*}", self.unimplemented)

    def _authenticated(self, handler: Handler) -> Handler:
        async def checked(request: web.Request) -> web.StreamResponse:
            if request.headers.get("Authorization") != f"Bot {self.emu.bot_token}":
                raise ApiError(401, 0, "401: Unauthorized")
            return await handler(request)

        return checked

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else request.path
        self.emu.requests.append((request.method, path))
        decision = self._rate_limit(request, path)
        hit = decision.hit
        if decision.refusal is not None and hit is not None:
            self.emu.rate_limit_hits.append(hit)
            error = ApiError(429, 0, f"{RATE_LIMITED_MESSAGE} ({hit.scope}: {hit.bucket})", violation=False)
            self.emu._record_rejection(request.method, path, error)
            response: web.StreamResponse = json_response(decision.refusal, 429)
        else:
            response = await self._handle(request, handler, path)
        if not response.prepared:  # (a websocket was answered long ago)
            response.headers.update(decision.headers)
            # Discord's responses come through Google's load balancer; discord.py treats a 429
            # *without* a Via header as a Cloudflare ban and gives up instead of retrying.
            response.headers["Via"] = "1.1 google"
        return response

    async def _handle(self, request: web.Request, handler: Handler, path: str) -> web.StreamResponse:
        try:
            return await handler(request)
        except ApiError as error:
            self.emu._record_rejection(request.method, path, error)
            return json_response(error.body(), error.status)
        except web.HTTPException:
            raise
        except Exception as exc:  # an emulator bug must not look like a Discord outage (no 5xx)
            log.exception("emulator error on %s %s", request.method, path)
            internal = ApiError(400, 0, f"emulator internal error: {exc!r}")
            self.emu._record_rejection(request.method, path, internal)
            return json_response(internal.body(), 400)

    def _rate_limit(self, request: web.Request, path: str) -> Decision:
        """Count the request against Discord's rate limits (API routes the emulator implements)."""
        resource = request.match_info.route.resource
        template = resource.canonical if resource is not None else ""
        if not template.startswith(API_PREFIX) or "{tail" in template:
            return Decision({})
        bot = request.headers.get("Authorization") == f"Bot {self.emu.bot_token}"
        params = dict(request.match_info)
        return self.emu.rate_limiter.check(request.method, template[len(API_PREFIX) :], path, params, bot=bot)

    async def unimplemented(self, request: web.Request) -> web.Response:
        path = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else request.path
        self.emu.violations.append(f"unimplemented: {request.method} {path}")
        message = f"404: Not Found (the emulator does not implement {request.method} {path})"
        return json_response({"code": 0, "message": message}, 404)

    def _app_id(self, request: web.Request) -> None:
        if request.match_info["app"] != str(self.store.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    def _channel(self, request: web.Request) -> Channel:
        return self.store.channel(request.match_info["channel_id"])

    def _message(self, request: web.Request) -> Message:
        return self.store.message(request.match_info["channel_id"], request.match_info["message_id"])

    # --------------------------------------------------------- users & app

    async def get_me(self, request: web.Request) -> web.Response:
        store = self.store
        authorization = request.headers.get("Authorization")
        if authorization is not None and authorization.startswith("Bearer "):
            # A user's OAuth2 token (an Activity's server asking who its user is): "identify" needed.
            user = store.users[self.emu.oauth.bearer(authorization).user_id]
            return json_response({**store.user_payload(user), "locale": user.locale, "mfa_enabled": False})
        if authorization != f"Bot {self.emu.bot_token}":
            raise ApiError(401, 0, "401: Unauthorized")
        return json_response({**store.user_payload(store.bot), "verified": True, "mfa_enabled": False, "email": None})

    async def oauth2_token(self, request: web.Request) -> web.Response:
        """developers/topics/oauth2.mdx "Authorization Code Grant": a form-encoded exchange of a code."""
        path = request.path[len(API_PREFIX) :]
        try:
            if request.content_type != "application/x-www-form-urlencoded":
                raise OAuthError(400, "invalid_request", "The body must be application/x-www-form-urlencoded.")
            form = {key: str(value) for key, value in (await request.post()).items()}
            answer = self.emu.oauth.exchange(form, request.headers.get("Authorization"))
        except OAuthError as error:
            # A stale or forged code is the user's (the server must expect it); the rest is the caller's fault.
            refused = ApiError(
                error.status, 0, f"{error.error}: {error.description}", violation=error.error != "invalid_grant"
            )
            self.emu._record_rejection(request.method, path, refused)
            return json_response(error.body(), error.status)
        return json_response(answer)

    async def get_user(self, request: web.Request) -> web.Response:
        user_id = request.match_info["user_id"]
        user = self.store.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise unknown_user()
        return json_response(self.store.user_payload(user))

    async def get_application(self, request: web.Request) -> web.Response:
        store = self.store
        owner = self.emu.app_owner
        owner_payload = (
            store.user_payload(owner)
            if owner
            else {
                "id": str(store.application_id + 1),
                "username": "emulator-owner",
                "discriminator": "0",
                "avatar": None,
            }
        )
        return json_response(
            {
                "id": str(store.application_id),
                "name": store.bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner_payload,
                "team": None,
                "verify_key": "0" * 64,
                "flags": store.application_flags,
                "summary": "",
                "interactions_endpoint_url": None,
                "bot": store.user_payload(store.bot),
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.emu.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        shards = self.emu.sharding.recommended(len(self.store.guilds))
        limit = self.emu.session_starts.limit_payload()
        return json_response({"url": self.emu.gateway_url, "shards": shards, "session_start_limit": limit})

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        errors = FormErrors()
        if errors.mapping([], body) and body.get("recipient_id") is None:
            errors.required(["recipient_id"])
        errors.raise_if_any()
        recipient = str(body["recipient_id"])
        user = self.store.users.get(int(recipient)) if recipient.isdigit() else None
        if user is None:
            raise unknown_user()
        return json_response(self.store.channel_payload(self.store.dm_channel_for(user)))

    # ------------------------------------------------------------- commands

    async def get_global_commands(self, request: web.Request) -> web.Response:
        self._app_id(request)
        return json_response(self.store.global_commands)

    async def put_global_commands(self, request: web.Request) -> web.Response:
        self._app_id(request)
        return json_response(await self._replace_commands(request, None))

    async def post_global_command(self, request: web.Request) -> web.Response:
        """Create one global command, or overwrite the one of the same type and name (201 / 200)."""
        self._app_id(request)
        body, _ = await read_body(request)
        errors = FormErrors()
        commandlimits.check_commands([body], errors)
        check_entry_points([body], errors, embedded=self.emu.activities.enabled, guild=False)
        errors.raise_if_any()
        existing = self.store.global_commands
        kind = body.get("type") or 1
        same = next((c for c in existing if c["type"] == kind and c["name"] == body.get("name")), None)
        if kind == PRIMARY_ENTRY_POINT and same is None and any(c["type"] == kind for c in existing):
            refuse_second_entry_point()
        kept = [c for c in existing if c is not same]
        stored = self.store.replace_commands(None, [*kept, body])
        return json_response(stored[-1], status=200 if same is not None else 201)

    async def get_activity_instance(self, request: web.Request) -> web.Response:
        self._app_id(request)
        instance = self.emu.activities.instances.get(request.match_info["instance_id"])
        if instance is None or instance.ended:
            raise ApiError(404, 10070, "Unknown Activity Instance")  # the inner code is the emulator's own
        return json_response(self.emu.activities.payload(instance, self.store.application_id))

    def _guild_id(self, request: web.Request) -> int:
        raw = request.match_info["guild_id"]
        if not raw.isdigit() or int(raw) not in self.store.guilds:
            raise unknown_guild()
        return int(raw)

    async def get_guild_commands(self, request: web.Request) -> web.Response:
        self._app_id(request)
        return json_response(self.store.guild_commands.get(self._guild_id(request), []))

    async def put_guild_commands(self, request: web.Request) -> web.Response:
        self._app_id(request)
        return json_response(await self._replace_commands(request, self._guild_id(request)))

    async def _replace_commands(self, request: web.Request, guild_id: int | None) -> list[dict[str, Any]]:
        body, _ = await read_body(request)
        errors = FormErrors()
        commandlimits.check_commands(body, errors)
        check_entry_points(body, errors, embedded=self.emu.activities.enabled, guild=guild_id is not None)
        errors.raise_if_any()
        if guild_id is None and self.emu.activities.enabled:
            check_keeps_entry_point(self.store.global_commands, body)
        return self.store.replace_commands(guild_id, body)

    # ---------------------------------------------------------- interactions

    async def interaction_callback(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        info = request.match_info
        response = self.emu.interactions.callback(info["interaction_id"], info["token"], body, uploads)
        return json_response(response) if _truthy(request.query.get("with_response")) else no_content()

    async def execute_webhook(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        info = request.match_info
        message = self.emu.interactions.followup(info["app"], info["token"], body, uploads)
        return (
            json_response(self.store.message_payload(message)) if _truthy(request.query.get("wait")) else no_content()
        )

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        info = request.match_info
        message = self.emu.interactions.get(info["app"], info["token"], info["message_id"])
        return json_response(self.store.message_payload(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        info = request.match_info
        message = self.emu.interactions.edit(info["app"], info["token"], info["message_id"], body, uploads)
        return json_response(self.store.message_payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        info = request.match_info
        self.emu.interactions.delete(info["app"], info["token"], info["message_id"])
        return no_content()

    # -------------------------------------------------------------- channels

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self.store.channel_payload(self._channel(request)))

    async def edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        body = body if isinstance(body, dict) else {}
        errors = FormErrors()
        if "name" in body:
            errors.length_between(["name"], body["name"], 1, 100)
        duration = body.get("auto_archive_duration")
        if duration is not None and duration not in limits.AUTO_ARCHIVE_DURATIONS:
            allowed = limits.AUTO_ARCHIVE_DURATIONS
            errors.add(["auto_archive_duration"], "BASE_TYPE_CHOICES", f"Value must be one of {allowed}.")
        errors.raise_if_any()
        if channel.is_dm:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if "name" in body:
            channel.name = body["name"]
        if channel.is_thread:
            if body.get("archived") is not None:
                self.store.set_archived(channel, bool(body["archived"]))
            for key in ("locked", "invitable"):
                if body.get(key) is not None:
                    setattr(channel, key, bool(body[key]))
            if duration is not None:
                channel.auto_archive_duration = duration
        payload = self.store.channel_payload(channel)
        self.emu.gateway.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload, intents=GUILDS)
        self.emu._observe("channel_updated", channel)
        return json_response(payload)

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.is_dm:
            return json_response(self.store.channel_payload(channel))
        channel.deleted = True
        payload = self.store.channel_payload(channel)
        self.emu.gateway.dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", payload, intents=GUILDS)
        self.emu._observe("channel_deleted", channel)
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.store.guilds[self._guild_id(request)]
        channels = [self.store.channels[cid] for cid in guild.channel_ids]
        return json_response([self.store.channel_payload(c) for c in channels if not c.deleted])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.store.guilds[self._guild_id(request)]
        user_id = request.match_info["user_id"]
        if not user_id.isdigit() or int(user_id) not in guild.member_ids:
            # Not a violation: asking is how a bot learns whether someone is a member (an Activity's viewer).
            raise ApiError(404, 10007, "Unknown Member", violation=False)
        return json_response(self.store.member_payload(guild, self.store.users[int(user_id)]))

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()

    # -------------------------------------------------------------- messages

    async def get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = limits.check_history_query(request.query)
        visible = [m for m in self.store.channel_messages[channel.id] if not (m.deleted or m.ephemeral or m.loading)]
        if "before" in request.query:
            visible = [m for m in visible if m.id < int(request.query["before"])]
        if "after" in request.query:
            visible = [m for m in visible if m.id > int(request.query["after"])][:limit]
        if "around" in request.query:
            around = int(request.query["around"])
            older = [m for m in visible if m.id <= around][-(limit // 2 + 1) :]
            visible = older + [m for m in visible if m.id > around][: limit - len(older)]
        newest_first = list(reversed(visible[-limit:]))
        return json_response([self.store.message_payload(m) for m in newest_first])

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self.store.message_payload(self._channel_message(request)))

    def _channel_message(self, request: web.Request) -> Message:
        """A message as the channel endpoints see it: ephemeral answers exist only for their
        interaction (its webhook), so Discord answers 10008 Unknown Message for them here."""
        message = self._message(request)
        if message.ephemeral:
            raise unknown_message()
        return message

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, uploads = await read_body(request)
        self._check_can_send(channel)
        duplicate = enforced_nonce_duplicate(self.store, channel, self.store.bot, body)
        if duplicate is not None:
            return json_response(self.store.message_payload(duplicate))
        message = create_message(self.store, channel, self.store.bot, body, uploads)
        self.emu._message_posted(message)
        return json_response(self.store.message_payload(message))

    def _check_can_send(self, channel: Channel) -> None:
        if channel.is_dm:
            recipient = self.store.users.get(channel.recipient_id or 0)
            if recipient is None or not recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        if channel.is_thread:
            if channel.locked:
                raise ApiError(400, 160005, "Thread is locked")
            if channel.archived:  # sending unarchives a thread that is not locked
                unarchive(self.emu, channel)
            return
        if not self.store.bot_permissions(channel) & SEND_MESSAGES:
            raise missing_permissions()

    async def edit_channel_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author_id != self.store.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body, uploads = await read_body(request)
        edit_message(self.store, message, body, uploads)
        self.emu._message_edited(message)
        return json_response(self.store.message_payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message (ephemeral messages can only be deleted by their interaction)")
        message.deleted = True
        self.emu._message_deleted(message)
        return no_content()

    # --------------------------------------------------------------- threads

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body, _ = await read_body(request)
        body = body if isinstance(body, dict) else {}
        kind = body.get("type") or PRIVATE_THREAD
        if parent.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        limits.check_thread_body(body)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            errors = FormErrors()
            errors.add(["type"], "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
            errors.raise_if_any()
        needed = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        if not self.store.bot_permissions(parent) & needed:
            raise missing_permissions()
        thread = self.store.add_thread(
            parent,
            name=body["name"],
            kind=kind,
            owner_id=self.store.bot.id,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            invitable=body.get("invitable", True) is not False,
        )
        # Discord answers both thread-creating routes with 201 Created (discord-api-spec openapi.json:
        # POST /channels/{channel_id}/threads and .../messages/{message_id}/threads list only '201').
        return json_response(self._announce_thread(thread), status=201)

    async def create_thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        message = self._message(request)
        body, _ = await read_body(request)
        body = body if isinstance(body, dict) else {}
        if parent.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        limits.check_thread_body(body)
        if message.id in self.store.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        if message.ephemeral:
            raise ApiError(400, 50035, "Cannot create a thread from an ephemeral message")
        if not self.store.bot_permissions(parent) & CREATE_PUBLIC_THREADS:
            raise missing_permissions()
        thread = self.store.add_thread(
            parent,
            name=body["name"],
            kind=PUBLIC_THREAD,
            owner_id=self.store.bot.id,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            thread_id=message.id,
        )
        payload = self._announce_thread(thread)
        self.emu._message_edited(message)
        return json_response(payload, status=201)

    def _announce_thread(self, thread: Channel) -> dict[str, Any]:
        payload = self.store.channel_payload(thread)
        member = self.store.thread_member_payload(thread, self.store.bot.id)
        self.emu.gateway.dispatch("THREAD_CREATE", {**payload, "newly_created": True, "member": member}, intents=GUILDS)
        self.emu._observe("channel_created", thread)
        return {**payload, "member": member}

    def _thread_and_user(self, request: web.Request) -> tuple[Channel, int]:
        thread = self._channel(request)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        if raw == "@me":
            return thread, self.store.bot.id
        if not raw.isdigit() or int(raw) not in self.store.users:
            raise unknown_user()
        return thread, int(raw)

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread, user_id = self._thread_and_user(request)
        thread.member_ids.add(user_id)
        return no_content()

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        thread, user_id = self._thread_and_user(request)
        thread.member_ids.discard(user_id)
        return no_content()

    # ----------------------------------------------------------- attachments

    async def get_attachment(self, request: web.Request) -> web.Response:
        raw = request.match_info["attachment_id"]
        attachment = self.store.attachments.get(int(raw)) if raw.isdigit() else None
        if attachment is None or attachment.filename != request.match_info["filename"]:
            raise ApiError(404, 0, "404: Not Found")
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})
