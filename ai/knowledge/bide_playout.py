"""Bide's playout: quick random turns, each disc drawn towards valuable points and the mover's own discs.

A point's weight for a seat is ``1 + value² + 2`` per neighbouring disc of that seat when it is empty, 0
when it holds a disc. Recomputing every weight for every disc was a third of the search's time (issue 39);
:class:`PlayoutWeights` keeps them per seat and updates only the points a disc changed, as the engine names
them (``Bide.place_quiet``), and the neighbours of those. A draw is then one ``rng.choices`` over every
point: a point holding a disc weighs 0 and the others are in the same order, so it takes the same point
from the same generator state as a draw over the empty points alone (``tests/test_playout_policies.py``
checks the whole playout against the old one, draw for draw).
"""

from __future__ import annotations

import random

from games.bide import BIDE, Bide


class Mast:
    """MAST (move-average sampling): each seat's mean playout return after a disc of its on each point, over
    one search's playouts; a playout disc then goes, with probability ``greedy``, to the empty point with the
    best mean for its seat (Finnsson and Björnsson; Ludii's MAST). The knowledge keeps one per search."""

    __slots__ = ("greedy", "n", "placed", "w")

    def __init__(self, players: int, points: int, greedy: float) -> None:
        self.greedy = greedy
        self.n = [[0] * points for _ in range(players + 1)]  # row 0 unused
        self.w = [[0.0] * points for _ in range(players + 1)]
        self.placed: list[tuple[int, int]] = []  # (seat, point) of the playout under way

    def best(self, seat: int, cells: list[int]) -> int | None:
        """The empty point with ``seat``'s best mean so far (None: no empty point has one yet)."""
        n, w = self.n[seat], self.w[seat]
        best, top = None, -1.0
        for p, owner in enumerate(cells):
            if not owner and n[p]:
                mean = w[p] / n[p]
                if mean > top:
                    best, top = p, mean
        return best

    def learn(self, returns: tuple[float, ...]) -> None:
        """The playout under way ended with ``returns`` (by seat): credit each of its discs."""
        for seat, p in self.placed:
            self.n[seat][p] += 1
            self.w[seat][p] += returns[seat - 1]
        self.placed.clear()


class PlayoutWeights:
    """Each seat's draw weight of each point in one game, kept up to date as discs are placed through it."""

    __slots__ = ("base", "game", "mast", "neighbours", "own", "points", "seats", "weights")

    def __init__(self, game: Bide, mast: Mast | None = None) -> None:
        self.game = game
        self.mast = mast
        cells = game.cells
        count = len(cells)
        self.neighbours = game.board.neighbour_indices
        self.points = range(count)
        self.base = [1 + v * v for v in game.board.edge_distance]
        self.seats = range(1, game.players + 1)
        # own[s][p]: neighbours of p holding a disc of seat s (row 0 counts empty neighbours: never read, it
        # spares the updates a branch); weights[s][p] likewise by seat, row 0 unused.
        self.own = [[0] * count for _ in range(game.players + 1)]
        for p, seat in enumerate(cells):
            for q in self.neighbours[p]:
                self.own[seat][q] += 1
        self.weights = [[0 if cells[p] else self.base[p] + 2 * row[p] for p in self.points] for row in self.own]

    def draw(self, seat: int, rng: random.Random) -> int:
        """An empty point for ``seat``'s next disc (one ``rng.random()``; with MAST, one more first)."""
        mast = self.mast
        if mast is not None:
            if rng.random() < mast.greedy:
                best = mast.best(seat, self.game.cells)
                if best is not None:
                    mast.placed.append((seat, best))
                    return best
            point = rng.choices(self.points, self.weights[seat])[0]
            mast.placed.append((seat, point))
            return point
        return rng.choices(self.points, self.weights[seat])[0]

    def place(self, point: int) -> None:
        """Place the mover's disc on ``point`` through the engine's quiet path, then update the weights."""
        game = self.game
        cells = game.cells
        before = cells[:]
        changed = game.place_quiet(point)
        own, weights, neighbours = self.own, self.weights, self.neighbours
        emptiness: list[int] = []
        for c in changed:
            was, now = before[c], cells[c]
            if was == now:
                continue
            if not was or not now:
                emptiness.append(c)
            was_own, now_own, was_weights, now_weights = own[was], own[now], weights[was], weights[now]
            for n in neighbours[c]:
                was_own[n] -= 1
                now_own[n] += 1
                if not cells[n]:
                    was_weights[n] -= 2
                    now_weights[n] += 2
        base = self.base
        for c in emptiness:  # after every count above: a point's own weight reads its final neighbours
            if cells[c]:
                for seat in self.seats:
                    weights[seat][c] = 0
            else:
                for seat in self.seats:
                    weights[seat][c] = base[c] + 2 * own[seat][c]

    def play_turn(self, rng: random.Random) -> None:
        """One playout turn for the seat to move, in place: a release (always when one is owed), bide, or
        one disc; the same choices, with the same draws, as the playout has always made."""
        game = self.game
        seat = game.to_move
        assert seat is not None
        i = seat - 1
        hand = game.hands[i]
        if (
            game.owed[i]
            or (hand >= 2 and rng.random() < 0.25)
            or (not game.bide_allowed() and hand >= 2 and rng.random() < 0.5)
        ):
            while game.hands[i] and not game.is_over:
                self.place(self.draw(seat, rng))
        elif game.bide_allowed() and rng.random() < 0.4:
            game.apply_quiet(BIDE)
        else:
            self.place(self.draw(seat, rng))
        if not game.is_over:
            game.end_turn_quiet()
