"""The Store protocol's part for heartbeats of the bot and its shards, outages, and the gateway's shared budgets.

bot/store/base.py's ``Store`` includes it; sqlite/shards.py and postgres/shards.py implement it.
"""

from __future__ import annotations

from typing import Protocol


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
