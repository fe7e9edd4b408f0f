"""Bump's rules engine: the pieces, a move's shifts and turns, its bumps, every legal turn, and playing one.

:class:`BumpRules` holds the position (pieces, reserves, captures, who held a centre, the stasis
records) and answers what a turn may do: where a piece can shift within 3 points (:meth:`~BumpRules.reachable`),
why a move is refused, what a move sets off (the bump phase, :mod:`games.bumpresolve`, run on a copy of
the board), every legal turn with what it does (cached until the position changes), and applying one
turn and the victory phase. It knows no notation and no words: :class:`games.bump.Bump` builds on it
with those, the position document and the text board, and is the class the rest of the project uses.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any, TypedDict

from .bumpboard import (
    CENTRE,
    FACINGS_WITHIN,
    NAMES,
    NEIGHBOURS,
    OPPONENT_CENTRE,
    OPPOSITE,
    SPACE_COUNT,
    START,
    parse_space,
    rotation_cost,
)
from .bumpresolve import (
    PASS,
    BumpAction,
    ChoicePoint,
    Chooser,
    MoveAction,
    Outcome,
    PieceBoard,
    Resolution,
    default_chooser,
    move_action,
    reinforce_action,
)
from .interface import Event, IllegalMove, TurnBookkeeping

MAX_POINTS = 3


class Enumeration(TypedDict):
    """The legal turns of a position and, for bumping moves, what each does (``None`` until asked)."""

    actions: list[BumpAction]
    outcomes: dict[BumpAction, Outcome | None]


class BumpRules(TurnBookkeeping[BumpAction]):
    """The position and the rules of a turn; :class:`games.bump.Bump` adds notation, words and documents."""

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

    # -- resignation and draws -------------------------------------------------------------

    def resign(self, seat: int) -> list[Event]:
        # The enumeration cache stays valid: the pieces do not change, and a finished
        # game lists no legal action. Draws by agreement are TurnBookkeeping.agree_draw.
        return self._resign_two_seat(seat)


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
