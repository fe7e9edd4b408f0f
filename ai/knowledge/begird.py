"""Begird for the search: win/block detection, shape priors, fill-in playouts.

Playouts fill the board at random and look once for the winner: on a full
board exactly one colour has a winning group (Begird cannot be drawn), and a winning
group never stops winning, so the colour that wins the filled board is the
colour that would have won first in the same sequence of stones.
"""

from __future__ import annotations

import random
from functools import cache

from games.begird import SWAP, Begird, Layout, layout
from games.hexgrid import DIRECTIONS

from ..turns import Turn
from .base import GameKnowledge


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


def winner_of_filled(lay: Layout, cells: list[int]) -> int:
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


class BegirdKnowledge(GameKnowledge[Begird]):
    simulation_scale = 1.0

    def winning_turn(self, game: Begird, turns: list[Turn[Begird]]) -> Turn[Begird] | None:
        colour = game.to_move
        assert colour is not None
        for turn in turns:
            action = turn.actions[0]
            if action != SWAP and game.would_win(action, colour):
                return turn
        return None

    def prior(self, game: Begird, turns: list[Turn[Begird]]) -> list[float]:
        colour = game.to_move
        assert colour is not None
        other = 3 - colour
        cells = game.cells
        lay = game.layout
        nbrs = lay.neighbours
        bridges = bridge_partners(lay.variant)
        depth = lay.board.edge_distance
        deepest = max(depth) or 1
        threats = {t.actions[0] for t in turns if t.actions[0] != SWAP and game.would_win(t.actions[0], other)}
        weights = []
        for turn in turns:
            a = turn.actions[0]
            if a == SWAP:
                # Swap a central opening, keep an edge one.
                first = next(i for i, v in enumerate(cells) if v)
                weights.append(8.0 * depth[first] / deepest)
                continue
            if threats:
                weights.append(100.0 if a in threats else 0.05)
                continue
            w = 0.5 + depth[a] / deepest
            own = opp = 0
            for n in nbrs[a]:
                v = cells[n]
                if v == colour:
                    own += 1
                elif v == other:
                    opp += 1
            if own:
                w += 1.5 if own <= 2 else 0.5  # extend, but do not fill in own shape
            if opp:
                w += 1.5
            if any(cells[b] == colour for b in bridges[a]):
                w += 2.0
            weights.append(w)
        return weights

    def evaluate(self, game: Begird, rng: random.Random) -> tuple[float, ...]:
        if game.is_over:
            return (1.0, 0.0) if game.winners == (1,) else (0.0, 1.0)
        cells = game.cells[:]
        empties = game.empties[:]
        rng.shuffle(empties)
        colour = game.to_move
        assert colour is not None
        other = 3 - colour
        for k, i in enumerate(empties):
            cells[i] = colour if k % 2 == 0 else other
        return (1.0, 0.0) if winner_of_filled(game.layout, cells) == 1 else (0.0, 1.0)
