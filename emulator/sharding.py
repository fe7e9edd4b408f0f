"""Discord's rules for gateway sessions: sharding, the session start limit and identify pacing.

What Discord documents (developers/events/gateway.mdx in discord/discord-api-docs, "Sharding",
"Identifying", "Rate Limiting", "Get Gateway Bot"; close codes in
developers/topics/opcodes-and-status-codes.mdx):

* IDENTIFY may carry ``shard: [shard_id, num_shards]``; a guild's events go to the session
  with ``shard_id == (guild_id >> 22) % num_shards``, events without a guild (DMs) to shard 0.
  An invalid shard closes the connection with 4010.
* "Each shard can only support a maximum of 2500 guilds": a session that would hold more is
  closed with 4011 Sharding required. ``GET /gateway/bot`` recommends a shard count (one per
  1,000 guilds is what Discord answers in practice, e.g. the discord.py and Discord4J guides).
* "Clients are limited to 1000 IDENTIFY calls to the websocket in a 24-hour period ... [this]
  does not include RESUME calls. Upon hitting this limit, all active sessions for the app will
  be terminated, the bot token will be reset". Only successful IDENTIFYs count
  (discord-api-docs issue 215: "1,000 sessions (meaning successfully calling IDENTIFY").
* ``max_concurrency`` IDENTIFYs per 5 seconds, one per bucket ``shard_id % max_concurrency``;
  "If your app exceeds this limit, Discord will respond with a[n] Invalid Session (opcode 9)".

Every figure is configurable (:class:`ShardingRules`) so tests can use a handful of guilds and
a fraction of a second.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

# The bits of a snowflake below its timestamp: the sharding formula reads the timestamp only.
TIMESTAMP_SHIFT = 22


class Shard(NamedTuple):
    """``[shard_id, shard_count]`` as IDENTIFY sends it; an unsharded session is ``Shard(0, 1)``."""

    id: int
    num_shards: int


UNSHARDED = Shard(0, 1)


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's sharding formula: the shard that receives the guild's events."""
    return (guild_id >> TIMESTAMP_SHIFT) % shard_count


def parse_shard(value: Any) -> Shard | None:
    """The ``shard`` of an IDENTIFY (``UNSHARDED`` when absent); None when Discord would close 4010."""
    if value is None:
        return UNSHARDED
    if not isinstance(value, list) or len(value) != 2:
        return None
    shard_id, count = value
    # bool is an int to Python but not to Discord's JSON schema.
    if any(not isinstance(v, int) or isinstance(v, bool) for v in value):
        return None
    if count < 1 or not 0 <= shard_id < count:
        return None
    return Shard(shard_id, count)


@dataclass
class ShardingRules:
    """The emulator's gateway session rules; change them on ``emu.sharding`` at any time."""

    # "Each shard can only support a maximum of 2500 guilds" (over it: close 4011).
    max_guilds_per_shard: int = 2500
    # What ``GET /gateway/bot`` recommends: one shard per this many guilds, at least one ...
    guilds_per_recommended_shard: int = 1000
    # ... unless set here.
    recommended_shards: int | None = None
    # Session starts (successful IDENTIFYs) per period, and the period in seconds.
    session_start_total: int = 1000
    session_start_period: float = 24 * 60 * 60.0
    # IDENTIFYs allowed per ``identify_interval`` seconds, one per bucket shard_id % max_concurrency.
    max_concurrency: int = 1
    identify_interval: float = 5.0
    # Discord paces unsharded sessions too (they are shard 0), but tests restart a plain bot on the
    # same emulator within 5 s all the time; pacing them is opt-in so those keep working unchanged.
    pace_unsharded: bool = False

    def recommended(self, guild_count: int) -> int:
        if self.recommended_shards is not None:
            return self.recommended_shards
        return max(1, math.ceil(guild_count / self.guilds_per_recommended_shard))

    def bucket(self, shard: Shard) -> int:
        return shard.id % self.max_concurrency


class SessionStarts:
    """The state behind the rules: session starts left in the current period, and when each
    identify bucket last started a session."""

    def __init__(self, rules: ShardingRules, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules
        self.clock = clock
        self.used = 0
        self._period_start: float | None = None  # opened by the first session start of a period
        self._last_start: dict[int, float] = {}  # bucket -> clock of its last session start

    def _roll(self) -> None:
        if self._period_start is not None and self.clock() - self._period_start >= self.rules.session_start_period:
            self._period_start, self.used = None, 0

    @property
    def remaining(self) -> int:
        self._roll()
        return max(0, self.rules.session_start_total - self.used)

    def reset_after_ms(self) -> int:
        """Milliseconds until ``remaining`` is back to ``total`` (0 while nothing has been used)."""
        self._roll()
        if self._period_start is None:
            return 0
        left = self.rules.session_start_period - (self.clock() - self._period_start)
        return max(0, math.ceil(left * 1000))

    def limit_payload(self) -> dict[str, int]:
        """``session_start_limit`` of ``GET /gateway/bot``."""
        return {
            "total": self.rules.session_start_total,
            "remaining": self.remaining,
            "reset_after": self.reset_after_ms(),
            "max_concurrency": self.rules.max_concurrency,
        }

    def too_soon(self, shard: Shard) -> float | None:
        """Seconds since the bucket's last session start if an IDENTIFY now is too early, else None."""
        if shard == UNSHARDED and not self.rules.pace_unsharded:
            return None
        last = self._last_start.get(self.rules.bucket(shard))
        if last is None:
            return None
        elapsed = self.clock() - last
        return elapsed if elapsed < self.rules.identify_interval else None

    def start(self, shard: Shard) -> None:
        """Count a successful IDENTIFY. Refused ones count for neither limit (issue 215 above), so a
        client that retries too early is not locked out for longer."""
        self._roll()
        now = self.clock()
        if self._period_start is None:
            self._period_start = now
        self.used += 1
        self._last_start[self.rules.bucket(shard)] = now

    def refill(self) -> None:
        """A reset token starts a fresh count: otherwise its first IDENTIFY would reset it again."""
        self._period_start, self.used = None, 0
