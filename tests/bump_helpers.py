"""Small builders and positions for Bump's rules tests (tests/test_bump*.py)."""

from __future__ import annotations

from games.bump import NAMES, Bump, space_at


def at(q: int, r: int) -> str:
    """The name of the space drawn at (q, r)."""
    i = space_at((q, r))
    assert i >= 0, (q, r)
    return NAMES[i]


def game(pieces: dict[str, list[int]], to_move: int = 1, **extra) -> Bump:
    position = {"pieces": pieces, "to_move": to_move, "reserves": [0, 0], "captured": [0, 0], "held_centre": []}
    options = extra.pop("options", None)
    position.update(extra)
    return Bump.from_position(2, options, position)


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def bumps(events):
    return [(e.src, e.dst) for e in events if e.kind == "bump"]


# A triangle s1 → s2 → s3 → s1 with a bumper behind each corner keeps a piece cycling.
S1, S2, S3 = (1, -2), (2, -2), (1, -1)
CYCLE = {at(0, -2): [2, 0], at(3, -3): [2, 2], at(1, 0): [2, 4], at(0, -1): [1, 0], "39": [2, 0]}


# The mover's 04 comes to 03 facing 4, where two bumpers face it: 02 (facing 0, pushing it back
# to 04) and 021 (facing 5, pushing it to 513).
TWO = {"02": [2, 0], "021": [2, 5], "04": [1, 4], "39": [2, 0]}


def choice_game():
    return game(dict(TWO))
