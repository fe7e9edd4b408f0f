"""Begird's boards: each variant's cells, its islands cut from the ring around it, and the winning masks.

:func:`layout` builds, once per variant, everything fixed about a board (:class:`Layout`): its cells
and their neighbours, the islands, which cells touch which island (as bit masks), and the table of the
island masks that win. :mod:`games.begird` plays on it (and re-exports :class:`Layout` and :func:`layout`).

Boards (option ``board``)
-------------------------
``standard``  the hexagon ``-10 <= q <= 7, -8 <= r <= 9, -8 <= s <= 9``
              (243 cells, rows a…r, sides alternating 9 and 10), 15 islands.
``small``     the hexagon ``-6 <= q <= 3, -4 <= r <= 5, -4 <= s <= 5``
              (75 cells, rows a…j, sides alternating 5 and 6), 9 islands.
``y``         the game of Y: a triangle of side 13, 3 islands. In axial
              coordinates it is the degenerate hexagon ``-12 <= q <= 0,
              0 <= r <= 12, -12 <= s <= 0``: row ``r`` holds the cells
              ``q = -r … 0``, so ``a1`` is ``(0, 0)`` at the top, row ``m`` is
              ``m1 = (-12, 12)`` … ``m13 = (0, 12)``, the right side is
              ``q = 0`` (the last cell of every row), the left side is
              ``s = 0`` (the first cell of every row) and the bottom is
              ``r = 12``.

Islands (one construction for every board)
------------------------------------------
The ring of off-board cells touching the board (``HexBoard.outside_ring``)
is put in clockwise order (as seen on screen) and cut into consecutive
islands with the variant's sizes: ``(3, 4, 4, 4, 4) × 3`` on the standard
board, ``(3, 4, 4) × 3`` on the small one and ``(14, 14, 14)`` for Y. The cut
is anchored on the board's upper-right side (the side ``q = max q``): island
1 is centred on the ring cells lying alongside that side (the ring cells
touching two of its cells), and the others follow clockwise. On the
hexagons this centres every 3-cell island on a long side (as the rules place them); on
the triangle it makes the three islands exactly its three sides, the corner
ring cells included, so ``a1``, ``m1`` and ``m13`` each touch two islands.
A board cell touches an island when it is adjacent to one of its ring cells.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from .hexgrid import Cell, HexBoard, distance, neighbours

VARIANTS = ("standard", "small", "y")

# Per variant: the board's bounds (q, r, s ranges) and the island sizes clockwise.
_VARIANT_SPECS: dict[str, tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = {
    "standard": (((-10, 7), (-8, 9), (-8, 9)), (3, 4, 4, 4, 4) * 3),
    "small": (((-6, 3), (-4, 5), (-4, 5)), (3, 4, 4) * 3),
    "y": (((-12, 0), (0, 12), (-12, 0)), (14, 14, 14)),
}


def _pixel(cell: Cell) -> tuple[float, float]:
    q, r = cell
    return (math.sqrt(3) * (q + r / 2), 1.5 * r)


def clockwise_ring(board: HexBoard) -> list[Cell]:
    """The off-board cells touching ``board``, in clockwise order on screen."""
    ring = board.outside_ring()
    xs, ys = zip(*(_pixel(c) for c in board.cells), strict=True)
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)

    def angle(c: Cell) -> float:
        x, y = _pixel(c)
        return math.atan2(y - cy, x - cx)  # y grows downwards: increasing angle is clockwise

    ring.sort(key=angle)
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        if distance(a, b) != 1:  # a board in pieces or with a hole
            raise ValueError("the outside ring is not a simple loop")
    return ring


def split_into_islands(board: HexBoard, sizes: tuple[int, ...]) -> tuple[tuple[Cell, ...], ...]:
    """Cut the clockwise ring into islands of ``sizes``, island 1 centred on the q = max side."""
    ring = clockwise_ring(board)
    if sum(sizes) != len(ring):
        raise ValueError(f"island sizes add up to {sum(sizes)}, the ring has {len(ring)} cells")
    cells = set(board.cells)
    q_side = max(q for q, _ in board.cells) + 1
    alongside = [k for k, c in enumerate(ring) if c[0] == q_side and sum(n in cells for n in neighbours(c)) >= 2]
    # The alongside cells are consecutive on the ring; find the first one clockwise.
    first = next(k for k in alongside if (k - 1) % len(ring) not in alongside)
    if (len(alongside) - sizes[0]) % 2:
        raise ValueError("island 1 cannot be centred on the upper-right side")
    start = (first + (len(alongside) - sizes[0]) // 2) % len(ring)
    ordered = ring[start:] + ring[:start]
    islands = []
    at = 0
    for size in sizes:
        islands.append(tuple(ordered[at : at + size]))
        at += size
    return tuple(islands)


def _winning_table(n: int) -> bytes:
    """``table[mask]`` is 1 when a group touching the islands in ``mask`` wins."""
    need = (n + 3) // 2
    table = bytearray([1]) * (1 << n)
    full = (1 << n) - 1
    # Losing: every touched island lies within some run of need - 1 consecutive islands.
    span = need - 1
    for start in range(n):
        arc = 0
        for k in range(span):
            arc |= 1 << ((start + k) % n)
        sub = arc
        while True:  # every submask of the arc
            table[sub] = 0
            if sub == 0:
                break
            sub = (sub - 1) & arc
    # At least three islands. With an odd number of islands (every board) any two lie within
    # need - 1 consecutive ones, so the arcs have already zeroed these: the rule, kept as written.
    for mask in range(full + 1):
        if table[mask] and bin(mask).count("1") < 3:
            table[mask] = 0
    return bytes(table)


@dataclass(frozen=True)
class Layout:
    """Everything fixed about one board variant: geometry, islands, masks."""

    variant: str
    board: HexBoard
    islands: tuple[tuple[Cell, ...], ...]  # ring cells of each island, clockwise
    shores: tuple[tuple[int, ...], ...]  # board cell indices touching each island
    cell_masks: tuple[int, ...]  # per cell: bit k-1 set when it touches island k
    neighbours: tuple[tuple[int, ...], ...]
    win_table: bytes
    need: int  # the shortest covering run a winning group needs

    @property
    def island_count(self) -> int:
        return len(self.islands)

    def islands_of(self, mask: int) -> list[int]:
        return [k + 1 for k in range(len(self.islands)) if mask >> k & 1]

    def shore_names(self, island: int) -> list[str]:
        return [self.board.names[i] for i in self.shores[island - 1]]

    def covering_run(self, mask: int) -> int:
        """The shortest run of consecutive islands containing every island in ``mask``."""
        n = len(self.islands)
        if mask == 0:
            return 0
        longest_gap = gap = 0
        for k in range(2 * n):  # twice round, so a gap across island n → 1 is counted
            if mask >> (k % n) & 1:
                gap = 0
            else:
                gap += 1
                longest_gap = max(longest_gap, min(gap, n))
        return n - longest_gap

    @property
    def island_distance(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, per island: how many cells lie between the cell and the island's shore."""
        return _island_distance(self.variant)


@cache
def layout(variant: str = "standard") -> Layout:
    if variant not in _VARIANT_SPECS:
        raise ValueError(f"unknown Begird board {variant!r}: choose one of {', '.join(VARIANTS)}")
    bounds, sizes = _VARIANT_SPECS[variant]
    board = HexBoard.hexagon(*bounds)
    islands = split_into_islands(board, sizes)
    masks = [0] * len(board)
    shores = []
    for k, island in enumerate(islands):
        shore = set()
        for ring_cell in island:
            for n in neighbours(ring_cell):
                i = board.index.get(n)
                if i is not None:
                    shore.add(i)
                    masks[i] |= 1 << k
        shores.append(tuple(sorted(shore)))
    count = len(islands)
    return Layout(
        variant=variant,
        board=board,
        islands=islands,
        shores=tuple(shores),
        cell_masks=tuple(masks),
        neighbours=board.neighbour_indices,
        win_table=_winning_table(count),
        need=(count + 3) // 2,
    )


@cache
def _island_distance(variant: str) -> tuple[tuple[int, ...], ...]:
    lay = layout(variant)
    return tuple(tuple(min(distance(c, x) for x in island) - 1 for island in lay.islands) for c in lay.board.cells)


def island_cells(variant: str = "standard") -> tuple[tuple[Cell, ...], ...]:
    """Axial coordinates of each island's ring cells (island 1 first), for pictures."""
    return layout(variant).islands


def shores(variant: str = "standard") -> tuple[tuple[str, ...], ...]:
    """Names of the board cells touching each island (island 1 first)."""
    lay = layout(variant)
    return tuple(tuple(lay.board.names[i] for i in shore) for shore in lay.shores)
