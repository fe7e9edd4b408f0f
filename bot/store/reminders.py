"""The Store protocol's part for reminders and their claims, and the count of refused tries of a notice.

bot/store/base.py's ``Store`` includes it; sqlite/reminders.py and postgres/reminders.py implement it.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import ReminderRow


def player_delay_sql(user: str, guild: str) -> str:
    """SQL: the player's reminder delay in the server (their row for it, else their global one, guild 0), as
    get_preferences reads it; ``user``, ``guild``: placeholders (``?`` or ``$n``)."""
    return (
        f"(SELECT p.delay_hours FROM preferences p WHERE p.user_id = {user} AND p.guild_id IN ({guild}, 0)"
        " ORDER BY p.guild_id DESC LIMIT 1)"
    )


def server_delay_sql(guild: str) -> str:
    """SQL: the server's default reminder delay (``/config``), or NULL."""
    return f"(SELECT g.reminder_hours FROM guild_settings g WHERE g.guild_id = {guild})"


def reminder_at_sql(now: str, user: str, guild: str, default: str) -> str:
    """SQL: when a turn's reminder falls due, timed in the transaction that starts the turn. The precedence (the
    player's delay, else the server's, else ``default``) is written here once for both dialects and every
    statement that times a reminder; Schedule.reminder_delay applies the same to what ``reminder_hours`` reads.
    SQLite's ``?`` placeholders bind in the order they appear: now, user, guild, guild, default."""
    return f"{now} + 3600.0 * COALESCE({player_delay_sql(user, guild)}, {server_delay_sql(guild)}, {default})"


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
