"""SQLite: reminders and their claims, and the count of refused tries of a notice.

The protocol, with what each method promises: bot/store/reminders.py.
"""

from __future__ import annotations

import sqlite3

from ...domain.model import ReminderRow
from .leases import free_claim
from .plumbing import SqlitePlumbing, lease_time


class SqliteReminders(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def claim_due_reminders(
        self, now: float, lease: float, held_at: float | None = None, limit: int | None = None
    ) -> list[ReminderRow]:
        """Due reminders nobody holds, the ``limit`` most overdue, claimed for ``lease`` seconds (each goes to
        one process only)."""
        async with self.transaction() as db:
            rows = await db.execute_fetchall(
                "UPDATE reminders SET claimed_until = ?, claimed_by = ?"
                " WHERE match_id IN (SELECT match_id FROM reminders"
                f" WHERE remind_at <= ? AND snoozed = 0 AND {free_claim('claimed')} ORDER BY remind_at LIMIT ?)"
                " RETURNING match_id, user_id, ply, remind_at, last_sent_at, snoozed",
                (
                    lease_time(now, held_at) + lease,
                    self.incarnation,
                    now,
                    lease_time(now, held_at),
                    self.incarnation,
                    -1 if limit is None else limit,
                ),
            )
        return sorted((ReminderRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows), key=lambda r: r.remind_at)

    async def release_reminder(self, match_id: int) -> None:
        """Give a claimed reminder back (not delivered this time): the next pass, in any process, tries again."""
        await self._release("reminders", "claimed", "match_id", match_id)

    async def get_reminder(self, match_id: int) -> ReminderRow | None:
        r = await self._one(
            "SELECT match_id, user_id, ply, remind_at, last_sent_at, snoozed FROM reminders WHERE match_id = ?",
            (match_id,),
        )
        return ReminderRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) if r else None

    async def reminder_sent(self, match_id: int, ply: int, now: float, next_at: float) -> bool:
        """Mark a reminder as sent (its claim ends); False if the turn moved on meanwhile."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE reminders SET last_sent_at = ?, remind_at = ?, claimed_until = NULL"
                " WHERE match_id = ? AND ply = ?",
                (now, next_at, match_id, ply),
            )
            return cursor.rowcount == 1

    async def snooze(self, match_id: int, user_id: int, ply: int) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE reminders SET snoozed = 1, claimed_until = NULL WHERE match_id = ? AND user_id = ? AND ply = ?",
                (match_id, user_id, ply),
            )
            return cursor.rowcount == 1

    async def postpone_reminder(self, match_id: int, ply: int, until: float) -> bool:
        """Move a reminder's due time to ``until`` (the player's morning), nothing marked sent."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE reminders SET remind_at = ?, claimed_until = NULL WHERE match_id = ? AND ply = ?",
                (until, match_id, ply),
            )
            return cursor.rowcount == 1

    async def count_refused_try(self, match_id: int, notice: str, version: int) -> int:
        """One more refused try of ``notice`` about the match at ``version``; the tries so far at that version."""

        def count(conn: sqlite3.Connection) -> int:
            conn.execute(
                "INSERT INTO refused_notices (match_id, notice, version, tries) VALUES (?, ?, ?, 1)"
                " ON CONFLICT (match_id, notice) DO UPDATE SET version = excluded.version,"
                " tries = CASE WHEN version = excluded.version THEN tries + 1 ELSE 1 END",
                (match_id, notice, version),
            )
            row = conn.execute(
                "SELECT tries FROM refused_notices WHERE match_id = ? AND notice = ?", (match_id, notice)
            ).fetchone()
            return int(row[0])

        return await self._transact(count)
