"""PostgreSQL: the lobby: seats taken and left, the start of a match, a lobby cancelled.

The protocol, with what each method promises: bot/store/lobby.py.
"""

from __future__ import annotations

import json
from typing import Any

from ...domain.errors import VersionConflict
from ...domain.model import ReminderPlan, SeatRow
from ..reminders import reminder_at_sql
from .plumbing import PostgresPlumbing, bump_version, rows_touched


class PostgresLobby(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def open_lobbies(self, creator_id: int, guild_id: int) -> int:
        """How many lobbies this user created in this server that are still waiting for players."""
        row = await self._fetchrow(
            "SELECT COUNT(*) FROM matches WHERE creator_id = $1 AND guild_id = $2 AND status = 'lobby'",
            creator_id,
            guild_id,
        )
        return int(row[0]) if row else 0

    async def lobby_change(
        self,
        match_id: int,
        expected_version: int,
        *,
        now: float,
        accept_user: int | None = None,
        remove_user: int | None = None,
        add_seat: SeatRow | None = None,
    ) -> None:
        """One change to a lobby, refused if another change happened first."""
        async with self.transaction() as db:
            await bump_version(db, match_id, expected_version, now, "lobby")
            if accept_user is not None:
                await db.execute(
                    "UPDATE seats SET accepted = 1 WHERE match_id = $1 AND user_id = $2", match_id, accept_user
                )
            if remove_user is not None:
                await db.execute("DELETE FROM seats WHERE match_id = $1 AND user_id = $2", match_id, remove_user)
            if add_seat is not None:
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, name, accepted) VALUES ($1, $2, $3, $4, 1)",
                    match_id,
                    add_seat.seat,
                    add_seat.user_id,
                    add_seat.name,
                )

    async def start_match(
        self,
        match_id: int,
        expected_version: int,
        *,
        seats: list[SeatRow],
        state: dict[str, Any],
        now: float,
        reminder: ReminderPlan | None,
        deadline_at: float | None = None,
        turn_allowance: float | None = None,
    ) -> None:
        """Turn a lobby into an active match with its final seats (and banks), in one transaction."""
        async with self.transaction() as db:
            await bump_version(db, match_id, expected_version, now, "lobby")
            await db.execute("DELETE FROM seats WHERE match_id = $1", match_id)
            await db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted, computer, bank)"
                " VALUES ($1, $2, $3, $4, 1, $5, $6)",
                [(match_id, s.seat, s.user_id, s.name, s.computer, s.bank) for s in seats],
            )
            await db.execute(
                "UPDATE matches SET status = 'active', players = $2, state = $3, turn_started_at = $4,"
                " deadline_at = $5, deadline_notice = 0, turn_allowance = $6, warnings_held_until = NULL WHERE id = $1",
                match_id,
                len(seats),
                json.dumps(state),
                now,
                deadline_at,
                turn_allowance,
            )
            await db.execute("DELETE FROM reminders WHERE match_id = $1", match_id)
            if reminder is not None:
                at = reminder_at_sql(now="$5", user="$2", guild="$4", default="$6")
                await db.execute(
                    f"INSERT INTO reminders (match_id, user_id, ply, remind_at) VALUES ($1, $2, $3, {at})",
                    match_id,
                    reminder.user_id,
                    reminder.ply,
                    reminder.guild_id,
                    now,
                    reminder.default_hours,
                )

    async def cancel_match(self, match_id: int, expected_version: int, now: float) -> None:
        status = await self._execute(
            "UPDATE matches SET version = version + 1, updated_at = $1, status = 'cancelled'"
            " WHERE id = $2 AND version = $3 AND status = 'lobby'",
            now,
            match_id,
            expected_version,
        )
        if rows_touched(status) != 1:
            raise VersionConflict(match_id)
