"""Invariants of Bide checked on random games (hypothesis)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import load_state, new_game
from games.bide import Bide
from games.hexgrid import DIRECTIONS

games_params = st.tuples(st.integers(2, 6), st.sampled_from([4, 5, 6]), st.randoms(use_true_random=False))


def random_steps(game: Bide, rng: random.Random, limit: int = 10_000):
    """Yield (game, action) before each random action until the game ends."""
    for _ in range(limit):
        if game.is_over:
            return
        legal = game.legal_actions()
        if game.can_end_turn() and (not legal or rng.random() < 0.4):
            game.end_turn()
            continue
        action = rng.choice(legal)
        yield action
    raise AssertionError("game did not end")


def total_discs(game: Bide) -> list[int]:
    on_board = [game.cells.count(s) for s in range(1, game.players + 1)]
    return [b + h + p for b, h, p in zip(on_board, game.hands, game.pools, strict=False)]


@settings(max_examples=40, deadline=None)
@given(games_params)
def test_discs_are_conserved_and_the_placed_disc_never_moves(params):
    players, side, rng = params
    game = new_game("bide", players, {"side": side})
    start = total_discs(game)
    assert start == [p + h for p, h in zip(game.pools, game.hands, strict=False)]  # nothing on the board yet
    for action in random_steps(game, rng):
        seat = game.to_move
        game.apply_action(action)
        if action >= 0:
            assert game.cells[action] == seat
        assert total_discs(game) == start


@settings(max_examples=40, deadline=None)
@given(games_params)
def test_waves_move_discs_only_outwards_along_the_six_lines(params):
    players, side, rng = params
    game = new_game("bide", players, {"side": side})
    board = game.board
    for action in random_steps(game, rng):
        events = game.apply_action(action)
        if action < 0:
            continue
        origin = board.cells[action]
        for event in events:
            if event.kind != "push":
                continue
            src = board.cells[board.parse(event.src)]
            dst = board.cells[board.parse(event.dst)]
            step = (dst[0] - src[0], dst[1] - src[1])
            assert step in DIRECTIONS
            offset = (src[0] - origin[0], src[1] - origin[1])
            k = max(abs(offset[0]), abs(offset[1]), abs(offset[0] + offset[1]))
            # the pushed disc lies on the placed disc's line in the push direction
            assert offset == (step[0] * k, step[1] * k) and k >= 1


@settings(max_examples=60, deadline=None)
@given(games_params)
def test_random_games_end_and_state_json_round_trips(params):
    players, side, rng = params
    game = new_game("bide", players, {"side": side})
    for action in random_steps(game, rng):
        game.apply_action(action)
        if not game.turn_in_progress() or game.is_over:
            doc = game.to_json()
            text = json.dumps(doc, sort_keys=True)
            again = load_state(json.loads(text))
            assert json.dumps(again.to_json(), sort_keys=True) == text
            assert again.legal_notations() == game.legal_notations() or game.turn_in_progress()
    assert game.is_over and game.winners
    doc = game.to_json()
    assert load_state(doc).winners == game.winners


@settings(max_examples=30, deadline=None)
@given(games_params)
def test_position_form_round_trips(params):
    players, side, rng = params
    game = new_game("bide", players, {"side": side})
    for n, action in enumerate(random_steps(game, rng)):
        game.apply_action(action)
        if game.turn_in_progress() or game.is_over or n % 7:
            continue
        again = Bide.from_position(players, {"side": side}, game.position())
        assert again.position() == game.position()
        assert again.legal_notations() == game.legal_notations()
