"""SQLite: matches and their moves: creating, reading and listing matches, recording a move.

The protocol, with what each method promises: bot/store/matches.py.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from ...domain.bank import BankClock
from ...domain.model import MatchRow, MoveRow, RecordedMove, ReminderPlan, SeatRow
from ..rows import move_from
from .plumbing import SqlitePlumbing, bump_version_now, read_match, set_reminder_now


class SqliteMatches(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def create_match(
        self,
        *,
        game: str,
        options: dict[str, Any],
        players: int,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        seats: Iterable[SeatRow],
        now: float,
        days_per_move: float | None = None,
        rated: bool = True,
        hints: bool = False,
        analysis: bool = True,
        clock: BankClock | None = None,
    ) -> int:
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO matches (game, options, players, guild_id, channel_id, creator_id, status,"
                " created_at, updated_at, days_per_move, rated, hints, analysis, clock_bank, clock_increment,"
                " clock_cap) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    json.dumps(options),
                    players,
                    guild_id,
                    channel_id,
                    creator_id,
                    now,
                    now,
                    days_per_move,
                    int(rated),
                    int(hints),
                    int(analysis),
                    *((clock.initial, clock.increment, clock.cap) if clock else (None, None, None)),
                ),
            )
            match_id = cursor.lastrowid
            assert match_id is not None
            for seat in seats:
                await db.execute(
                    "INSERT INTO seats (match_id, seat, user_id, name, accepted, computer) VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, seat.seat, seat.user_id, seat.name, int(seat.accepted), seat.computer),
                )
        return match_id

    async def get_match(self, match_id: int) -> MatchRow | None:
        if not -(2**63) <= match_id < 2**63:  # a forged id past SQLite's 64 bits names no match
            return None
        return await self._run(read_match, match_id)

    async def match_by_thread(self, thread_id: int) -> MatchRow | None:
        if not -(2**63) <= thread_id < 2**63:
            return None

        def read(conn: sqlite3.Connection) -> MatchRow | None:
            row = conn.execute("SELECT id FROM matches WHERE thread_id = ?", (thread_id,)).fetchone()
            return read_match(conn, row[0]) if row else None

        return await self._run(read)

    async def matches_of_user(self, user_id: int, guild_id: int | None, statuses: tuple[str, ...]) -> list[MatchRow]:
        marks = ",".join("?" for _ in statuses)
        query = (
            f"SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id WHERE s.user_id = ?"
            f" AND m.status IN ({marks}) AND m.id NOT IN (SELECT match_id FROM quarantine)"
        )
        params: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            query += " AND m.guild_id = ?"
            params.append(guild_id)
        ids = [r[0] for r in await self._all(query + " ORDER BY m.id", params)]
        return [m for m in [await self.get_match(i) for i in ids] if m is not None and m.quarantine is None]

    async def active_match_ids(self) -> list[int]:
        return [r[0] for r in await self._all("SELECT id FROM matches WHERE status = 'active' ORDER BY id")]

    async def active_computer_match_ids(self) -> list[int]:
        """Matches in play with a computer seat (the computer's turns a stop may have interrupted)."""
        query = (
            "SELECT id FROM matches m WHERE status = 'active'"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.computer IS NOT NULL) ORDER BY id"
        )
        return [r[0] for r in await self._all(query)]

    async def active_matches_of_guild(self, guild_id: int, limit: int = 50) -> list[MatchRow]:
        rows = await self._all(
            "SELECT id FROM matches WHERE guild_id = ? AND status = 'active'"
            " AND id NOT IN (SELECT match_id FROM quarantine) ORDER BY updated_at DESC LIMIT ?",
            (guild_id, limit),
        )
        return [m for m in [await self.get_match(r[0]) for r in rows] if m is not None and m.quarantine is None]

    async def update_match_fields(self, match_id: int, **fields: Any) -> None:
        allowed = {"thread_id", "lobby_message_id"}
        assert set(fields) <= allowed, fields
        assignments = ", ".join(f"{k} = ?" for k in fields)
        async with self.transaction() as db:
            await db.execute(f"UPDATE matches SET {assignments} WHERE id = ?", (*fields.values(), match_id))

    async def apply_move(self, match_id: int, expected_version: int, **change: Any) -> int:
        """Record one move and the new state atomically (see :meth:`record_move`). Returns the new version."""
        return (await self.record_move(match_id, expected_version, **change)).match.version

    async def record_move(
        self,
        match_id: int,
        expected_version: int,
        *,
        move: MoveRow,
        state: dict[str, Any],
        finished: bool,
        result: dict[str, Any] | None,
        turn_changed: bool,
        resigned_seat: int | None,
        reminder: ReminderPlan | None,
        now: float,
        deadline_at: float | None = None,
        bank: tuple[int, float] | None = None,
        turn_allowance: float | None = None,
    ) -> RecordedMove:
        """Record one move and the new state atomically, in one trip to the database thread.

        When the turn changes, the new mover's deadline (``deadline_at``, None without a time limit)
        replaces the old one, with their bank as ``turn_allowance``; a finished match has none. ``bank``
        (seat, seconds): the settled bank of the player whose turn ended. Any move lapses the pending
        offers: the posted ones are returned so their buttons can be retired, with the match as committed.
        """
        events = json.dumps(move.events)
        state_text = json.dumps(state)
        result_text = json.dumps(result) if result is not None else None

        def write(conn: sqlite3.Connection) -> RecordedMove:
            bump_version_now(conn, match_id, expected_version, now, "active")
            conn.execute(
                "INSERT INTO moves (match_id, seq, ply, seat, user_id, kind, notation, entered, events, created_at,"
                " conditional) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE match_id = ?),"
                " ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    match_id,
                    move.ply,
                    move.seat,
                    move.user_id,
                    move.kind,
                    move.notation,
                    move.entered or move.notation,
                    events,
                    now,
                    int(move.conditional),
                ),
            )
            conn.execute(
                "UPDATE matches SET state = ?, status = ?, result = ? WHERE id = ?",
                (state_text, "finished" if finished else "active", result_text, match_id),
            )
            if turn_changed:
                conn.execute("UPDATE matches SET turn_started_at = ? WHERE id = ?", (now, match_id))
            if turn_changed or finished:
                conn.execute(  # a new turn: its own deadline, and nobody's claim on the old one's notices
                    "UPDATE matches SET deadline_at = ?, deadline_notice = 0, turn_allowance = ?,"
                    " warnings_held_until = NULL, deadline_claimed_until = NULL, deadline_claimed_by = NULL"
                    " WHERE id = ?",
                    (None if finished else deadline_at, None if finished else turn_allowance, match_id),
                )
            if bank is not None:
                conn.execute("UPDATE seats SET bank = ? WHERE match_id = ? AND seat = ?", (bank[1], match_id, bank[0]))
            if resigned_seat is not None:
                conn.execute("UPDATE seats SET resigned = 1 WHERE match_id = ? AND seat = ?", (match_id, resigned_seat))
            lapsed = [
                (r[0], r[1])
                for r in conn.execute(
                    "SELECT channel_id, message_id FROM offers WHERE match_id = ? AND message_id IS NOT NULL",
                    (match_id,),
                )
            ]
            conn.execute("DELETE FROM offers WHERE match_id = ?", (match_id,))  # any move lapses offers
            if finished:
                conn.execute("DELETE FROM reminders WHERE match_id = ?", (match_id,))
            elif turn_changed:
                set_reminder_now(conn, match_id, reminder, now)
            match = read_match(conn, match_id)
            assert match is not None
            return RecordedMove(match, lapsed)

        return await self._transact(write)

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._all(
            "SELECT seq, ply, seat, user_id, kind, notation, events, created_at, entered, conditional FROM moves"
            " WHERE match_id = ? ORDER BY seq",
            (match_id,),
        )
        return [move_from(match_id, r) for r in rows]
