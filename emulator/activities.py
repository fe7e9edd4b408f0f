"""Activities as Discord runs them: OAuth2 codes and tokens for the Embedded App SDK, and the instances
that ``LAUNCH_ACTIVITY`` and the Entry Point command start.

Sources: developers/topics/oauth2.mdx ("Authorization Code Grant", "Access Token Response"),
developers/activities/how-activities-work.mdx and building-an-activity.mdx (the page asks the client to
``authorize`` and gets a code; the app's server exchanges it at ``POST /oauth2/token`` with its client id and
secret; the page then ``authenticate``s with the token), developers/interactions/receiving-and-responding.mdx
(callback type 12 and the ``activity_instance`` resource) and the OpenAPI description (``OAuth2Scopes``,
``LaunchActivityInteractionCallbackResponse``). Token-endpoint errors follow RFC 6749 §5.2, as Discord's do:
``{"error": "invalid_grant", "error_description": …}`` with 400, ``invalid_client`` with 401.
"""

from __future__ import annotations

import base64
import binascii
import secrets
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from .errors import ApiError, EmulatorError
from .models import Channel, User, new_snowflake

EMBEDDED = 1 << 17  # application flag: the app has an Activity ("EMBEDDED" in developers/resources/application)
CODE_LIFETIME = 10 * 60.0  # seconds a code may wait for its exchange (RFC 6749 §4.1.2: "maximum … 10 minutes")
TOKEN_LIFETIME = 604800.0  # seconds, Discord's ``expires_in`` in its access token response example
DEFAULT_REDIRECT = "https://127.0.0.1"  # the placeholder Discord's Activity guide registers

# OpenAPI ``OAuth2Scopes``: a code may ask for these (the rest of Discord's list needs approval).
SCOPES = frozenset(
    {
        "identify",
        "email",
        "connections",
        "guilds",
        "guilds.join",
        "guilds.members.read",
        "gdm.join",
        "rpc",
        "rpc.activities.write",
        "rpc.voice.read",
        "applications.commands",
        "applications.entitlements",
        "role_connections.write",
        "openid",
    }
)


class OAuthError(Exception):
    """An answer of the token endpoint in RFC 6749's shape (not Discord's ``{code, message}``)."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(f"{status} {error}: {description}")
        self.status = status
        self.error = error
        self.description = description

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "error_description": self.description}


@dataclass
class Grant:
    """A code the client's ``authorize`` gave the page, waiting for the app's server to exchange it."""

    user_id: int
    client_id: int
    scopes: tuple[str, ...]
    redirect_uri: str | None
    expires_at: float
    used: bool = False


@dataclass
class AccessToken:
    user_id: int
    scopes: tuple[str, ...]
    expires_at: float
    revoked: bool = False


@dataclass
class ActivityInstance:
    """One launched Activity: everyone who opens the app's Activity in the same channel joins it."""

    id: str
    channel_id: int
    guild_id: int | None
    user_ids: list[int] = field(default_factory=list)
    launched_by: int | None = None  # the interaction that launched it (None: an Entry Point Discord handled)
    ended: bool = False


class OAuth2:
    """Codes and access tokens of the application's users (``DiscordEmulator.oauth``)."""

    def __init__(self, application_id: int, client_secret: str) -> None:
        self.application_id = application_id
        self.client_secret = client_secret
        self.redirect_uris = [DEFAULT_REDIRECT]  # the developer portal's OAuth2 → Redirects
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, AccessToken] = {}
        self.exchanges: list[dict[str, str]] = []  # every token request's form, the secret masked (for tests)

    # -- the client side (the Embedded App SDK's ``authorize`` / ``authenticate``) -------------------

    def authorize(
        self, user: User, client_id: int | str, scopes: list[str] | tuple[str, ...], redirect_uri: str | None = None
    ) -> str:
        """A one-use code for ``user``, as the Discord client returns it to an Activity's ``authorize``.

        Raises EmulatorError for what the client itself refuses (another application's id, an unknown scope,
        a redirect the application did not register)."""
        if str(client_id) != str(self.application_id):
            raise EmulatorError(f"client_id {client_id!r} is not this application's ({self.application_id})")
        unknown = sorted(set(scopes) - SCOPES)
        if not scopes or unknown:
            raise EmulatorError(f"scopes {list(scopes)!r}: unknown {unknown}" if unknown else "no scope asked for")
        if redirect_uri is not None and redirect_uri not in self.redirect_uris:
            raise EmulatorError(f"redirect_uri {redirect_uri!r} is not registered ({self.redirect_uris})")
        code = secrets.token_urlsafe(24)
        self.codes[code] = Grant(
            user.id, self.application_id, tuple(dict.fromkeys(scopes)), redirect_uri, time.time() + CODE_LIFETIME
        )
        return code

    def authenticate(self, token: str) -> AccessToken:
        """The client's ``authenticate``: the token's grant, or ApiError 401 as Discord's client refuses it."""
        return self._valid(token)

    # -- the server side ---------------------------------------------------------------------------

    def exchange(self, form: dict[str, str], authorization: str | None) -> dict[str, Any]:
        """``POST /oauth2/token`` with ``grant_type=authorization_code``: a code for an access token."""
        self.exchanges.append({k: ("***" if k == "client_secret" else v) for k, v in form.items()})
        client_id, secret = _client_credentials(form, authorization)
        if client_id != str(self.application_id) or not secrets.compare_digest(secret, self.client_secret):
            raise OAuthError(401, "invalid_client", "Invalid client credentials.")
        grant_type = form.get("grant_type")
        if grant_type != "authorization_code":
            raise OAuthError(400, "unsupported_grant_type", f"Unsupported grant type {grant_type!r}.")
        code = form.get("code")
        grant = self.codes.get(code or "")
        if not code or grant is None or grant.used or grant.expires_at < time.time():
            if grant is not None and grant.used:
                self._revoke_user_tokens(grant)  # RFC 6749 §4.1.2: a code used twice revokes what it gave
            raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        # RFC 6749 §4.1.3: redirect_uri is required, and must be identical, when the authorization had one;
        # an Activity's authorize gives none (the SDK brings the user back itself).
        redirect = form.get("redirect_uri")
        if (grant.redirect_uri is not None and redirect != grant.redirect_uri) or (
            grant.redirect_uri is None and redirect is not None and redirect not in self.redirect_uris
        ):
            raise OAuthError(400, "invalid_grant", 'Invalid "redirect_uri" in request.')
        grant.used = True
        token = secrets.token_urlsafe(24)
        self.tokens[token] = AccessToken(grant.user_id, grant.scopes, time.time() + TOKEN_LIFETIME)
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": int(TOKEN_LIFETIME),
            "refresh_token": secrets.token_urlsafe(24),
            "scope": " ".join(grant.scopes),
        }

    def bearer(self, authorization: str | None, scope: str = "identify") -> AccessToken:
        """The token of an ``Authorization: Bearer …`` header, or 401 as Discord answers an unknown, expired
        or revoked token (or one without ``scope``)."""
        if not authorization or not authorization.startswith("Bearer "):
            raise ApiError(401, 0, "401: Unauthorized")
        token = self._valid(authorization[len("Bearer ") :])
        if scope not in token.scopes:
            raise ApiError(401, 0, "401: Unauthorized")
        return token

    def _valid(self, token: str) -> AccessToken:
        found = self.tokens.get(token)
        if found is None or found.revoked or found.expires_at < time.time():
            raise ApiError(401, 0, "401: Unauthorized", violation=False)
        return found

    def _revoke_user_tokens(self, grant: Grant) -> None:
        for token in self.tokens.values():
            if token.user_id == grant.user_id and token.scopes == grant.scopes:
                token.revoked = True

    # -- for tests ----------------------------------------------------------------------------------

    def expire(self, token: str) -> None:
        """Make ``token`` expired now (Discord's tokens expire after ``expires_in`` seconds)."""
        self.tokens[token].expires_at = time.time() - 1

    def revoke(self, token: str) -> None:
        self.tokens[token].revoked = True


def _client_credentials(form: dict[str, str], authorization: str | None) -> tuple[str, str]:
    """ "Either HTTP Basic authentication or client_id and client_secret supplied in the form data body"."""
    if authorization and authorization.startswith("Basic "):
        try:
            decoded = base64.b64decode(authorization[len("Basic ") :], validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return "", ""
        client_id, _, secret = decoded.partition(":")
        return urllib.parse.unquote(client_id), urllib.parse.unquote(secret)
    return form.get("client_id", ""), form.get("client_secret", "")


class Activities:
    """The application's Activity: whether it is enabled, and its running instances."""

    def __init__(self) -> None:
        self.enabled = False
        self.instances: dict[str, ActivityInstance] = {}

    def launch(self, user: User, channel: Channel, interaction_id: int | None) -> ActivityInstance:
        """Start the Activity in ``channel`` for ``user``, or join the instance already running there."""
        running = next((i for i in self.instances.values() if i.channel_id == channel.id and not i.ended), None)
        if running is None:
            instance_id = f"i-{new_snowflake()}-gc-{channel.guild_id or 0}-{channel.id}"
            running = ActivityInstance(instance_id, channel.id, channel.guild_id, launched_by=interaction_id)
            self.instances[running.id] = running
        if user.id not in running.user_ids:
            running.user_ids.append(user.id)
        return running

    def end(self, instance_id: str) -> None:
        """The last participant left: the next launch in that channel starts a new instance."""
        self.instances[instance_id].ended = True

    def instance_in(self, channel: Channel) -> ActivityInstance | None:
        return next((i for i in self.instances.values() if i.channel_id == channel.id and not i.ended), None)

    def payload(self, instance: ActivityInstance, application_id: int) -> dict[str, Any]:
        """OpenAPI ``EmbeddedActivityInstance``."""
        location: dict[str, Any] = {
            "id": f"gc-{instance.guild_id or 0}-{instance.channel_id}",
            "kind": "gc" if instance.guild_id else "pc",
            "channel_id": str(instance.channel_id),
        }
        if instance.guild_id:
            location["guild_id"] = str(instance.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": instance.id,
            "launch_id": str(new_snowflake()),
            "location": location,
            "users": [str(u) for u in instance.user_ids],
        }


# --------------------------------------------------------------------------- the Entry Point command

PRIMARY_ENTRY_POINT = 4  # application command type (developers/interactions/application-commands.mdx)
HANDLERS = (1, 2)  # APP_HANDLER: the app answers the interaction; DISCORD_LAUNCH_ACTIVITY: Discord launches


def check_entry_points(commands: Any, errors: Any, *, embedded: bool, guild: bool) -> None:
    """The rules Discord puts on Entry Point commands in a command upload (application-commands.mdx):
    "``handler`` can only be set for application commands of type PRIMARY_ENTRY_POINT for applications with
    the EMBEDDED flag", "Your app cannot have a PRIMARY_ENTRY_POINT guild command", "1 global
    PRIMARY_ENTRY_POINT command", and ``options`` only on CHAT_INPUT commands. The inner error codes are the
    emulator's own (Discord documents none); status 400 and code 50035 are Discord's."""
    if not isinstance(commands, list):
        return  # commandlimits.check_commands said so
    entry_points = 0
    for index, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        kind, handler = command.get("type", 1), command.get("handler")
        if kind != PRIMARY_ENTRY_POINT:
            if handler is not None:
                message = "handler can only be set on PRIMARY_ENTRY_POINT commands"
                errors.add([index, "handler"], "APPLICATION_COMMAND_HANDLER_INVALID", message)
            continue
        entry_points += 1
        if handler is not None and (isinstance(handler, bool) or handler not in HANDLERS):
            errors.add([index, "handler"], "BASE_TYPE_CHOICES", f"Value must be one of {set(HANDLERS)}.")
        if not embedded:
            message = "PRIMARY_ENTRY_POINT commands need the application's Activities (the EMBEDDED flag)"
            errors.add([index, "type"], "APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED", message)
        if guild:
            message = "An app cannot have a PRIMARY_ENTRY_POINT guild command"
            errors.add([index, "type"], "APPLICATION_COMMAND_ENTRY_POINT_GUILD", message)
    if entry_points > 1:
        errors.add([], "APPLICATION_COMMAND_ENTRY_POINT_LIMIT", "An app can have 1 PRIMARY_ENTRY_POINT command")


def check_keeps_entry_point(existing: list[dict[str, Any]], commands: list[dict[str, Any]]) -> None:
    """A bulk overwrite of global commands must carry the app's Entry Point command: Discord refuses the whole
    request otherwise (400, 50240; seen by every library whose sync omits it)."""
    had = any(c.get("type") == PRIMARY_ENTRY_POINT for c in existing)
    if had and not any(isinstance(c, dict) and c.get("type") == PRIMARY_ENTRY_POINT for c in commands):
        raise ApiError(
            400,
            50240,
            "You cannot remove this app's Entry Point command in a bulk update operation. "
            "Please include the Entry Point command in your update request or delete it separately.",
        )


def refuse_second_entry_point() -> None:
    """Creating another Entry Point command while one exists (application-commands.mdx, "Limits")."""
    raise ApiError(
        400,
        50035,
        "Invalid Form Body",
        {
            "type": {
                "_errors": [
                    {
                        "code": "APPLICATION_COMMAND_ENTRY_POINT_LIMIT",
                        "message": "An app can have 1 PRIMARY_ENTRY_POINT command",
                    }
                ]
            }
        },
    )
