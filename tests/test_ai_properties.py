"""Properties of the computer's turns in any position reached by random play."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ai.knowledge import knowledge_for
from ai.mcts import MCTS
from ai.turns import apply_turn, random_actions
from games import new_game

SETUPS = [
    ("begird", 2, {"board": "small"}),
    ("bide", 2, {"side": 4}),
    ("bide", 5, {"side": 4}),
    ("bump", 2, {}),
    ("playbai", 2, {}),
]


def random_position(setup, seed, turns):
    game_id, players, options = setup
    game = new_game(game_id, players, options)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over:
            break
        apply_turn(game, random_actions(game, rng))
    return game


@settings(max_examples=25, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), turns=st.integers(0, 40))
def test_the_chosen_turn_replays_from_its_notation_to_the_same_position(setup, seed, turns):
    game = random_position(setup, seed, turns)
    if game.is_over:
        return
    before = game.to_json()
    result = MCTS(knowledge_for(game), random.Random(seed), simulations=6).search(game)
    assert game.to_json() == before  # the search never touches the game it is given
    by_actions = apply_turn(game.copy(), result.turn.actions)
    by_notation = game.copy()
    by_notation.play_turn(result.turn.notation)
    assert by_notation.position() == by_actions.position()
    assert by_notation.ply == game.ply + 1 or by_notation.is_over
