"""PostgreSQL: time limits (claimed deadline notices) and vacations.

The protocol, with what each method promises: bot/store/deadlines.py.
"""

from __future__ import annotations

from typing import Any

from .leases import free_claim
from .plumbing import PostgresPlumbing, rows_touched


class PostgresDeadlines(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def claim_deadlines(
        self,
        now: float,
        warnings: tuple[tuple[int, float], ...],
        lease: float,
        paused_shards: tuple[int, tuple[int, ...]] = (1, ()),
        held_at: float | None = None,
    ) -> list[int]:
        """Active matches with a notice due, claimed for ``lease`` seconds, none of a paused shard's servers
        (see the SQLite store)."""
        held = now if held_at is None else held_at
        due = ["(deadline_notice < 3 AND deadline_at <= $2)"]
        params: list[Any] = [held + lease, now, held, self.incarnation]
        for level, before in warnings:
            n = len(params)
            due.append(
                f"(deadline_notice < ${n + 1} AND deadline_at - ${n + 2} <= $2"
                f" AND COALESCE(turn_allowance, days_per_move * 86400) > ${n + 2}"
                " AND (warnings_held_until IS NULL OR warnings_held_until <= $2))"
            )
            params += [level, before]
        count, paused = paused_shards
        skip = ""
        if paused:
            skip = f" AND ((guild_id >> 22) % ${len(params) + 1}) <> ALL(${len(params) + 2}::bigint[])"
            params += [count, list(paused)]
        rows = await self._fetch(
            "UPDATE matches SET deadline_claimed_until = $1, deadline_claimed_by = $4"
            " WHERE status = 'active' AND deadline_at IS NOT NULL"
            f" AND deadline_notice < 3 AND ({' OR '.join(due)})"
            " AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.match_id = id)"
            f" AND {free_claim('deadline_claimed', '$3', '$4')}{skip} RETURNING id, deadline_at",
            *params,
        )
        return [r[0] for r in sorted(rows, key=lambda r: (r[1], r[0]))]

    async def release_deadline(self, match_id: int) -> None:
        """Give a claimed deadline notice back (not delivered this time)."""
        await self._release("matches", "deadline_claimed", "id", match_id)

    async def set_deadline_notice(self, match_id: int, expected_version: int, level: int) -> bool:
        """Remember what was sent about the current deadline (its claim ends); False if the match changed."""
        status = await self._execute(
            "UPDATE matches SET deadline_notice = $1, deadline_claimed_until = NULL"
            " WHERE id = $2 AND version = $3 AND deadline_notice < $1",
            level,
            match_id,
            expected_version,
        )
        return rows_touched(status) == 1

    async def hold_warnings(self, match_id: int, expected_version: int, until: float) -> bool:
        """No time-limit warning before ``until`` (the mover's morning); the deadline itself stays."""
        status = await self._execute(
            "UPDATE matches SET warnings_held_until = $1, deadline_claimed_until = NULL WHERE id = $2 AND version = $3",
            until,
            match_id,
            expected_version,
        )
        return rows_touched(status) == 1

    async def extend_deadline(self, match_id: int, expected_version: int, seconds: float) -> bool:
        """Push the current turn's deadline back (a vacation), if the turn is still the one that was read."""
        status = await self._execute(
            "UPDATE matches SET deadline_at = deadline_at + $1, deadline_notice = 0"
            " WHERE id = $2 AND version = $3 AND status = 'active' AND deadline_at IS NOT NULL",
            seconds,
            match_id,
            expected_version,
        )
        return rows_touched(status) == 1

    async def add_vacation(self, user_id: int, starts_at: float, ends_at: float) -> None:
        await self._execute(
            "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES ($1, $2, $3)", user_id, starts_at, ends_at
        )

    async def vacation_until(self, user_id: int, now: float) -> float | None:
        row = await self._fetchrow(
            "SELECT MAX(ends_at) FROM vacations WHERE user_id = $1 AND starts_at <= $2 AND ends_at > $2", user_id, now
        )
        return row[0] if row and row[0] is not None else None

    async def vacation_seconds_since(self, user_id: int, since: float) -> float:
        row = await self._fetchrow(
            "SELECT COALESCE(SUM(ends_at - starts_at), 0) FROM vacations WHERE user_id = $1 AND starts_at >= $2",
            user_id,
            since,
        )
        return float(row[0]) if row else 0.0
