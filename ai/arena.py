"""Matches between two levels, for the command line and the benchmark.

Seats alternate between the two sides: in game ``k`` side ``a`` holds the
seats ``s`` with ``(s + k)`` even, so in two-player games it plays first in
every other game, and in a four-seat Bide it holds two seats of four. A
side's score in a game is the sum of its seats' returns (a shared win
counts its share; a game cut off at the turn cap is a draw). The 95%
interval is Wilson's, on the mean score per game.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.interface import Game
from games.registry import new_game

from .levels import get_level
from .player import choose_turn
from .turns import apply_turn, returns_of

MAX_TURNS = 1000  # a game still going after this many turns is scored a draw…


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval for a proportion of ``score`` successes out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class ArenaResult:
    a: str
    b: str
    games: int = 0
    score_a: float = 0.0
    turns: int = 0
    unfinished: int = 0
    seconds: dict[str, list[float]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.score_a / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score_a, self.games)

    def timing(self, level: str) -> tuple[float, float]:
        """Mean and 95th percentile of CPU seconds per turn at ``level``."""
        xs = sorted(self.seconds.get(level, []))
        if not xs:
            return (0.0, 0.0)
        return (statistics.fmean(xs), xs[min(len(xs) - 1, int(0.95 * len(xs)))])

    def line(self) -> str:
        low, high = self.interval
        cut = f" ({self.unfinished} cut off as draws)" if self.unfinished else ""
        return (
            f"{self.a} vs {self.b}: {self.a} scores {self.rate:.1%} "
            f"[95% CI {low:.1%}–{high:.1%}] over {self.games} games{cut}"
        )


def play_game(
    game: Game,
    levels: Mapping[int, str],
    seed: int,
    on_turn: Callable[[str, float], None] | None = None,
    max_turns: int | None = None,
) -> tuple[float, ...]:
    """Play ``game`` to the end with a level per seat; return per-seat returns."""
    cap = max_turns or game.info.max_turns or MAX_TURNS  # …or after the game's own cap
    for turn_index in range(cap):
        if game.is_over:
            return returns_of(game)
        seat = game.to_move
        assert seat is not None
        choice = choose_turn(game, levels[seat], seed=seed * 100_003 + turn_index)
        if on_turn is not None:
            on_turn(choice.level, choice.seconds)
        apply_turn(game, choice.turn.actions)
    return tuple(1.0 / game.players for _ in range(game.players))


def play_one(
    game_id: str,
    a: str,
    b: str,
    k: int,
    players: int | None,
    options: Mapping[str, Any] | None,
    seed: int,
    max_turns: int | None = None,
) -> tuple[float, int, dict[str, list[float]], bool]:
    """Game ``k`` of a match: side ``a``'s score, the game's length, CPU seconds per turn by
    level and whether the game ended (rather than being cut off as a draw)."""
    game = new_game(game_id, players, options)
    seats_a = [s for s in range(1, game.players + 1) if (s + k) % 2 == 0]
    levels = {s: (a if s in seats_a else b) for s in range(1, game.players + 1)}
    seconds: dict[str, list[float]] = {}
    returns = play_game(
        game,
        levels,
        seed=seed * 1_000_003 + k,
        on_turn=lambda level, t: seconds.setdefault(level, []).append(t),
        max_turns=max_turns,
    )
    return sum(returns[s - 1] for s in seats_a), game.ply, seconds, game.is_over


def arena(
    game_id: str,
    a: str,
    b: str,
    games: int,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    progress: Callable[[ArenaResult], None] | None = None,
    jobs: int = 1,
    max_turns: int | None = None,
) -> ArenaResult:
    """Play ``games`` games between levels ``a`` and ``b``; ``jobs`` > 1 plays them in processes.

    Every game has its own seed, so the result does not depend on ``jobs``.
    """
    get_level(a)
    get_level(b)
    result = ArenaResult(a, b)

    def record(outcome: tuple[float, int, dict[str, list[float]], bool]) -> None:
        score, ply, seconds, finished = outcome
        result.unfinished += not finished
        result.games += 1
        result.score_a += score
        result.turns += ply
        for level, xs in seconds.items():
            result.seconds.setdefault(level, []).extend(xs)
        if progress is not None:
            progress(result)

    if jobs <= 1:
        for k in range(games):
            record(play_one(game_id, a, b, k, players, options, seed, max_turns))
        return result
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_one, game_id, a, b, k, players, options, seed, max_turns) for k in range(games)]
        for future in as_completed(futures):
            record(future.result())
    return result
