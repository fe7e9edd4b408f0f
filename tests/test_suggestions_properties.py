"""Autocomplete offers only turns the engine accepts, in any reachable position (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.chat.words.moves import move_choices
from bot.service.suggestions import suggest_moves
from games import new_game

NOTES = ("✗", "No legal move")  # explanations, not turns: their value is what was typed


def random_turn(game, rng: random.Random) -> list[str]:
    """A whole legal turn built action by action (so multi-disc releases are reached too)."""
    trial = game.copy()
    actions: list[str] = []
    while True:
        legal = trial.legal_actions()
        named = {trial.format_action(a): a for a in legal}
        # bide often, and release several discs at once, so owed releases come up
        pick = "bide" if "bide" in named and rng.random() < 0.6 else rng.choice(sorted(named))
        actions.append(pick)
        trial.apply_action(named[pick])
        if trial.is_over or (trial.can_end_turn() and rng.random() < 0.3) or not trial.legal_actions():
            return actions


def check_position(game, rng: random.Random, cut: int) -> None:
    prefix = random_turn(game, rng)[:cut]
    typed = ",".join(prefix) + ("," if prefix else "")
    for label, value in move_choices(suggest_moves(game, typed)):
        if label.startswith(NOTES):
            continue
        game.copy().play_turn(value)  # raises if the engine refuses the offered turn


@settings(max_examples=40, deadline=None)
@given(
    game_id=st.sampled_from(["bide", "begird"]),
    seed=st.integers(0, 10**6),
    plies=st.integers(1, 40),
    players=st.integers(2, 3),
)
def test_every_offered_value_is_a_turn_the_engine_accepts(game_id, seed, plies, players):
    """At every position of a random game (bides and multi-disc releases are frequent, so owed releases
    come up), with nothing typed or the start of a turn typed."""
    rng = random.Random(seed)
    options = {"side": 4} if game_id == "bide" else {}
    game = new_game(game_id, players if game_id == "bide" else 2, options)
    for _ in range(plies):
        if game.is_over:
            return
        check_position(game, rng, rng.choice([0, 0, 1, 2]))
        try:
            game.play_turn(random_turn(game, rng))
        except Exception:  # a random partial turn that cannot end: try another
            continue
