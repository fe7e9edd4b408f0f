"""How well a player played, as Lichess measures it (docs/review.md), on winning chances in percent.

Lichess turns an engine's centipawns into a winning percentage first; our search gives winning chances
directly (the share of simulations each player won), so the curve applies to them as they are.

- A turn's accuracy falls with the drop of the mover's winning percentage (0..100) over the turn:
  ``103.1668 · exp(−0.04354 · drop) − 3.1669``, plus 1 for the uncertainty of any analysis, clipped to
  0..100; a turn that loses nothing scores 100.
- A player's accuracy is the mean of two means of their turns' accuracies: one weighted by how volatile
  the game was around each turn (the standard deviation of the winning percentages in a window of a
  tenth of the game, 2 to 8 positions, clipped to 0.5..12: a slip in a calm position counts little), and
  the harmonic mean (each accuracy taken as at least 1), which a single blunder pulls down hard.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# The curve Lichess fitted through (drop, accuracy) = (0, 100), (5, 75), (10, 60), (20, 42), (40, 20) ...
CURVE_SCALE = 103.1668100711649
CURVE_RATE = 0.04354415386753951
CURVE_OFFSET = -3.166924740191411
UNCERTAINTY_BONUS = 1.0
MIN_WEIGHT, MAX_WEIGHT = 0.5, 12.0


def turn_accuracy(before: float, after: float) -> float:
    """The accuracy (0..100) of a turn that took the mover's winning percentage from ``before`` to ``after``."""
    if after >= before:
        return 100.0
    raw = CURVE_SCALE * math.exp(-CURVE_RATE * (before - after)) + CURVE_OFFSET + UNCERTAINTY_BONUS
    return min(100.0, max(0.0, raw))


def window_size(turns: int) -> int:
    """Positions per volatility window: a tenth of the game's turns, at least 2 and at most 8."""
    return min(8, max(2, turns // 10))


def volatility_weights(series: Sequence[float]) -> list[float]:
    """One weight per turn of a series of positions' winning percentages (``len(series) - 1`` turns).

    Each turn is weighted by the standard deviation (of the population) of the window of positions that
    ends just after it; the first turns, whose window would reach before the start, use the first window.
    """
    turns = len(series) - 1
    if turns < 1:
        return []
    size = min(window_size(turns), len(series))
    windows = [series[:size]] * (size - 2) + [series[i : i + size] for i in range(len(series) - size + 1)]
    return [min(MAX_WEIGHT, max(MIN_WEIGHT, _deviation(w))) for w in windows[:turns]]


def player_accuracy(accuracies: Sequence[float], weights: Sequence[float]) -> float | None:
    """A player's accuracy from their turns' accuracies and volatility weights; None without turns."""
    if not accuracies:
        return None
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    harmonic = len(accuracies) / sum(1 / max(1.0, a) for a in accuracies)
    return min(100.0, (weighted + harmonic) / 2)  # (a sum of floats may pass 100 by a hair)


def _deviation(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
