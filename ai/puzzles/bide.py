"""Bide's puzzles: the turn that leaves the mover furthest ahead after the opponent's best reply, by a margin.

Bide has no forced win a few turns deep to prove (the game is scored only when the board is full, and a
shock wave can turn any group over), so its puzzle is a comparison made exact over a short horizon, two
turns (RULES.md §1; the scoring is :meth:`~games.bide.Bide.group_scores`):

- the **value** of a position for the mover is its *margin*: its best group's score minus the opponent's
  best group's score (when the board is full these are the final scores);
- the value of a mover's turn is the margin after the opponent's **best reply** (the reply that leaves the
  mover the smallest margin; when the turn ends the game, or the opponent has no disc and the mover plays
  again, the margin right after the turn);
- a position is a puzzle when one turn's value beats every other turn's by at least :data:`MARGIN` points.

Every turn is looked at, never sampled: the mover's turns and each reply are the engine's complete turns
(every placement, bide, and every order of every release, two reaching the same position counted as one),
listed exactly; a position whose turns are too many to list (a big hand on an empty board) is out of budget
("unknown"). Only two-seat games are puzzles (with more seats "the opponent's best reply" is not one reply).
Alpha-beta at the root keeps only what decides the two best values: a turn's replies stop as soon as one
leaves the mover no more than the second best value so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.bide import Bide

from ..knowledge.bide import bide_key
from ..turns import TooManyTurns, Turn, enumerate_turns
from .budget import Meter, OverBudget

#: How many points the best turn's value must beat every other turn's by: a centre disc is worth 4, a disc
#: one ring in 3, so 3 is a disc's worth that a player can see.
MARGIN = 3
#: Partial turns the exact listing of one position's turns may visit before the position is out of budget.
MOST_PARTIAL_TURNS = 6_000


def margin(state: Bide, seat: int) -> int:
    """``seat``'s best group's score minus its opponent's (two seats)."""
    scores = state.group_scores()
    return scores[seat - 1] - scores[2 - seat]


def all_turns(state: Bide, meter: Meter) -> list[Turn[Bide]]:
    """Every complete turn from ``state`` with a distinct result, or :class:`OverBudget` when too many."""
    try:
        turns = enumerate_turns(state, limit=MOST_PARTIAL_TURNS, key=bide_key)
    except TooManyTurns as error:
        raise OverBudget(str(error)) from None
    meter.tick(len(turns))
    return turns


@dataclass(frozen=True)
class BideVerdict:
    """The best turn of a Bide position over the two-turn horizon."""

    best: Turn[Bide]
    value: int
    """The mover's margin after the best turn and the opponent's best reply."""
    runner_up: int | None
    """The best value among the other turns (an upper bound: exact unless it was cut off below the best's);
    None when the best turn is the only one."""
    turns: int
    """The mover's distinct turns."""

    @property
    def lead(self) -> int | None:
        return None if self.runner_up is None else self.value - self.runner_up


def turn_value(state: Bide, turn: Turn[Bide], seat: int, floor: float, meter: Meter) -> int:
    """The mover's margin after ``turn`` and the opponent's best reply; stops early (returning a value no
    higher than ``floor``) once a reply brings the margin to ``floor`` or below."""
    after = turn.result(state)
    if after.is_over or after.to_move == seat:
        return margin(after, seat)
    worst: int | None = None
    for reply in all_turns(after, meter):
        meter.tick()
        value = margin(reply.result(after), seat)
        if worst is None or value < worst:
            worst = value
            if worst <= floor:
                break
    assert worst is not None
    return worst


def best_turn(state: Bide, meter: Meter) -> BideVerdict | None:
    """The two-turn comparison of ``state``'s turns (None for more than two seats or a game that is over)."""
    seat = state.to_move
    if seat is None or state.players != 2:
        return None
    turns = all_turns(state, meter)
    # Most promising first (the margin right after the turn), so the cut-offs come early.
    ordered = sorted(turns, key=lambda t: -margin(t.result(state), seat))
    meter.tick(len(ordered))
    best: Turn[Bide] | None = None
    first = second = float("-inf")
    for turn in ordered:
        value = turn_value(state, turn, seat, second, meter)
        if value > first:
            best, first, second = turn, value, first
        elif value > second:
            second = value
    assert best is not None
    runner_up = None if len(ordered) == 1 else int(second)
    return BideVerdict(best, int(first), runner_up, len(ordered))


def same_result(state: Bide, a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether two action lists from ``state`` lead to the same position."""
    return bool(bide_key(Turn(tuple(a), state).result(state)) == bide_key(Turn(tuple(b), state).result(state)))
