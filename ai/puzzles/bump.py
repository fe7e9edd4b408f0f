"""Bump's tactics for the prover: the opponent's centre taken for good, or ours saved.

Bump is won at the start of a turn (RULES.md §4, phase 1): a piece the mover left on the opponent's centre
wins when the turn comes back to it, unless the opponent's turn moved it off. So:

- **Take the centre** (:class:`BumpTactics`, one turn): a turn that ends with one of the attacker's pieces
  on the opponent's centre (:meth:`~games.bump.Bump.centre_takers`) after which no reply moves every such
  piece off. Only a reply that bumps can move an opponent's piece (:meth:`~games.bump.Bump.bumping_turns`;
  every other turn moves the one piece it names), so those are the replies tried, and all of them.
- **Save the centre** (:func:`saving_turns`): the opponent stands on the mover's centre, and the mover loses
  when its turn passes unless the turn moves it off. A turn *saves* when the piece is gone and the opponent
  then cannot take the mover's centre for good in one turn; a puzzle when exactly one turn saves.

Turns are the engine's legal actions (one per turn), two reaching the same position counted as one.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from games.bump import CENTRE, PASS, Bump, BumpAction

from ..turns import apply_turn
from .budget import Meter
from .prover import Prover, Verdict

#: The longest horizon (the attacker's turns) this module proves: the take is one turn, its refutations every
#: reply; two turns would try every reply to each of some five hundred turns.
MOST_TURNS = 1


def bump_key(state: Bump) -> Hashable:
    board = state.board
    pieces = tuple((space, board.owner[pid], board.facing[pid]) for space, pid in enumerate(board.cells) if pid >= 0)
    return (pieces, state.to_move, tuple(state.held), tuple(state.reserves), state.winners)


def distinct(state: Bump, actions: Iterable[BumpAction], meter: Meter) -> list[BumpAction]:
    """``actions`` without those reaching a position an earlier one reaches (bump choices may agree)."""
    seen: set[Hashable] = set()
    out = []
    for action in actions:
        meter.tick()
        key = bump_key(apply_turn(state.copy(), (action,)))
        if key not in seen:
            seen.add(key)
            out.append(action)
    return out


class BumpTactics:
    """The opponent's centre taken for good by the seat ``attacker``."""

    wins_on_reply = True

    def __init__(self, attacker: int) -> None:
        self.attacker = attacker

    def attacker_turns(self, state: Bump, turns: int, meter: Meter) -> list[BumpAction]:
        meter.tick()
        if turns > MOST_TURNS:
            raise ValueError(f"Bump puzzles are proven up to {MOST_TURNS} turn")
        return distinct(state, state.centre_takers(), meter)

    def defender_replies(self, state: Bump, turns: int, meter: Meter) -> list[BumpAction]:
        meter.tick()
        if turns > 0:
            raise ValueError(f"Bump puzzles are proven up to {MOST_TURNS} turn")
        return state.bumping_turns() or [PASS]  # no bump: whatever it plays, the piece stays

    def play(self, state: Bump, move: BumpAction) -> Bump:
        return apply_turn(state.copy(), (move,))

    def verdict(self, state: Bump) -> Verdict:
        if not state.is_over:
            return Verdict.OPEN
        return Verdict.WIN if state.winners == (self.attacker,) else Verdict.LOSS

    def key(self, state: Bump) -> Hashable:
        return bump_key(state)

    def notation(self, state: Bump, move: BumpAction) -> str:
        return state.format_action(move)

    def resistance(self, state: Bump, winners: Sequence[BumpAction]) -> float:
        return -float(len(winners))


def centre_taken(state: Bump, seat: int) -> bool:
    """Whether an opponent's piece stands on ``seat``'s centre."""
    pid = state.board.cells[CENTRE[seat]]
    return pid >= 0 and state.board.owner[pid] != seat


def saving_turns(state: Bump, meter: Meter, enough: int = 2) -> list[BumpAction]:
    """The mover's turns (distinct results, up to ``enough``) that move the opponent off its centre and leave
    the opponent no take of it for good next turn; the mover's centre must be taken."""
    seat = state.to_move
    assert seat is not None and centre_taken(state, seat)
    opponent = 3 - seat
    prover = Prover(BumpTactics(opponent), meter)
    found: list[BumpAction] = []
    seen: set[Hashable] = set()
    for action in state.legal_actions():
        meter.tick()
        after = apply_turn(state.copy(), (action,))
        if after.is_over:  # still there when the turn passed: the opponent won
            continue
        key = bump_key(after)
        if key in seen:
            continue
        seen.add(key)
        if not prover.wins_within(after, 1):
            found.append(action)
            if len(found) >= enough:
                break
    return found
