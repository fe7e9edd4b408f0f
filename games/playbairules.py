"""Play Bai's rules engine: the position, the turn in progress, its complete turns, and why an action is refused.

:class:`PlayBaiRules` holds the position (playballers, ball, goals, kick-off) and the turn being entered:
the actions the movement rules allow, applying one (steps, jumps, passes, taking the ball, goals), ending
a turn (a new set after a goal, a seat with no legal turn passing) and the reason an action or an end is
refused. It knows no notation and no words: :class:`games.playbai.PlayBai` builds on it with those, the
position document and the text field, and is the class the rest of the project uses.

The turn in progress
--------------------
:meth:`apply_action` accepts every action the movement rules allow, even one
after which the turn can no longer end (three moves made and a playballer on
a dot); :meth:`end_turn` then says why. :meth:`legal_actions` lists only the
actions after which a complete turn is still reachable, so a client (or a
random player) that follows it never gets stuck. A goal ends the turn at
once: afterwards :meth:`legal_actions` is empty, :meth:`can_end_turn` is true
and any further action is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .hexgrid import DIRECTION_NAMES
from .interface import Event, IllegalMove, TurnBookkeeping
from .playbaifield import field
from .playbaisearch import (
    GOAL,
    JUMP,
    KEY_SHIFT,
    PASS,
    STEP,
    Path,
    PlayBaiAction,
    ResultKey,
    _cells_of,
    key_cells,
    search_turns,
)

GOALS_TO_WIN = 3
MOVES_PER_TURN = 3
KICKOFF_MOVES = 2


class PlayBaiRules(TurnBookkeeping[PlayBaiAction]):
    """The position and the rules of a turn; :class:`games.playbai.PlayBai` adds notation, words and documents."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = dict(options)
        fld = field(self.options["side"])
        self.field = fld
        self.board = fld.board
        self.seat_of: list[int] = [0] * len(fld.board)
        self.ball = fld.centre
        self.goals: list[int] = [0, 0]
        self.current: int | None = self.options["first"]
        self.kickoff = True
        self.last_goal: int | None = None
        self._ply = 0
        self._turn: list[PlayBaiAction] = []
        self._result: tuple[int, ...] | None = None
        self._end_reason: str | None = None
        self._resigned: int | None = None
        # The turn in progress: moves made, the position it started from, a goal that ended it.
        self._moves = 0
        self._start: int | None = None  # the key of the position the turn started from
        self._scored: int | None = None
        self._set_up()

    def _set_up(self) -> None:
        cells = self.seat_of
        for i in range(len(cells)):
            cells[i] = 0
        for seat, start in enumerate(self.field.setup, start=1):
            for i in start:
                cells[i] = seat
        self.ball = self.field.centre

    # -- small queries -------------------------------------------------------------

    def pieces(self, seat: int) -> tuple[int, ...]:
        """Cell indices of ``seat``'s playballers, sorted."""
        return tuple(i for i, s in enumerate(self.seat_of) if s == seat)

    def carrier(self) -> int | None:
        """The seat holding the ball, or ``None`` while it lies loose."""
        return self.seat_of[self.ball] or None

    def _mask(self, seat: int) -> int:
        mask = 0
        for i, s in enumerate(self.seat_of):
            if s == seat:
                mask |= 1 << i
        return mask

    def move_limit(self) -> int:
        return KICKOFF_MOVES if self.kickoff else MOVES_PER_TURN

    @property
    def set_number(self) -> int:
        """Sets started so far (every goal but the winning one starts a new set)."""
        return sum(self.goals) + (0 if self._result is not None and self._end_reason == "goals" else 1)

    def _key(self, seat: int) -> int:
        return self._mask(seat) | self.ball << KEY_SHIFT

    def _start_key(self) -> int:
        if self._start is None:
            assert self.current is not None
            self._start = self._key(self.current)
        return self._start

    def _goal_wins(self, seat: int) -> bool:
        if self.options["expert"]:
            return self.last_goal == seat
        return self.goals[seat - 1] + 1 >= GOALS_TO_WIN

    def scores(self) -> tuple[float, ...]:
        return (self.goals[0], self.goals[1])

    # -- complete turns ----------------------------------------------------------------

    def turn_results(self, first_only: bool = False) -> dict[ResultKey, Path]:
        """Distinct resulting positions of the complete turns from the turn in progress
        (keys as :func:`search_turns` makes them), each with the actions still to play."""
        if self._result is not None:
            return {}
        seat = self.current
        assert seat is not None
        if self._scored is not None:
            return {GOAL: ()}
        return search_turns(
            self.field,
            seat,
            self._mask(seat),
            self._mask(3 - seat),
            self.ball,
            self._moves,
            self.move_limit(),
            self._start_key(),
            self._goal_wins(seat),
            first_only,
        )

    def scoring_turn(self) -> Path | None:
        """The actions of a turn that scores from the turn in progress (one with the fewest moves), or
        None when no turn scores now: what :meth:`turn_results` says of goals, for less (puzzles ask it
        of every position they try)."""
        if self._result is not None:
            return None
        seat = self.current
        assert seat is not None
        if self._scored is not None:
            return ()
        found = search_turns(
            self.field,
            seat,
            self._mask(seat),
            self._mask(3 - seat),
            self.ball,
            self._moves,
            self.move_limit(),
            self._start_key(),
            self._goal_wins(seat),
            goals_only=True,
        )
        return next(iter(found.values()), None)

    def complete_turns(self) -> dict[str, Any]:
        """Notation -> resulting position, one (shortest) notation per distinct position.

        A position is ``(team's cells, ball cell)`` in names, ``"goal"`` for a goal
        that does not win (every such goal leads to the same set-up) or
        ``("win", cells, ball)`` for the winning goal. From a half-entered turn
        the notation lists only the actions still to come."""
        names = self.board.names
        out: dict[str, Any] = {}
        for key, actions in self.turn_results().items():
            shown: Any
            if isinstance(key, int):
                shown = key_cells(key, names)
            elif key[0] == "goal":
                shown = "goal"
            else:
                shown = ("win",) + key_cells(key[1], names)
            out[self.format_turn(actions)] = shown
        return out

    def has_legal_turn(self) -> bool:
        return bool(self.turn_results(first_only=True))

    # -- the turn ------------------------------------------------------------------

    def _raw_actions(self) -> list[PlayBaiAction]:
        """Actions the movement rules allow now (some may lead nowhere)."""
        if self._result is not None or self._scored is not None:
            return []
        seat = self.current
        mine = self.pieces(seat or 1)
        candidates: list[PlayBaiAction] = []
        if self._moves < self.move_limit():
            for c in mine:
                for d, n in enumerate(self.field.nbr[c]):
                    if n >= 0:
                        candidates.append((JUMP, c, d) if self.seat_of[n] else (STEP, c, n))
        if self.seat_of[self.ball] == seat:
            candidates.extend((PASS, self.ball, b) for b in mine if b != self.ball)
        return [a for a in candidates if self._why_illegal(a) is None]

    def legal_actions(self) -> list[PlayBaiAction]:
        """Actions after which a complete turn is still reachable."""
        out = []
        for action in self._raw_actions():
            trial = self.copy()
            trial.apply_action(action)
            if trial._scored is not None or trial._result is not None or trial.has_legal_turn():
                out.append(action)
        return out

    def can_end_turn(self) -> bool:
        return self._why_not_endable() is None

    def _why_not_endable(self) -> IllegalMove | None:
        if self._result is not None:
            return IllegalMove("the game is over")
        if self._scored is not None:
            return None
        if self._moves == 0:
            if self._turn:
                return IllegalMove("a turn needs at least one move (a step or a jump): passes alone are not enough")
            return IllegalMove("the turn has not started: make at least one move")
        names = self.board.names
        on_dots = [names[i] for i in sorted(self.field.dots) if self.seat_of[i]]
        if on_dots:
            return IllegalMove("a turn may not end on a dot: move off {cells}", cells=", ".join(on_dots))
        if self._key(self.current or 1) == self._start_key():
            return IllegalMove("that turn leaves the position unchanged")
        return None

    def apply_action(self, action: PlayBaiAction) -> list[Event]:
        events: list[Event] = []
        self._apply(action, events)
        return events

    def apply_quiet(self, action: PlayBaiAction) -> None:
        self._apply(action, None)

    def _apply(self, action: PlayBaiAction, events: list[Event] | None) -> None:
        """Apply one action, telling what happened in ``events`` (``None``: the quiet path)."""
        if self._result is not None:
            raise IllegalMove("the game is over")
        if self._scored is not None:
            raise self._after_goal_message()
        why = self._why_illegal(action)
        if why:
            raise why
        seat = self.current
        assert seat is not None
        self._start_key()
        names = self.board.names
        kind, src, x = action
        self._turn.append(action)
        if kind == PASS:
            self.ball = x
            if events is not None:
                events.append(Event("pass", seat=seat, src=names[src], dst=names[x]))
            return
        self._moves += 1
        cells = self.seat_of
        ball = self.ball
        carried = bool(cells[ball])
        took_from = None
        if kind == STEP:
            dst = x
            if ball == dst and not carried:
                took_from = 0
            if events is not None:
                events.append(Event("move", seat=seat, src=names[src], dst=names[dst]))
        else:
            dst, over = self._jump_line(src, x)
            for k in over:
                if k == ball and k != src:
                    took_from = cells[k]
            if dst != src and dst == ball and not carried:
                took_from = 0
            if events is not None:
                events.append(
                    Event(
                        "jump",
                        seat=seat,
                        src=names[src],
                        dst=names[dst],
                        data=(
                            ("bounced", dst == src),
                            ("direction", DIRECTION_NAMES[x]),
                            ("over", tuple(names[k] for k in over)),
                        ),
                    )
                )
        cells[src] = 0
        cells[dst] = seat
        if ball == src or took_from is not None:
            if took_from is not None and events is not None:
                data = (("from_seat", took_from),) if took_from else (("loose", True),)
                events.append(Event("ball", seat=seat, cell=names[dst], src=names[ball], data=data))
            self.ball = dst
        if self.field.zone_owner[dst] == 3 - seat:
            self._goal(seat, dst, events)

    def _jump_line(self, src: int, direction: int) -> tuple[int, list[int]]:
        """Where a jump lands (``src`` for a bounce) and the cells it passes over."""
        over: list[int] = []
        for k in self.field.rays[src][direction]:
            if not self.seat_of[k]:
                return k, over
            over.append(k)
        return src, over

    def _goal(self, seat: int, cell: int, events: list[Event] | None) -> None:
        wins = self._goal_wins(seat)
        self.goals[seat - 1] += 1
        self.last_goal = seat
        self._scored = seat
        if events is not None:
            score = tuple(self.goals)
            events.append(
                Event("goal", seat=seat, cell=self.board.names[cell], data=(("score", score), ("wins", wins)))
            )
        if wins:
            self._turn = []
            self._ply += 1
            self._moves = 0
            self._start = None
            self._scored = None
            self._result = (seat,)
            self._end_reason = "goals"
            if events is not None:
                events.append(Event("end", seat=seat, data=(("reason", "goals"),)))

    def end_turn(self) -> list[Event]:
        events: list[Event] = []
        self._end_turn(events)
        return events

    def end_turn_quiet(self) -> None:
        self._end_turn(None)

    def apply_result_quiet(self, key: ResultKey) -> None:
        """Play a whole turn, from its start, by its result: a key of :meth:`turn_results` of this position.

        The position is the one the key's actions lead to (``apply_quiet`` each, then ``end_turn_quiet``),
        without them: the computer's search lists results by the hundred and plays few
        (games/playbaikeys.py). The key is trusted to be one of this position's results.
        """
        if self._result is not None:
            raise IllegalMove("the game is over")
        if self._turn:
            raise ValueError("apply_result_quiet plays a whole turn from the turn's start")  # the search's misuse
        seat = self.current
        assert seat is not None
        if isinstance(key, int):
            shape = key
        elif len(key) == 1:  # GOAL: the carrier steps into the end zone with the ball
            self._goal(seat, self.ball, None)
            self._end_turn(None)
            return
        else:
            shape = key[1]
        self._start_key()
        cells = self.seat_of
        for i, s in enumerate(cells):
            if s == seat:
                cells[i] = 0
        mask = shape & ((1 << KEY_SHIFT) - 1)
        for i in _cells_of(mask):
            cells[i] = seat
        self.ball = shape >> KEY_SHIFT
        if isinstance(key, int):
            self._moves = 1
            self._end_turn(None)
        else:  # ("win", key): the winning goal, the scorer in the end zone
            self._goal(seat, self.ball, None)

    def _end_turn(self, events: list[Event] | None) -> None:
        why = self._why_not_endable()
        if why:
            raise why
        seat = self.current
        assert seat is not None
        if self._scored is not None:
            self._set_up()
            self.kickoff = True
            self.current = 3 - seat
            if events is not None:
                events.append(Event("set", seat=self.current, data=(("number", self.set_number),)))
        else:
            self.kickoff = False
            self.current = 3 - seat
        self._turn = []
        self._ply += 1
        self._moves = 0
        self._start = None
        self._scored = None
        self._skip_blocked(events)

    def _skip_blocked(self, events: list[Event] | None) -> None:
        """RULES §3: a seat with no legal turn passes automatically (not a ply)."""
        for _ in range(2):
            if self.has_legal_turn():
                return
            if events is not None:
                events.append(Event("pass", seat=self.current, data=(("automatic", True),)))
            self.kickoff = False
            self._start = None
            self.current = 3 - (self.current or 1)
        # Neither team can move: the game cannot go on (docs/rules.md).
        self._result = ()
        self._end_reason = "no legal turn"
        if events is not None:
            events.append(Event("end", data=(("reason", "no legal turn"),)))

    # -- why an action is illegal ------------------------------------------------------

    def _after_goal_message(self) -> IllegalMove:
        return IllegalMove("the goal already ended the turn: nothing may follow it")

    def _why_illegal(self, action: Any) -> IllegalMove | None:
        """The reason ``action`` may not come next, or ``None`` when it may."""
        n = len(self.seat_of)
        if not (isinstance(action, tuple) and len(action) == 3 and all(type(v) is int for v in action)):
            return IllegalMove("not a Play Bai action: {action!r}", action=action)
        kind, src, x = action
        if not 0 <= src < n:
            return IllegalMove("no such cell: {cell!r}", cell=src)
        seat = self.current
        names = self.board.names
        if kind == PASS:
            return self._why_no_pass(src, x)
        if kind not in (STEP, JUMP):
            return IllegalMove("not a Play Bai action: {action!r}", action=action)
        owner = self.seat_of[src]
        if owner == 0:
            return IllegalMove("there is no playballer on {cell}", cell=names[src])
        if owner != seat:
            return IllegalMove("{cell} is not yours", cell=names[src])
        if self._moves >= self.move_limit():
            if self.kickoff:
                return IllegalMove(
                    "the kick-off turn allows only {count} moves, both made: only passes may follow",
                    count=KICKOFF_MOVES,
                )
            return IllegalMove("{count} moves are already made this turn: only passes may follow", count=MOVES_PER_TURN)
        if kind == STEP:
            if not 0 <= x < n or x not in self.field.nbr[src]:
                return IllegalMove(
                    "{src}-{dst}: a step goes to an adjacent cell", src=names[src], dst=names[x] if 0 <= x < n else x
                )
            if self.seat_of[x]:
                d = self.field.nbr[src].index(x)
                return IllegalMove(
                    "{cell} is occupied: jump over it with {src}^{direction}",
                    cell=names[x],
                    src=names[src],
                    direction=DIRECTION_NAMES[d],
                )
            dst = x
            carries = self.ball == src or (self.ball == x and not self.seat_of[self.ball])
        else:
            if not 0 <= x < 6:
                return IllegalMove("no such direction: {direction!r}", direction=x)
            first = self.field.nbr[src][x]
            if first < 0:
                return IllegalMove(
                    "nothing to jump over: {cell} is at the edge towards {direction}",
                    cell=names[src],
                    direction=DIRECTION_NAMES[x],
                )
            if not self.seat_of[first]:
                return IllegalMove(
                    "nothing to jump over: {cell} is empty (step there with {src}-{cell})",
                    cell=names[first],
                    src=names[src],
                )
            dst, over = self._jump_line(src, x)
            carries = (
                self.ball == src
                or self.ball in over
                or (dst != src and dst == self.ball and not self.seat_of[self.ball])
            )
        if self.field.zone_owner[dst] == 3 - (seat or 1) and not carries:
            return IllegalMove(
                "{cell} is an end zone of the opponent: a playballer may enter it only with the ball, to score",
                cell=names[dst],
            )
        return None

    def _why_no_pass(self, src: int, dst: int) -> IllegalMove | None:
        names = self.board.names
        n = len(self.seat_of)
        seat = self.current
        if not 0 <= dst < n:
            return IllegalMove("no such cell: {cell!r}", cell=dst)
        if self.field.zone_owner[dst] == 3 - (seat or 1):
            return IllegalMove("a pass to an opponent's end zone is not allowed")
        holder = self.seat_of[self.ball]
        if holder != seat:
            if holder == 0:
                return IllegalMove("your team does not have the ball (it lies loose on {cell})", cell=names[self.ball])
            return IllegalMove(
                "your team does not have the ball (it is held by the opponent on {cell})", cell=names[self.ball]
            )
        if src != self.ball:
            return IllegalMove("{cell} does not hold the ball: {holder} does", cell=names[src], holder=names[self.ball])
        if dst == src:
            return IllegalMove("{cell} already holds the ball", cell=names[src])
        if self.seat_of[dst] != seat:
            if self.seat_of[dst]:
                return IllegalMove("{cell} is not a team-mate: a pass goes to your own playballer", cell=names[dst])
            return IllegalMove("there is no playballer on {cell} to receive the pass", cell=names[dst])
        between = self.field.lines.get((src, dst))
        if between is None:
            return IllegalMove("{dst} is not in line with {src}", dst=names[dst], src=names[src])
        blockers = [names[k] for k in between if self.seat_of[k] == 3 - seat]
        if blockers:
            return IllegalMove("the opposing playballer on {cell} blocks the pass", cell=blockers[0])
        return None
