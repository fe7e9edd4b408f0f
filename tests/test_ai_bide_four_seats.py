"""Four-seat Bide's own leaf scoring (``BideKnowledge``'s ``_many`` settings) and the calibration behind it
(benchmarks/calibrate_bide_4p.py): the cut, the estimate's sharpness, whole playouts near the end."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ai.knowledge import bide_eval, knowledge_for
from ai.knowledge.bide import BideKnowledge, margin_returns
from ai.search import Budget, search
from games.bide import Bide
from tests import reference_playouts
from tests.scripts import load_script
from tests.test_playout_policies import random_bide, reference_cut_playout

#: What the calibration found best for four seats (benchmarks/calibrate_bide_4p.py, docs/ai.md): no cut
#: playout, the estimate 1.5 times sharper, whole playouts from 15 empty points or fewer.
CALIBRATED = {"rollout_turns_many": 0, "estimate_sharpness_many": 1.5, "whole_playout_empty_many": 15}


def four_seats(**settings: float) -> BideKnowledge:
    knowledge = knowledge_for(Bide.new(4))
    assert isinstance(knowledge, BideKnowledge)
    knowledge.mast_greedy_many = 0.0
    for name, value in settings.items():
        setattr(knowledge, name, value)
    return knowledge


def test_the_four_seat_settings_ship_off() -> None:
    # off until an arena confirms them (docs/ai.md): four seats' leaves are the cut playouts, as before
    assert (BideKnowledge.rollout_turns_many, BideKnowledge.estimate_sharpness_many) == (
        BideKnowledge.rollout_turns,
        1.0,
    )
    assert BideKnowledge.whole_playout_empty_many == 0


def test_a_four_seat_search_gives_the_same_turn_for_a_seed() -> None:
    game = random_bide(5, 4, 5, 20)
    assert not game.is_over
    # the calibrated leaves draw nothing from the search's generator mid-game: still one turn for a seed
    turns = {search(game, Budget(300), seed=4, knowledge=four_seats(**CALIBRATED)).turn.actions for _ in range(2)}
    assert len(turns) == 1


def test_sharpness_one_is_the_fitted_estimate_and_more_raises_the_leaders_share() -> None:
    for seed in range(10):
        game = random_bide(seed, 4, 5, 6 + 3 * seed)
        if game.is_over:
            continue
        plain = bide_eval.estimate(game)
        assert bide_eval.estimate(game, 1.0) == plain
        sharp = bide_eval.estimate(game, 1.5)
        assert sum(sharp) == pytest.approx(1.0)
        assert np.argsort(sharp).tolist() == np.argsort(plain).tolist()  # the same order of seats
        if max(plain) - min(plain) > 1e-6:
            assert max(sharp) > max(plain) and min(sharp) < min(plain)
        assert four_seats(estimate_sharpness_many=1.5).estimate(game) == sharp


def test_four_seats_with_no_cut_score_a_leaf_by_its_estimate_and_draw_nothing() -> None:
    knowledge = four_seats(**CALIBRATED)
    seen = 0
    for seed in range(12):
        game = random_bide(seed, 4, 5, 2 + 2 * seed)
        if game.is_over or game.empty_count <= 15:
            continue
        rng = random.Random(seed)
        state = rng.getstate()
        assert knowledge.evaluate(game, rng) == bide_eval.estimate(game, 1.5)
        assert rng.getstate() == state  # no playout: the search's generator untouched
        seen += 1
    assert seen >= 6


def test_four_seats_near_the_end_play_the_whole_playout() -> None:
    # at most whole_playout_empty_many empty points: the reference playout to the full board, draw for draw,
    # scored by its margins (the value is the playout's end, never the estimate)
    knowledge = four_seats(**CALIBRATED)
    ended = 0
    for seed in range(40):
        game = random_bide(seed, 4, 5, 40 + seed % 12)
        if game.is_over or game.empty_count > 15:
            continue
        theirs, rng = reference_cut_playout(game, seed, 0)
        while not theirs.is_over:
            reference_playouts.bide_rollout_step(theirs, rng)
        assert knowledge.evaluate(game, random.Random(seed)) == margin_returns(theirs), seed
        ended += 1
    assert ended >= 5


def test_two_seats_never_read_the_four_seat_settings() -> None:
    for seed in range(6):
        game = random_bide(seed, 2, 5, 12)
        if game.is_over:
            continue
        plain = knowledge_for(game)
        odd = knowledge_for(game)
        for name, value in CALIBRATED.items():
            setattr(odd, name, value)
        assert odd.evaluate(game, random.Random(seed)) == plain.evaluate(game, random.Random(seed))
        assert odd.estimate(game) == plain.estimate(game)


@pytest.fixture(scope="module")
def calibration():
    """The calibration script's positions: a third of the recorded games' plies, 4 playouts each (seeded)."""
    script = load_script("benchmarks/calibrate_bide_4p.py")
    return script, script.positions(playouts=4, every=6, cuts=(0, 6), seed=3)


def test_the_calibrated_scoring_foretells_the_real_winners_better_than_the_cut_playouts(calibration) -> None:
    # Cross-entropy to the recorded games' real winners: the calibrated four-seat scoring beats the cut playouts
    # as they were (cut 6, sharpness 1) and a uniform guess; a broken estimate, sharpness or threshold fails.
    script, data = calibration
    assert len({p.game_index for p in data}) >= 150
    winners = [p.winner for p in data]
    shipped = script.cross_entropy([script.value(p, 6, 1.0, 0) for p in data], winners)
    calibrated = script.cross_entropy([script.value(p, 0, 1.5, 15) for p in data], winners)
    uniform = script.cross_entropy([np.full(4, 0.25) for _ in data], winners)
    assert calibrated < shipped - 0.005
    assert calibrated < uniform - 0.08
    # the sharpness fitted to the real winners at no cut is above 1: the margins' softmax is softer than a win
    assert script.fitted_sharpness(data, 0) > 1.0
