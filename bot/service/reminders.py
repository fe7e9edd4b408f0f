"""Turn reminders: which are due, and what a delivery (or a refusal everywhere) changes."""

from __future__ import annotations

from ..domain.errors import StalePosition
from ..domain.model import MatchRow, ReminderRow
from ..domain.outcome import ReminderJob
from ..domain.quiet import held_until
from ..domain.seats import game_of, user_to_move
from .core import MatchCore

HOUR = 3600.0
# How long a process holds what it claimed (a reminder, a time-limit notice, a board, a notice of a pause) before
# another may take it: far longer than a delivery takes, short enough that a dead process's work is soon resumed.
CLAIM_LEASE = 300.0
MAX_ROW_ID = 2**63 - 1  # a ply from a custom id past SQLite's 64 bits names no reminder


class ReminderFlow(MatchCore):
    async def due_reminders(self) -> list[ReminderJob]:
        """Every due reminder, now held by this process."""
        jobs, _ = await self.due_reminder_batch(None)
        return jobs

    async def due_reminder_batch(self, limit: int | None) -> tuple[list[ReminderJob], bool]:
        """At most ``limit`` due reminders, the most overdue, now held by this process; and whether more may
        be due. A pass sends a batch before claiming the next, so no claim outlives its lease while it waits
        its turn behind thousands of others (another process would then send it again)."""
        now = self.clock.now()
        jobs = []
        rows = await self.store.claim_due_reminders(now, CLAIM_LEASE, held_at=self.clock.lease_now(), limit=limit)
        for row in rows:
            job = await self.for_one_match(row.match_id, self._reminder_job(row, now))
            if job is not None:
                jobs.append(job)
        return jobs, limit is not None and len(rows) >= limit

    async def _reminder_job(self, row: ReminderRow, now: float) -> ReminderJob | None:
        match = await self.store.get_match(row.match_id)
        if match is None or match.status != "active" or not await self.usable(match):
            return None
        game = game_of(match)
        if user_to_move(match, game) != row.user_id or game.ply != row.ply:
            return None  # the turn moved on: never remind someone whose turn it is not
        prefs = await self.store.get_preferences(row.user_id, match.guild_id)
        delay = (prefs.delay_hours or await self.schedule.server_reminder_hours(match.guild_id)) * HOUR
        away_until = await self.store.vacation_until(row.user_id, now)
        if away_until is not None:  # no reminders during a vacation: the next one comes a delay after it
            await self.store.reminder_sent(match.id, row.ply, now, away_until + delay)
            return None
        if not prefs.reminders:
            await self.store.reminder_sent(match.id, row.ply, now, now + delay)
            return None
        morning = held_until(prefs, now)
        if morning is not None:  # the player's night: the reminder waits for the morning, in the store
            await self.store.postpone_reminder(match.id, row.ply, morning)
            return None
        moves = await self.store.moves(match.id)
        last = next((m for m in reversed(moves) if m.kind == "turn"), None)
        return ReminderJob(
            match,
            game,
            row.user_id,
            row.ply,
            prefs.via,
            now - (match.turn_started_at or now),
            (last.seat, last.notation) if last is not None else None,
            now + delay,
        )

    async def reminder_done(self, job: ReminderJob) -> bool:
        return await self.store.reminder_sent(job.match.id, job.ply, self.clock.now(), job.next_at)

    async def snooze(self, match_id: int, user_id: int, ply: int) -> MatchRow:
        """No more reminders for this turn of the match; the match, for the answer."""
        match = await self.get(match_id)
        if 0 <= ply <= MAX_ROW_ID and await self.store.snooze(match_id, user_id, ply):
            return match
        raise StalePosition("reminder_out_of_date")

    async def release_reminder(self, job: ReminderJob) -> None:
        """Not delivered this time: the reminder goes back, for the next pass of any process."""
        await self.store.release_reminder(job.match.id)

    async def give_up_reminder(self, match_id: int, user_id: int, ply: int) -> bool:
        """Stop the reminders of this turn (none could be delivered); False if the turn moved on meanwhile."""
        return await self.store.snooze(match_id, user_id, ply)

    async def refused_try(self, match_id: int, notice: str, version: int) -> int:
        """Count one more try of a notice that no place would take, for this version of the match; the count."""
        return await self.store.count_refused_try(match_id, notice, version)
