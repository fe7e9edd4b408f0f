"""PostgreSQL: heartbeats of the bot and its shards, outages, and the gateway's shared budgets.

The protocol, with what each method promises: bot/store/shards.py.
"""

from __future__ import annotations

import asyncio

from ..shards import IDENTIFY_MAY_GO, identify_wait
from .plumbing import PostgresPlumbing, rows_touched


class PostgresShards(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def last_seen(self) -> float | None:
        row = await self._fetchrow("SELECT last_seen FROM heartbeat WHERE id = 1")
        return row[0] if row else None

    async def shard_heartbeats(self, shard_count: int) -> dict[int, float]:
        rows = await self._fetch("SELECT shard_id, last_seen FROM shard_heartbeats WHERE shard_count = $1", shard_count)
        return {r[0]: r[1] for r in rows}

    async def beat(
        self, now: float, shards: tuple[int, tuple[int, ...]] | None = None, held_at: float | None = None
    ) -> None:
        """The bot is alive at ``now`` (written by every timer pass and at shutdown); so are its shards, run by
        this process's incarnation, seen at ``held_at`` of the lease clock: while it is fresh, its claims hold."""
        count, ids = shards or (1, (0,))
        await self._execute(
            "WITH bot AS (INSERT INTO heartbeat AS h (id, last_seen) VALUES (1, $1)"
            " ON CONFLICT (id) DO UPDATE SET last_seen = GREATEST(h.last_seen, excluded.last_seen))"
            " INSERT INTO shard_heartbeats AS s (shard_count, shard_id, last_seen, incarnation, incarnation_seen)"
            " SELECT $2, unnest($3::int[]), $1, $4, $5"
            " ON CONFLICT (shard_count, shard_id) DO UPDATE SET last_seen = GREATEST(s.last_seen, excluded.last_seen),"
            " incarnation = excluded.incarnation, incarnation_seen = excluded.incarnation_seen",
            now,
            count,
            list(ids),
            self.incarnation,
            now if held_at is None else held_at,
        )

    async def record_outage(self, started_at: float, ended_at: float, shard: tuple[int, int] | None = None) -> int:
        """Record that the bot (or one shard's process) was down, and give the running clocks it paused that time
        back. Returns matches extended."""
        shard_id, count = shard or (0, 1)
        async with self.transaction() as db:
            await db.execute("INSERT INTO outages (started_at, ended_at) VALUES ($1, $2)", started_at, ended_at)
            status = await db.execute(
                "UPDATE matches SET deadline_at = deadline_at + $1, deadline_notice = 0"
                " WHERE status = 'active' AND deadline_at IS NOT NULL AND deadline_at > $2"
                " AND ((guild_id >> 22) % $3) = $4",
                ended_at - started_at,
                started_at,
                count,
                shard_id,
            )
            if shard is None:
                await db.execute(
                    "INSERT INTO heartbeat (id, last_seen) VALUES (1, $1)"
                    " ON CONFLICT (id) DO UPDATE SET last_seen = $1",
                    ended_at,
                )
            await db.execute(
                "INSERT INTO shard_heartbeats (shard_count, shard_id, last_seen) VALUES ($1, $2, $3)"
                " ON CONFLICT (shard_count, shard_id) DO UPDATE SET last_seen = $3",
                count,
                shard_id,
                ended_at,
            )
            return rows_touched(status)

    async def outages(self) -> list[tuple[float, float]]:
        return [(r[0], r[1]) for r in await self._fetch("SELECT started_at, ended_at FROM outages ORDER BY started_at")]

    async def grant_requests(self, second: int, wanted: int, limit: int) -> int:
        """The second's row is locked while its count is read and raised: processes granting at once queue on
        it and never grant more than ``limit`` between them. Rare (a process asks for several at a time)."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO request_budget (second, used) VALUES ($1, 0) ON CONFLICT DO NOTHING", second)
            used = await db.fetchval("SELECT used FROM request_budget WHERE second = $1 FOR UPDATE", second)
            granted = max(0, min(wanted, limit - int(used)))
            if granted:
                await db.execute("UPDATE request_budget SET used = used + $2 WHERE second = $1", second, granted)
            if second % 30 == 0:
                await db.execute("DELETE FROM request_budget WHERE second < $1", second - 60)
        return granted

    async def pace_identify(self, bucket: int, interval: float) -> None:
        """A compare-and-set on the bucket's row, timed by the database's clock (one clock for every host): the
        IDENTIFY may go once the row's last IDENTIFY is ``interval`` seconds old, and this process's time is
        written in the same statement. Otherwise wait out what is left and try again. The time outlives its
        process, so a process killed just after identifying still holds back the next one."""
        while True:
            taken = await self._fetchrow(
                "INSERT INTO identify_times AS t (bucket, identified_at)"
                " VALUES ($1, extract(epoch FROM clock_timestamp()))"
                " ON CONFLICT (bucket) DO UPDATE SET identified_at = excluded.identified_at"
                f" WHERE {IDENTIFY_MAY_GO.format(last='t.identified_at', now='excluded.identified_at', interval='$2')}"
                " RETURNING identified_at",
                bucket,
                interval,
            )
            if taken is not None:
                return
            row = await self._fetchrow(
                "SELECT identified_at - extract(epoch FROM clock_timestamp()) FROM identify_times WHERE bucket = $1",
                bucket,
            )
            await asyncio.sleep(identify_wait(row[0] if row else None, interval))
