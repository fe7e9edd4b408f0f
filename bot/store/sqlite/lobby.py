"""SQLite: the lobby: seats taken and left, the start of a match, a lobby cancelled.

The protocol, with what each method promises: bot/store/lobby.py.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ...domain.model import ReminderPlan, SeatRow
from .plumbing import SqlitePlumbing, bump_version_now, set_reminder_now


class SqliteLobby(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def open_lobbies(self, creator_id: int, guild_id: int) -> int:
        """How many lobbies this user created in this server that are still waiting for players."""
        row = await self._one(
            "SELECT COUNT(*) FROM matches WHERE creator_id = ? AND guild_id = ? AND status = 'lobby'",
            (creator_id, guild_id),
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
            await self._bump_version(db, match_id, expected_version, now, status="lobby")
            if accept_user is not None:
                await db.execute(
                    "UPDATE seats SET accepted = 1 WHERE match_id = ? AND user_id = ?", (match_id, accept_user)
                )
            if remove_user is not None:
                await db.execute("DELETE FROM seats WHERE match_id = ? AND user_id = ?", (match_id, remove_user))
            if add_seat is not None:
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, name, accepted) VALUES (?, ?, ?, ?, 1)",
                    (match_id, add_seat.seat, add_seat.user_id, add_seat.name),
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

        def write(conn: sqlite3.Connection) -> None:
            bump_version_now(conn, match_id, expected_version, now, "lobby")
            conn.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
            conn.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted, computer, bank)"
                " VALUES (?, ?, ?, ?, 1, ?, ?)",
                [(match_id, seat.seat, seat.user_id, seat.name, seat.computer, seat.bank) for seat in seats],
            )
            conn.execute(
                "UPDATE matches SET status = 'active', players = ?, state = ?, turn_started_at = ?, deadline_at = ?,"
                " deadline_notice = 0, turn_allowance = ?, warnings_held_until = NULL WHERE id = ?",
                (len(seats), json.dumps(state), now, deadline_at, turn_allowance, match_id),
            )
            set_reminder_now(conn, match_id, reminder, now)

        await self._transact(write)

    async def cancel_match(self, match_id: int, expected_version: int, now: float) -> None:
        async with self.transaction() as db:
            await self._bump_version(db, match_id, expected_version, now, status="lobby")
            await db.execute("UPDATE matches SET status = 'cancelled' WHERE id = ?", (match_id,))
