"""SQLite: time limits (claimed deadline notices) and vacations.

The protocol, with what each method promises: bot/store/deadlines.py.
"""

from __future__ import annotations

from typing import Any

from .leases import free_claim
from .plumbing import SqlitePlumbing, lease_time


class SqliteDeadlines(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def claim_deadlines(
        self,
        now: float,
        warnings: tuple[tuple[int, float], ...],
        lease: float,
        paused_shards: tuple[int, tuple[int, ...]] = (1, ()),
        held_at: float | None = None,
    ) -> list[int]:
        """Active matches with a notice due, claimed for ``lease`` seconds: a warning level not yet sent whose
        time has come, or the time-out (each match goes to one process only). ``paused_shards`` (count, ids):
        servers of those shards are left alone (their process is down: their players cannot answer).

        ``warnings`` are (level, seconds before the deadline); a warning is only due when the
        limit (the mover's bank when the turn began, with a bank clock) is longer than that (one day per
        move gets no 24 h warning), and not during the mover's night (``warnings_held_until``).
        """
        due = ["(deadline_notice < 3 AND deadline_at <= ?)"]
        params: list[Any] = [now]
        for level, before in warnings:
            due.append(
                "(deadline_notice < ? AND deadline_at - ? <= ? AND COALESCE(turn_allowance, days_per_move * 86400) > ?"
                " AND (warnings_held_until IS NULL OR warnings_held_until <= ?))"
            )
            params += [level, before, now, before, now]
        count, paused = paused_shards
        marks = ", ".join("?" for _ in paused)
        skip = f" AND ((guild_id >> 22) % {int(count)}) NOT IN ({marks})" if paused else ""
        async with self.transaction() as db:
            rows = await db.execute_fetchall(
                "UPDATE matches SET deadline_claimed_until = ?, deadline_claimed_by = ?"
                " WHERE status = 'active' AND deadline_at IS NOT NULL"
                f" AND deadline_notice < 3 AND ({' OR '.join(due)}) AND id NOT IN (SELECT match_id FROM quarantine)"
                f" AND {free_claim('deadline_claimed')}{skip} RETURNING id, deadline_at",
                [
                    lease_time(now, held_at) + lease,
                    self.incarnation,
                    *params,
                    lease_time(now, held_at),
                    self.incarnation,
                    *paused,
                ],
            )
        return [r[0] for r in sorted(rows, key=lambda r: (r[1], r[0]))]

    async def release_deadline(self, match_id: int) -> None:
        """Give a claimed deadline notice back (not delivered this time)."""
        await self._release("matches", "deadline_claimed", "id", match_id)

    async def set_deadline_notice(self, match_id: int, expected_version: int, level: int) -> bool:
        """Remember what was sent about the current deadline (its claim ends); False if the match changed."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET deadline_notice = ?, deadline_claimed_until = NULL"
                " WHERE id = ? AND version = ? AND deadline_notice < ?",
                (level, match_id, expected_version, level),
            )
            return cursor.rowcount == 1

    async def hold_warnings(self, match_id: int, expected_version: int, until: float) -> bool:
        """No time-limit warning before ``until`` (the mover's morning); the deadline itself stays."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET warnings_held_until = ?, deadline_claimed_until = NULL"
                " WHERE id = ? AND version = ?",
                (until, match_id, expected_version),
            )
            return cursor.rowcount == 1

    async def extend_deadline(self, match_id: int, expected_version: int, seconds: float) -> bool:
        """Push the current turn's deadline back (a vacation), if the turn is still the one that was read."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET deadline_at = deadline_at + ?, deadline_notice = 0"
                " WHERE id = ? AND version = ? AND status = 'active' AND deadline_at IS NOT NULL",
                (seconds, match_id, expected_version),
            )
            return cursor.rowcount == 1

    async def add_vacation(self, user_id: int, starts_at: float, ends_at: float) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO vacations (user_id, starts_at, ends_at) VALUES (?, ?, ?)", (user_id, starts_at, ends_at)
            )

    async def vacation_until(self, user_id: int, now: float) -> float | None:
        row = await self._one(
            "SELECT MAX(ends_at) FROM vacations WHERE user_id = ? AND starts_at <= ? AND ends_at > ?",
            (user_id, now, now),
        )
        return row[0] if row and row[0] is not None else None

    async def vacation_seconds_since(self, user_id: int, since: float) -> float:
        row = await self._one(
            "SELECT COALESCE(SUM(ends_at - starts_at), 0) FROM vacations WHERE user_id = ? AND starts_at >= ?",
            (user_id, since),
        )
        return float(row[0]) if row else 0.0
