"""Bump (the seed ``003``): the rules in :data:`RULES_SUMMARY`, issue 8's and this project's decisions in docs/rules.md.

Board and resolution
--------------------
The board (two areas, six gates, walls, space names, set-up) is :mod:`games.bumpboard`;
the bump phase (``settle(X)``, choices, stasis records) is :mod:`games.bumpresolve`. Both
are re-exported here.

Turns
-----
A turn is one action: ``pass``; a move ``FROM[,TO][-F]`` followed by the
mover's choices ``(a) (b)…``; or a reinforcement ``R,TO[-F]``. A move written
out that changes nothing (``03``, ``03,03``, ``03-0`` facing 0 already) is refused
(issue 26: a typo must not cost the turn), and so is the action.
Choices name the space the bumped piece would be pushed into (``x`` for a
push into a wall, else for any capturing option; several pushes into walls
at one choice are one turn, the first); entries are taken in the
order the choices arise; missing ones take the default — the bumper whose
facing (the bump's direction) is lowest. Canonical notation writes every
choice of the turn, each in its own parentheses: ``03,04-0 (06)``.

Bumps are resolved by the rules' ``settle(X)`` procedure (an explicit stack, so a long
chain cannot overflow Python's recursion). Stasis: every bump is recorded as
(every piece's space, owner and facing just before the bump; the bumped
piece's space; the direction); the records last the whole game and the third
occurrence of one captures the bumped piece in stasis.

Position form (``Bump.position()``)::

    {"pieces": {"01": [1, 0], "011": [1, 1], "09": [2, 3]},
     "to_move": 1, "reserves": [0, 0], "captured": [0, 0], "held_centre": []}

``pieces`` maps a space to ``[seat, facing]``; ``held_centre`` lists the seats
that had a piece on the opponent's centre at the end of their previous turn.
Once the game is over ``to_move`` is ``null`` and ``"winners"`` and
``"end_reason"`` are added (``winners`` is ``[]`` for a draw). The stasis
history is kept in the full state (``to_json()["extra"]["stasis"]``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any, TypedDict

from .bumpboard import (
    AREAS,
    C1,
    C2,
    CENTRE,
    CENTRE_COORDS,
    COORDS,
    DIRECTIONS,
    FACINGS_WITHIN,
    GATES,
    INDEX,
    NAMES,
    NEIGHBOURS,
    OPPONENT_CENTRE,
    OPPOSITE,
    SPACE_COUNT,
    START,
    WALL,
    SpaceNameError,
    gate_part,
    parse_space,
    rotation_cost,
    space_at,
)
from .bumpresolve import (
    PASS,
    BumpAction,
    ChoicePoint,
    Chooser,
    MoveAction,
    Outcome,
    PassAction,
    PieceBoard,
    ReinforceAction,
    Resolution,
    default_chooser,
    move_action,
    reinforce_action,
)
from .interface import (
    Event,
    GameInfo,
    IllegalMove,
    OptionSpec,
    Say,
    StateError,
    TurnBookkeeping,
    plain,
)

# The board (games.bumpboard) and the bump phase (games.bumpresolve) live in their own modules
# but are part of this game's API, so they are exported from here too.
__all__ = [
    "AREAS",
    "C1",
    "C2",
    "CENTRE",
    "CENTRE_COORDS",
    "COORDS",
    "DIRECTIONS",
    "GATES",
    "INDEX",
    "MAX_POINTS",
    "MAX_RESERVES",
    "MAX_TURNS",
    "NAMES",
    "NEIGHBOURS",
    "OPPONENT_CENTRE",
    "OPPOSITE",
    "PASS",
    "RULES_SUMMARY",
    "SEAT_COLOURS",
    "SPACE_COUNT",
    "START",
    "WALL",
    "Bump",
    "BumpAction",
    "ChoicePoint",
    "Chooser",
    "Enumeration",
    "MoveAction",
    "Outcome",
    "PassAction",
    "PieceBoard",
    "ReinforceAction",
    "Resolution",
    "SpaceNameError",
    "default_chooser",
    "describe_events",
    "gate_part",
    "move_action",
    "parse_space",
    "reinforce_action",
    "rotation_cost",
    "space_at",
    "turn_notation",
]

SEAT_COLOURS = ("Blue", "Orange")
MAX_POINTS = 3
MAX_RESERVES = 3
MAX_TURNS = 600

RULES_SUMMARY = """\
**Bump** — 2 players, 12 pieces each, on two hexagonal areas joined by six
gates. Every piece has one **bumper** (its facing); its other sides are blind.
**Win:** start your turn with a piece on your opponent's centre.
**Move** one piece with up to 3 points: shift to empty adjacent spaces first
(never through a wall, a piece or your own centre), then rotate 60° per point.
**Bumps:** a bumper facing a blind side of an adjacent piece pushes it one
space away; the pushed piece may bump in turn (chains). A push that would be
an illegal shift (a wall, a piece, its own centre) **captures** it. Several
bumpers on one piece: you choose. A bump repeating three times captures
(stasis). Bumpers facing each other are stable.
Notation: `03,05-4` (from 03 to 05, facing 4), `03-2`, `pass`; choices in
parentheses `03,04-0 (06)`; reinforcement `R,01-0`. Spaces: `C1`, `C2`,
axis+step `05` (gate 0 is `05`), axis+step+offset `011`."""


class Enumeration(TypedDict):
    """The legal turns of a position and, for bumping moves, what each does (``None`` until asked)."""

    actions: list[BumpAction]
    outcomes: dict[BumpAction, Outcome | None]


_MOVE_RE = re.compile(r"^\s*(?P<body>[^()]*?)\s*(?P<choices>(?:\([^()]*\)\s*)*)$")


class Bump(TurnBookkeeping[BumpAction]):
    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = dict(options)
        self.board = PieceBoard()
        self.current: int | None = 1
        self.reserves = [self.options["reserve1"], self.options["reserve2"]]
        self.captured = [0, 0]
        self.held = [False, False, False]  # by seat (index 0 unused)
        self.stasis: dict[str, int] = {}
        self._ply = 0
        self._turn: list[BumpAction] = []
        self._result: tuple[int, ...] | None = None
        self._end_reason: str | None = None
        self._resigned: int | None = None
        self.last_action: BumpAction | None = None
        # How the last action is written, kept cheap (the search never asks): whether the move turned the
        # piece, and the choices it met (see _last_notation).
        self._last_spelling: tuple[bool, tuple[ChoicePoint, ...]] = (False, ())
        self._cache: Enumeration | None = None

    # -- creation ------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 2, options: Mapping[str, Any] | None = None) -> Bump:
        cls.info.check_players(players)
        game = cls(players, cls.info.resolve_options(options))
        for seat in (1, 2):
            for space, facing in sorted(START[seat].items()):
                game.board.add(space, seat, facing)
        return game

    def copy(self) -> Bump:
        twin = object.__new__(Bump)
        twin.__dict__.update(self.__dict__)
        twin.board = self.board.copy()
        twin.reserves = self.reserves[:]
        twin.captured = self.captured[:]
        twin.held = self.held[:]
        twin.stasis = dict(self.stasis)
        twin._turn = self._turn[:]
        twin.options = dict(self.options)
        return twin

    # -- queries ---------------------------------------------------------------------

    def piece_at(self, space: int | str) -> tuple[int, int] | None:
        """``(seat, facing)`` of the piece on a space, or None."""
        i = parse_space(space) if isinstance(space, str) else space
        pid = self.board.cells[i]
        return None if pid < 0 else (self.board.owner[pid], self.board.facing[pid])

    def pieces(self) -> dict[str, tuple[int, int]]:
        b = self.board
        return {NAMES[s]: (b.owner[p], b.facing[p]) for s, p in enumerate(b.cells) if p >= 0}

    def on_board(self, seat: int) -> int:
        return sum(1 for p in self.board.cells if p >= 0 and self.board.owner[p] == seat)

    def reserves_used(self, seat: int) -> int:
        used: int = self.options[f"reserve{seat}"] - self.reserves[seat - 1]
        return used

    def occupies_opponent_centre(self, seat: int) -> bool:
        pid = self.board.cells[OPPONENT_CENTRE[seat]]
        return pid >= 0 and self.board.owner[pid] == seat

    @property
    def held_centre(self) -> list[int]:
        return [s for s in (1, 2) if self.held[s]]

    @property
    def drawn(self) -> bool:
        return self._result == ()

    def scores(self) -> None:
        return None

    def returns(self) -> tuple[float, ...]:
        if self.drawn:
            return (0.5, 0.5)
        return super().returns()

    # -- movement ------------------------------------------------------------------------

    def reachable(self, src: int) -> dict[int, int]:
        """Spaces the piece on ``src`` can shift to, with the fewest points needed (0–3)."""
        b = self.board
        cells = b.cells
        seat = b.owner[cells[src]]
        banned_own = CENTRE[seat]
        banned_opp = OPPONENT_CENTRE[seat] if self.held[seat] else -1
        dist = {src: 0}
        frontier = [src]
        for step in range(1, MAX_POINTS + 1):
            nxt = []
            for s in frontier:
                for n in NEIGHBOURS[s]:
                    # Not `n in (banned_own, banned_opp)`: that builds a tuple per neighbour in a hot loop.
                    if n < 0 or n in dist or cells[n] >= 0 or n == banned_own or n == banned_opp:  # noqa: SIM109
                        continue
                    dist[n] = step
                    nxt.append(n)
            frontier = nxt
        return dist

    def shift_path(self, src: int, dst: int) -> list[int]:
        """One shortest legal shift path from ``src`` to ``dst`` (both included)."""
        b = self.board
        seat = b.owner[b.cells[src]]
        banned = {CENTRE[seat]} | ({OPPONENT_CENTRE[seat]} if self.held[seat] else set())
        back = {src: src}
        frontier = [src]
        while frontier and dst not in back:
            nxt = []
            for s in frontier:
                for n in NEIGHBOURS[s]:
                    if n >= 0 and n not in back and b.cells[n] < 0 and n not in banned:
                        back[n] = s
                        nxt.append(n)
            frontier = nxt
        path = [dst]
        while path[-1] != src:
            path.append(back[path[-1]])
        return path[::-1]

    def _why_not_move(self, src: int, dst: int, facing: int) -> IllegalMove:
        b = self.board
        seat = b.owner[b.cells[src]]
        old = b.facing[b.cells[src]]
        turn = rotation_cost(old, facing)
        if dst == CENTRE[seat]:
            return IllegalMove("{space} is your own centre: your pieces never enter it", space=NAMES[dst])
        if dst == OPPONENT_CENTRE[seat] and self.held[seat]:
            return IllegalMove(
                "you held {space} at the end of your last turn, so no piece of yours may "
                "shift into or through it this turn",
                space=NAMES[dst],
            )
        if dst != src and b.cells[dst] >= 0:
            return IllegalMove("{space} is occupied", space=NAMES[dst])
        dist = self.reachable(src)
        if dst not in dist:
            return IllegalMove(
                "{src} cannot reach {dst} in {most} shifts (walls, pieces and centres block the way)",
                src=NAMES[src],
                dst=NAMES[dst],
                most=MAX_POINTS,
            )
        k = dist[dst]
        facts = {
            "move": f"{NAMES[src]},{NAMES[dst]}-{facing}",
            "shifts": k,
            "points": turn,
            "old": old,
            "facing": facing,
            "total": k + turn,
            "most": MAX_POINTS,
        }
        # More than MAX_POINTS (3) in all: one shift means three points of turning, one point three shifts.
        if k == 1:
            return IllegalMove(
                "{move} needs {shifts} shift and {points} points of turning (from {old} to {facing}): "
                "{total} is more than {most}",
                **facts,
            )
        if turn == 1:
            return IllegalMove(
                "{move} needs {shifts} shifts and {points} point of turning (from {old} to {facing}): "
                "{total} is more than {most}",
                **facts,
            )
        return IllegalMove(
            "{move} needs {shifts} shifts and {points} points of turning (from {old} to {facing}): "
            "{total} is more than {most}",
            **facts,
        )

    # -- resolution ------------------------------------------------------------------------

    def _simulate(
        self, action: BumpAction, chooser: Chooser = default_chooser, record: bool = True
    ) -> tuple[PieceBoard, Resolution]:
        """Play ``action`` (a legal move or reinforcement) on a copy of the board."""
        board = self.board.copy()
        res = Resolution(board, self.held, self.stasis, chooser, record)
        seat = self.current
        if action[0] == "move":
            _, src, dst, facing, _ = action
            pid = board.cells[src]
            old = board.facing[pid]
            if record:
                if dst != src:
                    path = self.shift_path(src, dst)
                    for a, c in pairwise(path):
                        res.events.append(
                            Event("shift", seat=seat, src=NAMES[a], dst=NAMES[c], data=(("facing", old),))
                        )
                if facing != old:
                    steps = (facing - old) % 6
                    steps = steps if steps <= 3 else steps - 6
                    res.events.append(
                        Event(
                            "rotate", seat=seat, cell=NAMES[dst], data=(("from", old), ("to", facing), ("steps", steps))
                        )
                    )
            board.cells[src] = -1
            board.cells[dst] = pid
            board.where[pid] = dst
            board.facing[pid] = facing
            res.settle(pid)
        elif action[0] == "reinforce":
            _, dst, facing = action
            assert seat is not None
            board.add(dst, seat, facing)
            if record:
                res.events.append(Event("reinforce", seat=seat, cell=NAMES[dst], data=(("facing", facing),)))
        return board, res

    def _would_bump(self, src: int, dst: int, facing: int, seat: int) -> bool:
        """Whether a piece of ``seat`` on ``dst`` facing ``facing`` (``src`` vacated) bumps or is bumped."""
        cells, pf = self.board.cells, self.board.facing
        row = NEIGHBOURS[dst]
        front = row[facing]
        if front >= 0 and front != src:
            q = cells[front]
            if q >= 0 and pf[q] != OPPOSITE[facing]:
                return True
        for d in range(6):
            n = row[d]
            if n >= 0 and n != src and d != facing:
                p = cells[n]
                if p >= 0 and pf[p] == OPPOSITE[d]:
                    return True
        return False

    # -- enumeration -----------------------------------------------------------------------

    def _raw_moves(self, seat: int) -> Iterable[tuple[int, int, int]]:
        """(src, dst, facing) of every move of ``seat`` that changes something."""
        b = self.board
        for src, pid in enumerate(b.cells):
            if pid < 0 or b.owner[pid] != seat:
                continue
            old = b.facing[pid]
            turns = FACINGS_WITHIN[old]
            for dst, k in self.reachable(src).items():
                for facing in turns[MAX_POINTS - k]:
                    if dst != src or facing != old:
                        yield src, dst, facing

    def _reinforcements(self, seat: int) -> list[BumpAction]:
        if self.reserves[seat - 1] <= 0:
            return []
        out: list[BumpAction] = []
        for space in sorted(START[seat]):
            if self.board.cells[space] >= 0:
                continue
            out.extend(
                reinforce_action(space, facing) for facing in range(6) if not self._would_bump(-1, space, facing, seat)
            )
        return out

    def _variants(self, src: int, dst: int, facing: int) -> list[tuple[MoveAction, PieceBoard, Resolution]]:
        """Every complete choice sequence of a bumping move, with its result."""
        out = []
        todo: list[tuple[int, ...]] = [()]
        while todo:
            prefix = todo.pop()

            def chooser(i: int, point: ChoicePoint, prefix: tuple[int, ...] = prefix) -> int:
                return prefix[i] if i < len(prefix) else point.options[0][0]

            board, res = self._simulate(move_action(src, dst, facing, prefix), chooser, record=False)
            taken = tuple(p.chosen for p in res.points)
            for j in range(len(prefix), len(res.points)):
                point = res.points[j]
                labels = point.labels()
                for k, (d, _) in enumerate(point.options[1:], start=1):
                    # Two pushes into walls are both written (x), and both capture the piece:
                    # the notation names the first, so the others are not separate turns.
                    if labels[k] not in labels[:k]:
                        todo.append(taken[:j] + (d,))
            out.append((move_action(src, dst, facing, taken), board, res))
        return out

    def _enumerate(self) -> Enumeration:
        """All legal turns of the seat to move, with what each does (cached until the state changes)."""
        if self._cache is not None:
            return self._cache
        seat = self.current
        actions: list[BumpAction] = [PASS]
        outcomes: dict[BumpAction, Outcome | None] = {PASS: None}
        assert seat is not None
        action: BumpAction
        for src, dst, facing in self._raw_moves(seat):
            if not self._would_bump(src, dst, facing, seat):
                action = move_action(src, dst, facing)
                actions.append(action)
                outcomes[action] = None
                continue
            for action, board, res in self._variants(src, dst, facing):
                actions.append(action)
                outcomes[action] = self._outcome(board, res, events=None)
        for action in self._reinforcements(seat):
            actions.append(action)
            outcomes[action] = None
        self._cache = {"actions": actions, "outcomes": outcomes}
        return self._cache

    def _outcome(self, board: PieceBoard, res: Resolution, events: list[Event] | None) -> Outcome:
        seat = self.current
        assert seat is not None
        pid = board.cells[OPPONENT_CENTRE[seat]]
        guard = pid >= 0 and board.owner[pid] == seat
        return Outcome(events, res.points, res.bumps, (res.captured[1], res.captured[2]), guard)

    def outcome(self, action: BumpAction) -> Outcome:
        """What a legal action (of the seat to move, before it is played) leads to."""
        if action == PASS:
            return Outcome([Event("pass", seat=self.current)], [], 0, (0, 0), False)
        cached = self._enumerate()["outcomes"].get(action)
        if cached is not None and cached.events is not None:
            return cached
        board, res = self._simulate(action, self._fixed_chooser(action))
        out = self._outcome(board, res, res.events)
        if cached is not None:
            cached.events = out.events
        return out

    def centre_takers(self) -> list[BumpAction]:
        """The legal turns after which the mover stands on the opponent's centre (what the next turn's
        victory phase looks at): a move onto it that bumps nothing, or a move whose bumps leave a piece of the
        mover's there. From the enumeration, without playing a turn (puzzles ask it of every position)."""
        if self._result is not None or self._turn:
            return []
        seat = self.current
        assert seat is not None
        goal = OPPONENT_CENTRE[seat]
        outcomes = self._enumerate()["outcomes"]
        return [
            action
            for action, outcome in outcomes.items()
            if (outcome.guard if outcome is not None else action[0] == "move" and action[2] == goal)
        ]

    def bumping_turns(self) -> list[BumpAction]:
        """The legal turns that bump a piece: every other turn moves (or brings on) the one piece it names
        and nothing else, so only these can move an opponent's piece off a space."""
        if self._result is not None or self._turn:
            return []
        return [action for action, outcome in self._enumerate()["outcomes"].items() if outcome is not None]

    def random_action(self, rng: random.Random) -> BumpAction:
        """A random legal turn without enumerating them all (playouts, benchmarks): a random
        piece of the mover, then a random (destination, facing) it can reach; the default
        choices. ``pass`` only when the mover has no piece that can change anything."""
        seat = self.current
        assert seat is not None and self._result is None
        b = self.board
        if self.reserves[seat - 1] and rng.random() < 0.1:
            options = self._reinforcements(seat)
            if options:
                return rng.choice(options)
        mine = [s for s, p in enumerate(b.cells) if p >= 0 and b.owner[p] == seat]
        rng.shuffle(mine)
        for src in mine:
            old = b.facing[b.cells[src]]
            turns = FACINGS_WITHIN[old]
            moves = [
                (dst, f)
                for dst, k in self.reachable(src).items()
                for f in turns[MAX_POINTS - k]
                if dst != src or f != old
            ]
            if moves:
                dst, facing = rng.choice(moves)
                return move_action(src, dst, facing)
        return PASS

    # -- the turn ------------------------------------------------------------------------

    def legal_actions(self) -> list[BumpAction]:
        if self._result is not None or self._turn:
            return []
        return list(self._enumerate()["actions"])

    def can_end_turn(self) -> bool:
        return self._result is None and bool(self._turn)

    def _fixed_chooser(self, action: BumpAction) -> Chooser:
        chosen = action[4] if action[0] == "move" else ()

        def chooser(i: int, point: ChoicePoint) -> int:
            if i < len(chosen):
                if all(d != chosen[i] for d, _ in point.options):
                    raise IllegalMove(
                        "choice {number}: no bumper pushes {space} that way", number=i + 1, space=NAMES[point.space]
                    )
                return chosen[i]
            return point.options[0][0]

        return chooser

    def _check_legal(self, action: BumpAction) -> None:
        if self._result is not None:
            raise IllegalMove("the game is over")
        if self._turn:
            raise IllegalMove("one move per turn: this turn is complete")
        seat = self.current
        if not isinstance(action, tuple) or not action:
            raise IllegalMove("not a Bump action: {action!r}", action=action)
        if action == PASS:
            return
        b = self.board
        if action[0] == "move" and len(action) == 5:
            _, src, dst, facing, _ = action
            if not (0 <= src < SPACE_COUNT and 0 <= dst < SPACE_COUNT and 0 <= facing < 6):
                raise IllegalMove("not a Bump move: {action!r}", action=action)
            pid = b.cells[src]
            if pid < 0:
                raise IllegalMove("there is no piece on {space}", space=NAMES[src])
            if b.owner[pid] != seat:
                raise IllegalMove("the piece on {space} is your opponent's", space=NAMES[src])
            if src == dst and b.facing[pid] == facing:
                # issue 26: a move that changes nothing (01,01 typed by mistake) is not a silent pass
                raise IllegalMove(
                    "{space} stays on {space} facing {facing}: that moves nothing. Name another "
                    "space or a new facing (e.g. {space}-{other}), or write pass to skip moving",
                    space=NAMES[src],
                    facing=facing,
                    other=(facing + 1) % 6,
                )
            dist = self.reachable(src)
            if dst not in dist or dist[dst] + rotation_cost(b.facing[pid], facing) > MAX_POINTS:
                raise self._why_not_move(src, dst, facing)
            return
        if action[0] == "reinforce" and len(action) == 3:
            _, dst, facing = action
            if not (0 <= dst < SPACE_COUNT and 0 <= facing < 6):
                raise IllegalMove("not a Bump reinforcement: {action!r}", action=action)
            assert seat is not None
            if self.reserves[seat - 1] <= 0:
                raise IllegalMove("you have no reserve pieces left to bring on")
            if dst not in START[seat]:
                raise _not_a_start(dst, seat)
            if b.cells[dst] >= 0:
                raise IllegalMove("{space} is occupied", space=NAMES[dst])
            if self._would_bump(-1, dst, facing, seat):
                raise IllegalMove(
                    "a reinforcement on {space} facing {facing} would bump or be bumped; "
                    "it must come on without any bump",
                    space=NAMES[dst],
                    facing=facing,
                )
            return
        raise IllegalMove("not a Bump action: {action!r}", action=action)

    def apply_action(self, action: BumpAction) -> list[Event]:
        return self._apply(action, record=True)

    def apply_quiet(self, action: BumpAction) -> None:
        self._apply(action, record=False)

    def _apply(self, action: BumpAction, record: bool) -> list[Event]:
        """Apply one action; its events when ``record`` (else none: the quiet path)."""
        self._check_legal(action)
        seat = self.current
        if action == PASS:
            self._turn.append(PASS)
            self.last_action = PASS
            self._last_spelling = (False, ())
            self._cache = None
            return [Event("pass", seat=seat)] if record else []
        turned = action[0] == "move" and self.board.facing[self.board.cells[action[1]]] != action[3]
        board, res = self._simulate(action, self._fixed_chooser(action), record)
        if action[0] == "move" and len(action[4]) > len(res.points):
            extra = len(action[4]) - len(res.points)
            raise _too_many_choices(len(res.points), extra)
        if action[0] == "move":
            action = move_action(*action[1:4], tuple(p.chosen for p in res.points))
        elif seat is not None:
            self.reserves[seat - 1] -= 1
        self.board = board
        for key, count in res.new_records.items():
            self.stasis[key] = self.stasis.get(key, 0) + count
        self.captured[0] += res.captured[1]
        self.captured[1] += res.captured[2]
        self._turn.append(action)
        self.last_action = action
        self._last_spelling = (turned, tuple(res.points))
        self._cache = None
        return res.events

    def _last_notation(self) -> str:
        """The canonical notation of the last action applied (its choices included)."""
        action = self.last_action
        if action is None or action[0] == "pass":
            return "pass"
        if action[0] == "reinforce":
            return self._plain(action)
        turned, points = self._last_spelling
        _, src, dst, facing, _ = action
        text = NAMES[src] + (f",{NAMES[dst]}" if dst != src else "") + (f"-{facing}" if turned else "")
        return text + "".join(f" ({p.label(p.chosen)})" for p in points)

    def end_turn(self) -> list[Event]:
        events: list[Event] = []
        self._end_turn(events)
        return events

    def end_turn_quiet(self) -> None:
        self._end_turn(None)

    def _end_turn(self, events: list[Event] | None) -> None:
        if self._result is not None:
            raise IllegalMove("the game is over")
        if not self._turn:
            raise IllegalMove("move a piece (or pass) before ending the turn")
        seat = self.current
        assert seat is not None
        self.held[seat] = self.occupies_opponent_centre(seat)
        if self.held[seat] and events is not None:
            events.append(Event("guard", seat=seat, cell=NAMES[OPPONENT_CENTRE[seat]]))
        self._turn = []
        self._ply += 1
        self.current = 3 - seat
        self._cache = None
        self._victory_phase(events)

    def _victory_phase(self, events: list[Event] | None) -> None:
        """Decision 6: the turn passing to a seat on its opponent's centre ends the game."""
        seat = self.current
        if seat is not None and self.occupies_opponent_centre(seat):
            self._result = (seat,)
            self._end_reason = "centre"
            if events is not None:
                events.append(Event("end", seat=seat, cell=NAMES[OPPONENT_CENTRE[seat]], data=(("reason", "centre"),)))

    def play_turn(self, text: str | Sequence[str]) -> list[Event]:
        """A Bump turn is one action, whose notation contains commas: no splitting."""
        token = text if isinstance(text, str) else " ".join(text)
        if self.is_over:
            raise IllegalMove("the game is over")
        if self.turn_in_progress():
            raise IllegalMove("another turn is in progress")
        if not token.strip():
            raise IllegalMove("empty move: write a move such as 03,04 or pass")
        trial = self.copy()
        action = trial.parse_action(token)
        events = trial.apply_action(action)
        notation = trial._last_notation()
        if not trial.is_over:
            events.extend(trial.end_turn())
        self.__dict__.update(trial.__dict__)
        self.last_turn_notation = notation
        return events

    # -- notation ------------------------------------------------------------------------

    def parse_action(self, text: str) -> BumpAction:
        if self._result is not None:
            raise IllegalMove("the game is over")
        match = _MOVE_RE.match(text.replace("\u2013", "-"))
        if not match:
            raise IllegalMove(
                "cannot read {text!r}: parentheses go after the move, like 03,04-0 (06)", text=text.strip()
            )
        body = match.group("body").strip().lower()
        entries = [
            e for group in re.findall(r"\(([^()]*)\)", match.group("choices")) for e in group.replace(",", " ").split()
        ]
        if body in ("pass", "p"):
            if entries:
                raise IllegalMove("a pass has no choices: remove the parentheses")
            return PASS
        if not body:
            raise IllegalMove("empty move: write a move such as 03,04 or pass")
        action: BumpAction
        try:
            if body.startswith("r"):
                action = self._parse_reinforcement(body)
                if entries:
                    raise IllegalMove("a reinforcement bumps nothing: remove the parentheses")
            else:
                action = self._parse_move(body)
        except SpaceNameError as error:
            raise IllegalMove(error.template, **error.fields) from None
        self._check_legal(action)
        if action[0] == "move":
            action = self._resolve_entries(action, entries)
        return action

    def _parse_reinforcement(self, body: str) -> ReinforceAction:
        m = re.fullmatch(r"r\s*,\s*([^\s,-]+)\s*(?:-\s*(\S+))?", body)
        if not m and re.fullmatch(r"r\s*,?", body):
            raise self._why_no_bare_reinforcement()
        if not m:
            raise IllegalMove(
                "cannot read {text!r}: a reinforcement is written R,TO or R,TO-F (e.g. R,01-0)", text=body
            )
        dst = parse_space(m.group(1))
        seat = self.current
        assert seat is not None
        if m.group(2) is None:
            if dst not in START[seat]:
                raise _not_a_start(dst, seat)
            facing = START[seat][dst]
        else:
            facing = self._parse_facing(m.group(2))
        return reinforce_action(dst, facing)

    def _why_no_bare_reinforcement(self) -> IllegalMove:
        """`R` alone names no space: say whether a reinforcement can come on at all, and where (issue 26)."""
        seat = self.current
        assert seat is not None
        if self.reserves[seat - 1] <= 0:
            return IllegalMove("you have no reserve pieces left to bring on")
        starts = sorted(START[seat])
        empty = [NAMES[s] for s in starts if self.board.cells[s] < 0]
        if not empty:
            return IllegalMove(
                "no starting space of yours is empty ({spaces}): free one before bringing a reserve piece on",
                spaces=", ".join(NAMES[s] for s in starts),
            )
        return IllegalMove(
            "write where it comes on: R,{space} (empty starting spaces: {spaces})",
            space=empty[0],
            spaces=", ".join(empty),
        )

    @staticmethod
    def _parse_facing(text: str) -> int:
        if not (text.isdigit() and text.isascii()) or int(text) > 5:
            raise IllegalMove(
                "facing {text!r} is not a direction: facings are 0–5 (0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE)", text=text
            )
        return int(text)

    def _parse_move(self, body: str) -> MoveAction:
        m = re.fullmatch(r"([^\s,-]+)\s*(?:,\s*([^\s,-]+))?\s*(?:-\s*(\S+))?", body)
        if not m:
            raise IllegalMove(
                "cannot read {text!r}: a move is written FROM,TO-F (e.g. 03,05-4, 03,04 or 03-2), or pass", text=body
            )
        src = parse_space(m.group(1))
        dst = parse_space(m.group(2)) if m.group(2) else src
        pid = self.board.cells[src]
        if pid < 0:
            raise IllegalMove("there is no piece on {space}", space=NAMES[src])
        if self.board.owner[pid] != self.current:
            raise IllegalMove("the piece on {space} is your opponent's", space=NAMES[src])
        facing = self._parse_facing(m.group(3)) if m.group(3) else self.board.facing[pid]
        return move_action(src, dst, facing)

    def _resolve_entries(self, action: MoveAction, entries: list[str]) -> MoveAction:
        """Turn the written choices into bump directions by resolving the move."""

        def chooser(i: int, point: ChoicePoint) -> int:
            if i >= len(entries):
                return point.options[0][0]
            entry = entries[i].lower()
            # "x" is first the push into a wall (the canonical notation writes it so), else any capture.
            walls = [d for d, target in point.options if target < 0]
            if entry == "x" and walls:
                return walls[0]
            for (d, target), captures in zip(point.options, point.captures, strict=True):
                if (target >= 0 and NAMES[target].lower() == entry) or (entry == "x" and captures):
                    return d
            raise IllegalMove(
                "choice {number} ({entry}) names no option: the piece on {space} can be pushed to {labels}",
                number=i + 1,
                entry=entries[i],
                space=NAMES[point.space],
                labels=" or ".join(f"({label})" for label in point.labels()),
            )

        _, res = self._simulate(action, chooser, record=False)
        if len(entries) > len(res.points):
            if not res.points:
                raise IllegalMove("{move} has no choice to make: remove the parentheses", move=self._plain(action))
            facts = {
                "move": self._plain(action),
                "count": len(res.points),
                "extra": " ".join(f"({e})" for e in entries[len(res.points) :]),
            }
            if len(res.points) == 1:
                raise IllegalMove("{move} has {count} choice; remove {extra}", **facts)
            raise IllegalMove("{move} has {count} choices; remove {extra}", **facts)
        return move_action(*action[1:4], tuple(p.chosen for p in res.points))

    def _plain(self, action: BumpAction) -> str:
        if action[0] == "pass":
            return "pass"
        if action[0] == "reinforce":
            return f"R,{NAMES[action[1]]}-{action[2]}"
        _, src, dst, facing, _ = action
        pid = self.board.cells[src]
        text = NAMES[src]
        if dst != src:
            text += f",{NAMES[dst]}"
        if pid < 0 or self.board.facing[pid] != facing:
            text += f"-{facing}"
        return text

    def format_action(self, action: BumpAction) -> str:
        """Canonical notation; a move's choices are written in full, each in parentheses.

        Formats an action of the current position (before it is applied), or
        the last action applied (its choices are then already known).
        """
        if action[0] == "pass":
            return "pass"
        if action[0] == "reinforce":
            return self._plain(action)
        if self._turn and self._turn[-1] == action:
            return self._last_notation()
        text = self._plain(action)
        cached = self._cache["outcomes"].get(action) if self._cache else None
        if cached is not None:
            points = cached.choice_points
        elif not action[4] and not self._would_bump(action[1], action[2], action[3], self.current or 1):
            points = []
        else:
            points = self._simulate(action, self._fixed_chooser(action), record=False)[1].points
        return text + "".join(f" ({p.label(p.chosen)})" for p in points)

    def describe_action(self, action: BumpAction, say: Say = plain) -> str:
        notation = self.format_action(action)
        if action == PASS:
            return say("{action} — move nothing", action=notation)
        if action[0] == "reinforce":
            return say("{action} — bring on a reserve piece facing {facing}", action=notation, facing=action[2])
        out = self.outcome(action)
        seat = self.current or 1
        parts = []
        if out.bumps == 0:
            parts.append(say("no bumps"))
        else:
            parts.append(say("bumps {count}", count=out.bumps))
            mine, theirs = out.captured[seat - 1], out.captured[2 - seat]
            if theirs:
                parts.append(say("captures {count} of theirs", count=theirs))
            if mine:
                parts.append(say("loses {count} of yours", count=mine))
        if out.guard:
            parts.append(say("on their centre: Guard your center!"))
        parts.extend(
            say("choosing {space} to {choice}", space=NAMES[point.space], choice=point.label(point.chosen))
            for point in out.choice_points
        )
        return f"{notation} — " + ", ".join(parts)

    def rank_actions(self, actions: list[BumpAction]) -> list[BumpAction]:
        """Suggestions: moves that occupy the centre or capture, then the rest, then reinforcements, and
        pass last (the first suggestion is what Tab picks: it must not be a turn that does nothing)."""
        seat = self.current or 1

        def key(action: BumpAction) -> tuple[int | tuple[int, ...], ...]:
            if action[0] == "pass":
                return (4,)
            if action[0] == "reinforce":
                return (3, action[1], action[2])
            out = self._enumerate()["outcomes"].get(action)
            if out is None:
                return (2, action[1], action[2], action[3])
            gain = out.captured[2 - seat] - out.captured[seat - 1]
            return (1, -out.guard, -gain, action[1], action[2], action[3], action[4])

        return sorted(actions, key=key)

    def builder_path(self, action: BumpAction, say: Say = plain) -> tuple[str, ...]:
        """The turn builder's menus: the piece, then where it goes, then the turn (facing, choices)."""
        if action[0] == "move":
            src, dst = NAMES[action[1]], NAMES[action[2]]
            target = say("to {space}", space=dst) if dst != src else say("stay on {space} (turn it)", space=src)
            return (say("Piece on {space}", space=src), target)
        if action[0] == "reinforce":
            return (say("Reserve piece"), say("on {space}", space=NAMES[action[1]]))
        return ()

    # -- words -----------------------------------------------------------------------------

    def describe_turn(self, events: Sequence[Event], notation: str = "", say: Say = plain) -> str:
        """The turn and its chain in words: "03,05-4 — bumps 06 to 07, which bumps 17 (captured
        against the wall). Guard your center!" (only the words when no notation is given)."""
        words = describe_events(events, say)
        if not notation:
            return words
        return f"{notation} — {words}" if words else notation

    # -- cells -------------------------------------------------------------------------------

    def cell_names(self) -> tuple[str, ...]:
        return tuple(NAMES)

    def parse_cell(self, text: str) -> str:
        try:
            return NAMES[parse_space(text)]
        except SpaceNameError as error:
            raise IllegalMove(error.template, **error.fields) from None

    # -- resignation and draws -------------------------------------------------------------

    def resign(self, seat: int) -> list[Event]:
        # The enumeration cache stays valid: the pieces do not change, and a finished
        # game lists no legal action. Draws by agreement are TurnBookkeeping.agree_draw.
        return self._resign_two_seat(seat)

    # -- serialization -----------------------------------------------------------------------

    def position(self) -> dict[str, Any]:
        b = self.board
        doc: dict[str, Any] = {
            "pieces": {NAMES[s]: [b.owner[p], b.facing[p]] for s, p in enumerate(b.cells) if p >= 0},
            "to_move": self.to_move,
            "reserves": list(self.reserves),
            "captured": list(self.captured),
            "held_centre": self.held_centre,
        }
        if self._result is not None:
            doc["winners"] = list(self._result)
            doc["end_reason"] = self._end_reason
        return doc

    @classmethod
    def from_position(cls, players: int, options: Mapping[str, Any] | None, position: Mapping[str, Any]) -> Bump:
        cls.info.check_players(players)
        game = cls(players, cls.info.resolve_options(options))
        try:
            pieces = position.get("pieces", {})
            if not isinstance(pieces, Mapping):
                raise StateError("pieces must map spaces to [seat, facing]")
            for name, value in pieces.items():
                try:
                    space = parse_space(str(name))
                except SpaceNameError as error:
                    raise StateError(error.template, **error.fields) from None
                if game.board.cells[space] >= 0:
                    raise StateError("{name} is listed twice", name=NAMES[space])
                if (
                    not isinstance(value, (list, tuple))
                    or len(value) != 2
                    or any(not isinstance(v, int) or isinstance(v, bool) for v in value)
                ):
                    raise StateError("{name}: a piece is [seat, facing], not {value!r}", name=name, value=value)
                seat, facing = value
                if seat not in (1, 2):
                    raise StateError("{name}: seat {seat} is not 1 or 2", name=name, seat=seat)
                if not 0 <= facing <= 5:
                    raise StateError("{name}: facing {facing} is not 0–5", name=name, facing=facing)
                if space == CENTRE[seat]:
                    raise StateError("{name}: a piece never stands on its own centre", name=name)
                game.board.add(space, seat, facing)
            for key in ("reserves", "captured"):
                values = position.get(key, [0, 0] if key == "captured" else game.reserves)
                if (
                    not isinstance(values, list)
                    or len(values) != 2
                    or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values)
                ):
                    raise StateError("{key} must list two counts of zero or more", key=key)
                setattr(game, key, list(values))
            if any(r > MAX_RESERVES for r in game.reserves):
                raise StateError("at most {most} reserve pieces a side", most=MAX_RESERVES)
            for seat in (1, 2):
                total = game.on_board(seat) + game.captured[seat - 1] + game.reserves[seat - 1]
                if total > 12 + MAX_RESERVES:
                    raise StateError(
                        "seat {seat} has {total} pieces in all; at most {most}",
                        seat=seat,
                        total=total,
                        most=12 + MAX_RESERVES,
                    )
            b = game.board
            for space, pid in enumerate(b.cells):
                front = NEIGHBOURS[space][b.facing[pid]] if pid >= 0 else -1
                if front >= 0 and b.cells[front] >= 0 and b.facing[b.cells[front]] != OPPOSITE[b.facing[pid]]:
                    raise StateError(
                        "{space} (facing {facing}) bumps {front}: a position must be stable",
                        space=NAMES[space],
                        facing=b.facing[pid],
                        front=NAMES[front],
                    )
            held = position.get("held_centre", [])
            if not isinstance(held, list) or any(s not in (1, 2) for s in held):
                raise StateError("held_centre lists seats 1 and/or 2")
            for seat in held:
                game.held[seat] = True
            to_move = position.get("to_move", 1)
            winners = position.get("winners")
        except (AttributeError, TypeError, ValueError) as error:
            if isinstance(error, StateError):
                raise
            raise StateError("malformed Bump position: {error}", error=error) from None
        if winners is not None:
            if not isinstance(winners, list) or len(winners) > 1 or any(w not in (1, 2) for w in winners):
                raise StateError("winners lists one seat, or none for a draw")
            game._result = tuple(winners)
            game._end_reason = str(position.get("end_reason") or ("draw by agreement" if not winners else "centre"))
            if game._end_reason == "resignation" and winners:
                game._resigned = 3 - winners[0]
            game.current = None
            return game
        if to_move not in (1, 2):
            raise StateError("to_move must be 1 or 2 (or null with winners for a finished game)")
        game.current = to_move
        game._victory_phase(None)
        return game

    def _state_extra(self) -> dict[str, Any]:
        return {**super()._state_extra(), "stasis": [[key, count] for key, count in self.stasis.items()]}

    def _load_state_extra(self, extra: Mapping[str, Any]) -> None:
        super()._load_state_extra(extra)
        stasis = extra.get("stasis") or []
        try:
            self.stasis = {str(key): int(count) for key, count in stasis}
        except (TypeError, ValueError):
            raise StateError("stasis must list [record, count] pairs") from None

    # -- text ---------------------------------------------------------------------------------

    def render_text(self) -> str:
        """Both areas: ``.`` empty, ``C`` a centre, ``:`` a gate, a piece as its seat's letter
        (``b`` Blue, ``o`` Orange) followed by its facing."""
        b = self.board
        marks: dict[tuple[int, int], str] = {}
        for i, cells in enumerate(COORDS):
            pid = b.cells[i]
            for k, cell in enumerate(cells):
                if pid >= 0 and (AREAS[i] or gate_part(i, b.facing[pid]) == k):
                    marks[cell] = "bo"[b.owner[pid] - 1] + str(b.facing[pid])
                else:
                    marks[cell] = " C" if i in (C1, C2) else (" :" if AREAS[i] == 0 else " .")
        rows = sorted({r for _, r in marks})
        left = min(2 * q + r for q, r in marks)
        lines = []
        for r in rows:
            line = [" "] * (2 * (max(2 * q + r for q, rr in marks if rr == r) - left) + 2)
            for (q, rr), mark in marks.items():
                if rr == r:
                    x = 2 * (2 * q + r - left)
                    line[x : x + 2] = mark
            lines.append("".join(line).rstrip())
        lines.append("")
        for seat in (1, 2):
            flags = []
            if self.held[seat]:
                flags.append("held the centre")
            if self.to_move == seat:
                flags.append("to move")
            extra = f" ({', '.join(flags)})" if flags else ""
            lines.append(
                f"{seat} {SEAT_COLOURS[seat - 1]:<6} pieces {self.on_board(seat):>2}  "
                f"captured {self.captured[seat - 1]:>2}  reserves {self.reserves[seat - 1]}{extra}"
            )
        if self.is_over:
            if self.drawn:
                lines.append("Game over: drawn by agreement.")
            else:
                how = "by resignation" if self._end_reason == "resignation" else "on the centre"
                lines.append(f"Game over: {SEAT_COLOURS[self.winners[0] - 1]} wins {how}.")
        return "\n".join(lines)


def turn_notation(events: Sequence[Event]) -> str:
    """The notation of a turn rebuilt from its events (pictures of stored turns use it)."""
    for e in events:
        if e.kind == "pass":
            return "pass"
        if e.kind == "reinforce":
            return f"R,{e.cell}-{dict(e.data)['facing']}"
    shifts = [e for e in events if e.kind == "shift"]
    turns = [e for e in events if e.kind == "rotate"]
    if not shifts and not turns:
        return ""
    src = shifts[0].src if shifts else turns[0].cell
    assert src is not None  # shift events name their source, rotate events their cell
    text = src + (f",{shifts[-1].dst}" if shifts else "")
    if turns:
        text += f"-{dict(turns[0].data)['to']}"
    return text + "".join(f" ({dict(e.data)['chosen']})" for e in events if e.kind == "choice")


def _capture_words(reason: str, toward: object, say: Say) -> str:
    if reason == "wall":
        return say("captured against the wall")
    if reason == "piece":
        return say("captured against a piece")
    if reason == "centre":
        return say("captured on centre {centre}", centre=toward)
    return say("captured in stasis")


def _bump_words(lead: str, bumper: str | None, bump: Event, capture: str | None, say: Say) -> str:
    """One bump of the chain, whole: who bumps (``lead``: "which", "first", "then" or "named"), what, where."""
    src, dst = bump.src, bump.dst
    if capture is None:
        if lead == "which":
            return say("which bumps {src} to {dst}", src=src, dst=dst)
        if lead == "first":
            return say("bumps {src} to {dst}", src=src, dst=dst)
        if lead == "then":
            return say("then {bumper} bumps {src} to {dst}", bumper=bumper, src=src, dst=dst)
        return say("{bumper} bumps {src} to {dst}", bumper=bumper, src=src, dst=dst)
    reason = _capture_words(capture, dict(bump.data).get("toward"), say)
    if lead == "which":
        return say("which bumps {src} ({reason})", src=src, reason=reason)
    if lead == "first":
        return say("bumps {src} ({reason})", src=src, reason=reason)
    if lead == "then":
        return say("then {bumper} bumps {src} ({reason})", bumper=bumper, src=src, reason=reason)
    return say("{bumper} bumps {src} ({reason})", bumper=bumper, src=src, reason=reason)


def _alternatives(options: Sequence[object], say: Say) -> str:
    """``04 or 05``: the joining word in the reader's language."""
    joined = str(options[0]) if options else ""
    for option in options[1:]:
        joined = say("{before} or {after}", before=joined, after=option)
    return joined


def describe_events(events: Sequence[Event], say: Say = plain) -> str:
    """Words for a turn's events: the chain of bumps, captures, choices and the guard call.

    "bumps 06 to 07, which bumps 17 (captured against the wall), then 021 bumps 03 to 513
    (chosen: 513, rather than 04). Guard your center!" — the subject is the moved piece unless
    another bumper is named; "no bumps" for a move that bumped nothing, however many steps it took. Each
    clause is worded whole through ``say`` (its order is the language's).
    """
    mover = None
    for e in events:
        if e.kind == "shift":
            mover = e.dst
        elif e.kind == "rotate":
            mover = e.cell
    words: list[str] = []
    previous_dst: str | None = None
    pending_choice: dict[str, Any] | None = None
    items = [e for e in events if e.kind in ("bump", "capture", "choice")]
    index = 0
    while index < len(items):
        e = items[index]
        index += 1
        if e.kind == "choice":
            data = dict(e.data)
            others = [o for o in data["options"] if o != data["chosen"]]
            pending_choice = {"chosen": data["chosen"], "others": _alternatives(others, say)}
            continue
        if e.kind != "bump":
            continue
        capture = None
        if index < len(items) and items[index].kind == "capture":
            capture = dict(items[index].data)["reason"]
            index += 1
        if words and e.cell == previous_dst:
            lead = "which"
        elif e.cell == mover and not words:
            lead = "first"
        else:
            lead = "then" if words else "named"
        clause = _bump_words(lead, e.cell, e, capture, say)
        if pending_choice is not None:
            clause = say("{bump} (chosen: {chosen}, rather than {others})", bump=clause, **pending_choice)
        words.append(clause)
        pending_choice = None
        previous_dst = e.dst
    text = ", ".join(words)
    if not words and any(e.kind in ("shift", "rotate") for e in events):
        # a move that bumped nothing says so: the caption, the alt text and the announcement say the same words
        text = say("no bumps")
    if any(e.kind == "reinforce" for e in events):
        text = say("brings on a reserve piece, {chain}", chain=text) if text else say("brings on a reserve piece")
    if any(e.kind == "guard" for e in events):
        text = say("{chain}. Guard your center!", chain=text) if text else say("Guard your center!")
    ends = [e for e in events if e.kind == "end" and dict(e.data).get("reason") == "centre"]
    if ends:
        winner = ends[0].seat
        assert winner is not None  # a win on the centre names its seat
        colour = say(SEAT_COLOURS[winner - 1])  # the colour's name in the reader's language
        won = say("{colour} stands on {space} and wins.", colour=colour, space=ends[0].cell)
        text = say("{chain}. {won}", chain=text, won=won) if text else won  # its own sentence after the move's
    return text


def _not_a_start(space: int, seat: int) -> IllegalMove:
    return IllegalMove(
        "{space} is not one of your starting spaces: reinforcements come on there ({starts})",
        space=NAMES[space],
        starts=", ".join(NAMES[s] for s in sorted(START[seat])),
    )


def _too_many_choices(count: int, extra: int) -> IllegalMove:
    if count == 1 and extra == 1:
        return IllegalMove("this move has {count} choice; remove the last {extra} entry", count=count, extra=extra)
    if count == 1:
        return IllegalMove("this move has {count} choice; remove the last {extra} entries", count=count, extra=extra)
    if extra == 1:
        return IllegalMove("this move has {count} choices; remove the last {extra} entry", count=count, extra=extra)
    return IllegalMove("this move has {count} choices; remove the last {extra} entries", count=count, extra=extra)


Bump.info = GameInfo(
    id="bump",
    name="Bump",
    min_players=2,
    max_players=2,
    options=(
        OptionSpec("reserve1", 0, (0, 1, 2, 3), "reserve pieces for seat 1 (reinforcement variant): 0–3"),
        OptionSpec("reserve2", 0, (0, 1, 2, 3), "reserve pieces for seat 2 (reinforcement variant): 0–3"),
    ),
    summary=RULES_SUMMARY,
    seat_names=SEAT_COLOURS,
    grouped_turns=True,
    allows_draws=True,
    max_turns=MAX_TURNS,
    game_class=Bump,
)
