"""Bump's forced-win check at the search's root (ai/knowledge/bump_tactics.py; issue 39): held to the exhaustive
definitions of tests/tactics_bump.py, bounded by its budget, and played at once by the search when it finds one."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ai.knowledge import KNOWLEDGE, knowledge_for
from ai.knowledge.base import GameKnowledge, SearchSettings
from ai.knowledge.bump import BumpKnowledge
from ai.knowledge.bump_tactics import ForcedWin, OutOfBudget
from ai.levels import get_level
from ai.search import scaled_simulations, search
from games import new_game
from tests import tactics_bump


def _with(knowledge: BumpKnowledge, **changes: float) -> BumpKnowledge:
    knowledge.settings = dataclasses.replace(knowledge.settings, **changes)
    return knowledge


def _random_positions(seed: int, count: int) -> list:
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        game = tactics_bump.random_position(rng, 1, rng.choice((1, 2)), 1)
        if game is not None:
            games.append(game)
    return games


def test_the_check_finds_a_win_exactly_when_the_exhaustive_check_does_on_random_small_positions():
    kinds = []
    for game in _random_positions(39, 12):
        moves = game.legal_actions()
        in_one = [move for move in moves if tactics_bump.wins_in_one(game, move)]
        within_two = [move for move in moves if tactics_bump.wins_within_two(game, move)]
        found = ForcedWin().find(game)
        if in_one:  # a win in one is found first
            kinds.append("one")
            assert found in in_one, game.position()
        elif within_two:
            kinds.append("two")
            assert found in within_two, game.position()
        else:
            kinds.append("none")
            assert found is None, game.position()
    assert {"one", "two", "none"} <= set(kinds), kinds  # the sample has each kind


@pytest.mark.parametrize("pieces", tactics_bump.FORCED + tactics_bump.FORCED_TWO_ON_ONE)
def test_the_check_finds_the_puzzles_wins_in_two(pieces):
    game = tactics_bump.position(pieces)
    assert not tactics_bump.has_win_in_one(game)
    found = ForcedWin().find(game)
    assert found is not None and tactics_bump.wins_within_two(game, found), found


def test_past_its_budget_the_check_gives_up():
    game = tactics_bump.position(tactics_bump.FORCED_TWO_ON_ONE[0])
    check = ForcedWin()
    assert check.find(game) is not None
    needed = check.listed
    with pytest.raises(OutOfBudget):
        ForcedWin(needed - 1).find(game)
    assert ForcedWin(needed).find(game) is not None


def test_a_win_found_is_played_at_once_with_its_exact_value():
    game = tactics_bump.position(tactics_bump.FORCED_TWO_ON_ONE[1])
    result = search(game, get_level("hard").budget_for("bump"), seed=0)
    assert tactics_bump.forces_in_two(game, result.turn.actions[0])
    assert result.simulations == 0 and result.value == 1.0
    assert result.position_values == (1.0, 0.0) and result.root_values == (1.0, 0.0)


def test_given_too_small_a_budget_the_search_answers_as_without_the_check():
    game = tactics_bump.position(tactics_bump.FORCED_TWO_ON_ONE[0])
    budget = get_level("medium").budget_for("bump")
    simulations = scaled_simulations(budget, knowledge_for(game), game)
    needed = ForcedWin()
    needed.find(game)
    assert needed.listed > 5.0 * simulations  # a budget of 5 listed turns per simulation is too small here
    for seed in range(3):
        off = search(game, budget, seed, _with(BumpKnowledge(), forced_win_budget=0.0))
        short = search(game, budget, seed, _with(BumpKnowledge(), forced_win_budget=5.0))
        assert short.turn.actions == off.turn.actions and short.simulations == off.simulations


def test_no_piece_within_reach_of_the_centre_no_check(monkeypatch):
    game = new_game("bump")  # the set-up: every piece far from the opponent's centre

    def listed(self, game):
        raise AssertionError("listed")

    monkeypatch.setattr(ForcedWin, "_listed", listed)
    assert BumpKnowledge().forced_win(game, 10**6) is None
    near = tactics_bump.position(tactics_bump.FORCED[0])
    with pytest.raises(AssertionError, match="listed"):
        BumpKnowledge().forced_win(near, 10**6)


def test_off_by_default_and_in_every_other_game():
    assert SearchSettings().forced_win_budget == 0.0
    assert GameKnowledge().forced_win(new_game("bump"), 10**6) is None
    for game_id, knowledge in KNOWLEDGE.items():
        assert (knowledge.settings.forced_win_budget > 0) == (game_id == "bump"), game_id
