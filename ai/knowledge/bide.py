"""Bide for the search: complete turns including releases, priors, playouts.

A release of ``h`` discs among ``e`` empty points has up to ``e!/(e-h)!``
orders, so releases are enumerated exactly only when that is small (late in
the game, where the winning release of a nearly full board must be found);
otherwise a handful are sampled, each disc drawn towards valuable points and
the mover's own discs. Bide itself and every single placement are always
candidates.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from math import perm

from games.bide import BIDE, Bide

from ..turns import TooManyTurns, Turn, apply_turn, enumerate_turns, returns_of
from . import bide_eval
from .base import GameKnowledge, SearchSettings
from .bide_playout import Mast, PlayoutWeights

EXACT_RELEASES = 120  # enumerate every release order up to this many…
EXACT_FINISHES = 720  # …or this many when the release fills the board (the game's last turn)
SAMPLED_RELEASES = 12
#: With more than two seats a playout is scored by its final margins (see
#: :meth:`BideKnowledge.evaluate`): softmax of the seats' best-group scores at this temperature.
MARGIN_TEMPERATURE = 4.0


def bide_key(game: Bide) -> Hashable:
    return (tuple(game.cells), tuple(game.hands), tuple(game.owed), game.to_move)


class BideKnowledge(GameKnowledge[Bide]):
    # A playout's first turns, then the fitted estimate (ai/knowledge/bide_eval.py) of where it stopped: a
    # whole playout (some 45 turns from mid-game) is mostly noise from its random releases, and its tail most
    # of its cost (0.63 ms a simulation with whole playouts, 0.26 ms with 6 turns and the estimate, on 18
    # positions of recorded games). The arena runs behind it: docs/ai.md, "Bide".
    rollout_turns = 6
    # With two seats, a playout that has this many empty points or fewer left when its rollout_turns are up
    # runs on to the full board: near the end a playout is short and its result exact, where the estimate is
    # least sure (0: always cut). Four seats keep the cut playouts (their margins were not measured so).
    # Off: 30 and 25 (with other changes) showed no gain at full budget (docs/ai.md, runs 7-9).
    whole_playout_empty = 0
    # More than two seats have their own three: the cut (rollout_turns_many turns), the estimate's sharpness
    # (its utilities times this; 1: as fitted to the playouts' margins, which a real winner is sharper than)
    # and whole playouts from this many empty points or fewer. Calibrated against the real winners of 167
    # recorded four-seat arena games (benchmarks/calibrate_bide_4p.py): mid-game the random playout's first
    # turns foretell the winner worse than the estimate of the leaf itself, near the end a whole playout
    # better; no cut, sharpness 1.5 and whole playouts from 15 beat the cut playouts in each of four folds,
    # and cost half as much a simulation. Off (6, 1, 0): with them, hard at 3,000 simulations scored 18 of 28
    # against the old hard at full budget (seed 7, 18.8% of its CPU: aim 1 met) but 6 of 14 on seed 8, and
    # hard lost 9 of 12 games' points to medium with both so (docs/ai.md, "Bide", runs 9-10).
    rollout_turns_many = 6
    estimate_sharpness_many = 1.0
    whole_playout_empty_many = 0
    # MAST in the playouts: the probability that a playout disc goes to the point whose discs have paid best
    # for its seat in this search's playouts so far (0: off, the weighted draw alone); two seats (more seats:
    # mast_greedy_many). 0.5 against 0, both at hard x0.5: 13 of 18 (72.2%) for 2% more CPU per
    # turn (docs/ai.md, "Figures (issue 39)").
    mast_greedy = 0.5
    # MAST with more than two seats: a playout pays each seat its margin-scored share (margin_returns, or the
    # estimate where the playout was cut), so a point's mean is the share its discs' playouts gave that seat.
    # Its own value, since four seats' playouts are scored otherwise (0: off). 0.5 costs 2% more CPU per turn.
    # At 1,400 simulations its gain was not confirmed (full budget against the old hard: 14 of 20 on seed 3,
    # where the same 18 games without it scored 8.5 against its 12; 7.5 of 18 on seed 5; at x0.5 against 0,
    # 6 of 19). With hard's four-seat count of 2,000 (ai/levels.py) it won 8 of 10 on seed 6 (run 7) and
    # 20 of 32 on seed 12 (run 11) against the old hard at full budget (docs/ai.md, "Bide").
    mast_greedy_many = 0.5
    _mast: Mast | None = None
    simulation_scale = 0.5
    # Time by need (simulation_share): a search with more than late_empty empty points gets early_share of its
    # level's simulations, one with fewer late_share (1 and 1: every position alike). 0.5 and 1.5 showed no
    # gain at full budget nor against these at x0.5 (docs/ai.md, run 9 and its tuning run).
    late_empty = 36
    early_share = 1.0
    late_share = 1.0
    # expansion (every release listed, a prior from each one's scores) at the 3rd visit: 5 of 6 games against
    # the 2nd visit's at hard x0.25, for 20% less CPU (benchmarks/results/ai/versions-tune-bide-*)
    settings = SearchSettings(c_puct=1.5, expand_after=3)

    def turns(self, game: Bide, rng: random.Random) -> list[Turn[Bide]]:
        seat = game.to_move
        assert seat is not None
        i = seat - 1
        hand = game.hands[i]
        empty = game.empty_count
        orders = perm(empty, min(hand, empty))
        if hand <= 1 or orders <= (EXACT_FINISHES if hand >= empty else EXACT_RELEASES):
            try:
                return enumerate_turns(game, limit=4 * EXACT_FINISHES, key=bide_key)
            except TooManyTurns:
                pass
        turns: list[Turn[Bide]] = []
        seen: set[Hashable] = set()

        def add(actions: tuple[int, ...]) -> None:
            state = apply_turn(game.copy(), actions)
            key = bide_key(state)
            if key not in seen:
                seen.add(key)
                turns.append(Turn(actions, game, state))

        if game.bide_allowed():
            add((BIDE,))
        if not game.owed[i]:
            for p in range(len(game.cells)):
                if game.cells[p] == 0:
                    add((p,))
        for _ in range(SAMPLED_RELEASES):
            add(self._sample_release(game, seat, rng))
        return turns

    def _sample_release(self, game: Bide, seat: int, rng: random.Random) -> tuple[int, ...]:
        trial = game.copy()
        weights = PlayoutWeights(trial)
        actions = []
        while trial.hands[seat - 1] and not trial.is_over:
            p = weights.draw(seat, rng)
            actions.append(p)
            weights.place(p)
        return tuple(actions)

    def prior(self, game: Bide, turns: list[Turn[Bide]]) -> list[float]:
        seat = game.to_move
        assert seat is not None
        weights = []
        for turn in turns:
            state = turn.state
            assert state is not None
            if state.is_over:
                weights.append(10.0 if seat in state.winners else 0.2)
                continue
            scores = state.group_scores()
            mine = scores[seat - 1]
            best_other = max(s for k, s in enumerate(scores) if k != seat - 1)
            # Keep the game close or ahead; biding keeps options, so it gets a share too.
            w = 1.0 + max(0.0, (mine - best_other) / 8 + 1.0)
            if turn.actions[0] == BIDE:
                w += 1.5
            weights.append(w)
        return weights

    def simulation_share(self, game: Bide) -> float:
        return self.late_share if game.empty_count <= self.late_empty else self.early_share

    def rollout_step(self, game: Bide, rng: random.Random) -> None:
        PlayoutWeights(game).play_turn(rng)

    def evaluate(self, game: Bide, rng: random.Random) -> tuple[float, ...]:
        """A playout from ``game`` (:mod:`ai.knowledge.bide_playout`), its weights kept from turn to turn,
        cut after :attr:`rollout_turns` turns and scored by :meth:`estimate` if the board is not full by then
        (played on to the end if it has no more than :attr:`whole_playout_empty` empty points left). More than
        two seats read the ``_many`` settings instead (a leaf past the whole-playout threshold with no cut
        turns is the estimate alone)."""
        if game.is_over:
            return returns_of(game)
        many = game.players > 2
        turns = self.rollout_turns_many if many else self.rollout_turns
        whole = self.whole_playout_empty_many if many else self.whole_playout_empty
        if not turns and (not many or game.empty_count > whole):
            return self.estimate(game)
        state = game.copy()
        greedy = self.mast_greedy_many if many else self.mast_greedy
        mast = self._mast_for(state, greedy) if greedy else None
        playout = PlayoutWeights(state, mast)
        for _ in range(turns):
            playout.play_turn(rng)
            if state.is_over:
                break
        if state.empty_count <= whole:
            while not state.is_over:
                playout.play_turn(rng)
        value = self.playout_value(state)
        if mast is not None:
            mast.learn(value)
        return value

    def _mast_for(self, game: Bide, greedy: float) -> Mast:
        """This knowledge's MAST table: one per knowledge object, and ``ai.search`` makes one per search (a kept
        tree reused on the next turn starts a fresh table), so a seed still gives the same turn."""
        mast = self._mast
        if mast is None or len(mast.n) != game.players + 1:
            mast = Mast(game.players, len(game.cells), greedy)
            self._mast = mast
        return mast

    def playout_value(self, state: Bide) -> tuple[float, ...]:
        """Where a playout stopped; with more than two seats scored by margins, not by its winner alone.

        With four seats a playout's winner (return 1 to one seat of four) says little
        about the turn it started from: a root's 70-odd turns each get a few playouts
        of return 0 or 1, and the search's choice was mostly noise on top of the prior
        that `easy` shares. Scoring the playout's final position by
        :func:`margin_returns` gives every playout a graded answer (second by a point
        is worth more than last by twenty): `medium` scored 61% against `easy` with
        winner-only playouts, 81% with these (docs/ai.md). Two seats keep the
        winner-only playouts (81% there, not re-tuned). Only playouts are softened:
        the tree's own ends, and the solver, keep exact returns.
        """
        if not state.is_over:
            return self.estimate(state)
        if state.players <= 2:
            return returns_of(state)
        return margin_returns(state)

    def estimate(self, game: Bide) -> tuple[float, ...]:
        """Each seat's expected playout result from a position not over (:mod:`ai.knowledge.bide_eval`)."""
        if game.players > 2:
            return bide_eval.estimate(game, self.estimate_sharpness_many)
        return bide_eval.estimate(game)


def margin_returns(game: Bide, temperature: float = MARGIN_TEMPERATURE) -> tuple[float, ...]:
    """Per-seat returns summing to 1 from the best-group scores: a softmax at ``temperature``.

    A resigned seat cannot win and gets 0; with a lead of 4
    points (one centre disc) the leader counts e ≈ 2.7 times its follower.
    """
    scores = game.group_scores()
    live = [k for k in range(game.players) if not game.resigned[k]]
    if not live:
        return returns_of(game)
    top = max(scores[k] for k in live)
    weights = [math.exp((scores[k] - top) / temperature) if k in live else 0.0 for k in range(game.players)]
    total = sum(weights)
    return tuple(w / total for w in weights)
