"""What the bot stores of puzzles (issue 36, docs/puzzles.md): a puzzle found in a server's finished match, a
player's attempt at one, and a player's puzzle rating.

Plain dataclasses shared by the store and the service; the puzzle itself (position, goal, solution) is
``ai.puzzles.Puzzle``'s JSON document, read and checked by the service.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# open: being solved (at most one per player); solved: every turn found; failed: a wrong answer ended it.
ATTEMPT_STATUSES = ("open", "solved", "failed")
#: Glicko-2's starting point, on Lichess's scale: a player's rating, its deviation and volatility.
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06


@dataclass(frozen=True)
class PuzzleRow:
    id: int
    guild_id: int
    game: str
    document: dict[str, Any]  # ai.puzzles.Puzzle.to_json(), checked by Puzzle.from_json when used
    rating: float  # starts at the puzzle's difficulty; moves with every finished attempt
    deviation: float
    source_match_id: int | None  # the finished match it was found in
    source_ply: int | None  # the turn of that match (0-based) whose position it is
    attempts: int  # finished attempts
    created_at: float


@dataclass(frozen=True)
class NewPuzzle:
    """A puzzle to store for a server, found in one of its matches."""

    game: str
    document: dict[str, Any]
    rating: float
    source_ply: int


@dataclass(frozen=True)
class PuzzleAttemptRow:
    puzzle_id: int
    user_id: int
    progress: tuple[str, ...]  # the turns played from the puzzle's position: answers and replies
    status: str  # one of ATTEMPT_STATUSES
    version: int  # every change is a compare-and-set on it
    hinted: bool  # a hint was shown: a solve gains nothing
    started_at: float
    finished_at: float | None
    rating_change: float | None  # the player's, set when the attempt is finished


@dataclass(frozen=True)
class PuzzlePlayerRow:
    user_id: int
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    solved: int = 0
    failed: int = 0
    streak: int = 0  # puzzles solved in a row, now
    best_streak: int = 0


@dataclass(frozen=True)
class AttemptEnd:
    """What finishing an attempt writes besides the attempt: the player's new rating row and the change of
    the puzzle's rating (added to it, so two players finishing one puzzle at once both count)."""

    player: PuzzlePlayerRow
    rating_change: float
    puzzle_rating_change: float
    puzzle_deviation: float
    solve_seconds: float | None = None
    """A solve's time from the attempt's start: a daily post of the puzzle counts it (and keeps the fastest)."""


@dataclass(frozen=True)
class DailyPuzzleRow:
    """One server's daily puzzle of one day (UTC) and its post."""

    guild_id: int
    day: str  # YYYY-MM-DD, UTC
    puzzle_id: int
    channel_id: int
    message_id: int | None  # None until Discord took the post
    solvers: int
    fastest_user_id: int | None
    fastest_seconds: float | None
