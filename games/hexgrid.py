"""Hexagonal geometry shared by every game.

Cells use axial coordinates ``(q, r)`` with pointy-top cells and ``y`` growing
downwards. The six directions are numbered clockwise as seen on screen:
0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE.

A :class:`HexBoard` is a finite set of cells with precomputed indices,
neighbours and rays, so the engines can work on small integers in their hot
loops and only talk in cell names at the edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .interface import IllegalMove

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES: tuple[str, ...] = ("e", "se", "sw", "w", "nw", "ne")


class CellNameError(IllegalMove):
    """A cell name that is malformed or not on the board (a template with fields, like every
    :class:`IllegalMove`)."""


def direction_index(name: str) -> int:
    """Parse a direction given as a number (0-5) or a compass name (``ne``)."""
    key = name.strip().lower()
    if key.isdigit() and int(key) < 6:
        return int(key)
    try:
        return DIRECTION_NAMES.index(key)
    except ValueError:
        raise IllegalMove(
            "unknown direction {direction!r}: use one of {directions}",
            direction=name,
            directions=", ".join(DIRECTION_NAMES),
        ) from None


def add(a: Cell, b: Cell) -> Cell:
    return (a[0] + b[0], a[1] + b[1])


def scale(d: Cell, k: int) -> Cell:
    return (d[0] * k, d[1] * k)


def step(cell: Cell, direction: int, k: int = 1) -> Cell:
    dq, dr = DIRECTIONS[direction % 6]
    return (cell[0] + dq * k, cell[1] + dr * k)


def distance(a: Cell, b: Cell) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def neighbours(cell: Cell) -> list[Cell]:
    """The six cells around ``cell``, in direction order (on or off any board)."""
    return [step(cell, d) for d in range(6)]


def ring(center: Cell, radius: int) -> list[Cell]:
    """Cells at exactly ``radius`` from ``center``, walking clockwise from the west-north-west."""
    if radius == 0:
        return [center]
    cells = []
    cell = step(center, 4, radius)  # start at the NW corner
    for d in range(6):
        for _ in range(radius):
            cells.append(cell)
            cell = step(cell, d)
    return cells


def hexagon_cells(q_range: tuple[int, int], r_range: tuple[int, int], s_range: tuple[int, int]) -> list[Cell]:
    """Cells of a general six-bound hexagon: ``q``, ``r`` and ``s = -q-r`` each in a closed range."""
    cells = []
    for r in range(r_range[0], r_range[1] + 1):
        for q in range(q_range[0], q_range[1] + 1):
            s = -q - r
            if s_range[0] <= s <= s_range[1]:
                cells.append((q, r))
    return cells


def hexhex_cells(side: int) -> list[Cell]:
    """A regular hexagon of ``side`` cells per side, centred on (0, 0)."""
    n = side - 1
    return hexagon_cells((-n, n), (-n, n), (-n, n))


@dataclass
class HexBoard:
    """A finite set of cells with names, indices, neighbours and rays.

    Rows are the distinct ``r`` values from the top; each row is lettered
    ``a``, ``b``, … and its cells numbered from the left starting at 1.
    """

    cells: tuple[Cell, ...]
    index: dict[Cell, int] = field(init=False, repr=False)
    names: tuple[str, ...] = field(init=False, repr=False)
    rows: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    neighbour_indices: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False)
    edge_distance: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        ordered = sorted(set(self.cells), key=lambda c: (c[1], c[0]))
        if len(ordered) > 26 * 99:
            raise ValueError("board too large to name")
        self.cells = tuple(ordered)
        self.index = {c: i for i, c in enumerate(self.cells)}
        row_values = sorted({r for _, r in self.cells})
        if len(row_values) > 26:
            raise ValueError("a board has at most 26 rows")
        names: list[str] = [""] * len(self.cells)
        rows: list[tuple[int, ...]] = []
        for row_number, r in enumerate(row_values):
            members = [i for i, c in enumerate(self.cells) if c[1] == r]
            rows.append(tuple(members))
            letter = chr(ord("a") + row_number)
            for k, i in enumerate(members, start=1):
                names[i] = f"{letter}{k}"
        self.names = tuple(names)
        self._name_index = {n: i for i, n in enumerate(self.names)}
        self.rows = tuple(rows)
        self.neighbour_indices = tuple(
            tuple(self.index[n] for n in neighbours(c) if n in self.index) for c in self.cells
        )
        self.rays = tuple(tuple(tuple(self._ray_cells(c, d)) for d in range(6)) for c in self.cells)
        self.edge_distance = tuple(self._edge_distance(c) for c in self.cells)

    # -- construction helpers -------------------------------------------------

    @classmethod
    def hexhex(cls, side: int) -> HexBoard:
        return cls(tuple(hexhex_cells(side)))

    @classmethod
    def hexagon(cls, q_range: tuple[int, int], r_range: tuple[int, int], s_range: tuple[int, int]) -> HexBoard:
        return cls(tuple(hexagon_cells(q_range, r_range, s_range)))

    # -- queries ----------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self.index

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def _ray_cells(self, cell: Cell, direction: int) -> Iterable[int]:
        c = step(cell, direction)
        while c in self.index:
            yield self.index[c]
            c = step(c, direction)

    def _edge_distance(self, cell: Cell) -> int:
        # A cell's distance to the edge is how many rings of the board lie
        # outside it: the shortest number of steps before a step leaves the board.
        return min(len(tuple(self._ray_cells(cell, d))) for d in range(6))

    def neighbours_of(self, i: int) -> tuple[int, ...]:
        return self.neighbour_indices[i]

    def ray(self, i: int, direction: int) -> tuple[int, ...]:
        """Indices from the neighbour of ``i`` in ``direction`` to the edge."""
        return self.rays[i][direction]

    def name(self, i: int) -> str:
        return self.names[i]

    def cell_name(self, cell: Cell) -> str:
        return self.names[self.index[cell]]

    def row_letters(self) -> str:
        return "".join(chr(ord("a") + k) for k in range(len(self.rows)))

    def parse(self, text: str) -> int:
        """Index of the cell named ``text`` (case-insensitive), with a precise error."""
        key = text.strip().lower()
        found = self._name_index.get(key)
        if found is not None:
            return found
        if not key:
            raise CellNameError("empty cell name")
        letter, digits = key[0], key[1:]
        last_row = chr(ord("a") + len(self.rows) - 1)
        if not ("a" <= letter <= "z") or not digits.isdigit():
            raise CellNameError(
                "{text!r} is not a cell name: write a row letter a–{last_row} then a number, like {example}",
                text=text.strip(),
                last_row=last_row,
                example=self.names[len(self.names) // 2],
            )
        row = ord(letter) - ord("a")
        if row >= len(self.rows):
            raise CellNameError(
                "there is no row {letter}: rows run from a to {last_row}", letter=letter, last_row=last_row
            )
        size = len(self.rows[row])
        raise CellNameError(
            "{cell} is off the board: row {letter} has cells {letter}1–{letter}{size}",
            cell=key,
            letter=letter,
            size=size,
        )

    def distance_to_edge(self, i: int) -> int:
        return self.edge_distance[i]

    def cells_at_edge_distance(self, k: int) -> list[int]:
        """The ``k``-th ring counted from the edge (0 = the outer ring)."""
        return [i for i, e in enumerate(self.edge_distance) if e == k]

    def outside_ring(self) -> list[Cell]:
        """Every off-board cell that touches the board (the board's shore)."""
        seen: dict[Cell, None] = {}
        for c in self.cells:
            for n in neighbours(c):
                if n not in self.index:
                    seen.setdefault(n)
        return list(seen)
