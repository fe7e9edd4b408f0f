"""A board in data, for words instead of a picture: alt text and the screen-reader view of /board text.

Pure: what each game's caption and panel show (scores, stones, goals, pieces and reserves), where
each player's things stand (by cell name, grouped the way each game is read), and the last turn.
``bot/chat/words/boards.py`` says it in sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import AnyGame, Event


@dataclass(frozen=True)
class Material:
    """What the panel shows of one seat: (what, how many) pairs, e.g. ("score", 3), ("pool", 28)."""

    seat: int
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Group:
    """Things of one kind on the board, by cell name: a seat's (``seat``) or nobody's (the ball).

    ``kind`` says what they are ("disc", "stone", "playballer", "piece", "ball"); ``where`` says
    which part of a board they share when a game is read by regions (Begird: "island 3",
    "islands 1 and 2", "open water"). Bump's pieces carry their facing in ``facings``
    (0 = east, then clockwise, as the notation writes it; the chat layer words it).
    """

    seat: int | None
    kind: str
    cells: tuple[str, ...]
    where: tuple[int, ...] = ()
    facings: tuple[int, ...] = ()


@dataclass(frozen=True)
class LastTurn:
    seat: int | None
    notation: str
    events: tuple[Event, ...]


def last_turn(events: Sequence[Event], notation: str = "") -> LastTurn | None:
    """The turn a board is drawn with (its events, and its notation when known); None before the first."""
    if not events:
        return None
    seat = next((e.seat for e in events if e.seat is not None and e.kind not in ("draw", "end")), None)
    return LastTurn(seat, notation, tuple(events))


def material(game: AnyGame) -> list[Material]:
    """Per seat, the numbers the picture's panel shows."""
    gid = game.info.id
    out = []
    for seat in range(1, game.players + 1):
        i = seat - 1
        counts: list[tuple[str, int]]
        if gid == "bide":
            g: Any = game
            counts = [("score", int((game.scores() or ())[i]))]
            if not game.is_over:
                counts += [("hand", int(g.hands[i])), ("pool", int(g.pools[i]))]
        elif gid == "begird":
            g = game
            counts = [("stones", sum(1 for v in g.cells if v == seat))]
        elif gid == "playbai":
            g = game
            counts = [("goals", int(g.goals[i])), ("playballers", len(g.pieces(seat)))]
        elif gid == "bump":
            g = game
            counts = [
                ("on board", g.on_board(seat)),
                ("captured", int(g.captured[i])),
                ("reserves", int(g.reserves[i])),
            ]
        else:  # a game added later: its scores, when it has any
            scored = game.scores()
            counts = [("score", int(scored[i]))] if scored is not None else []
        out.append(Material(seat, tuple(counts)))
    return out


def position_groups(game: AnyGame) -> list[Group]:
    """Where everything stands, grouped per seat (and per region where the game is read so)."""
    gid = game.info.id
    g: Any = game
    if gid == "begird":
        return _begird_groups(g)
    if gid == "playbai":
        names = g.board.names
        groups = [Group(seat, "playballer", tuple(names[i] for i in g.pieces(seat))) for seat in (1, 2)]
        carrier = g.carrier()
        return [*groups, Group(carrier, "ball", (names[g.ball],))]
    if gid == "bump":
        pieces = g.pieces()
        groups = []
        for seat in (1, 2):
            mine = sorted((cell, facing) for cell, (owner, facing) in pieces.items() if owner == seat)
            facings = tuple(facing for _, facing in mine)  # the digit the notation uses (03,05-4: facing 4)
            groups.append(Group(seat, "piece", tuple(cell for cell, _ in mine), facings=facings))
        return groups
    board = game.position().get("board") or {}  # Bide, and any game whose position is {cell: seat}
    return [
        Group(seat, "disc", tuple(sorted(cell for cell, owner in board.items() if owner == seat)))
        for seat in range(1, game.players + 1)
    ]


def _begird_groups(g: Any) -> list[Group]:
    """Begird is read by islands: each seat's stones grouped by the islands they touch."""
    names, masks = g.board.names, g.layout.cell_masks
    groups: list[Group] = []
    for seat in (1, 2):
        by_islands: dict[tuple[int, ...], list[str]] = {}
        for i, owner in enumerate(g.cells):
            if owner == seat:
                by_islands.setdefault(tuple(g.layout.islands_of(masks[i])), []).append(names[i])
        order = sorted(by_islands, key=lambda k: (not k, k))  # shores first, open water last
        groups.extend(Group(seat, "stone", tuple(by_islands[islands]), where=islands) for islands in order)
    return groups
