"""Begird for the search: win/block detection, shape priors, fill-in playouts, RAVE.

Playouts fill the board at random and look once for the winner: on a full
board exactly one colour has a winning group (Begird cannot be drawn), and a winning
group never stops winning, so the colour that wins the filled board is the
colour that would have won first in the same sequence of stones. The filled
board is also RAVE's data: a cell's value does not depend on when it is
filled, so every cell a playout gave the mover's colour counts as a move of
the mover's (all moves as first).

Candidates are bare cell numbers (no object per candidate). Wins at once and
the opponent's threats are looked for only where they can be: a stone wins
only by joining a group, so only empty cells next to a stone of that colour
are tried. A position where the opponent threatens to win at two cells (and
the mover cannot win at once) is lost, exactly; with one threat, blocking it
is the only turn that does not lose at once.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from functools import cache
from typing import Any

import numpy as np

from games.begird import SWAP, Begird, Layout, layout
from games.hexgrid import DIRECTIONS

from ..turns import Turn
from .base import Expansion, GameKnowledge, SearchSettings


@cache
def bridge_partners(variant: str) -> tuple[tuple[int, ...], ...]:
    """Per cell, the cells a bridge away (two cells apart with two shared neighbours)."""
    lay = layout(variant)
    board = lay.board
    out = []
    for q, r in board.cells:
        partners = []
        for d in range(6):
            a, b = DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]
            j = board.index.get((q + a[0] + b[0], r + a[1] + b[1]))
            if j is not None:
                partners.append(j)
        out.append(tuple(partners))
    return tuple(out)


def winner_of_filled(lay: Layout, cells: list[int] | bytearray) -> int:
    """The colour with a winning group on a full board (Black is checked; else White)."""
    nbrs = lay.neighbours
    masks = lay.cell_masks
    table = lay.win_table
    seen = bytearray(len(cells))
    for shore in lay.shores:
        for start in shore:
            if cells[start] != 1 or seen[start]:
                continue
            seen[start] = 1
            stack = [start]
            mask = 0
            while stack:
                p = stack.pop()
                mask |= masks[p]
                for n in nbrs[p]:
                    if not seen[n] and cells[n] == 1:
                        seen[n] = 1
                        stack.append(n)
            if table[mask]:
                return 1
    return 2


@cache
def static_prior(variant: str) -> np.ndarray:
    """Per cell, the prior's part that depends on the cell alone: deeper cells (from the edge) weigh more."""
    depth = layout(variant).board.edge_distance
    deepest = max(depth) or 1
    return np.array([0.5 + d / deepest for d in depth])


#: The prior's bonus by the number of the mover's stones next to a cell: extend, but do not fill in own shape.
OWN_BONUS = np.array([0.0, 1.5, 1.5, 0.5, 0.5, 0.5, 0.5])
OPPONENT_BONUS = 1.5  # next to an opponent's stone
BRIDGE_BONUS = 2.0  # a bridge away from one of the mover's stones
#: Fills 0 (empty) with White or Black (a playout's second colour) in one C call.
FILL_WITH = {1: bytes.maketrans(b"\x00", b"\x01"), 2: bytes.maketrans(b"\x00", b"\x02")}


class BegirdKnowledge(GameKnowledge[Begird]):
    simulation_scale = 1.0
    settings = SearchSettings(c_puct=1.5, expand_after=4, rave_weight=1000.0)

    def __init__(self) -> None:
        self._numpy_rng: np.random.Generator | None = None
        self._numpy_for: random.Random | None = None

    def _generator(self, rng: random.Random) -> np.random.Generator:
        """A numpy generator drawn from ``rng`` (so every draw still comes from the search's seed)."""
        if self._numpy_for is not rng or self._numpy_rng is None:
            self._numpy_rng = np.random.default_rng(rng.getrandbits(64))
            self._numpy_for = rng
        return self._numpy_rng

    # -- what the search calls ---------------------------------------------------------

    def expand(self, game: Begird, rng: random.Random) -> Expansion:
        colour = game.to_move
        assert colour is not None
        other = 3 - colour
        cells = game.cells
        lay = game.layout
        nbrs = lay.neighbours
        bridges = bridge_partners(lay.variant)
        size = len(cells)
        own = bytearray(size + 1)  # per cell: the mover's stones next to it (the last: the swap's slot)
        opp = bytearray(size + 1)
        bridged = bytearray(size + 1)
        for i, v in enumerate(cells):
            if v == colour:
                for n in nbrs[i]:
                    own[n] += 1
                for b in bridges[i]:
                    bridged[b] = 1
            elif v:
                for n in nbrs[i]:
                    opp[n] = 1
        empties = game.empties
        win = next((a for a in empties if own[a] and game.would_win(a, colour)), None)
        if win is not None:
            return Expansion([win], solved=(1.0, 0.0) if colour == 1 else (0.0, 1.0))
        threats = [a for a in empties if opp[a] and game.would_win(a, other)]
        if len(threats) >= 2:  # one stone blocks one of them: lost
            return Expansion(threats[:1], solved=(1.0, 0.0) if other == 1 else (0.0, 1.0))
        if threats:
            return Expansion(threats)
        moves: list[int] = list(empties)
        cells_np = np.asarray(moves, dtype=np.intp)
        weights = static_prior(lay.variant)[cells_np]
        weights += OWN_BONUS[np.frombuffer(own, dtype=np.uint8)[cells_np]]
        weights += OPPONENT_BONUS * np.frombuffer(opp, dtype=np.uint8)[cells_np]
        weights += BRIDGE_BONUS * np.frombuffer(bridged, dtype=np.uint8)[cells_np]
        keys: list[int] = moves
        if game.swap_allowed():
            first = next(i for i, v in enumerate(cells) if v)
            depth = lay.board.edge_distance
            moves = [SWAP, *moves]
            keys = [size, *keys]
            weights = np.concatenate(([8.0 * depth[first] / (max(depth) or 1)], weights))
        return Expansion(moves, weights, keys)

    def play(self, game: Begird, move: Any) -> Begird:
        after = game.copy()
        after.apply_quiet(move)
        if not after.is_over:
            after.end_turn_quiet()
        return after

    def key(self, game: Begird) -> Hashable:
        return (bytes(game.cells), game.to_move, game.swap_allowed())

    def turn_of(self, game: Begird, move: Any) -> Turn[Begird]:
        return Turn((move,), game)

    def playout(self, game: Begird, rng: random.Random) -> tuple[tuple[float, ...], Any]:
        """Fill the empty cells at random, half (rounded up) with the mover's colour; who wins the full board.

        With RAVE on, the filled board comes back too (one byte per cell, and a 0 for the swap's key).
        """
        if game.is_over:
            return ((1.0, 0.0) if game.winners == (1,) else (0.0, 1.0)), None
        colour = game.to_move
        assert colour is not None
        empties = np.asarray(game.empties, dtype=np.intp)
        count = len(empties)
        board = np.frombuffer(bytes(game.cells), dtype=np.uint8).copy()
        board[empties[self._generator(rng).permutation(count)[: (count + 1) // 2]]] = colour
        filled = bytearray(board.tobytes()).translate(FILL_WITH[3 - colour])
        returns = (1.0, 0.0) if winner_of_filled(game.layout, filled) == 1 else (0.0, 1.0)
        if not self.settings.rave_weight:
            return returns, None
        return returns, np.frombuffer(bytes(filled) + b"\x00", dtype=np.uint8)

    # -- the turn-level view (tools, tests) ----------------------------------------------

    def winning_turn(self, game: Begird, turns: list[Turn[Begird]]) -> Turn[Begird] | None:
        colour = game.to_move
        assert colour is not None
        for turn in turns:
            action = turn.actions[0]
            if action != SWAP and game.would_win(action, colour):
                return turn
        return None

    def evaluate(self, game: Begird, rng: random.Random) -> tuple[float, ...]:
        return self.playout(game, rng)[0]
