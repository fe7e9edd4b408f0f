"""SQLite's puzzles (see bot/store/puzzles.py): each change one transaction on the store's thread."""

from __future__ import annotations

import json
import sqlite3
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
from .plumbing import SqlitePlumbing

_SQLITE_INTEGER = 2**63


class SqlitePuzzles(SqlitePlumbing):
    """Mixed into SqliteStore: its ``_run``, ``_transact``, ``_all`` and ``_one`` are the plumbing's."""

    async def matches_to_scan(self, now: float, limit: int) -> list[int]:
        rows = await self._all(
            "SELECT m.id FROM matches m LEFT JOIN puzzle_scans s ON s.match_id = m.id WHERE m.status = 'finished'"
            " AND (s.match_id IS NULL OR (s.done_at IS NULL AND (s.claimed_until IS NULL OR s.claimed_until < ?)))"
            " ORDER BY m.id LIMIT ?",
            (now, limit),
        )
        return [int(row[0]) for row in rows]

    async def claim_puzzle_scan(self, match_id: int, now: float, lease: float) -> bool:
        def write(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "INSERT INTO puzzle_scans (match_id, claimed_until) VALUES (?, ?) ON CONFLICT (match_id) DO UPDATE"
                " SET claimed_until = excluded.claimed_until WHERE puzzle_scans.done_at IS NULL"
                " AND (puzzle_scans.claimed_until IS NULL OR puzzle_scans.claimed_until < ?)",
                (match_id, now + lease, now),
            )
            return cursor.rowcount == 1

        result: bool = await self._transact(write)
        return result

    async def finish_puzzle_scan(self, match_id: int, guild_id: int, found: Sequence[NewPuzzle], now: float) -> int:
        def write(conn: sqlite3.Connection) -> int:
            stored = 0
            for puzzle in found:
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO puzzles (guild_id, game, document, rating, source_match_id, source_ply,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        puzzle.game,
                        json.dumps(puzzle.document),
                        puzzle.rating,
                        match_id,
                        puzzle.source_ply,
                        now,
                    ),
                )
                stored += cursor.rowcount
            conn.execute(
                "INSERT INTO puzzle_scans (match_id, done_at, found) VALUES (?, ?, ?) ON CONFLICT (match_id)"
                " DO UPDATE SET done_at = excluded.done_at, found = excluded.found, claimed_until = NULL",
                (match_id, now, len(found)),
            )
            return stored

        result: int = await self._transact(write)
        return result

    async def get_puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        if not -_SQLITE_INTEGER <= puzzle_id < _SQLITE_INTEGER:
            return None
        row = await self._one(f"SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = ?", (puzzle_id,))
        return None if row is None else puzzle_from(row)

    async def pick_puzzle(self, guild_id: int, user_id: int, rating: float, game: str | None) -> PuzzleRow | None:
        of_game = " AND game = ?" if game is not None else ""
        row = await self._one(
            f"SELECT {PUZZLE_COLUMNS} FROM puzzles p WHERE {given_in('?', '?')}{of_game} AND NOT EXISTS"
            " (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.user_id = ?)"
            f" ORDER BY guild_id = {SHARED_GUILD}, ABS(rating - ?), id LIMIT 1",
            (guild_id, guild_id, *([game] if game is not None else []), user_id, rating),
        )
        return None if row is None else puzzle_from(row)

    async def add_shared_puzzles(self, found: Sequence[tuple[str, NewPuzzle]], now: float) -> int:
        def write(conn: sqlite3.Connection) -> int:
            stored = 0
            for key, puzzle in found:
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO puzzles (guild_id, game, document, rating, source_ply, created_at,"
                    " self_play) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        SHARED_GUILD,
                        puzzle.game,
                        json.dumps(puzzle.document),
                        puzzle.rating,
                        puzzle.source_ply,
                        now,
                        key,
                    ),
                )
                stored += cursor.rowcount
            return stored

        result: int = await self._transact(write)
        return result

    async def shared_puzzle_count(self, game: str) -> int:
        row = await self._one(f"SELECT COUNT(*) FROM puzzles WHERE guild_id = {SHARED_GUILD} AND game = ?", (game,))
        return int(row[0]) if row is not None else 0

    async def open_puzzle_attempt(self, user_id: int) -> PuzzleAttemptRow | None:
        row = await self._one(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE user_id = ? AND status = 'open'", (user_id,)
        )
        return None if row is None else attempt_from(row)

    async def get_puzzle_attempt(self, puzzle_id: int, user_id: int) -> PuzzleAttemptRow | None:
        if not -_SQLITE_INTEGER <= puzzle_id < _SQLITE_INTEGER:
            return None
        row = await self._one(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE puzzle_id = ? AND user_id = ?", (puzzle_id, user_id)
        )
        return None if row is None else attempt_from(row)

    async def start_puzzle_attempt(
        self, puzzle_id: int, user_id: int, guild_id: int, now: float
    ) -> PuzzleAttemptRow | None:
        def write(conn: sqlite3.Connection) -> PuzzleAttemptRow | None:
            cursor = conn.execute(  # OR IGNORE: attempted already, or another open (the unique index)
                "INSERT OR IGNORE INTO puzzle_attempts (puzzle_id, user_id, guild_id, started_at) VALUES (?, ?, ?, ?)",
                (puzzle_id, user_id, guild_id, now),
            )
            if cursor.rowcount != 1:
                return None
            row = conn.execute(
                f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE puzzle_id = ? AND user_id = ?",
                (puzzle_id, user_id),
            ).fetchone()
            return attempt_from(row)

        result: PuzzleAttemptRow | None = await self._transact(write)
        return result

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
        def write(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "UPDATE puzzle_attempts SET progress = ?, status = ?, hinted = ?, version = version + 1,"
                " finished_at = ?, rating_change = ?"
                " WHERE puzzle_id = ? AND user_id = ? AND version = ? AND status = 'open'",
                (
                    json.dumps(list(progress)),
                    status,
                    int(hinted),
                    None if status == "open" else now,
                    None if end is None else end.rating_change,
                    puzzle_id,
                    user_id,
                    expected_version,
                ),
            )
            if cursor.rowcount != 1:
                return False
            if end is not None:
                p = end.player
                conn.execute(
                    f"INSERT OR REPLACE INTO puzzle_players ({PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (p.user_id, p.rating, p.deviation, p.volatility, p.solved, p.failed, p.streak, p.best_streak),
                )
                conn.execute(
                    "UPDATE puzzles SET rating = rating + ?, deviation = ?, attempts = attempts + 1 WHERE id = ?",
                    (end.puzzle_rating_change, end.puzzle_deviation, puzzle_id),
                )
                if status == "solved" and end.solve_seconds is not None:
                    seconds = end.solve_seconds
                    conn.execute(
                        COUNT_SOLVER.format(seconds="?", user="?", puzzle="?"),
                        (seconds, user_id, seconds, seconds, puzzle_id),  # in the order the statement reads them
                    )
            return True

        result: bool = await self._transact(write)
        return result

    async def get_puzzle_player(self, user_id: int) -> PuzzlePlayerRow | None:
        row = await self._one(f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE user_id = ?", (user_id,))
        return None if row is None else player_from(row)

    async def puzzle_leaderboard(self, guild_id: int, limit: int) -> list[PuzzlePlayerRow]:
        rows = await self._all(
            f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE user_id IN (SELECT a.user_id FROM puzzle_attempts a"
            " JOIN puzzles p ON p.id = a.puzzle_id WHERE COALESCE(a.guild_id, p.guild_id) = ? AND a.status = 'solved')"
            " ORDER BY rating DESC, user_id LIMIT ?",
            (guild_id, limit),
        )
        return [player_from(row) for row in rows]

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None, hour: int) -> None:
        await self._transact(
            lambda conn: conn.execute(
                "INSERT INTO puzzle_settings (guild_id, channel_id, hour) VALUES (?, ?, ?) ON CONFLICT (guild_id)"
                " DO UPDATE SET channel_id = excluded.channel_id, hour = excluded.hour",
                (guild_id, channel_id, hour),
            )
        )

    async def daily_puzzle_settings(self, guild_id: int) -> tuple[int | None, int] | None:
        row = await self._one("SELECT channel_id, hour FROM puzzle_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None else (None if row[0] is None else int(row[0]), int(row[1]))

    async def daily_puzzles_due(self, day: str, hour: int, now: float) -> list[tuple[int, int]]:
        rows = await self._all(
            "SELECT s.guild_id, s.channel_id FROM puzzle_settings s LEFT JOIN daily_puzzles d"
            " ON d.guild_id = s.guild_id AND d.day = ? WHERE s.channel_id IS NOT NULL AND s.hour <= ?"
            f" AND (d.guild_id IS NULL OR (d.message_id IS NULL AND {free_claim('d.claimed')}))"
            " ORDER BY s.guild_id",
            (day, hour, now, self.incarnation),
        )
        return [(int(g), int(c)) for g, c in rows]

    async def claim_daily_puzzle(
        self, guild_id: int, day: str, channel_id: int, now: float, lease: float
    ) -> DailyPuzzleRow | None:
        def write(conn: sqlite3.Connection) -> DailyPuzzleRow | None:
            kept = conn.execute("SELECT 1 FROM daily_puzzles WHERE guild_id = ? AND day = ?", (guild_id, day))
            if kept.fetchone() is None:
                picked = conn.execute(PICK_DAILY.format(guild="?"), (guild_id,)).fetchone()
                if picked is None:
                    return None
                conn.execute(  # the first claim of the day chooses its puzzle; later claims find it kept
                    "INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id) VALUES (?, ?, ?, ?)",
                    (guild_id, day, picked[0], channel_id),
                )
            row = conn.execute(
                "UPDATE daily_puzzles SET claimed_until = ?, claimed_by = ? WHERE guild_id = ? AND day = ?"
                f" AND message_id IS NULL AND {free_claim('claimed')} RETURNING {DAILY_COLUMNS}",
                (now + lease, self.incarnation, guild_id, day, now, self.incarnation),
            ).fetchone()
            return None if row is None else daily_from(row)

        result: DailyPuzzleRow | None = await self._transact(write)
        return result

    async def daily_puzzle_posted(self, guild_id: int, day: str, message_id: int) -> None:
        await self._transact(
            lambda conn: conn.execute(
                "UPDATE daily_puzzles SET message_id = ?, claimed_until = NULL, claimed_by = NULL"
                " WHERE guild_id = ? AND day = ?",
                (message_id, guild_id, day),
            )
        )

    async def release_daily_puzzle(self, guild_id: int, day: str) -> None:
        await self._transact(
            lambda conn: conn.execute(
                "UPDATE daily_puzzles SET claimed_until = NULL, claimed_by = NULL"
                " WHERE guild_id = ? AND day = ? AND message_id IS NULL AND claimed_by = ?",
                (guild_id, day, self.incarnation),
            )
        )

    async def daily_of_puzzle(self, puzzle_id: int) -> DailyPuzzleRow | None:
        if not -_SQLITE_INTEGER <= puzzle_id < _SQLITE_INTEGER:
            return None
        row = await self._one(f"SELECT {DAILY_COLUMNS} FROM daily_puzzles WHERE puzzle_id = ?", (puzzle_id,))
        return None if row is None else daily_from(row)
