"""The Store protocol's part for reminders and their claims, and the count of refused tries of a notice.

bot/store/base.py's ``Store`` includes it; sqlite/reminders.py and postgres/reminders.py implement it.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import ReminderRow


class ReminderStore(Protocol):
    async def claim_due_reminders(
        self, now: float, lease: float, held_at: float | None = None, limit: int | None = None
    ) -> list[ReminderRow]:
        """Due reminders (at game time ``now``) nobody holds, at most ``limit`` of them (the most overdue),
        claimed for ``lease`` seconds of the lease clock from ``held_at`` (default ``now``; bot.domain.clock
        says why it may differ): each to one process only."""
        ...

    async def release_reminder(self, match_id: int) -> None:
        """Give a claimed reminder back (not delivered this time): the next pass, in any process, tries again."""
        ...

    async def get_reminder(self, match_id: int) -> ReminderRow | None: ...

    async def reminder_sent(self, match_id: int, ply: int, now: float, next_at: float) -> bool:
        """Mark a reminder as sent (its claim ends); False if the turn moved on meanwhile."""
        ...

    async def snooze(self, match_id: int, user_id: int, ply: int) -> bool: ...

    async def postpone_reminder(self, match_id: int, ply: int, until: float) -> bool:
        """Move a claimed reminder's due time to ``until`` (the player's morning), its claim ending, nothing
        marked sent; False if the turn moved on meanwhile."""
        ...

    async def count_refused_try(self, match_id: int, notice: str, version: int) -> int:
        """One more refused try of ``notice`` about the match at ``version``; the tries so far at that version."""
        ...
