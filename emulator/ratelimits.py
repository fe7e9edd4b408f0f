"""Discord's REST rate limits: per-route buckets and the bot's global limit, answered with 429s.

What Discord documents (developers/topics/rate-limits.mdx in discord/discord-api-docs):

* per-route limits, counted separately per top-level resource in the path (``channel_id``,
  ``guild_id``, ``webhook_id`` + ``webhook_token``), reported on every response as
  ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds)
  and ``-Bucket`` (an opaque name shared by routes that share a limit);
* a global limit of 50 requests per second per bot, which "interaction endpoints are not
  bound to" (the interaction callback and the ``/webhooks/{application_id}/{token}`` routes);
* a 429 carries ``Retry-After`` and a JSON body ``{"message", "retry_after", "global"}``, plus
  ``X-RateLimit-Scope`` (``user`` for a route bucket, ``global``) and, for the global limit,
  ``X-RateLimit-Global: true``.

The limits themselves are not documented ("should not be hard coded"); the defaults here are
the commonly observed ones: 5 message posts per 5 s per channel (e.g. alexemanuelol/rustplusplus
issue 475 logs "Limit: 5 ... Route: /channels/:id/messages"), 5 requests per 2 s per webhook
for interaction followups and edits (the webhook figure quoted in discord-api-docs issue 6753),
50 per second for the rest. Every figure is configurable (:class:`RateLimits`), including
switching the whole thing off.

Windows are fixed: a bucket's window opens at its first request and refills when it ends.
Every request counts, failed ones included ("failed requests count towards rate limit same as
successful ones", same source).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

RATE_LIMITED_MESSAGE = "You are being rate limited."


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``per`` seconds."""

    limit: int
    per: float


# Route (method, path template as the emulator routes it) -> bucket name. Routes not listed get a
# bucket of their own named after the route, with ``RateLimits.default``.
ROUTE_BUCKETS: dict[tuple[str, str], str] = {
    ("POST", "/channels/{channel_id}/messages"): "message-create",
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "message-edit",
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): "message-delete",
    ("POST", "/webhooks/{app}/{token}"): "interaction-webhook",
    ("GET", "/webhooks/{app}/{token}/messages/{message_id}"): "interaction-webhook",
    ("PATCH", "/webhooks/{app}/{token}/messages/{message_id}"): "interaction-webhook",
    ("DELETE", "/webhooks/{app}/{token}/messages/{message_id}"): "interaction-webhook",
}

# "Interaction endpoints are not bound to the bot's Global Rate Limit."
GLOBAL_EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
# The interaction callback answers once per interaction: no bucket of its own either.
UNLIMITED_PREFIXES = ("/interactions/",)

# Path parameters that make a separate bucket per value ("top-level resources").
MAJOR_PARAMETERS = ("channel_id", "guild_id", "app", "token")


def default_route_limits() -> dict[str, RouteLimit]:
    return {
        "message-create": RouteLimit(5, 5.0),
        "message-edit": RouteLimit(5, 5.0),
        "message-delete": RouteLimit(5, 1.0),
        "interaction-webhook": RouteLimit(5, 2.0),
    }


@dataclass
class RateLimits:
    """The emulator's limits; change them on ``emu.rate_limits`` at any time (they apply at once)."""

    enabled: bool = True
    global_limit: int = 50
    global_per: float = 1.0
    routes: dict[str, RouteLimit] = field(default_factory=default_route_limits)
    default: RouteLimit = RouteLimit(50, 1.0)
    # "Apps can send 120 gateway events per connection every 60 seconds ... Apps that surpass the
    # limit are immediately disconnected" (developers/events/gateway.mdx, Rate Limiting; close 4008).
    gateway: RouteLimit = RouteLimit(120, 60.0)
    # "IP addresses that make too many invalid HTTP requests are automatically and temporarily
    # restricted ... 10,000 per 10 minutes. An invalid request is one that results in 401, 403,
    # or 429 statuses" (rate-limits.mdx). Exceeding it is a violation here (a Cloudflare ban there).
    invalid_requests: RouteLimit = RouteLimit(10_000, 600.0)

    def route_limit(self, bucket: str) -> RouteLimit:
        return self.routes.get(bucket, self.default)


@dataclass(frozen=True)
class RateLimitHit:
    """One 429 the emulator sent (``DiscordEmulator.rate_limit_hits``)."""

    method: str
    path: str
    bucket: str  # the X-RateLimit-Bucket, or "global"
    scope: str  # "user" (a route bucket) or "global"
    retry_after: float
    at: float  # time.monotonic()


@dataclass
class _Window:
    opened: float
    used: int = 0


@dataclass(frozen=True)
class Decision:
    """Headers to add to the response; ``refusal`` (a 429 body) when the request must not run."""

    headers: dict[str, str]
    refusal: dict[str, Any] | None = None
    hit: RateLimitHit | None = None


class RateLimiter:
    def __init__(
        self,
        config: RateLimits,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.clock = clock
        self.wall_clock = wall_clock
        self._windows: dict[str, _Window] = {}
        self._global = _Window(opened=-math.inf)

    def reset(self) -> None:
        """Forget every window (all buckets full again)."""
        self._windows.clear()
        self._global = _Window(opened=-math.inf)

    def snapshot(self) -> list[dict[str, Any]]:
        """The buckets in use now: ``{"bucket", "key", "limit", "remaining", "reset_after"}``, the global
        limit first (key "global"); for a test's diagnostics or a dashboard."""
        now = self.clock()
        rows = []
        config = self.config
        if now - self._global.opened < config.global_per:
            remaining = max(config.global_limit - self._global.used, 0)
            reset_after = self._global.opened + config.global_per - now
            rows.append(_row("global", "global", config.global_limit, remaining, reset_after))
        for key, window in self._windows.items():
            bucket = key.rsplit(":", 1)[0]
            rule = config.route_limit(bucket)
            if now - window.opened < rule.per:
                remaining = max(rule.limit - window.used, 0)
                rows.append(_row(bucket, key, rule.limit, remaining, window.opened + rule.per - now))
        return rows

    def check(self, method: str, template: str, path: str, params: Mapping[str, str], *, bot: bool) -> Decision:
        """Count one request to ``template`` (the route, without /api/v10) and decide on it.

        ``bot`` says whether it carries the bot's token (the global limit is per bot).
        """
        config = self.config
        if not config.enabled or template.startswith(UNLIMITED_PREFIXES):
            return Decision({})
        now = self.clock()
        if bot and not template.startswith(GLOBAL_EXEMPT_PREFIXES):
            everything = self._global
            if _expired(everything, config.global_per, now):
                everything.opened, everything.used = now, 0
            if everything.used >= config.global_limit:
                retry = _up_to_ms(everything.opened + config.global_per - now)
                return self._refuse(method, path, "global", "global", retry, {"X-RateLimit-Global": "true"})
            everything.used += 1
        bucket = ROUTE_BUCKETS.get((method, template)) or f"{method} {template}"
        rule = config.route_limit(bucket)
        major = "+".join(params[name] for name in MAJOR_PARAMETERS if name in params)
        key = f"{bucket}:{major}"
        window = self._windows.get(key)
        if window is None or _expired(window, rule.per, now):
            window = self._windows[key] = _Window(opened=now)
        reset_after = _up_to_ms(window.opened + rule.per - now)
        headers = {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Reset": f"{self.wall_clock() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
        if window.used >= rule.limit:
            headers["X-RateLimit-Remaining"] = "0"
            return self._refuse(method, path, bucket, "user", reset_after, headers)
        window.used += 1
        headers["X-RateLimit-Remaining"] = str(rule.limit - window.used)
        return Decision(headers)

    def _refuse(
        self, method: str, path: str, bucket: str, scope: str, retry_after: float, headers: dict[str, str]
    ) -> Decision:
        """A 429; ``retry_after`` is already rounded up to the millisecond (as Reset-After is)."""
        headers = {**headers, "Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": scope}
        body = {"message": RATE_LIMITED_MESSAGE, "retry_after": retry_after, "global": scope == "global"}
        hit = RateLimitHit(method, path, bucket, scope, retry_after, self.clock())
        return Decision(headers, refusal=body, hit=hit)


class WindowCounter:
    """Events counted in fixed windows, each opened by its first event (gateway sends, invalid requests)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._window = _Window(opened=-math.inf)

    def allow(self, rule: RouteLimit) -> bool:
        now = self.clock()
        if _expired(self._window, rule.per, now):
            self._window = _Window(opened=now)
        self._window.used += 1
        return self._window.used <= rule.limit

    @property
    def count(self) -> int:
        return self._window.used


def _expired(window: _Window, per: float, now: float) -> bool:
    """Whether the window is over; a microsecond of slack so that waiting exactly the advertised
    Reset-After / retry_after (rounded to the millisecond) always finds it over."""
    return now - window.opened >= per - 1e-6


def _row(bucket: str, key: str, limit: int, remaining: int, reset_after: float) -> dict[str, Any]:
    return {"bucket": bucket, "key": key, "limit": limit, "remaining": remaining, "reset_after": round(reset_after, 3)}


def _up_to_ms(seconds: float) -> float:
    """Rounded up to the next millisecond (and at least 1 ms): a client that waits exactly this long
    finds the window reopened."""
    return max(math.ceil(round(seconds * 1000, 6)) / 1000, 0.001)  # (round: no float dust like 1900.0000000004)
