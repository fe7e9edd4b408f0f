"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), as Lichess rates puzzles: pure arithmetic.

Why Glicko-2 and not the OpenSkill the bot rates matches with: a puzzle attempt is a game between a player and
a puzzle, one at a time, and both ratings must read on the scale a puzzle's difficulty starts on
(``ai.puzzles.difficulty``: 800–2600, Lichess's); Glicko-2's deviation makes a new player's first attempts
move their rating fast and a seasoned one's slowly, which is what puzzle ratings on Lichess do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

SCALE = 173.7178  # Glicko-2's unit, in rating points
TAU = 0.5  # how much a volatility may change (Glickman suggests 0.3 to 1.2)
EPSILON = 1e-6
#: Bounds that keep a rating readable whatever happens (Lichess bounds deviations the same way).
LOWEST_DEVIATION, HIGHEST_DEVIATION = 45.0, 350.0


def updated(
    rating: float, deviation: float, volatility: float, games: Sequence[tuple[float, float, float]]
) -> tuple[float, float, float]:
    """The new (rating, deviation, volatility) after ``games``: each (opponent's rating, its deviation, score)
    with score 1 for a win, 0 for a loss."""
    mu, phi = (rating - 1500.0) / SCALE, deviation / SCALE
    if not games:
        return rating, min(HIGHEST_DEVIATION, math.sqrt(phi**2 + volatility**2) * SCALE), volatility
    impacts = [(_g(opp_rd / SCALE), (opp - 1500.0) / SCALE, score) for opp, opp_rd, score in games]
    expected = [1.0 / (1.0 + math.exp(-g * (mu - mu_j))) for g, mu_j, _ in impacts]
    v = 1.0 / sum(g * g * e * (1 - e) for (g, _, _), e in zip(impacts, expected, strict=True))
    gained = sum(g * (s - e) for (g, _, s), e in zip(impacts, expected, strict=True))
    delta = v * gained
    sigma = _volatility(phi, volatility, v, delta)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi_new = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    mu_new = mu + phi_new**2 * gained
    new_deviation = min(HIGHEST_DEVIATION, max(LOWEST_DEVIATION, phi_new * SCALE))
    return 1500.0 + SCALE * mu_new, new_deviation, sigma


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)
