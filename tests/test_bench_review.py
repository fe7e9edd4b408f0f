"""benchmarks/bench_review.py's deep reference (issue 39): a review's distance from a deep search of the same
positions."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest

from ai.knowledge import knowledge_for
from ai.mcts import MCTS
from ai.review import GameReview, TurnReview
from ai.search import Budget, scaled_simulations
from ai.turns import by_player, returns_of
from games.registry import new_game
from tests.scripts import load_script

bench = load_script("benchmarks/bench_review.py")
CASES = json.loads((Path(__file__).parent / "data" / "review_blunders.json").read_text())


def test_the_distance_from_the_deep_reference_counts_the_positions_both_score():
    chances = [[0.6, 0.4], [], [0.2, 0.8], [1.0, 0.0]]
    reference = [0.5, 0.3, None, 0.9]
    assert bench.from_deep(chances, reference) == pytest.approx(10.0)  # (|0.6-0.5| + |1.0-0.9|) / 2, in points
    assert bench.from_deep(chances, [c[0] if c else None for c in chances]) == 0.0


def test_a_run_of_some_games_or_a_labelled_one_does_not_overwrite_the_whole_runs_results_file():
    assert bench.games_part(argparse.Namespace(game=None, label=None)) == ""  # the whole run's file
    assert bench.games_part(argparse.Namespace(game=["playbai"], label=None)) == "-playbai"
    assert bench.games_part(argparse.Namespace(game=["bide", "bump"], label="seed2")) == "-bide-bump-seed2"
    assert bench.games_part(argparse.Namespace(game=None, label="again")) == "-again"
    variant = argparse.Namespace(game=["playbai"], label="seed1", option=["side=6", "expert=true"])
    assert bench.games_part(variant) == "-playbai-side6-experttrue-seed1"


def test_a_variant_is_reviewed_with_its_options_on_top_of_each_games_own():
    asked = argparse.Namespace(game=["playbai", "begird"], option=["side=6"])
    assert [(game_id, options) for game_id, options in bench.chosen(asked)] == [
        ("begird", {"side": "6"}),
        ("playbai", {"side": "6"}),
    ]
    assert bench.chosen(argparse.Namespace(game=["playbai"], option=[])) == [("playbai", {})]


def test_the_swing_off_deep_counts_only_the_swings_the_deep_search_does_not_share():
    reference = [0.5, 0.9, None, 0.2, 0.6]
    follows = [[r, 1 - r] if r is not None else [0.4, 0.6] for r in reference]  # every swing is the deep one's
    assert bench.swing(follows) > 30
    assert bench.swing_off_deep(follows, reference) == 0.0
    flat = [[0.5, 0.5]] * 5  # no swing at all, where the deep search swings
    assert bench.swing(flat) == 0.0
    assert bench.swing_off_deep(flat, reference) == pytest.approx(100 * (0.4 + 0.7 + 0.4) / 3)
    shifted = [[min(1.0, r + 0.1), 0.0] if r is not None else [] for r in reference]  # a steady lean: no zig-zag
    assert bench.swing_off_deep(shifted, reference) == pytest.approx(0.0)
    assert bench.swing_off_deep([[0.5, 0.5], []], [0.5, None]) == 0.0  # fewer than two positions to compare


def test_the_deep_reference_makes_every_simulation_and_scores_each_positions_chosen_turn(monkeypatch):
    case = next(c for c in CASES if c["game"] == "begird")  # a finished game
    searches = []
    real = MCTS.search

    def spy(self, game, root=None):
        result = real(self, game, root)
        searches.append((self.simulations, result))
        return result

    monkeypatch.setattr(MCTS, "search", spy)
    reference = bench.deep_reference(case["game"], case["options"], case["turns"], 60)
    assert len(reference) == len(case["turns"]) + 1
    assert len(searches) == len(case["turns"])  # each position before a turn; the last is the game's result
    stopped_early = 0
    game = new_game(case["game"], 2, case["options"])
    for k, ((simulations, result), notation) in enumerate(zip(searches, case["turns"], strict=True)):
        values = bench.chosen_values(result)
        assert reference[k] == (pytest.approx(values[0] / sum(values)) if values else None)
        proven = set(values) <= {0.0, 1.0}  # the search proved the position (its chosen turn exact)
        assert result.simulations == simulations or proven or not values  # the whole budget, unless solved
        know = knowledge_for(game)
        usual = MCTS(know, random.Random(bench.DEEP_SEED + k), simulations=scaled_simulations(Budget(60), know, game))
        stopped_early += real(usual, game).simulations < simulations
        game.play_turn(notation)
    assert reference[-1] == by_player(game, returns_of(game))[0]  # the last position: the game's result
    assert stopped_early  # without the reference's setting, some of these searches would stop early


def test_the_drop_gap_compares_each_turns_drop_with_the_references_drop_for_its_mover():
    bound = load_script("benchmarks/bench_review_bound.py")
    turns = [TurnReview(0, 1, "a", None, 0.6, 0.4), TurnReview(1, 2, "b", None, 0.6, 0.6)]
    review = GameReview(2, [(0.6, 0.4), (0.4, 0.6), (0.4, 0.6)], turns, {}, [])
    # player 1 dropped 20 points where the reference saw none; player 2 dropped none, the reference none
    # (player 2's chance rose from 50% to 80%)
    assert bound.drop_gap(review, [0.5, 0.5, 0.2]) == pytest.approx(10.0)
    assert bound.drop_gap(review, [0.6, 0.4, None]) == pytest.approx(0.0)  # a position the reference lacks


def test_the_dice_spread_is_the_disagreement_of_reviews_of_one_game_not_its_swings():
    steady = [[0.9, 0.1], [0.2, 0.8], [], [0.5, 0.5]]  # swings hard, but every review says the same
    assert bench.dice_spread([steady, steady, steady]) == 0.0
    assert bench.swing(steady) > 30
    flat_a = [[0.4, 0.6], [0.4, 0.6], [0.5, 0.5]]
    flat_b = [[0.6, 0.4], [0.6, 0.4], []]  # its last position forced: only the first two are compared
    # each position 40% in one review and 60% in the other: a standard deviation of 10 points
    assert bench.dice_spread([flat_a, flat_b]) == pytest.approx(10.0)
    assert bench.swing(flat_a) < bench.swing(steady)
