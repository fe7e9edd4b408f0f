"""SQLite: heartbeats of the bot and its shards, outages, and the gateway's shared budgets.

The protocol, with what each method promises: bot/store/shards.py.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time

from ..shards import IDENTIFY_MAY_GO, identify_wait
from .plumbing import SqlitePlumbing, lease_time


class SqliteShards(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def last_seen(self) -> float | None:
        row = await self._one("SELECT last_seen FROM heartbeat WHERE id = 1")
        return row[0] if row else None

    async def shard_heartbeats(self, shard_count: int) -> dict[int, float]:
        rows = await self._all("SELECT shard_id, last_seen FROM shard_heartbeats WHERE shard_count = ?", (shard_count,))
        return {r[0]: r[1] for r in rows}

    async def beat(
        self, now: float, shards: tuple[int, tuple[int, ...]] | None = None, held_at: float | None = None
    ) -> None:
        """The bot is alive at ``now`` (written by every timer pass and at shutdown); so are its shards, run by
        this start (one process: its claims do not depend on it)."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO heartbeat (id, last_seen) VALUES (1, ?)"
                " ON CONFLICT (id) DO UPDATE SET last_seen = MAX(last_seen, excluded.last_seen)",
                (now,),
            )
            count, ids = shards or (1, (0,))
            for shard_id in ids:
                await db.execute(
                    "INSERT INTO shard_heartbeats (shard_count, shard_id, last_seen, incarnation, incarnation_seen)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (shard_count, shard_id) DO UPDATE SET"
                    " last_seen = MAX(last_seen, excluded.last_seen), incarnation = excluded.incarnation,"
                    " incarnation_seen = excluded.incarnation_seen",
                    (count, shard_id, now, self.incarnation, lease_time(now, held_at)),
                )

    async def record_outage(self, started_at: float, ended_at: float, shard: tuple[int, int] | None = None) -> int:
        """Record that the bot (or one shard's process) was down, and give the running clocks it paused that time
        back. Returns matches extended."""
        gap = ended_at - started_at
        shard_id, count = shard or (0, 1)
        async with self.transaction() as db:
            await db.execute("INSERT INTO outages (started_at, ended_at) VALUES (?, ?)", (started_at, ended_at))
            cursor = await db.execute(
                "UPDATE matches SET deadline_at = deadline_at + ?, deadline_notice = 0"
                " WHERE status = 'active' AND deadline_at IS NOT NULL AND deadline_at > ?"
                " AND ((guild_id >> 22) % ?) = ?",
                (gap, started_at, count, shard_id),
            )
            if shard is None:
                await db.execute("INSERT OR REPLACE INTO heartbeat (id, last_seen) VALUES (1, ?)", (ended_at,))
            await db.execute(
                "INSERT OR REPLACE INTO shard_heartbeats (shard_count, shard_id, last_seen) VALUES (?, ?, ?)",
                (count, shard_id, ended_at),
            )
            return cursor.rowcount

    async def outages(self) -> list[tuple[float, float]]:
        return [(r[0], r[1]) for r in await self._all("SELECT started_at, ended_at FROM outages ORDER BY started_at")]

    async def grant_requests(self, second: int, wanted: int, limit: int) -> int:
        def grant(conn: sqlite3.Connection) -> int:
            row = conn.execute("SELECT used FROM request_budget WHERE second = ?", (second,)).fetchone()
            granted = max(0, min(wanted, limit - (row[0] if row else 0)))
            if granted:
                conn.execute(
                    "INSERT INTO request_budget (second, used) VALUES (?, ?)"
                    " ON CONFLICT (second) DO UPDATE SET used = used + excluded.used",
                    (second, granted),
                )
                if second % 30 == 0:
                    conn.execute("DELETE FROM request_budget WHERE second < ?", (second - 60,))
            return granted

        return await self._transact(grant)

    async def pace_identify(self, bucket: int, interval: float) -> None:
        """A compare-and-set on the bucket's row, timed by the wall clock: the time outlives the process, so a
        bot killed just after identifying and restarted at once still waits out Discord's interval."""
        condition = IDENTIFY_MAY_GO.format(last="identified_at", now="excluded.identified_at", interval="?")

        def take(conn: sqlite3.Connection) -> float | None:
            now = time.time()
            taken = conn.execute(
                "INSERT INTO identify_times (bucket, identified_at) VALUES (?, ?)"
                f" ON CONFLICT (bucket) DO UPDATE SET identified_at = excluded.identified_at WHERE {condition}",
                (bucket, now, interval, interval),
            )
            if taken.rowcount:
                return None
            row = conn.execute("SELECT identified_at FROM identify_times WHERE bucket = ?", (bucket,)).fetchone()
            return row[0] - now if row else -interval

        while (ahead := await self._transact(take)) is not None:
            await asyncio.sleep(identify_wait(ahead, interval))
