"""Play Bai's field: everything fixed about a field size (geometry, end zones, set-up, the lines between
cells), built once per size and shared by every game, the turn search and the pictures.

Field (option ``side``: 5 or 6)
-------------------------------
A hex-hex field (side 5: 61 cells ``a1``…``i5``, centre ``e5``). The three
left corners are seat 1's end zones (``a1 e1 i1``), the three right corners
seat 2's (``a5 e9 i5``); only end zones carry a dot. A set begins with seat
1 on ``b2 e2 h2``, seat 2 on ``b5 e8 h5`` (one step from each end zone
towards the centre) and the ball loose on the centre.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .hexgrid import HexBoard, step


@dataclass(frozen=True)
class Field:
    """Everything fixed about a field size: geometry, end zones, set-up, lines."""

    side: int
    board: HexBoard
    nbr: tuple[tuple[int, ...], ...]  # per cell, per direction: the neighbour or -1
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # per cell, per direction: cells to the edge
    zones: tuple[tuple[int, ...], tuple[int, ...]]  # end zones of seat 1 and seat 2
    dots: frozenset[int]
    zone_owner: tuple[int, ...]  # per cell: the seat whose end zone it is, else 0
    setup: tuple[tuple[int, ...], tuple[int, ...]]
    centre: int
    lines: dict[tuple[int, int], tuple[int, ...]]  # (a, b) in line: the cells strictly between
    direction_between: dict[tuple[int, int], int]  # (a, b) in line: direction from a to b


@cache
def field(side: int = 5) -> Field:
    board = HexBoard.hexhex(side)
    n = side - 1
    index = board.index
    nbr = tuple(tuple(index.get(step(c, d), -1) for d in range(6)) for c in board.cells)
    # Corners clockwise from the top-left: a1, top-right, right, bottom-right, bottom-left, left.
    corners = [(0, -n), (n, -n), (n, 0), (0, n), (-n, n), (-n, 0)]
    left = (corners[0], corners[5], corners[4])  # a1, e1, i1 (side 5)
    right = (corners[1], corners[2], corners[3])  # a5, e9, i5
    zones = (tuple(sorted(index[c] for c in left)), tuple(sorted(index[c] for c in right)))
    owner = [0] * len(board)
    for seat, cells in enumerate(zones, start=1):
        for i in cells:
            owner[i] = seat

    def in_front(c: tuple[int, int]) -> int:
        # One step from the corner towards the centre: the neighbour nearest (0, 0).
        best = min((step(c, d) for d in range(6)), key=lambda x: max(abs(x[0]), abs(x[1]), abs(x[0] + x[1])))
        return index[best]

    setup = (tuple(sorted(in_front(c) for c in left)), tuple(sorted(in_front(c) for c in right)))
    lines: dict[tuple[int, int], tuple[int, ...]] = {}
    direction_between: dict[tuple[int, int], int] = {}
    for a in range(len(board)):
        for d in range(6):
            ray = board.rays[a][d]
            for k, b in enumerate(ray):
                lines[(a, b)] = ray[:k]
                direction_between[(a, b)] = d
    return Field(
        side=side,
        board=board,
        nbr=nbr,
        rays=board.rays,
        zones=zones,
        dots=frozenset(zones[0] + zones[1]),
        zone_owner=tuple(owner),
        setup=setup,
        centre=index[(0, 0)],
        lines=lines,
        direction_between=direction_between,
    )
