"""Bump's bump phase: the rules' ``settle(X)`` procedure on a board of pieces, with the mover's
choices and the stasis records (issue 8, decisions 2–4).

Pieces have ids so that ``settle`` can follow one piece ("if X is still on the space where
this settle found it"). The recursion of ``settle`` is an explicit stack, so a long chain
cannot overflow Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

from .bumpboard import CENTRE, NAMES, NEIGHBOURS, OPPONENT_CENTRE, OPPOSITE, SPACE_COUNT
from .interface import Event

# -- actions -----------------------------------------------------------------------

# Tuples rather than classes: actions are dict keys by the thousand in an enumeration, and the tag
# in front lets mypy narrow an action to its kind after `action[0] == "move"`.
MoveAction: TypeAlias = tuple[Literal["move"], int, int, int, tuple[int, ...]]  # src, dst, facing, choices
ReinforceAction: TypeAlias = tuple[Literal["reinforce"], int, int]  # dst, facing
PassAction: TypeAlias = tuple[Literal["pass"]]
BumpAction: TypeAlias = MoveAction | ReinforceAction | PassAction

PASS: PassAction = ("pass",)


def move_action(src: int, dst: int, facing: int, choices: tuple[int, ...] = ()) -> MoveAction:
    """A move: the piece on ``src`` goes to ``dst`` and faces ``facing``; ``choices`` are the
    chosen bump directions in the order the choices arise."""
    return ("move", src, dst, facing, tuple(choices))


def reinforce_action(dst: int, facing: int) -> ReinforceAction:
    return ("reinforce", dst, facing)


@dataclass(frozen=True)
class ChoicePoint:
    """One point of a resolution where several bumpers faced a piece."""

    space: int  # where the bumped piece stood
    options: tuple[tuple[int, int], ...]  # (bump direction, target space or WALL), lowest direction first
    captures: tuple[bool, ...]  # per option: whether that push captures
    chosen: int  # the direction taken

    def label(self, direction: int) -> str:
        for (d, target), _ in zip(self.options, self.captures, strict=True):
            if d == direction:
                return NAMES[target] if target >= 0 else "x"
        raise KeyError(direction)

    def labels(self) -> list[str]:
        return [NAMES[t] if t >= 0 else "x" for _, t in self.options]


@dataclass
class Outcome:
    """What a move leads to (for previews and suggestions)."""

    events: list[Event] | None  # None until asked for (enumeration skips building them)
    choice_points: list[ChoicePoint]
    bumps: int
    captured: tuple[int, int]  # pieces of seat 1 and seat 2 captured
    guard: bool


class PieceBoard:
    """The mutable pieces of a game: pieces have ids so settle() can follow one piece."""

    __slots__ = ("cells", "facing", "owner", "where")

    def __init__(self) -> None:
        self.cells: list[int] = [-1] * SPACE_COUNT
        self.owner: list[int] = []
        self.facing: list[int] = []
        self.where: list[int] = []

    def copy(self) -> PieceBoard:
        twin = PieceBoard.__new__(PieceBoard)
        twin.cells = self.cells[:]
        twin.owner = self.owner[:]
        twin.facing = self.facing[:]
        twin.where = self.where[:]
        return twin

    def add(self, space: int, seat: int, facing: int) -> int:
        pid = len(self.owner)
        self.owner.append(seat)
        self.facing.append(facing)
        self.where.append(space)
        self.cells[space] = pid
        return pid

    def stasis_key(self, space: int, direction: int) -> str:
        """A bump's record: every piece as ``space:seat facing`` in the spaces' order, then the bumped
        piece's space and the direction (``"01:10 … 9:23 | 05>3"``; stored in the full state)."""
        owner, facing, cells = self.owner, self.facing, self.cells
        # The pieces' spaces sorted (a few dozen) rather than a scan of the 128 spaces: this runs at every bump.
        parts = [PIECE_TOKENS[s][owner[p] * 6 + facing[p]] for s in sorted(self.where) if s >= 0 for p in (cells[s],)]
        return " ".join(parts) + f" | {NAMES[space]}>{direction}"


# A piece in a stasis record, ``space:seat facing``, by space then ``seat * 6 + facing``.
PIECE_TOKENS = tuple(tuple(f"{name}:{seat}{f}" for seat in range(3) for f in range(6)) for name in NAMES)

Chooser = Callable[[int, ChoicePoint], int]


def default_chooser(index: int, point: ChoicePoint) -> int:
    return point.options[0][0]


class Resolution:
    """The rules' settle(X) on a board, with the mover's choices and the stasis records."""

    def __init__(
        self, board: PieceBoard, held: list[bool], stasis: Mapping[str, int], chooser: Chooser, record: bool
    ) -> None:
        self.board = board
        self.held = held
        self.stasis = stasis
        self.new_records: dict[str, int] = {}
        self.chooser = chooser
        self.record = record  # build events (off for the fast "does it bump?" paths)
        self.events: list[Event] = []
        self.points: list[ChoicePoint] = []
        self.bumps = 0
        self.captured = [0, 0, 0]

    def push_target(self, pid: int, direction: int) -> tuple[int, str | None]:
        """Where a push of ``pid`` in ``direction`` goes, and why it captures (None: it moves)."""
        b = self.board
        target = NEIGHBOURS[b.where[pid]][direction]
        if target < 0:
            return target, "wall"
        if b.cells[target] >= 0:
            return target, "piece"
        seat = b.owner[pid]
        if target == CENTRE[seat]:
            return target, "centre"
        if target == OPPONENT_CENTRE[seat] and self.held[seat]:
            return target, "centre"
        return target, None

    def seen(self, key: str) -> int:
        """How many times a bump record has occurred so far (the game's history and this turn)."""
        return self.stasis.get(key, 0) + self.new_records.get(key, 0)

    def bump(self, pid: int, direction: int, bumper: int) -> int:
        """Bump ``pid`` one space in ``direction``; its new space, or -1 when captured."""
        b = self.board
        space = b.where[pid]
        key = b.stasis_key(space, direction)
        seen = self.stasis.get(key, 0) + self.new_records.get(key, 0) + 1
        self.new_records[key] = self.new_records.get(key, 0) + 1
        target, reason = self.push_target(pid, direction)
        if reason is None and seen >= 3:
            reason = "stasis"
        self.bumps += 1
        seat = b.owner[pid]
        if self.record:
            self.events.append(
                Event(
                    "bump",
                    seat=b.owner[bumper],
                    cell=NAMES[b.where[bumper]],
                    src=NAMES[space],
                    dst=NAMES[target] if reason is None else None,
                    data=(
                        ("bumped_seat", seat),
                        ("direction", direction),
                        ("number", self.bumps),
                        ("toward", NAMES[target] if target >= 0 else "x"),
                    ),
                )
            )
        b.cells[space] = -1
        if reason is not None:
            b.where[pid] = -1
            self.captured[seat] += 1
            if self.record:
                self.events.append(
                    Event(
                        "capture",
                        seat=seat,
                        cell=NAMES[space],
                        data=(
                            ("reason", reason),
                            ("facing", b.facing[pid]),
                            ("direction", direction),
                            ("toward", NAMES[target] if target >= 0 else "x"),
                            ("number", self.bumps),
                        ),
                    )
                )
            return -1
        b.cells[target] = pid
        b.where[pid] = target
        return target

    def settle(self, first: int) -> None:
        b = self.board
        cells, facing, where = b.cells, b.facing, b.where
        stack = [(first, where[first], False)]
        while stack:
            x, space, returning = stack.pop()
            if not returning:
                # X bumps first; then (below Q's chain on the stack) X may be bumped.
                stack.append((x, space, True))
                f = facing[x]
                front = NEIGHBOURS[space][f]
                if front >= 0:
                    q = cells[front]
                    if q >= 0 and facing[q] != OPPOSITE[f]:
                        moved = self.bump(q, f, x)
                        if moved >= 0:
                            stack.append((q, moved, False))
                continue
            if where[x] != space:
                continue
            options = []
            own = facing[x]
            row = NEIGHBOURS[space]
            for d in range(6):
                n = row[d]
                if n >= 0:
                    p = cells[n]
                    if p >= 0 and facing[p] == OPPOSITE[d] and own != d:
                        options.append((OPPOSITE[d], p))
            if not options:
                continue
            if len(options) == 1:
                direction, bumper = options[0]
            else:
                options.sort()
                targets = []
                captures = []
                for d, _ in options:
                    target, reason = self.push_target(x, d)
                    targets.append((d, target))
                    captures.append(reason is not None or self.seen(b.stasis_key(space, d)) >= 2)
                point = ChoicePoint(space, tuple(targets), tuple(captures), options[0][0])
                direction = self.chooser(len(self.points), point)
                bumper = next(p for d, p in options if d == direction)
                point = ChoicePoint(space, point.options, point.captures, direction)
                self.points.append(point)
                if self.record:
                    self.events.append(
                        Event(
                            "choice",
                            seat=b.owner[bumper],
                            cell=NAMES[space],
                            data=(
                                ("options", tuple(point.labels())),
                                ("chosen", point.label(direction)),
                                ("index", len(self.points)),
                                ("bumper", NAMES[where[bumper]]),
                            ),
                        )
                    )
            moved = self.bump(x, direction, bumper)
            if moved >= 0:
                stack.append((x, moved, False))
