"""PostgreSQL's tournaments (see bot/store/tournaments.py): every change one transaction whose first statement
is the compare-and-set on the event's version (its row lock makes a second writer wait, then find it moved)."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import asyncpg

from ...domain.tournament import NewRound, TournamentGame, TournamentRow
from ..sqlite.rows import game_from, tournament_from
from ..tournaments import GAME_COLUMNS, PLAYER_COLUMNS, TOURNAMENT_COLUMNS
from .leases import free_claim

_TOURNAMENT_LOCK = 7_357_004  # advisory (transaction) lock: one count-and-insert of a new event at a time

_BUMP = (
    "UPDATE tournaments SET version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3 AND status = $4"
    " RETURNING id"
)
_INSERT_MATCH = (
    "INSERT INTO matches (game, options, players, guild_id, channel_id, creator_id, status, state, version,"
    " created_at, updated_at, turn_started_at, days_per_move, deadline_at, rated, hints)"
    " SELECT game, options, $1, guild_id, channel_id, organizer_id, 'active', $2, 1, $3, $3, $3, days_per_move, $4,"
    " rated, 0 FROM tournaments WHERE id = $5 RETURNING id"
)
_REMINDER_AT = (
    "$4 + 3600.0 * COALESCE((SELECT p.delay_hours FROM preferences p WHERE p.user_id = $2"
    " AND p.guild_id IN ($5, 0) ORDER BY p.guild_id DESC LIMIT 1),"
    " (SELECT g.reminder_hours FROM guild_settings g WHERE g.guild_id = $5), $6)"
)

_INSERT_REMINDER = f"INSERT INTO reminders (match_id, user_id, ply, remind_at) VALUES ($1, $2, $3, {_REMINDER_AT})"


async def _read(db: Any, tournament_id: int) -> TournamentRow | None:
    row = await db.fetchrow(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1", tournament_id)
    if row is None:
        return None
    players = await db.fetch(
        f"SELECT {PLAYER_COLUMNS} FROM tournament_players WHERE tournament_id = $1 ORDER BY joined_at, user_id",
        tournament_id,
    )
    return tournament_from(list(row), [list(p) for p in players])


class _Undo(Exception):
    """Roll the transaction back: the change cannot be made as asked (full, absent, already withdrawn)."""


class PostgresTournaments:
    """Mixed into PostgresStore, whose ``transaction``, ``_fetch`` and ``pool`` it uses."""

    transaction: Callable[[], AbstractAsyncContextManager[asyncpg.Connection]]
    _fetch: Callable[..., Any]
    incarnation: str

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer_id: int,
        game: str,
        options: dict[str, Any],
        fmt: str,
        rounds: int,
        days_per_move: float | None,
        max_players: int,
        starts_at: float | None,
        rated: bool,
        now: float,
        most_live: int,
    ) -> int | None:
        async with self.transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1)", _TOURNAMENT_LOCK)
            live = await db.fetchval(
                "SELECT COUNT(*) FROM tournaments WHERE guild_id = $1 AND organizer_id = $2"
                " AND status IN ('open', 'running')",
                guild_id,
                organizer_id,
            )
            if live >= most_live:
                return None
            tournament_id = await db.fetchval(
                "INSERT INTO tournaments (guild_id, channel_id, organizer_id, game, options, format, rounds,"
                " days_per_move, max_players, starts_at, rated, status, created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12, $12) RETURNING id",
                guild_id,
                channel_id,
                organizer_id,
                game,
                json.dumps(options),
                fmt,
                rounds,
                days_per_move,
                max_players,
                starts_at,
                int(rated),
                now,
            )
        return int(tournament_id)

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        if not -(2**63) <= tournament_id < 2**63:
            return None
        async with self.transaction() as db:
            return await _read(db, tournament_id)

    async def tournaments_of_guild(self, guild_id: int, statuses: tuple[str, ...]) -> list[TournamentRow]:
        async with self.transaction() as db:
            ids = await db.fetch(
                "SELECT id FROM tournaments WHERE guild_id = $1 AND status = ANY($2::text[]) AND id NOT IN"
                " (SELECT tournament_id FROM tournament_quarantine) ORDER BY id",
                guild_id,
                list(statuses),
            )
            rows = [await _read(db, r["id"]) for r in ids]
        return [t for t in rows if t is not None]

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE tournaments SET message_id = $1 WHERE id = $2", message_id, tournament_id)

    async def _changed(
        self, tournament_id: int, expected: int, status: str, now: float, work: Callable[[Any], Any]
    ) -> bool:
        try:
            async with self.transaction() as db:
                if await db.fetchval(_BUMP, now, tournament_id, expected, status) is None:
                    return False
                await work(db)
        except _Undo:
            return False
        return True

    async def join_tournament(
        self, tournament_id: int, expected_version: int, user_id: int, name: str, now: float
    ) -> bool:
        async def work(db: Any) -> None:
            count = await db.fetchval("SELECT COUNT(*) FROM tournament_players WHERE tournament_id = $1", tournament_id)
            most = await db.fetchval("SELECT max_players FROM tournaments WHERE id = $1", tournament_id)
            seated = await db.fetchval(
                "SELECT 1 FROM tournament_players WHERE tournament_id = $1 AND user_id = $2", tournament_id, user_id
            )
            if count >= most or seated:
                raise _Undo
            await db.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at) VALUES ($1, $2, $3, $4)",
                tournament_id,
                user_id,
                name,
                now,
            )

        return await self._changed(tournament_id, expected_version, "open", now, work)

    async def leave_tournament(self, tournament_id: int, expected_version: int, user_id: int, now: float) -> bool:
        async def work(db: Any) -> None:
            done = await db.execute(
                "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2", tournament_id, user_id
            )
            if not done.endswith(" 1"):
                raise _Undo

        return await self._changed(tournament_id, expected_version, "open", now, work)

    async def withdraw_from_tournament(
        self, tournament_id: int, expected_version: int, user_id: int, now: float
    ) -> bool:
        async def work(db: Any) -> None:
            done = await db.execute(
                "UPDATE tournament_players SET withdrawn_at = $1 WHERE tournament_id = $2 AND user_id = $3"
                " AND withdrawn_at IS NULL",
                now,
                tournament_id,
                user_id,
            )
            if not done.endswith(" 1"):
                raise _Undo

        return await self._changed(tournament_id, expected_version, "running", now, work)

    async def store_round(
        self, tournament_id: int, expected_version: int, new: NewRound, now: float
    ) -> list[int] | None:
        starting = new.seeds is not None
        ids: list[int] = []

        async def work(db: Any) -> None:
            if starting:
                await db.execute(
                    "UPDATE tournaments SET status = 'running', rounds = $1 WHERE id = $2", new.rounds, tournament_id
                )
                await db.executemany(
                    "UPDATE tournament_players SET rating = $1 WHERE tournament_id = $2 AND user_id = $3",
                    [(rating, tournament_id, user_id) for user_id, rating in (new.seeds or {}).items()],
                )
            await db.execute("UPDATE tournaments SET round = $1 WHERE id = $2", new.round, tournament_id)
            for table in new.tables:
                match_id = await db.fetchval(
                    _INSERT_MATCH, len(table.seats), json.dumps(table.state), now, table.deadline_at, tournament_id
                )
                await db.executemany(
                    "INSERT INTO seats (match_id, seat, user_id, name, accepted) VALUES ($1, $2, $3, $4, 1)",
                    [(match_id, s.seat, s.user_id, s.name) for s in table.seats],
                )
                plan = table.reminder
                if plan is not None:
                    await db.execute(
                        _INSERT_REMINDER,
                        match_id,
                        plan.user_id,
                        plan.ply,
                        now,
                        plan.guild_id,
                        plan.default_hours,
                    )
                await db.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, division, match_id)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    tournament_id,
                    table.round,
                    table.board,
                    table.division,
                    match_id,
                )
                ids.append(int(match_id))
            for number, (round_number, user_id) in enumerate(new.byes, start=1):
                await db.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, division, bye_user_id)"
                    " VALUES ($1, $2, $3, 1, $4)",
                    tournament_id,
                    round_number,
                    1000 + number,
                    user_id,
                )

        done = await self._changed(tournament_id, expected_version, "open" if starting else "running", now, work)
        return ids if done else None

    async def end_tournament(self, tournament_id: int, expected_version: int, status: str, now: float) -> bool:
        async with self.transaction() as db:
            done = await db.fetchval(
                "UPDATE tournaments SET status = $1, version = version + 1, updated_at = $2"
                " WHERE id = $3 AND version = $4 AND status IN ('open', 'running') RETURNING id",
                status,
                now,
                tournament_id,
                expected_version,
            )
        return done is not None

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS} FROM tournament_games WHERE tournament_id = $1 ORDER BY round, board", tournament_id
        )
        return [game_from(tournament_id, list(r)) for r in rows]

    async def tournament_of_match(self, match_id: int) -> int | None:
        rows = await self._fetch("SELECT tournament_id FROM tournament_games WHERE match_id = $1", match_id)
        return int(rows[0][0]) if rows else None

    async def tournaments_to_tend(self, now: float) -> list[int]:
        rows = await self._fetch(
            "SELECT id FROM tournaments WHERE (status = 'running' OR (status = 'finished' AND podium_told = 0)"
            " OR (status = 'open' AND starts_at IS NOT NULL AND starts_at <= $1)"
            " OR status NOT IN ('open', 'running', 'finished', 'cancelled'))"  # damaged: looked at, then set aside
            " AND id NOT IN (SELECT tournament_id FROM tournament_quarantine) ORDER BY id",
            now,
        )
        return [int(r[0]) for r in rows]

    async def claim_tournament_notice(self, tournament_id: int, round_number: int) -> bool:
        async with self.transaction() as db:
            if round_number == 0:
                done = await db.fetchval(
                    "UPDATE tournaments SET podium_told = 1 WHERE id = $1 AND podium_told = 0 RETURNING id",
                    tournament_id,
                )
            else:
                done = await db.fetchval(
                    "UPDATE tournaments SET told_round = $1 WHERE id = $2 AND told_round < $1 RETURNING id",
                    round_number,
                    tournament_id,
                )
        return done is not None

    async def claim_tournament_standings(self, tournament_id: int, round_number: int, now: float, lease: float) -> bool:
        async with self.transaction() as db:
            done = await db.fetchval(
                "UPDATE tournaments SET standings_claimed_until = $1, standings_claimed_by = $5"
                f" WHERE id = $2 AND standings_told < $3 AND {free_claim('standings_claimed', '$4', '$5')}"
                " RETURNING id",
                now + lease,
                tournament_id,
                round_number,
                now,
                self.incarnation,
            )
        return done is not None

    async def tournament_standings_posted(self, tournament_id: int, round_number: int, posted: bool) -> None:
        async with self.transaction() as db:
            if posted:
                await db.execute(
                    "UPDATE tournaments SET standings_told = GREATEST(standings_told, $1),"
                    " standings_claimed_until = NULL WHERE id = $2",
                    round_number,
                    tournament_id,
                )
            else:
                await db.execute("UPDATE tournaments SET standings_claimed_until = NULL WHERE id = $1", tournament_id)

    async def last_turns(self, user_ids: list[int]) -> dict[int, float]:
        if not user_ids:
            return {}
        rows = await self._fetch(
            "SELECT user_id, MAX(created_at) FROM moves WHERE kind = 'turn' AND user_id = ANY($1::bigint[])"
            " GROUP BY user_id",
            user_ids,
        )
        return {int(r[0]): float(r[1]) for r in rows}

    # -- events set aside: their rows cannot be read; paused, never rewritten ----------------------------

    async def set_tournament_aside(self, tournament_id: int, reason: str, now: float) -> bool:
        async with self.transaction() as db:
            done = await db.fetchval(
                "INSERT INTO tournament_quarantine (tournament_id, reason, since) VALUES ($1, $2, $3)"
                " ON CONFLICT (tournament_id) DO NOTHING RETURNING tournament_id",
                tournament_id,
                reason,
                now,
            )
        return done is not None

    async def release_tournament_aside(self, tournament_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM tournament_quarantine WHERE tournament_id = $1", tournament_id)

    async def tournaments_set_aside(self) -> list[int]:
        rows = await self._fetch("SELECT tournament_id FROM tournament_quarantine ORDER BY tournament_id")
        return [int(r[0]) for r in rows]

    async def claim_tournaments_aside_untold(self, now: float, lease: float) -> list[tuple[int, int | None]]:
        async with self.transaction() as db:
            rows = await db.fetch(
                "UPDATE tournament_quarantine q SET told_claimed_until = $1, told_claimed_by = $3"
                f" WHERE organizer_told = 0 AND {free_claim('told_claimed', '$2', '$3')}"
                " RETURNING q.tournament_id, (SELECT t.organizer_id FROM tournaments t WHERE t.id = q.tournament_id)",
                now + lease,
                now,
                self.incarnation,
            )
        return sorted((int(r[0]), int(r[1]) if r[1] is not None and r[1] > 0 else None) for r in rows)

    async def release_tournament_aside_notice(self, tournament_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE tournament_quarantine SET told_claimed_until = NULL WHERE tournament_id = $1", tournament_id
            )

    async def tournament_aside_told(self, tournament_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE tournament_quarantine SET organizer_told = 1 WHERE tournament_id = $1", tournament_id
            )
