"""PostgreSQL: heartbeats of the bot and its shards, outages, and the gateway's shared budgets.

The protocol, with what each method promises: bot/store/shards.py.
"""

from __future__ import annotations

import asyncio

from ...domain.errors import StorageDown
from .plumbing import DOWN, IDENTIFY_LOCK, PostgresPlumbing, rows_touched


class PostgresShards(PostgresPlumbing):
    """Mixed into PostgresStore."""

    _holding: set[asyncio.Task[None]]  # identify buckets held for their interval

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
        """Take the bucket's transaction-level advisory lock (waiting for another process's IDENTIFY to age),
        and hold it ``interval`` seconds after returning: the IDENTIFY goes now, the next one of the bucket,
        from any process, no sooner. A process that dies releases it at once (its connection ends), which is
        safe: its IDENTIFY, if any, was sent before."""
        taken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def hold() -> None:
            try:
                async with self.pool.acquire() as conn, conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", IDENTIFY_LOCK + bucket)
                    taken.set_result(None)
                    await asyncio.sleep(interval)
            except BaseException as error:
                if not taken.done():
                    taken.set_exception(error if isinstance(error, Exception) else StorageDown("stopped"))
                raise

        task = asyncio.create_task(hold())
        self._holding.add(task)
        task.add_done_callback(self._holding.discard)
        try:
            await taken
        except DOWN as error:
            raise await self._down(error) from None
