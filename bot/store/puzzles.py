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

from ..domain.puzzles import AttemptEnd, NewPuzzle, PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRow

PUZZLE_COLUMNS = "id, guild_id, game, document, rating, deviation, source_match_id, source_ply, attempts, created_at"
ATTEMPT_COLUMNS = "puzzle_id, user_id, progress, status, version, hinted, started_at, finished_at, rating_change"
PLAYER_COLUMNS = "user_id, rating, deviation, volatility, solved, failed, streak, best_streak"


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
        """The server's puzzle (of ``game``, if named) the player has never attempted whose rating is nearest
        ``rating``; None when there is none left."""
        ...

    async def open_puzzle_attempt(self, user_id: int) -> PuzzleAttemptRow | None:
        """The player's attempt being solved, if any."""
        ...

    async def get_puzzle_attempt(self, puzzle_id: int, user_id: int) -> PuzzleAttemptRow | None: ...

    async def start_puzzle_attempt(self, puzzle_id: int, user_id: int, now: float) -> PuzzleAttemptRow | None:
        """Open the player's attempt at the puzzle; None (nothing stored) if they have another open or have
        attempted this one already."""
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
        """The best puzzle ratings among the players who solved a puzzle of this server, highest first."""
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


def _number(value: Any, default: float) -> float:
    """A stored rating read back; a value that is not a finite number reads as the default."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return number if math.isfinite(number) else default
