"""Bump's board: two radius-4 areas around ``C1 = (0, 0)`` and ``C2 = (10, 0)``,
six gates, walls, the space names and the set-up.

128 spaces, each with an index (:data:`NAMES`), its drawn cells (:data:`COORDS`: one, or two
for gates 1–5) and six neighbours (:data:`NEIGHBOURS`, ``-1`` for a wall). Gate ``f`` is
adjacent to exactly ``C1 + 4·d_f`` (across its side ``f + 3``) and ``C2 − 4·d_f`` (across its
side ``f``); ``NEIGHBOURS[a][d] == b`` exactly when ``NEIGHBOURS[b][d + 3] == a``.

Names: ``C1``, ``C2``; ``f n`` on an axis (``f5`` is gate ``f``); ``f n m`` off the axes —
area 1: ``C1 + n·d_f + m·d_(f+1)``; area 2: ``C2 − (10 − n)·d_f + m·d_(f+4)``.
"""

from __future__ import annotations

from .interface import IllegalMove

RADIUS = 4
CENTRE_COORDS = ((0, 0), (10, 0))
DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_WORDS = ("E", "SE", "SW", "W", "NW", "NE")


WALL = -1


def _add(a: tuple[int, int], b: tuple[int, int], k: int = 1) -> tuple[int, int]:
    return (a[0] + k * b[0], a[1] + k * b[1])


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def _build() -> tuple[list[str], list[tuple[tuple[int, int], ...]], list[int], list[tuple[int, ...]]]:
    """Names, drawn coordinates, area (1, 2 or 0 for a gate) and neighbours of every space."""
    names: list[str] = []
    coords: list[tuple[tuple[int, int], ...]] = []
    areas: list[int] = []
    c1, c2 = CENTRE_COORDS
    names.append("C1")
    coords.append((c1,))
    areas.append(1)
    for f in range(6):
        for n in range(1, 5):
            for m in range(5 - n):
                names.append(f"{f}{n}{m or ''}")
                coords.append((_add(_add(c1, DIRECTIONS[f], n), DIRECTIONS[(f + 1) % 6], m),))
                areas.append(1)
    for f in range(6):
        names.append(f"{f}5")
        cells = (_add(c1, DIRECTIONS[f], 5), _add(c2, DIRECTIONS[f], -5))
        coords.append(cells[:1] if cells[0] == cells[1] else cells)
        areas.append(0)
    for f in range(6):
        for n in range(6, 10):
            for m in range(n - 5):
                names.append(f"{f}{n}{m or ''}")
                coords.append((_add(_add(c2, DIRECTIONS[f], n - 10), DIRECTIONS[(f + 4) % 6], m),))
                areas.append(2)
    names.append("C2")
    coords.append((c2,))
    areas.append(2)
    at = {(areas[i], coords[i][0]): i for i in range(len(names)) if areas[i]}
    gate = {f: names.index(f"{f}5") for f in range(6)}
    neighbours: list[tuple[int, ...]] = []
    for i, area in enumerate(areas):
        row = []
        for d, step in enumerate(DIRECTIONS):
            if area == 0:
                f = int(names[i][0])
                if d == f:
                    row.append(at[(2, _add(c2, DIRECTIONS[f], -4))])
                elif d == (f + 3) % 6:
                    row.append(at[(1, _add(c1, DIRECTIONS[f], 4))])
                else:
                    row.append(WALL)
                continue
            cell = _add(coords[i][0], step)
            centre = CENTRE_COORDS[area - 1]
            if _distance(cell, centre) <= RADIUS:
                row.append(at[(area, cell)])
            elif area == 1 and cell == _add(c1, step, 5) and coords[i][0] == _add(c1, step, 4):
                row.append(gate[d])
            elif area == 2 and cell == _add(c2, step, 5) and coords[i][0] == _add(c2, step, 4):
                row.append(gate[(d + 3) % 6])
            else:
                row.append(WALL)
        neighbours.append(tuple(row))
    return names, coords, areas, neighbours


NAMES, COORDS, AREAS, NEIGHBOURS = _build()
SPACE_COUNT = len(NAMES)
INDEX = {name: i for i, name in enumerate(NAMES)}
C1, C2 = INDEX["C1"], INDEX["C2"]
CENTRE = (-1, C1, C2)  # by seat
OPPONENT_CENTRE = (-1, C2, C1)
GATES = tuple(INDEX[f"{f}5"] for f in range(6))
OPPOSITE = (3, 4, 5, 0, 1, 2)


def _start_spaces() -> tuple[dict[int, int], ...]:
    seat1 = {}
    for f in range(6):
        seat1[INDEX[f"{f}1"]] = f
        seat1[INDEX[f"{f}11"]] = (f + 1) % 6
    seat2 = {}
    for f in range(6):
        seat2[INDEX[f"{f}9"]] = (f + 3) % 6
        seat2[INDEX[f"{f}91"]] = (f + 4) % 6
    return ({}, seat1, seat2)


START = _start_spaces()  # by seat: space -> set-up facing


_AT: dict[tuple[int, ...], int] = {cell: i for i, cells in enumerate(COORDS) for cell in cells}


def space_at(cell: tuple[int, int]) -> int:
    """The space drawn at axial ``cell`` (either part of a gate), or -1 off the board."""
    return _AT.get(tuple(cell), -1)


def rotation_cost(a: int, b: int) -> int:
    """60° steps between two facings, the shorter way round (0–3)."""
    d = (b - a) % 6
    return min(d, 6 - d)


def _facings_within() -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(
        tuple(tuple(f for f in range(6) if rotation_cost(old, f) <= points) for points in range(4)) for old in range(6)
    )


# [facing now][points left, 0–3]: the facings a piece can turn to with those points, in increasing order
# (the enumeration's and the random turn's inner loop: a lookup rather than a rotation_cost per facing).
FACINGS_WITHIN = _facings_within()


def gate_part(space: int, facing: int) -> int:
    """Which drawn part of a gate holds a piece (the part its bumper faces): 0 the area-1 side, 1 the area-2 side."""
    f = int(NAMES[space][0])
    if len(COORDS[space]) == 1:
        return 0
    return 1 if facing in (f, (f + 1) % 6, (f + 5) % 6) else 0


class SpaceNameError(IllegalMove):
    """A space name that is malformed or names no space; the message says why."""


def parse_space(text: str) -> int:
    """The index of a space name (``C1``, ``05``, ``011``…), with a precise reason when it is none."""
    token = text.strip().lower()
    if not token:
        raise SpaceNameError("no space given")
    if token in ("c1", "c2"):
        return INDEX[token.upper()]
    if token.startswith("c"):
        raise SpaceNameError("{space} is not a space: the centres are C1 and C2", space=text.strip())
    if not token.isdigit() or not token.isascii():
        raise SpaceNameError(
            "{space!r} is not a space: write C1, C2 or digits axis-step-offset such as 03, 05 (gate 0) or 011",
            space=text.strip(),
        )
    if len(token) == 1:
        raise SpaceNameError(
            "{space} is not a space: a name has an axis and a step, like 0{space} or {space}1", space=token
        )
    if len(token) > 3:
        raise SpaceNameError("{space} is not a space: names have 2 or 3 digits (axis, step, offset)", space=token)
    f, n = int(token[0]), int(token[1])
    if f > 5:
        raise SpaceNameError(
            "{space} is not a space: the axis {axis} does not exist (axes are 0–5)", space=token, axis=f
        )
    if n == 0:
        raise SpaceNameError("{space} is not a space: steps along an axis are 1–9 (5 is the gate)", space=token)
    if len(token) == 2:
        return INDEX[token]
    m = int(token[2])
    if n == 5:
        raise SpaceNameError("{space} is not a space: {axis}5 is gate {axis} and takes no offset", space=token, axis=f)
    if m == 0:
        raise SpaceNameError(
            "{space} is not a space: write the axis space without an offset, {axis_space}",
            space=token,
            axis_space=token[:2],
        )
    most = 4 - n if n < 5 else n - 6
    if m > most:
        if most == 0:
            raise SpaceNameError(
                "{space} is not a space: at step {step} only the axis space {axis}{step} exists",
                space=token,
                step=n,
                axis=f,
            )
        raise SpaceNameError(
            "{space} is not a space: at step {step} the offset is at most {most}", space=token, step=n, most=most
        )
    return INDEX[token]
