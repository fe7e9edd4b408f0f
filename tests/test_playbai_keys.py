"""Play Bai's result keys without paths (games/playbaikeys.py) and playing a turn by its result (issue 39).

The computer's search lists results by the hundred and plays few, so it asks for the keys alone and plays a
result by ``apply_result_quiet``. Both must agree with the engine's ``turn_results()`` and its actions on
any position: the same keys in the same order, and the same position, state and bookkeeping after a result
as after its actions (the quiet path) and as after its notation (the full path).
"""

from __future__ import annotations

import random

import pytest

from ai.turns import apply_turn
from games import IllegalMove
from games.playbai import PlayBai
from games.playbaikeys import result_keys
from games.playbaisearch import GOAL

SKIP = ("field", "board")  # shared, unchanging tables


def _state(game: PlayBai) -> dict:
    return {name: value for name, value in vars(game).items() if name not in SKIP}


def _positions(seed: int, expert: bool, side: int) -> list[PlayBai]:
    """Every position of a seeded game between players that take a goal whenever one is on offer (so goals
    and winning goals are among the results) and otherwise play a random result."""
    rng = random.Random(seed)
    game = PlayBai.new(2, {"expert": expert, "side": side})
    positions = []
    while not game.is_over and len(positions) < 120:
        positions.append(game.copy())
        results = game.turn_results()
        goals = [k for k in results if not isinstance(k, int)]  # GOAL, or ("win", …)
        key = rng.choice(goals) if goals and rng.random() < 0.9 else list(results)[rng.randrange(len(results))]
        apply_turn(game, results[key])
    return positions


CASES = [(seed, seed % 2 == 1, 6 if seed == 4 else 5) for seed in range(6)]


@pytest.mark.parametrize(("seed", "expert", "side"), CASES)
def test_result_keys_are_turn_results_keys_in_order(seed, expert, side):
    kinds = set()
    for game in _positions(seed, expert, side):
        keys = result_keys(game)
        assert keys == list(game.turn_results())
        kinds.update("goal" if k == GOAL else "move" if isinstance(k, int) else k[0] for k in keys)
    assert kinds == {"move", "goal", "win"}  # every kind of result was compared


@pytest.mark.parametrize(("seed", "expert", "side"), CASES)
def test_playing_a_result_gives_the_position_of_its_actions(seed, expert, side):
    rng = random.Random(seed)
    for game in _positions(seed, expert, side):
        results = game.turn_results()
        keys = list(results)
        goals = [k for k in keys if not isinstance(k, int)]
        for key in goals + rng.sample(keys, min(12, len(keys))):
            by_key = game.copy()
            by_key.apply_result_quiet(key)
            quiet = apply_turn(game.copy(), results[key])
            assert _state(by_key) == _state(quiet), key
            full = game.copy()
            full.play_turn(full.format_turn(results[key]))
            assert by_key.position() == full.position()
            assert (by_key.ply, by_key.to_move, by_key.winners, by_key.goals, by_key.last_goal, by_key.kickoff) == (
                full.ply,
                full.to_move,
                full.winners,
                full.goals,
                full.last_goal,
                full.kickoff,
            )


def test_a_result_is_played_only_from_a_turn_start_of_a_game_not_over():
    game = PlayBai.new(2, {})
    key = result_keys(game)[0]
    started = game.copy()
    started.apply_quiet(started.legal_actions()[0])
    before = _state(started)
    with pytest.raises(ValueError):
        started.apply_result_quiet(key)
    assert _state(started) == before
    with pytest.raises(ValueError):
        result_keys(started)
    over = game.copy()
    over.resign(1)
    assert result_keys(over) == []
    with pytest.raises(IllegalMove):
        over.apply_result_quiet(key)
