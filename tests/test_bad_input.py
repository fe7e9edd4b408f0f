"""Bad input never crashes anything: engines raise only IllegalMove, suggestions never raise."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain.model import MatchRow, SeatRow
from bot.service.matches import MatchService
from games import GameError, new_game
from tests.said import words

GAMES = [
    ("bide", 2, {}),
    ("bide", 5, {"side": 4}),
    ("begird", 2, {}),
    ("begird", 2, {"board": "y"}),
    ("playbai", 2, {}),
    ("playbai", 2, {"side": 6, "expert": True}),
    ("bump", 2, {}),
    ("bump", 2, {"reserve1": 2}),
]
notation_like = st.text(alphabet="abcdefghijklmnopqrsz0123456789 ,;-_.^>#ÉéSWAPbideRCx()\t\n", max_size=40)
anything = st.one_of(notation_like, st.text(max_size=40))


def midgame(game_id, players, options, seed):
    game = new_game(game_id, players, options)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 12)):
        if game.is_over:
            break
        # A random complete turn, action by action (a Play Bai turn has several).
        turn = []
        trial = game.copy()
        while not trial.is_over:
            legal = trial.legal_actions()
            if trial.can_end_turn() and (not legal or rng.random() < 0.5):
                break
            action = rng.choice(legal)
            turn.append(trial.format_action(action))
            trial.apply_action(action)
        game.play_turn(turn)
    return game


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 50), anything)
def test_any_text_is_a_legal_turn_or_an_illegal_move(spec, seed, text):
    game = midgame(*spec, seed)
    before = game.to_json() if not game.is_over else None
    try:
        game.play_turn(text)
    except GameError as error:
        assert str(error)  # a reason, always
        if before is not None:
            assert game.to_json() == before  # and nothing changed


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 50), anything)
def test_autocomplete_never_raises_and_respects_discord_limits(spec, seed, typed):
    game = midgame(*spec, seed)
    match = MatchRow(
        1,
        spec[0],
        game.options,
        game.players,
        1,
        1,
        None,
        None,
        None,
        None,
        1,
        "active",
        game.to_json(),
        0,
        0.0,
        0.0,
        0.0,
        None,
        seats=[SeatRow(s, 100 + s, f"player{s}") for s in range(1, game.players + 1)],
    )
    service = MatchService.__new__(MatchService)
    for user in (101, 102, 999):
        choices = words(service).suggestions(match, game, user, typed)
        assert 1 <= len(choices) <= 25
        for name, value in choices:
            assert 1 <= len(name) <= 100 and 1 <= len(value) <= 100
