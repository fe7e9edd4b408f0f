"""Bide's static evaluation: each seat's chance from a few counts, fitted on the playouts it stands in for.

A Bide playout runs to the full board, some 45 turns from the middle of a game, and is most of the search's
time; from a realistic position its result is nearly a coin toss (a random release decides it), so one
playout tells the search little. :func:`estimate` gives each seat's expected playout result from counts of
the position instead, at a fraction of a playout's cost: per seat, its best group's score, the value and
number of its discs on the board, its hand, whether it owes a release, whether it moves now or
next, and whether its next turn could fill the board (hand against empty points); with two seats also its
second-best group, the empty points next to its best group, the best score one more disc could make, its
best group squared and its number of groups. Each count's weight
depends on how full the board is (three basis functions of the empty points), and the seats' utilities
become chances by a softmax: with two seats, a logistic regression on their differences.

The weights were fitted (conditional logit, Newton's method, small ridge) to where playouts from positions
of recorded games ended (``benchmarks/fit_bide_eval.py`` reproduces them): with two seats to the winner
(0/1), with more to the margin-scored returns the multi-seat playouts use (:func:`ai.knowledge.bide.margin_returns`).
Measured on held-out games, the estimate of a position is as close to one more playout's result as a
playout itself is, so its error against the playouts' mean is small next to one playout's spread.

The two-seat weights were fitted again (issue 39's full-budget runs) with the added counts and the positions
of 44 games between `hard` computers at full budget (the arena's, beside the `medium` ones): fitted on
`medium` games alone, the estimate named the real winner of held-out `hard` games less often than chance
in the middle game (33% of positions with 35-44 empty points; 46% after the refit, 0.82 -> 0.89 below 8).
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
    "second-best group / 10",
    "empty points next to its best group (0 while no group scores) / 10",
    "best score one more disc could make (an empty point and the groups it touches) / 10",
    "(best group / 10) squared",
    "groups / 5",
)

#: Per feature, the weights of its three basis functions of the empty points ``e``:
#: ``1``, ``e / 61`` and ``max(0, 1 - e / 15)`` (the last one for the end of the game).
WEIGHTS_TWO_SEATS: tuple[tuple[float, float, float], ...] = (
    (0.301, 0.342, -3.841),
    (1.414, -1.284, -1.618),
    (-1.882, 1.277, -2.637),
    (-1.438, -0.530, -3.619),
    (-0.080, 0.087, 0.602),
    (0.238, 0.048, 0.566),
    (-0.238, -0.048, -0.566),
    (0.052, 0.056, -0.175),
    (4.236, 3.877, -3.314),
    (0.274, -0.282, 0.289),
    (-0.872, 0.940, 1.114),
    (0.716, -0.972, 0.048),
    (0.306, -1.168, 1.063),
    (0.012, -0.523, 0.029),
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
    # the counts added for two seats (issue 39's full-budget runs) are not used with more
    (0.0, 0.0, 0.0),
    (0.0, 0.0, 0.0),
    (0.0, 0.0, 0.0),
    (0.0, 0.0, 0.0),
    (0.0, 0.0, 0.0),
)


def seat_counts(game: Bide) -> tuple[list[int], list[int], list[int]]:
    """Each seat's best group score, the value of its discs on the board and their number (one pass)."""
    counts = group_counts(game)
    return counts.best, counts.total, counts.count


class GroupCounts:
    """Per seat (index seat - 1), what :func:`seat_features` reads of its groups, from one pass over the board."""

    __slots__ = ("best", "count", "groups", "liberties", "merge", "second", "total")

    def __init__(self, players: int) -> None:
        self.best = [0] * players  # its best group's score
        self.second = [0] * players  # its second-best group's score
        self.total = [0] * players  # the value of its discs on the board
        self.count = [0] * players  # their number
        self.groups = [0] * players  # its groups
        self.liberties = [0] * players  # empty points next to its best group (0 while no group scores)
        self.merge = [0] * players  # the best score one more disc of its could make: an empty point's
        # value plus the groups of its that the point touches (a group grows or two join)


def group_counts(game: Bide) -> GroupCounts:
    """The seats' groups counted (one flood fill, then one look at each empty point's neighbours)."""
    players = game.players
    cells = game.cells
    values = game.board.edge_distance
    neighbours = game.board.neighbour_indices
    out = GroupCounts(players)
    best, second, total, count, groups = out.best, out.second, out.total, out.count, out.groups
    group_of = [-1] * len(cells)
    scores: list[int] = []
    firsts: list[int] = []  # each group's first point
    best_group = [-1] * players
    for start, owner in enumerate(cells):
        if not owner or group_of[start] >= 0:
            continue
        label = len(scores)
        group_of[start] = label
        stack = [start]
        score = size = 0
        while stack:
            p = stack.pop()
            score += values[p]
            size += 1
            for q in neighbours[p]:
                if group_of[q] < 0 and cells[q] == owner:
                    group_of[q] = label
                    stack.append(q)
        scores.append(score)
        firsts.append(start)
        i = owner - 1
        total[i] += score
        count[i] += size
        groups[i] += 1
        if score > best[i]:
            second[i] = best[i]
            best[i] = score
            best_group[i] = label
        elif score > second[i]:
            second[i] = score
    liberties, merge = out.liberties, out.merge
    owner_of = [cells[p] - 1 for p in firsts]
    for p, owner in enumerate(cells):
        if owner:
            continue
        touched = {group_of[q] for q in neighbours[p]}
        touched.discard(-1)
        if not touched:
            continue
        joined: dict[int, int] = {}  # seat index -> the point's value plus its groups the point touches
        for label in touched:
            i = owner_of[label]
            joined[i] = joined.get(i, values[p]) + scores[label]
            if label == best_group[i]:
                liberties[i] += 1
        for i, score in joined.items():
            if score > merge[i]:
                merge[i] = score
    return out


def basis(empty: int) -> tuple[float, float, float]:
    """The three functions of the empty points each count's weight is made of (the last for the game's end)."""
    return (1.0, empty / 61, max(0.0, 1.0 - empty / 15))


def seat_features(game: Bide) -> list[list[float]]:
    """Per seat, the counts of :data:`FEATURES` (scaled as named there)."""
    empty = game.empty_count
    counts = group_counts(game)
    best, total, count = counts.best, counts.total, counts.count
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
                counts.second[i] / 10,
                counts.liberties[i] / 10,
                counts.merge[i] / 10,
                (best[i] / 10) ** 2,
                counts.groups[i] / 5,
            ]
        )
    return rows


def estimate(game: Bide) -> tuple[float, ...]:
    """Each seat's expected playout result from ``game`` (not over), summing to 1; a resigned seat 0."""
    weights = WEIGHTS_TWO_SEATS if game.players == 2 else WEIGHTS_MORE_SEATS
    b0, b1, b2 = basis(game.empty_count)
    w = [x0 * b0 + x1 * b1 + x2 * b2 for x0, x1, x2 in weights]
    utilities = [
        None if game.resigned[i] else sum(wf * f for wf, f in zip(w, row, strict=True))
        for i, row in enumerate(seat_features(game))
    ]
    top = max(u for u in utilities if u is not None)
    exps = [0.0 if u is None else math.exp(u - top) for u in utilities]
    norm = sum(exps)
    return tuple(x / norm for x in exps)
