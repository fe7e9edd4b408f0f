"""PostgreSQL: matches and their moves: creating, reading and listing matches, recording a move.

The protocol, with what each method promises: bot/store/matches.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import asyncpg

from ...domain.bank import BankClock
from ...domain.errors import StorageFull, VersionConflict
from ...domain.model import MatchRow, MoveRow, RecordedMove, ReminderPlan, SeatRow
from ..reminders import reminder_at_sql
from ..rows import MATCH_COLUMNS, clock_columns, move_from
from .plumbing import DOWN, READ_MATCH, PostgresPlumbing, in_range, match_row


class PostgresMatches(PostgresPlumbing):
    """Mixed into PostgresStore."""

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
            match_id = await db.fetchval(
                "INSERT INTO matches (game, options, players, guild_id, channel_id, creator_id, status,"
                " created_at, updated_at, days_per_move, rated, hints, analysis, clock_bank, clock_increment,"
                " clock_cap) VALUES ($1, $2, $3, $4, $5, $6, 'lobby', $7, $7, $8, $9, $10, $11, $12, $13, $14)"
                " RETURNING id",
                game,
                json.dumps(options),
                players,
                guild_id,
                channel_id,
                creator_id,
                now,
                days_per_move,
                int(rated),
                int(hints),
                int(analysis),
                *clock_columns(clock),
            )
            await db.executemany(
                "INSERT INTO seats (match_id, seat, user_id, name, accepted, computer) VALUES ($1, $2, $3, $4, $5, $6)",
                [(match_id, s.seat, s.user_id, s.name, int(s.accepted), s.computer) for s in seats],
            )
        return int(match_id)

    async def get_match(self, match_id: int) -> MatchRow | None:
        if not in_range(match_id):  # a forged id past 64 bits names no match
            return None
        row = await self._fetchrow(READ_MATCH + " WHERE m.id = $1", match_id)
        return match_row(row) if row is not None else None

    async def match_by_thread(self, thread_id: int) -> MatchRow | None:
        if not in_range(thread_id):
            return None
        row = await self._fetchrow(READ_MATCH + " WHERE m.thread_id = $1 ORDER BY m.id LIMIT 1", thread_id)
        return match_row(row) if row is not None else None

    async def matches_of_user(self, user_id: int, guild_id: int | None, statuses: tuple[str, ...]) -> list[MatchRow]:
        if not in_range(user_id, guild_id or 0):
            return []
        rows = await self._fetch(
            READ_MATCH + " WHERE m.id IN (SELECT s.match_id FROM seats s WHERE s.user_id = $1)"
            " AND m.status = ANY($2::text[]) AND ($3::bigint IS NULL OR m.guild_id = $3)"
            " AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.match_id = m.id) ORDER BY m.id",
            user_id,
            list(statuses),
            guild_id,
        )
        return [m for m in map(match_row, rows) if m.quarantine is None]

    async def active_match_ids(self) -> list[int]:
        return [r[0] for r in await self._fetch("SELECT id FROM matches WHERE status = 'active' ORDER BY id")]

    async def active_computer_match_ids(self) -> list[int]:
        """Matches in play with a computer seat (the computer's turns a stop may have interrupted)."""
        query = (
            "SELECT id FROM matches m WHERE status = 'active'"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id AND s.computer IS NOT NULL) ORDER BY id"
        )
        return [r[0] for r in await self._fetch(query)]

    async def active_matches_of_guild(self, guild_id: int, limit: int = 50) -> list[MatchRow]:
        rows = await self._fetch(
            READ_MATCH + " WHERE m.guild_id = $1 AND m.status = 'active'"
            " AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.match_id = m.id) ORDER BY m.updated_at DESC LIMIT $2",
            guild_id,
            limit,
        )
        return [m for m in map(match_row, rows) if m.quarantine is None]

    async def update_match_fields(self, match_id: int, **fields: Any) -> None:
        allowed = {"thread_id", "lobby_message_id"}
        assert set(fields) <= allowed, fields
        assignments = ", ".join(f"{k} = ${i}" for i, k in enumerate(fields, start=2))
        await self._execute(f"UPDATE matches SET {assignments} WHERE id = $1", match_id, *fields.values())

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
        """Record one move and the new state atomically: one statement, one round trip.

        The version check, the log row, the new position, the turn's start, deadline and allowance, the
        settled bank of the player whose turn ended, a resignation, the offers it lapses and the next reminder
        are data-modifying CTEs of one statement (atomic on its own); the match comes back as committed, with
        the posted offers the move lapsed.
        """
        remind = reminder is not None and turn_changed and not finished
        params = [
            match_id,
            expected_version,
            now,
            json.dumps(state),
            "finished" if finished else "active",
            json.dumps(result) if result is not None else None,
            turn_changed,
            finished,
            deadline_at,
            move.ply,
            move.seat,
            move.user_id,
            move.kind,
            move.notation,
            move.entered or move.notation,
            json.dumps(move.events),
            resigned_seat,
            remind,
            reminder.user_id if reminder else None,
            reminder.guild_id if reminder else None,
            reminder.default_hours if reminder else None,
            reminder.ply if reminder else None,
            bank[0] if bank else None,
            bank[1] if bank else None,
            turn_allowance,
            int(move.conditional),
        ]
        at = reminder_at_sql(now="$3", user="$19", guild="$20", default="$21")
        query = f"""
            WITH bumped AS (
                UPDATE matches SET version = version + 1, updated_at = $3, state = $4, status = $5, result = $6,
                    turn_started_at = CASE WHEN $7 THEN $3 ELSE turn_started_at END,
                    deadline_at = CASE WHEN $8 THEN NULL WHEN $7 THEN $9::double precision ELSE deadline_at END,
                    deadline_notice = CASE WHEN $7 OR $8 THEN 0 ELSE deadline_notice END,
                    deadline_claimed_until = CASE WHEN $7 OR $8 THEN NULL ELSE deadline_claimed_until END,
                    deadline_claimed_by = CASE WHEN $7 OR $8 THEN NULL ELSE deadline_claimed_by END,
                    turn_allowance = CASE WHEN $8 THEN NULL WHEN $7 THEN $25::double precision ELSE turn_allowance END,
                    warnings_held_until = CASE WHEN $7 OR $8 THEN NULL ELSE warnings_held_until END
                WHERE id = $1 AND version = $2 AND status = 'active'
                RETURNING {MATCH_COLUMNS}
            ), logged AS (
                INSERT INTO moves (match_id, seq, ply, seat, user_id, kind, notation, entered, events, created_at,
                    conditional)
                SELECT id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE match_id = $1),
                    $10, $11, $12, $13, $14, $15, $16, $3, $26 FROM bumped
            ), seated AS (
                -- one UPDATE for both (a resignation on one's own turn settles that seat's bank too): two
                -- CTEs updating one row in one statement would keep only one of the changes
                UPDATE seats SET resigned = CASE WHEN seat = $17 THEN 1 ELSE resigned END,
                    bank = CASE WHEN seat = $23::integer THEN $24::double precision ELSE bank END
                WHERE match_id = $1 AND (seat = $17 OR seat = $23::integer) AND EXISTS (SELECT 1 FROM bumped)
            ), lapsed AS (
                DELETE FROM offers WHERE match_id = $1 AND EXISTS (SELECT 1 FROM bumped)
                RETURNING channel_id, message_id
            ), unreminded AS (
                DELETE FROM reminders WHERE match_id = $1 AND EXISTS (SELECT 1 FROM bumped)
                    AND ($8 OR ($7 AND NOT $18))
            ), reminded AS (
                INSERT INTO reminders (match_id, user_id, ply, remind_at)
                SELECT $1, $19, $22, {at} FROM bumped WHERE $18
                ON CONFLICT (match_id) DO UPDATE SET user_id = excluded.user_id, ply = excluded.ply,
                    remind_at = excluded.remind_at, last_sent_at = NULL, snoozed = 0, claimed_until = NULL
            )
            SELECT b.*,
                (SELECT json_agg(json_build_array(s.seat, s.user_id::text, s.name, s.accepted,
                    CASE WHEN s.seat = $17 THEN 1 ELSE s.resigned END, s.computer,
                    CASE WHEN s.seat = $23::integer THEN $24::double precision ELSE s.bank END) ORDER BY s.seat)
                    FROM seats s WHERE s.match_id = $1),
                (SELECT q.reason FROM quarantine q WHERE q.match_id = $1),
                (SELECT json_agg(json_build_array(l.channel_id::text, l.message_id::text)) FROM lapsed l
                    WHERE l.message_id IS NOT NULL)
            FROM bumped b
        """
        try:
            row = await self.pool.fetchrow(query, *params)
        except asyncpg.exceptions.DiskFullError as error:
            raise StorageFull(str(error)) from None
        except DOWN as error:
            raise await self._down(error) from None
        if row is None:
            raise VersionConflict(match_id)
        values = list(row)
        lapsed = [(int(c), int(m)) for c, m in json.loads(values[-1] or "[]")]
        return RecordedMove(match_row(values[:-1]), lapsed)

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._fetch(
            "SELECT seq, ply, seat, user_id, kind, notation, events, created_at, entered, conditional FROM moves"
            " WHERE match_id = $1 ORDER BY seq",
            match_id,
        )
        return [move_from(match_id, r) for r in rows]
