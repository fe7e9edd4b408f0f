"""Small builders for Begird tests: a new game, paths and groups of cells touching chosen islands."""

from __future__ import annotations

import itertools
from collections import deque

from games import new_game
from games.begird import Begird
from games.begirdboard import layout


def game(variant: str = "standard") -> Begird:
    return new_game("begird", 2, {"board": variant})


def names(lay, indices) -> list[str]:
    return [lay.board.names[i] for i in indices]


def path_between(lay, a: int, b: int, allowed) -> list[int]:
    """A shortest path of cell indices from a to b through cells for which allowed(i) holds."""
    prev = {a: None}
    queue = deque([a])
    while queue:
        p = queue.popleft()
        if p == b:
            break
        for q in lay.neighbours[p]:
            if q not in prev and (q == b or allowed(q)):
                prev[q] = p
                queue.append(q)
    assert b in prev, "no path"
    out = []
    node = b
    while node is not None:
        out.append(node)
        node = prev[node]
    return out[::-1]


def lone_shore_cell(lay, island: int) -> int:
    """A shore cell of ``island`` that touches no other island (the middle one)."""
    only = [i for i in lay.shores[island - 1] if lay.cell_masks[i] == 1 << (island - 1)]
    return only[len(only) // 2]


def group_touching(lay, islands: list[int]) -> list[int]:
    """A connected set of cells touching exactly ``islands``, joined through inner cells."""
    ends = [lone_shore_cell(lay, k) for k in islands]
    cells: list[int] = [ends[0]]
    for a, b in itertools.pairwise(ends):
        cells += path_between(lay, a, b, lambda i: lay.cell_masks[i] == 0)[1:]
    group = list(dict.fromkeys(cells))
    assert set(lay.islands_of(_mask(lay, group))) == set(islands)
    return group


def _mask(lay, cells) -> int:
    m = 0
    for i in cells:
        m |= lay.cell_masks[i]
    return m


def play_group_last_stone(variant: str, group: list[int], colour: int = 1) -> Begird:
    """Set up ``group`` minus one middle stone for ``colour``, then place that stone."""
    lay = layout(variant)
    last = group[len(group) // 2]
    board = {lay.board.names[i]: colour for i in group if i != last}
    g = Begird.from_position(2, {"board": variant}, {"board": board, "to_move": colour})
    assert not g.is_over
    g.play_turn(lay.board.names[last])
    return g
