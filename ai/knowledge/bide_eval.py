"""Bide's static evaluation: each seat's chance from a few counts, fitted on the playouts it stands in for.

A Bide playout runs to the full board, some 45 turns from the middle of a game, and is most of the search's
time; from a realistic position its result is nearly a coin toss (a random release decides it), so one
playout tells the search little. :func:`estimate` gives each seat's expected playout result from counts of
the position instead, at a fraction of a playout's cost: per seat, its best group's score, the value and
number of its discs on the board, its hand, whether it owes a release, whether it moves now or
next, and whether its next turn could fill the board (hand against empty points). Each count's weight
depends on how full the board is (three basis functions of the empty points), and the seats' utilities
become chances by a softmax: with two seats, a logistic regression on their differences.

The weights were fitted (conditional logit, Newton's method, small ridge) to where playouts from positions
of recorded games ended (``benchmarks/fit_bide_eval.py`` reproduces them): with two seats to the winner
(0/1), with more to the margin-scored returns the multi-seat playouts use (:func:`ai.knowledge.bide.margin_returns`).
Measured on held-out games, the estimate of a position is as close to one more playout's result as a
playout itself is, so its error against the playouts' mean is small next to one playout's spread.
"""

from __future__ import annotations

import math

from games.bide import Bide

#: The counts per seat, in the order of the weights' rows. (Not the pool: with the discs on the board and in
#: hand it is fixed, since a disc never leaves the board.)
FEATURES = (
    "best group / 10",
    "value of its discs on the board / 20",
    "discs on the board / 5",
    "hand / 5",
    "owes a release",
    "moves now",
    "moves next",
    "its next turn could fill the board",
    "share of the empty points its next hand covers",
)

#: Per feature, the weights of its three basis functions of the empty points ``e``:
#: ``1``, ``e / 61`` and ``max(0, 1 - e / 15)`` (the last one for the end of the game).
WEIGHTS_TWO_SEATS: tuple[tuple[float, float, float], ...] = (
    (0.262, -0.413, 1.651),
    (3.026, -3.462, -0.298),
    (1.265, 1.071, 0.994),
    (1.343, -0.698, 0.085),
    (-0.063, 0.112, 0.784),
    (0.023, -0.010, -0.003),
    (-0.023, 0.010, 0.003),
    (0.459, 0.273, -0.650),
    (4.943, 8.718, -4.671),
)
WEIGHTS_MORE_SEATS: tuple[tuple[float, float, float], ...] = (
    (0.988, -1.207, 1.130),
    (1.414, -1.643, -0.175),
    (-0.036, 0.411, -0.040),
    (1.256, -1.615, -1.360),
    (-0.317, 0.511, 0.687),
    (-0.141, 0.247, 0.398),
    (0.177, -0.218, -0.028),
    (-1.666, -0.884, 1.931),
    (2.880, 0.609, -3.236),
)


def seat_counts(game: Bide) -> tuple[list[int], list[int], list[int]]:
    """Each seat's best group score, the value of its discs on the board and their number (one pass)."""
    players = game.players
    cells = game.cells
    values = game.board.edge_distance
    neighbours = game.board.neighbour_indices
    best = [0] * players
    total = [0] * players
    count = [0] * players
    seen = [False] * len(cells)
    for start, owner in enumerate(cells):
        if not owner or seen[start]:
            continue
        seen[start] = True
        stack = [start]
        score = size = 0
        while stack:
            p = stack.pop()
            score += values[p]
            size += 1
            for q in neighbours[p]:
                if not seen[q] and cells[q] == owner:
                    seen[q] = True
                    stack.append(q)
        i = owner - 1
        total[i] += score
        count[i] += size
        if score > best[i]:
            best[i] = score
    return best, total, count


def basis(empty: int) -> tuple[float, float, float]:
    """The three functions of the empty points each count's weight is made of (the last for the game's end)."""
    return (1.0, empty / 61, max(0.0, 1.0 - empty / 15))


def seat_features(game: Bide) -> list[list[float]]:
    """Per seat, the counts of :data:`FEATURES` (scaled as named there)."""
    empty = game.empty_count
    best, total, count = seat_counts(game)
    mover = game.to_move or 1
    players = game.players
    rows = []
    for i in range(players):
        order = (i + 1 - mover) % players  # 0: moves now
        hand = game.hands[i]
        pool = game.pools[i]
        next_hand = hand if order == 0 else hand + (1 if pool else 0)  # the mover has drawn already
        rows.append(
            [
                best[i] / 10,
                total[i] / 20,
                count[i] / 5,
                hand / 5,
                1.0 if game.owed[i] else 0.0,
                1.0 if order == 0 else 0.0,
                1.0 if order == 1 else 0.0,
                1.0 if next_hand >= empty else 0.0,
                min(next_hand, empty) / max(empty, 1),
            ]
        )
    return rows


def utilities(game: Bide) -> list[float | None]:
    """Each seat's utility (the softmax's input) from ``game``; None for a resigned seat."""
    weights = WEIGHTS_TWO_SEATS if game.players == 2 else WEIGHTS_MORE_SEATS
    b0, b1, b2 = basis(game.empty_count)
    w = [x0 * b0 + x1 * b1 + x2 * b2 for x0, x1, x2 in weights]
    return [
        None if game.resigned[i] else sum(wf * f for wf, f in zip(w, row, strict=True))
        for i, row in enumerate(seat_features(game))
    ]


def estimate(game: Bide, sharpness: float = 1.0) -> tuple[float, ...]:
    """Each seat's expected playout result from ``game`` (not over), summing to 1; a resigned seat 0.

    ``sharpness`` multiplies the utilities (1: as fitted; more: the leader's share grows)."""
    return shares(utilities(game), sharpness)


def shares(utility: list[float | None], sharpness: float = 1.0) -> tuple[float, ...]:
    """The softmax of seats' utilities times ``sharpness``, summing to 1; a seat without one (resigned) 0."""
    top = max(u for u in utility if u is not None)
    exps = [0.0 if u is None else math.exp(sharpness * (u - top)) for u in utility]
    norm = sum(exps)
    return tuple(x / norm for x in exps)
