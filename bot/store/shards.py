"""The Store protocol's part for heartbeats of the bot and its shards, outages, and the gateway's shared budgets.

bot/store/base.py's ``Store`` includes it; sqlite/shards.py and postgres/shards.py implement it.
"""

from __future__ import annotations

from typing import Protocol

# When a bucket's IDENTIFY may go, given its ``last`` IDENTIFY and the clock's ``now`` (an SQL condition, the
# same on both backends): the last is ``interval`` old, or so far ahead of the clock (the clock was set back)
# that it cannot be trusted and would otherwise hold every start back for as long.
IDENTIFY_MAY_GO = "({last} <= {now} - {interval} OR {last} > {now} + {interval})"
# A sleep may end a hair before the clock that judges it agrees; this keeps the next try from coming too soon.
IDENTIFY_SLACK_SECONDS = 0.01


def identify_wait(ahead: float | None, interval: float) -> float:
    """How long to wait before trying a refused IDENTIFY again, given how far the bucket's last IDENTIFY is
    ``ahead`` of the clock (negative: behind it; None: the row has gone): what is left of its interval, and
    never more than one interval (a time ahead of the clock is waited out in steps)."""
    left = interval + (ahead if ahead is not None else -interval)
    return min(interval, max(0.0, left)) + IDENTIFY_SLACK_SECONDS


class ShardStore(Protocol):
    async def last_seen(self) -> float | None: ...

    async def shard_heartbeats(self, shard_count: int) -> dict[int, float]:
        """When each shard of a ``shard_count`` layout was last seen alive (shards never run are missing)."""
        ...

    async def beat(
        self, now: float, shards: tuple[int, tuple[int, ...]] | None = None, held_at: float | None = None
    ) -> None:
        """The bot is alive at ``now`` (written every ``BEAT_SECONDS``, by every timer pass and at shutdown);
        ``shards`` (count, ids): the shards this process runs are too, run by this ``incarnation``, seen at
        ``held_at`` of the lease clock (default ``now``)."""
        ...

    async def record_outage(self, started_at: float, ended_at: float, shard: tuple[int, int] | None = None) -> int:
        """Record that the bot was down, and give every running clock that time back (``shard`` (id, count):
        only the clocks of that shard's servers, whose process was the one down). Returns matches extended."""
        ...

    async def outages(self) -> list[tuple[float, float]]: ...

    async def grant_requests(self, second: int, wanted: int, limit: int) -> int:
        """Take up to ``wanted`` of the ``limit`` requests every process of the bot may send in bulk in the
        wall-clock ``second``; how many were granted (0: none left in that second)."""
        ...

    async def pace_identify(self, bucket: int, interval: float) -> None:
        """Return when this process may IDENTIFY a shard of ``bucket``: no other IDENTIFY of the bucket, by
        any process on this database, within ``interval`` seconds before or after it."""
        ...
