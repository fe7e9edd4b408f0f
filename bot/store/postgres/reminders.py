"""PostgreSQL: reminders and their claims, and the count of refused tries of a notice.

The protocol, with what each method promises: bot/store/reminders.py.
"""

from __future__ import annotations

from ...domain.model import ReminderRow
from .leases import free_claim
from .plumbing import PostgresPlumbing, in_range, rows_touched


class PostgresReminders(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def claim_due_reminders(
        self, now: float, lease: float, held_at: float | None = None, limit: int | None = None
    ) -> list[ReminderRow]:
        """Due reminders nobody holds, the ``limit`` most overdue, claimed for ``lease`` seconds (each goes to
        one process only: rows another pass is claiming are skipped, not waited for)."""
        held = now if held_at is None else held_at
        rows = await self._fetch(
            "UPDATE reminders SET claimed_until = $1, claimed_by = $5 WHERE match_id IN (SELECT match_id FROM reminders"
            f" WHERE remind_at <= $2 AND snoozed = 0 AND {free_claim('claimed', '$3', '$5')}"
            " ORDER BY remind_at LIMIT $4 FOR UPDATE SKIP LOCKED)"
            " RETURNING match_id, user_id, ply, remind_at, last_sent_at, snoozed",
            held + lease,
            now,
            held,
            limit,
            self.incarnation,
        )
        return sorted((ReminderRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows), key=lambda r: r.remind_at)

    async def release_reminder(self, match_id: int) -> None:
        """Give a claimed reminder back (not delivered this time): the next pass, in any process, tries again."""
        await self._release("reminders", "claimed", "match_id", match_id)

    async def get_reminder(self, match_id: int) -> ReminderRow | None:
        r = await self._fetchrow(
            "SELECT match_id, user_id, ply, remind_at, last_sent_at, snoozed FROM reminders WHERE match_id = $1",
            match_id,
        )
        return ReminderRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) if r else None

    async def reminder_sent(self, match_id: int, ply: int, now: float, next_at: float) -> bool:
        """Mark a reminder as sent (its claim ends); False if the turn moved on meanwhile."""
        status = await self._execute(
            "UPDATE reminders SET last_sent_at = $1, remind_at = $2, claimed_until = NULL"
            " WHERE match_id = $3 AND ply = $4",
            now,
            next_at,
            match_id,
            ply,
        )
        return rows_touched(status) == 1

    async def snooze(self, match_id: int, user_id: int, ply: int) -> bool:
        if not in_range(match_id, user_id, ply):
            return False
        status = await self._execute(
            "UPDATE reminders SET snoozed = 1, claimed_until = NULL WHERE match_id = $1 AND user_id = $2 AND ply = $3",
            match_id,
            user_id,
            ply,
        )
        return rows_touched(status) == 1

    async def postpone_reminder(self, match_id: int, ply: int, until: float) -> bool:
        """Move a reminder's due time to ``until`` (the player's morning), nothing marked sent."""
        status = await self._execute(
            "UPDATE reminders SET remind_at = $1, claimed_until = NULL WHERE match_id = $2 AND ply = $3",
            until,
            match_id,
            ply,
        )
        return rows_touched(status) == 1

    async def count_refused_try(self, match_id: int, notice: str, version: int) -> int:
        """One more refused try of ``notice`` about the match at ``version``; the tries so far at that version."""
        row = await self._fetchrow(
            "INSERT INTO refused_notices AS r (match_id, notice, version, tries) VALUES ($1, $2, $3, 1)"
            " ON CONFLICT (match_id, notice) DO UPDATE SET version = excluded.version,"
            " tries = CASE WHEN r.version = excluded.version THEN r.tries + 1 ELSE 1 END RETURNING tries",
            match_id,
            notice,
            version,
        )
        assert row is not None  # an upsert returns its row
        return int(row[0])
