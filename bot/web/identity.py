"""Who is asking: the OAuth2 code exchange, users' tokens checked against Discord, and each user's pace.

The Activity's page never sees the client secret: it sends the code Discord's client gave it, this server
exchanges it at ``POST /oauth2/token`` (form-encoded, the client id and secret in the form: Discord's
"Authorization Code Grant"), and from then on every request carries the user's token, which Discord's
``GET /users/@me`` turns into a user. Those answers are kept briefly (and boundedly) so a tap costs no
round trip to Discord; a token Discord does not know is never kept.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

CALL_TIMEOUT = 8.0  # seconds a call to Discord may take before the page is told to try again


@dataclass(frozen=True)
class Identity:
    """A user as Discord vouches for them (``GET /users/@me`` with their token)."""

    user_id: int
    name: str
    locale: str | None


class Unauthorized(Exception):
    """No token, or one Discord does not know (forged, revoked, expired): the page must open the board again."""


class BadCode(Exception):
    """Discord refused the OAuth2 code (used, expired, forged): the page must authorize again."""


class DiscordUnavailable(Exception):
    """Discord did not answer (or answered 5xx / 429): nothing is decided, try again."""


class DiscordOAuth:
    """The two calls to Discord this server makes for its users, over its own HTTP session."""

    def __init__(self, api_base: Callable[[], str], client_id: Callable[[], int | None], client_secret: str) -> None:
        self.api_base = api_base  # the REST base the bot's client uses (Discord's, or a proxy's, or the emulator's)
        self.client_id = client_id  # the application's id, known once the bot has logged in
        self._secret = client_secret
        self._session: aiohttp.ClientSession | None = None

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=CALL_TIMEOUT))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def exchange(self, code: str) -> dict[str, Any]:
        """The access token response for ``code`` (``access_token``, ``expires_in``, ``scope``…)."""
        client_id = self.client_id()
        if client_id is None:
            raise DiscordUnavailable("the bot has not logged in yet")
        form = {
            "client_id": str(client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self.session().post(f"{self.api_base().rstrip('/')}/oauth2/token", data=form) as response:
                body = await _json(response)
                if response.status == 200 and isinstance(body, dict) and isinstance(body.get("access_token"), str):
                    return body
                if response.status == 400 and isinstance(body, dict) and body.get("error") == "invalid_grant":
                    raise BadCode(str(body.get("error_description") or "invalid_grant"))
                raise DiscordUnavailable(f"the token endpoint answered {response.status}: {str(body)[:200]}")
        except (aiohttp.ClientError, TimeoutError) as error:
            raise DiscordUnavailable(f"the token endpoint did not answer ({error!r})") from None

    async def me(self, token: str) -> Identity:
        """The user ``token`` belongs to; Unauthorized if Discord does not know it."""
        headers = {"Authorization": f"Bearer {token}"}
        try:
            async with self.session().get(f"{self.api_base().rstrip('/')}/users/@me", headers=headers) as response:
                body = await _json(response)
                if response.status == 401:
                    raise Unauthorized("Discord does not know this token")
                if response.status != 200 or not isinstance(body, dict) or not str(body.get("id", "")).isdigit():
                    raise DiscordUnavailable(f"/users/@me answered {response.status}")
        except (aiohttp.ClientError, TimeoutError) as error:
            raise DiscordUnavailable(f"/users/@me did not answer ({error!r})") from None
        name = str(body.get("global_name") or body.get("username") or "?")
        return Identity(int(body["id"]), name, body.get("locale"))


async def _json(response: aiohttp.ClientResponse) -> Any:
    try:
        return await response.json(content_type=None)
    except ValueError:
        return None


class Identities:
    """Tokens to users, through Discord, each answer kept ``keep_for`` seconds; at most ``capacity`` tokens
    are kept (the least recently used forgotten first), and one token is asked about once at a time."""

    def __init__(
        self,
        oauth: DiscordOAuth,
        keep_for: float = 60.0,
        capacity: int = 10_000,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.oauth = oauth
        self.now = now  # (a test's clock may stand in)
        self.keep_for = keep_for
        self.capacity = capacity
        self._known: OrderedDict[str, tuple[float, Identity]] = OrderedDict()
        self._asking: dict[str, asyncio.Future[Identity]] = {}
        self.asked = 0  # calls made to Discord (tests and metrics read it)

    async def of(self, token: str | None) -> Identity:
        if not token or len(token) > 512:
            raise Unauthorized("no token")
        now = self.now()
        known = self._known.get(token)
        if known is not None and known[0] > now:
            self._known.move_to_end(token)
            return known[1]
        asking = self._asking.get(token)
        if asking is not None:  # the same token asked about at the same moment: one call to Discord
            return await asyncio.shield(asking)
        future: asyncio.Future[Identity] = asyncio.get_running_loop().create_future()
        self._asking[token] = future
        try:
            self.asked += 1
            identity = await self.oauth.me(token)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: a lone caller's failure is not "never retrieved"
            raise
        finally:
            self._asking.pop(token, None)
        future.set_result(identity)
        self._known[token] = (now + self.keep_for, identity)
        while len(self._known) > self.capacity:
            self._known.popitem(last=False)
        return identity

    def forget(self, token: str) -> None:
        self._known.pop(token, None)


class Pace:
    """Each user's requests, a token bucket: ``rate`` a second on average, ``burst`` at once. At most
    ``capacity`` users are followed (the longest idle forgotten first: a full bucket is a fresh one)."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0, capacity: int = 10_000) -> None:
        self.rate, self.burst, self.capacity = rate, burst, capacity
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()

    def take(self, user_id: int, now: float | None = None) -> float:
        """0 if the request may go now (and counts it), else the seconds to wait."""
        now = time.monotonic() if now is None else now
        tokens, at = self._buckets.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self._buckets[user_id] = (tokens, now)
            return (1 - tokens) / self.rate
        self._buckets[user_id] = (tokens - 1, now)
        self._buckets.move_to_end(user_id)
        while len(self._buckets) > self.capacity:
            self._buckets.popitem(last=False)
        return 0.0
