"""Bump for the search: centre threats, material, short playouts.

Random Bump games rarely end (a piece must *start* a turn on the opponent's
centre), so a playout runs a few random turns (the engine's fast
``random_action``) and the position is then estimated from material and how
close each side's nearest piece is to the opponent's centre, counted in
shifts through the gates (walls respected, pieces ignored).

When the mover's own centre is occupied it must clear it this turn or lose
when the turn passes: then its candidates are the turns that bump (no other
turn can move the opponent's piece), each played out so the search sees at
once which ones clear it.
"""

from __future__ import annotations

import math
import random

from games.bump import CENTRE, PASS, Bump

from ..turns import Turn, apply_turn
from .base import Expansion, GameKnowledge, SearchSettings
from .bump_tactics import ForcedWin, OutOfBudget, centre_distance

PLAYOUT_TURNS = 0
#: Shifts from the opponent's centre within which a piece of the mover makes the forced-win check worth
#: its listing: one turn's three shifts (with 6, two turns' worth, the check ran on 94% of the positions of
#: recorded games instead of 42%, and found the same wins).
FORCED_WIN_REACH = 3


def _side_strength(game: Bump, seat: int) -> float:
    board = game.board
    dist = centre_distance(seat)
    pieces = 0
    nearest = 99
    for space, pid in enumerate(board.cells):
        if pid >= 0 and board.owner[pid] == seat:
            pieces += 1
            if dist[space] < nearest:
                nearest = dist[space]
    pieces += game.reserves[seat - 1]
    return 0.35 * pieces + 3.0 / (1 + nearest)


class BumpKnowledge(GameKnowledge[Bump]):
    rollout_turns = PLAYOUT_TURNS
    simulation_scale = 1.0
    # expansion (every turn listed: most of Bump's search time) at the 4th visit: won the first games against
    # the 2nd visit's at hard x0.25 for ~20% less CPU (benchmarks/results/ai/versions-tune-bump-*)
    settings = SearchSettings(c_puct=1.5, expand_after=4, expand_urgent=True, forced_win_budget=5.0)

    def turns(self, game: Bump, rng: random.Random) -> list[Turn[Bump]]:
        seat = game.to_move
        if seat is None or not self._centre_taken(game, seat):
            return super().turns(game, rng)
        # The mover must clear its centre this turn. Only a turn that bumps can move the opponent's piece
        # (any other moves or brings on the one piece it names): every other turn loses, so the candidates
        # are the bumping turns, each played out now to see whether it clears; with none, a pass (lost).
        turns = [Turn((action,), game) for action in game.bumping_turns()] or [Turn((PASS,), game)]
        for turn in turns:
            turn.result(game)
        return turns

    def forced_win(self, game: Bump, budget: int) -> Expansion | None:
        """A win in one, else in two, found exactly (:mod:`ai.knowledge.bump_tactics`) within ``budget``
        turns listed; not looked for when no piece of the mover is within reach of the opponent's centre
        in two turns (``FORCED_WIN_REACH`` shifts, pieces ignored)."""
        seat = game.to_move
        if seat is None or not self._within_reach(game, seat):
            return None
        try:
            action = ForcedWin(budget).find(game)
        except OutOfBudget:
            return None
        if action is None:
            return None
        return Expansion([Turn((action,), game)], solved=tuple(1.0 if s == seat else 0.0 for s in (1, 2)))

    @staticmethod
    def _within_reach(game: Bump, seat: int) -> bool:
        board = game.board
        dist = centre_distance(seat)
        return any(
            pid >= 0 and board.owner[pid] == seat and dist[space] <= FORCED_WIN_REACH
            for space, pid in enumerate(board.cells)
        )

    def urgent(self, game: Bump) -> bool:
        seat = game.to_move
        return seat is not None and self._centre_taken(game, seat)

    @staticmethod
    def _centre_taken(game: Bump, seat: int) -> bool:
        pid = game.board.cells[CENTRE[seat]]
        return pid >= 0 and game.board.owner[pid] != seat

    def winning_turn(self, game: Bump, turns: list[Turn[Bump]]) -> Turn[Bump] | None:
        # A Bump turn never wins by itself: the win comes when the turn passes back.
        return None

    def prior(self, game: Bump, turns: list[Turn[Bump]]) -> list[float]:
        seat = game.to_move
        assert seat is not None
        dist = centre_distance(seat)
        # Only a turn that leaves a piece of the mover on the goal threatens: a move onto it whose bumps
        # push the piece back off is no threat (it drew a centre-taker's weight, and the search kept trying it).
        takers = set(game.centre_takers())
        weights = []
        for turn in turns:
            if turn.state is not None and turn.state.is_over:
                weights.append(0.01 if seat not in turn.state.winners else 100.0)
                continue
            action = turn.actions[0]
            if action == PASS:
                w = 0.3
            elif action[0] == "move":
                _, src, dst, _, choices = action
                w = 30.0 if action in takers else 1.0 + max(0, dist[src] - dist[dst]) * 0.7 + 0.5 * len(choices)
            else:
                w = 0.5
            if turn.state is not None:
                w *= 20.0  # clears the centre (the losing turns were caught above)
            weights.append(w)
        return weights

    def rollout_step(self, game: Bump, rng: random.Random) -> None:
        apply_turn(game, (game.random_action(rng),))

    def estimate(self, game: Bump) -> tuple[float, ...]:
        diff = _side_strength(game, 1) - _side_strength(game, 2)
        to_move = game.to_move
        if to_move is not None:
            if self._centre_taken(game, to_move):
                diff += -2.0 if to_move == 1 else 2.0  # the mover must answer a threat
            else:
                diff += 0.3 if to_move == 1 else -0.3  # the move itself is worth something
        v = 1.0 / (1.0 + math.exp(-diff))
        return (v, 1.0 - v)
