"""The Store protocol's part for puzzles (bot/store/base.py's ``Store`` includes it), and reading its rows.

A finished match is searched for puzzles once: its scan is claimed for a lease (``claim_puzzle_scan``), and
its puzzles are stored with the scan's end in one transaction (``finish_puzzle_scan``; a puzzle is unique per
server, match and turn, so a scan repeated after a lost lease stores nothing twice). A player's attempt is
one row per player and puzzle, at most one open per player (a unique index); each answer is a
compare-and-set on the attempt's version, and the attempt's end writes the player's rating and the puzzle's
in the same transaction, so a rating changes once per attempt whatever arrives twice.

Rows are read defensively: a document that is not JSON reads as ``{}``, which ``Puzzle.from_json`` refuses
with a reason (the service then sets the puzzle aside for the player); nothing else fails.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, Protocol

from ..domain.puzzles import AttemptEnd, DailyPuzzleRow, NewPuzzle, PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRow

PUZZLE_COLUMNS = "id, guild_id, game, document, rating, deviation, source_match_id, source_ply, attempts, created_at"
ATTEMPT_COLUMNS = "puzzle_id, user_id, progress, status, version, hinted, started_at, finished_at, rating_change"
PLAYER_COLUMNS = "user_id, rating, deviation, volatility, solved, failed, streak, best_streak"
DAILY_COLUMNS = "guild_id, day, puzzle_id, channel_id, message_id, solvers, fastest_user_id, fastest_seconds"
#: A server's next daily puzzle: one of its own never posted before, nearest an average rating.
PICK_DAILY = (
    "SELECT id FROM puzzles p WHERE guild_id IN ({guild}, 0) AND NOT EXISTS"
    " (SELECT 1 FROM daily_puzzles d WHERE d.puzzle_id = p.id)"  # a puzzle is one post's, ever (its count)
    " ORDER BY guild_id = 0, ABS(rating - 1500), id LIMIT 1"
)
#: The server whose puzzles every server is given after its own: the computer's games against itself.
SHARED_GUILD = 0


def given_in(guild: str, again: str) -> str:
    """SQL: puzzle ``p`` may be given to a player of server ``guild`` (``again``: the same parameter, a second
    time, for SQLite's positional ones): one of its own games', one of the computer's own, or, when the server
    shares its puzzles (/config share_puzzles), one of another sharing server's games."""
    return (
        f"(p.guild_id IN ({guild}, {SHARED_GUILD}) OR EXISTS (SELECT 1 FROM guild_settings mine, guild_settings theirs"
        f" WHERE mine.guild_id = {again} AND mine.share_puzzles = 1"
        " AND theirs.guild_id = p.guild_id AND theirs.share_puzzles = 1))"
    )


#: Where a solve of a daily puzzle is counted: its post's solvers and fastest.
COUNT_SOLVER = (
    "UPDATE daily_puzzles SET solvers = solvers + 1,"
    " fastest_user_id = CASE WHEN fastest_seconds IS NULL OR {seconds} < fastest_seconds THEN {user}"
    " ELSE fastest_user_id END,"
    " fastest_seconds = CASE WHEN fastest_seconds IS NULL OR {seconds} < fastest_seconds THEN {seconds}"
    " ELSE fastest_seconds END WHERE puzzle_id = {puzzle}"
)


class PuzzleStore(Protocol):
    async def matches_to_scan(self, now: float, limit: int) -> list[int]:
        """Finished matches not yet searched for puzzles (nor claimed by a live lease), oldest first."""
        ...

    async def claim_puzzle_scan(self, match_id: int, now: float, lease: float) -> bool:
        """Claim a finished match's search until ``now + lease``; False if it is done or claimed by another."""
        ...

    async def finish_puzzle_scan(self, match_id: int, guild_id: int, found: Sequence[NewPuzzle], now: float) -> int:
        """Store the scan's puzzles for the server and mark the match searched, in one transaction; the
        number of puzzles new to the store (one already stored for that match and turn is not stored again)."""
        ...

    async def get_puzzle(self, puzzle_id: int) -> PuzzleRow | None: ...

    async def pick_puzzle(self, guild_id: int, user_id: int, rating: float, game: str | None) -> PuzzleRow | None:
        """The puzzle of the server's games (of ``game``, if named) the player has never attempted whose rating is
        nearest ``rating`` (a server that shares its puzzles draws from every sharing server's as its own), else
        such a puzzle of the computer's own games (:data:`SHARED_GUILD`); None when there is none left."""
        ...

    async def add_shared_puzzles(self, found: Sequence[tuple[str, NewPuzzle]], now: float) -> int:
        """Store puzzles of the computer's games against itself for every server, each (key: its game, level,
        seed and turn) once; the number new to the store."""
        ...

    async def shared_puzzle_count(self, game: str) -> int: ...

    async def open_puzzle_attempt(self, user_id: int) -> PuzzleAttemptRow | None:
        """The player's attempt being solved, if any."""
        ...

    async def get_puzzle_attempt(self, puzzle_id: int, user_id: int) -> PuzzleAttemptRow | None: ...

    async def start_puzzle_attempt(
        self, puzzle_id: int, user_id: int, guild_id: int, now: float
    ) -> PuzzleAttemptRow | None:
        """Open the player's attempt at the puzzle, made in server ``guild_id`` (its leaderboard's); None (nothing
        stored) if they have another open or have attempted this one already."""
        ...

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
        """Record an answer (the new ``progress``), a hint, or the end (``status`` solved or failed, with
        ``end``: the player's new rating row and the puzzle's rating change), if the attempt is still open at
        ``expected_version``; False (nothing changed) otherwise."""
        ...

    async def get_puzzle_player(self, user_id: int) -> PuzzlePlayerRow | None: ...

    async def puzzle_leaderboard(self, guild_id: int, limit: int) -> list[PuzzlePlayerRow]:
        """The best puzzle ratings among the players who solved a puzzle in this server (an attempt from before
        the server was recorded: a puzzle of this server's), highest first."""
        ...

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None, hour: int) -> None:
        """Where (None: nowhere) and at which hour (UTC) the server's daily puzzle is posted."""
        ...

    async def daily_puzzle_settings(self, guild_id: int) -> tuple[int | None, int] | None: ...

    async def daily_puzzles_due(self, day: str, hour: int, now: float) -> list[tuple[int, int]]:
        """(server, channel) of the servers whose daily puzzle of ``day`` is due by ``hour`` and not posted (nor
        claimed by a live lease)."""
        ...

    async def claim_daily_puzzle(
        self, guild_id: int, day: str, channel_id: int, now: float, lease: float
    ) -> DailyPuzzleRow | None:
        """Claim the posting of the server's puzzle of ``day`` until ``now + lease`` (its puzzle chosen at the
        first claim and kept); None when it is posted, claimed by another, or the server has no puzzle left."""
        ...

    async def daily_puzzle_posted(self, guild_id: int, day: str, message_id: int) -> None: ...

    async def release_daily_puzzle(self, guild_id: int, day: str) -> None: ...

    async def daily_of_puzzle(self, puzzle_id: int) -> DailyPuzzleRow | None:
        """The daily post a puzzle was given in, if any."""
        ...


def puzzle_from(values: Sequence[Any]) -> PuzzleRow:
    pid, guild_id, game, document, rating, deviation, source_match_id, source_ply, attempts, created_at = values
    try:
        doc = json.loads(document)
    except (TypeError, ValueError):
        doc = {}
    return PuzzleRow(
        int(pid),
        int(guild_id),
        str(game),
        doc if isinstance(doc, dict) else {},
        _number(rating, 1500.0),
        _number(deviation, 350.0),
        None if source_match_id is None else int(source_match_id),
        None if source_ply is None else int(source_ply),
        int(attempts),
        float(created_at),
    )


def attempt_from(values: Sequence[Any]) -> PuzzleAttemptRow:
    puzzle_id, user_id, progress, status, version, hinted, started_at, finished_at, change = values
    try:
        turns = json.loads(progress)
    except (TypeError, ValueError):
        turns = None
    if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
        turns = ["?"]  # unreadable: Puzzle.check refuses it, and the attempt is refused with a reason
    return PuzzleAttemptRow(
        int(puzzle_id),
        int(user_id),
        tuple(turns),
        str(status),
        int(version),
        bool(hinted),
        float(started_at),
        None if finished_at is None else float(finished_at),
        None if change is None else float(change),
    )


def player_from(values: Sequence[Any]) -> PuzzlePlayerRow:
    user_id, rating, deviation, volatility, solved, failed, streak, best = values
    return PuzzlePlayerRow(
        int(user_id),
        _number(rating, 1500.0),
        _number(deviation, 350.0),
        _number(volatility, 0.06),
        int(solved),
        int(failed),
        int(streak),
        int(best),
    )


def daily_from(values: Sequence[Any]) -> DailyPuzzleRow:
    guild_id, day, puzzle_id, channel_id, message_id, solvers, fastest_user_id, fastest_seconds = values
    return DailyPuzzleRow(
        int(guild_id),
        str(day),
        int(puzzle_id),
        int(channel_id),
        None if message_id is None else int(message_id),
        int(solvers),
        None if fastest_user_id is None else int(fastest_user_id),
        None if fastest_seconds is None else _number(fastest_seconds, 0.0),
    )


def _number(value: Any, default: float) -> float:
    """A stored rating read back; a value that is not a finite number reads as the default."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return number if math.isfinite(number) else default
