"""PostgreSQL's puzzles (see bot/store/puzzles.py): every change one transaction; an answer's first statement
is the compare-and-set on the attempt's version (its row lock makes a second writer wait, then find it moved)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ...domain.puzzles import AttemptEnd, DailyPuzzleRow, NewPuzzle, PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRow
from ..puzzles import (
    ATTEMPT_COLUMNS,
    COUNT_SOLVER,
    DAILY_COLUMNS,
    PICK_DAILY,
    PLAYER_COLUMNS,
    PUZZLE_COLUMNS,
    SHARED_GUILD,
    attempt_from,
    daily_from,
    given_in,
    player_from,
    puzzle_from,
)
from .leases import free_claim
from .plumbing import PostgresPlumbing

_BIGINT = 2**63


class PostgresPuzzles(PostgresPlumbing):
    """Mixed into PostgresStore: its ``transaction``, ``_fetch`` and ``_fetchrow`` are the plumbing's."""

    async def matches_to_scan(self, now: float, limit: int) -> list[int]:
        rows = await self._fetch(
            "SELECT m.id FROM matches m LEFT JOIN puzzle_scans s ON s.match_id = m.id WHERE m.status = 'finished'"
            " AND (s.match_id IS NULL OR (s.done_at IS NULL AND (s.claimed_until IS NULL OR s.claimed_until < $1)))"
            " ORDER BY m.id LIMIT $2",
            now,
            limit,
        )
        return [int(row[0]) for row in rows]

    async def claim_puzzle_scan(self, match_id: int, now: float, lease: float) -> bool:
        async with self.transaction() as db:
            claimed = await db.fetchval(
                "INSERT INTO puzzle_scans (match_id, claimed_until) VALUES ($1, $2) ON CONFLICT (match_id) DO UPDATE"
                " SET claimed_until = excluded.claimed_until WHERE puzzle_scans.done_at IS NULL"
                " AND (puzzle_scans.claimed_until IS NULL OR puzzle_scans.claimed_until < $3) RETURNING match_id",
                match_id,
                now + lease,
                now,
            )
        return claimed is not None

    async def finish_puzzle_scan(self, match_id: int, guild_id: int, found: Sequence[NewPuzzle], now: float) -> int:
        stored = 0
        async with self.transaction() as db:
            for puzzle in found:
                new_id = await db.fetchval(
                    "INSERT INTO puzzles (guild_id, game, document, rating, source_match_id, source_ply, created_at)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id",
                    guild_id,
                    puzzle.game,
                    json.dumps(puzzle.document),
                    puzzle.rating,
                    match_id,
                    puzzle.source_ply,
                    now,
                )
                stored += new_id is not None
            await db.execute(
                "INSERT INTO puzzle_scans (match_id, done_at, found) VALUES ($1, $2, $3) ON CONFLICT (match_id)"
                " DO UPDATE SET done_at = excluded.done_at, found = excluded.found, claimed_until = NULL",
                match_id,
                now,
                len(found),
            )
        return stored

    async def get_puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        if not -_BIGINT <= puzzle_id < _BIGINT:
            return None
        row = await self._fetchrow(f"SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1", puzzle_id)
        return None if row is None else puzzle_from(list(row))

    async def pick_puzzle(self, guild_id: int, user_id: int, rating: float, game: str | None) -> PuzzleRow | None:
        of_game = " AND game = $4" if game is not None else ""
        row = await self._fetchrow(
            f"SELECT {PUZZLE_COLUMNS} FROM puzzles p WHERE {given_in('$1', '$1')}{of_game} AND NOT EXISTS"
            " (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.user_id = $2)"
            f" ORDER BY guild_id = {SHARED_GUILD}, ABS(rating - $3), id LIMIT 1",
            guild_id,
            user_id,
            rating,
            *([game] if game is not None else []),
        )
        return None if row is None else puzzle_from(list(row))

    async def add_shared_puzzles(self, found: Sequence[tuple[str, NewPuzzle]], now: float) -> int:
        stored = 0
        async with self.transaction() as db:
            for key, puzzle in found:
                new_id = await db.fetchval(
                    "INSERT INTO puzzles (guild_id, game, document, rating, source_ply, created_at, self_play)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id",
                    SHARED_GUILD,
                    puzzle.game,
                    json.dumps(puzzle.document),
                    puzzle.rating,
                    puzzle.source_ply,
                    now,
                    key,
                )
                stored += new_id is not None
        return stored

    async def shared_puzzle_count(self, game: str) -> int:
        row = await self._fetchrow(f"SELECT COUNT(*) FROM puzzles WHERE guild_id = {SHARED_GUILD} AND game = $1", game)
        return int(row[0]) if row is not None else 0

    async def open_puzzle_attempt(self, user_id: int) -> PuzzleAttemptRow | None:
        row = await self._fetchrow(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE user_id = $1 AND status = 'open'", user_id
        )
        return None if row is None else attempt_from(list(row))

    async def get_puzzle_attempt(self, puzzle_id: int, user_id: int) -> PuzzleAttemptRow | None:
        if not -_BIGINT <= puzzle_id < _BIGINT:
            return None
        row = await self._fetchrow(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE puzzle_id = $1 AND user_id = $2", puzzle_id, user_id
        )
        return None if row is None else attempt_from(list(row))

    async def start_puzzle_attempt(
        self, puzzle_id: int, user_id: int, guild_id: int, now: float
    ) -> PuzzleAttemptRow | None:
        async with self.transaction() as db:
            row = await db.fetchrow(  # DO NOTHING: attempted already, or another open (the unique index)
                "INSERT INTO puzzle_attempts (puzzle_id, user_id, guild_id, started_at) VALUES ($1, $2, $3, $4)"
                f" ON CONFLICT DO NOTHING RETURNING {ATTEMPT_COLUMNS}",
                puzzle_id,
                user_id,
                guild_id,
                now,
            )
        return None if row is None else attempt_from(list(row))

    async def advance_puzzle_attempt(
        self,
        puzzle_id: int,
        user_id: int,
        expected_version: int,
        progress: Sequence[str],
        *,
        status: str = "open",
        hinted: bool = False,
        end: AttemptEnd | None = None,
        now: float,
    ) -> bool:
        async with self.transaction() as db:
            moved = await db.fetchval(
                "UPDATE puzzle_attempts SET progress = $1, status = $2, hinted = $3, version = version + 1,"
                " finished_at = $4, rating_change = $5"
                " WHERE puzzle_id = $6 AND user_id = $7 AND version = $8 AND status = 'open' RETURNING version",
                json.dumps(list(progress)),
                status,
                int(hinted),
                None if status == "open" else now,
                None if end is None else end.rating_change,
                puzzle_id,
                user_id,
                expected_version,
            )
            if moved is None:
                return False
            if end is not None:
                p = end.player
                await db.execute(
                    f"INSERT INTO puzzle_players ({PLAYER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                    " ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,"
                    " volatility = excluded.volatility, solved = excluded.solved, failed = excluded.failed,"
                    " streak = excluded.streak, best_streak = excluded.best_streak",
                    p.user_id,
                    p.rating,
                    p.deviation,
                    p.volatility,
                    p.solved,
                    p.failed,
                    p.streak,
                    p.best_streak,
                )
                await db.execute(
                    "UPDATE puzzles SET rating = rating + $1, deviation = $2, attempts = attempts + 1 WHERE id = $3",
                    end.puzzle_rating_change,
                    end.puzzle_deviation,
                    puzzle_id,
                )
                if status == "solved" and end.solve_seconds is not None:
                    await db.execute(
                        COUNT_SOLVER.format(seconds="$1::double precision", user="$2::bigint", puzzle="$3"),
                        end.solve_seconds,
                        user_id,
                        puzzle_id,
                    )
        return True

    async def get_puzzle_player(self, user_id: int) -> PuzzlePlayerRow | None:
        row = await self._fetchrow(f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE user_id = $1", user_id)
        return None if row is None else player_from(list(row))

    async def puzzle_leaderboard(self, guild_id: int, limit: int) -> list[PuzzlePlayerRow]:
        rows = await self._fetch(
            f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE user_id IN (SELECT a.user_id FROM puzzle_attempts a"
            " JOIN puzzles p ON p.id = a.puzzle_id WHERE COALESCE(a.guild_id, p.guild_id) = $1 AND a.status = 'solved')"
            " ORDER BY rating DESC, user_id LIMIT $2",
            guild_id,
            limit,
        )
        return [player_from(list(row)) for row in rows]

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None, hour: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO puzzle_settings (guild_id, channel_id, hour) VALUES ($1, $2, $3) ON CONFLICT (guild_id)"
                " DO UPDATE SET channel_id = excluded.channel_id, hour = excluded.hour",
                guild_id,
                channel_id,
                hour,
            )

    async def daily_puzzle_settings(self, guild_id: int) -> tuple[int | None, int] | None:
        row = await self._fetchrow("SELECT channel_id, hour FROM puzzle_settings WHERE guild_id = $1", guild_id)
        return None if row is None else (None if row[0] is None else int(row[0]), int(row[1]))

    async def daily_puzzles_due(self, day: str, hour: int, now: float) -> list[tuple[int, int]]:
        rows = await self._fetch(
            "SELECT s.guild_id, s.channel_id FROM puzzle_settings s LEFT JOIN daily_puzzles d"
            " ON d.guild_id = s.guild_id AND d.day = $1 WHERE s.channel_id IS NOT NULL AND s.hour <= $2"
            f" AND (d.guild_id IS NULL OR (d.message_id IS NULL AND {free_claim('d.claimed', '$3', '$4')}))"
            " ORDER BY s.guild_id",
            day,
            hour,
            now,
            self.incarnation,
        )
        return [(int(g), int(c)) for g, c in rows]

    async def claim_daily_puzzle(
        self, guild_id: int, day: str, channel_id: int, now: float, lease: float
    ) -> DailyPuzzleRow | None:
        async with self.transaction() as db:
            picked = await db.fetchval(PICK_DAILY.format(guild="$1"), guild_id)
            if picked is not None:  # the first claim of the day chooses; a second one finds the row there
                await db.execute(  # no conflict target: another server's day may take the puzzle meanwhile (a
                    # puzzle is one post's), and then this day has none until the next pass chooses again
                    "INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id) VALUES ($1, $2, $3, $4)"
                    " ON CONFLICT DO NOTHING",
                    guild_id,
                    day,
                    picked,
                    channel_id,
                )
            row = await db.fetchrow(
                "UPDATE daily_puzzles SET claimed_until = $3, claimed_by = $5 WHERE guild_id = $1 AND day = $2"
                f" AND message_id IS NULL AND {free_claim('claimed', '$4', '$5')} RETURNING {DAILY_COLUMNS}",
                guild_id,
                day,
                now + lease,
                now,
                self.incarnation,
            )
        return None if row is None else daily_from(list(row))

    async def daily_puzzle_posted(self, guild_id: int, day: str, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE daily_puzzles SET message_id = $3, claimed_until = NULL, claimed_by = NULL"
                " WHERE guild_id = $1 AND day = $2",
                guild_id,
                day,
                message_id,
            )

    async def release_daily_puzzle(self, guild_id: int, day: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE daily_puzzles SET claimed_until = NULL, claimed_by = NULL"
                " WHERE guild_id = $1 AND day = $2 AND message_id IS NULL AND claimed_by = $3",
                guild_id,
                day,
                self.incarnation,
            )

    async def daily_of_puzzle(self, puzzle_id: int) -> DailyPuzzleRow | None:
        if not -_BIGINT <= puzzle_id < _BIGINT:
            return None
        row = await self._fetchrow(f"SELECT {DAILY_COLUMNS} FROM daily_puzzles WHERE puzzle_id = $1", puzzle_id)
        return None if row is None else daily_from(list(row))
