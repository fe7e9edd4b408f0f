"""Play Bai's tactics for the prover: a goal now, or one forced within the attacker's second turn.

The attacker's *goal* is a goal (the game's third, or any other): every goal leads to the same position
(the next set-up, or the end of the game), so the engine counts all the turns that score as one turn
(``turn_results`` names them ``GOAL``, or ``("win", …)`` for the winning goal), and so does a puzzle: any
turn that scores is the answer to "score now". A goal of the defender's is the attacker's line failing.

Turns are the engine's distinct results (:meth:`~games.playbai.PlayBai.turn_results`: one action list per
resulting position), so two turns reaching the same position are one answer. The defender's replies are
cut only where the rules prove it: when the attacker threatens a goal, a reply that leaves the ball where it
is and changes none of the cells that goal's turn reads (:func:`support`: each step's target, each jump's
line, each pass's lane) leaves that goal playable, so it cannot stop it. The others are tried most
disruptive first (a goal of its own, then those that end holding the ball), so a turn that does not force a
goal is usually refuted by the first few.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from games.interface import IllegalMove
from games.playbai import (
    GOAL,
    JUMP,
    KEY_SHIFT,
    MOVES_PER_TURN,
    PASS,
    STEP,
    Path,
    PlayBai,
    ResultKey,
    search_turns,
)

from ..turns import apply_turn
from .budget import Meter
from .prover import Verdict

#: The longest horizon (the attacker's turns) this module proves.
MOST_TURNS = 2
CELLS = (1 << KEY_SHIFT) - 1

Move = tuple[ResultKey, Path]


def scores(key: ResultKey) -> bool:
    """Whether a turn's result (the engine's key) is a goal."""
    return key == GOAL or (type(key) is tuple and key[:1] == ("win",))


def holds_ball(key: ResultKey) -> bool:
    """Whether the mover ends an ordinary turn holding the ball."""
    return isinstance(key, int) and bool((key & CELLS) >> (key >> KEY_SHIFT) & 1)


class PlayBaiTactics:
    """Forced goals in Play Bai for the seat ``attacker``, counted from the goals of ``start``."""

    wins_on_reply = False

    def __init__(self, attacker: int, start: PlayBai) -> None:
        self.attacker = attacker
        self.defender = 3 - attacker
        self.goals = tuple(start.goals)
        # The defender's reply that refuted the last turn tried (tried first next time: the attacker's turns
        # from one position are much alike, and so are their refutations).
        self._killer: Path | None = None
        self._goals_now: dict[Hashable, Path | None] = {}
        self._threats: dict[Hashable, Path | None] = {}

    def _results(self, state: PlayBai, meter: Meter) -> dict[ResultKey, Path]:
        meter.tick()
        results = state.turn_results()
        meter.tick(len(results) // 64)  # the enumeration's own work, a node per 64 results
        return results

    def attacker_turns(self, state: PlayBai, turns: int, meter: Meter) -> list[Move]:
        goal = self._goal_now(state, meter)
        if goal is not None or turns <= 1:
            return [(GOAL, goal)] if goal is not None else []  # every goal is one result (the module's docstring)
        if turns > MOST_TURNS:
            raise ValueError(f"Play Bai puzzles are proven up to {MOST_TURNS} turns")
        results = self._results(state, meter)
        # Keeping the ball first: a turn that gives it up rarely forces a goal.
        keeping = [(key, path) for key, path in results.items() if holds_ball(key)]
        return keeping + [(key, path) for key, path in results.items() if not holds_ball(key)]

    def defender_replies(self, state: PlayBai, turns: int, meter: Meter) -> Iterator[Move]:
        """The replies that may stop the attacker's goal next turn, those likeliest to first.

        When the attacker threatens a goal (it could score if it were its turn again), a reply that changes
        none of the cells that goal's turn reads (:func:`support`) and leaves the ball where it is cannot
        stop it: it is left out (one is kept when no reply is left, to be played). The others: the reply that
        refuted the last turn tried (the attacker's turns from one position are much alike, and so are their
        refutations), the one-move turns taking the ball; with no threat, the other one-move turns (a reply
        that changes little keeps it so); then the engine's whole enumeration, those ending with the ball
        first.
        """
        tried: set[ResultKey] = set()
        killer = self._replayed(state, self._killer) if self._killer is not None else None
        if killer is not None:  # first, before any threat is looked for: it mostly refutes at once
            tried.add(killer[0])
            yield killer
        threat = self._threat(state, meter)
        before = sum(1 << i for i in state.pieces(self.defender))
        read = support(state, threat) if threat is not None else 0

        def stops(move: Move) -> bool:
            key = move[0]
            if threat is None or not isinstance(key, int):
                return True  # no threat to keep, or a goal of the defender's
            return bool(((key & CELLS) ^ before) & read) or key >> KEY_SHIFT != state.ball

        for move in self._one_move_turns(state, meter):
            if move[0] not in tried and (holds_ball(move[0]) or threat is None) and stops(move):
                tried.add(move[0])
                self._killer = move[1]  # the last reply tried: when the search stops here, it refuted
                yield move
        results = self._results(state, meter)
        rest = [(key, path) for key, path in results.items() if key not in tried and stops((key, path))]
        ordered = [m for m in rest if scores(m[0])] + [m for m in rest if holds_ball(m[0])]
        for move in ordered + [m for m in rest if not scores(m[0]) and not holds_ball(m[0])]:
            self._killer = move[1]
            tried.add(move[0])
            yield move
        if not tried:  # every reply leaves the threat: any one shows it
            yield next(iter(results.items()))

    def _threat(self, state: PlayBai, meter: Meter) -> Path | None:
        """The attacker's turn that would score if it were its turn again now (the defender to move)."""
        key = self.key(state)
        if key in self._threats:
            return self._threats[key]
        meter.tick()
        mine = sum(1 << i for i in state.pieces(self.attacker))
        theirs = sum(1 << i for i in state.pieces(self.defender))
        start = mine | state.ball << KEY_SHIFT
        found = search_turns(
            state.field, self.attacker, mine, theirs, state.ball, 0, MOVES_PER_TURN, start, False, goals_only=True
        )
        threat = self._threats[key] = next(iter(found.values()), None)
        return threat

    def _goal_now(self, state: PlayBai, meter: Meter) -> Path | None:
        """A turn of the attacker's (to move) that scores now, remembered per position (the proof and its
        solution tree ask the same positions)."""
        key = self.key(state)
        if key in self._goals_now:
            return self._goals_now[key]
        meter.tick()
        goal = self._goals_now[key] = state.scoring_turn()
        return goal

    def _replayed(self, state: PlayBai, path: Path) -> Move | None:
        """``path`` as a reply from ``state`` with its result's key, if it is a legal turn there (not a goal)."""
        trial = state.copy()
        try:
            apply_turn(trial, path)
        except IllegalMove:
            return None
        if trial.goals != state.goals:
            return None  # a goal: the enumeration names it
        return sum(1 << i for i in trial.pieces(self.defender)) | trial.ball << KEY_SHIFT, path

    def _one_move_turns(self, state: PlayBai, meter: Meter) -> Iterator[Move]:
        """The defender's turns of one step or one jump (not goals), with the engine's result keys."""
        seat = self.defender
        for cell in state.pieces(seat):
            for direction, target in enumerate(state.field.nbr[cell]):
                if target < 0:
                    continue
                meter.tick()
                action = (JUMP, cell, direction) if state.seat_of[target] else (STEP, cell, target)
                trial = state.copy()
                try:
                    trial.apply_quiet(action)
                except IllegalMove:
                    continue
                if trial.can_end_turn() and trial.goals == state.goals:  # a goal: the enumeration names it
                    yield sum(1 << i for i in trial.pieces(seat)) | trial.ball << KEY_SHIFT, (action,)

    def play(self, state: PlayBai, move: Move) -> PlayBai:
        return apply_turn(state.copy(), move[1])

    def verdict(self, state: PlayBai) -> Verdict:
        if state.goals[self.attacker - 1] > self.goals[self.attacker - 1]:
            return Verdict.WIN
        if state.goals[self.defender - 1] > self.goals[self.defender - 1] or state.is_over:
            return Verdict.LOSS  # the defender scored, or nobody can move (the game ended without a goal)
        return Verdict.OPEN

    def key(self, state: PlayBai) -> Hashable:
        return (bytes(state.seat_of), state.ball, state.to_move, state.kickoff, tuple(state.goals), state.last_goal)

    def notation(self, state: PlayBai, move: Move) -> str:
        return state.format_turn(move[1])

    def resistance(self, state: PlayBai, winners: Sequence[Move]) -> float:
        """A reply is harder the more moves the attacker's goal then needs (the engine's paths are shortest)."""
        path: Any = winners[0][1] if winners else ()
        return float(sum(1 for action in path if action[0] != PASS))


def support(state: PlayBai, path: Path) -> int:
    """The cells (a bitmask) whose being empty or taken the turn ``path`` of the player *not* to move in
    ``state`` relies on: each step's target, each jump's line up to its landing (or to the edge, for a
    bounce), each pass's cells between. A reply of the player to move that changes none of them and leaves
    the ball where it is leaves ``path`` a legal turn doing the same (RULES.md §3)."""
    fld = state.field
    occupied = sum(1 << i for i, seat in enumerate(state.seat_of) if seat)
    read = 0
    for kind, src, x in path:
        if kind == PASS:
            for k in fld.lines[(src, x)]:
                read |= 1 << k
            continue
        landing = x
        if kind == JUMP:
            landing = src
            for k in fld.rays[src][x]:
                read |= 1 << k
                if not occupied >> k & 1:
                    landing = k
                    break
        else:
            read |= 1 << x
        occupied = occupied & ~(1 << src) | 1 << landing
    return read
