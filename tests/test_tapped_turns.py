"""The turn built by tapping (bot/service/turn_builder.py ``follow`` / ``next_actions``): the legal next actions
with the cells a tap picks them by, for every kind of turn the games have."""

from __future__ import annotations

import random

import pytest

from bot.service.turn_builder import BuilderError, follow, next_actions
from games import GameError, get
from i18n import t


def test_every_legal_action_is_offered_with_its_cells() -> None:
    for game_id in ("bide", "begird", "playbai", "bump"):
        game = get(game_id).new(2, {})
        legal = next_actions(follow(game, []), t)
        assert sorted(a.notation for a in legal) == sorted(game.legal_notations()), game_id
        for action in legal:
            assert (action.start is None) == (action.cells == ()), action
            assert action.start is None or action.start in action.cells


def test_a_play_bai_turn_of_three_actions_is_built_one_at_a_time() -> None:
    rng = random.Random(11)
    for _ in range(30):  # a kick-off has at most 2 moves: a position after it for 3
        game = get("playbai").new(2, {})
        for _ in range(rng.randrange(2, 6)):
            game.play_turn(_whole_turns(game, rng)[0])
        chosen: list[str] = []
        state = follow(game, chosen)
        while len(chosen) < 3:
            steps = [a for a in next_actions(state, t) if a.start and a.end]
            if not steps:
                break
            chosen.append(rng.choice(steps).notation)
            state = follow(game, chosen)
        if len(chosen) == 3:
            assert state.can_end and state.notation == ",".join(state.notations)
            trial = game.copy()
            trial.play_turn(chosen)  # what was built is a legal whole turn
            return
    pytest.fail("no position allowed a turn of three moves")


def _whole_turns(game, rng: random.Random) -> list[str]:
    turn: list[str] = []
    trial = game.copy()
    while True:
        actions = trial.legal_actions()
        if trial.can_end_turn() and (not actions or rng.random() < 0.5):
            return [",".join(turn)] if turn else ["pass"]
        action = rng.choice(actions)
        turn.append(trial.format_action(action))
        trial.apply_action(action)


def test_bumps_choices_share_their_piece_and_target_and_are_told_apart_by_their_words() -> None:
    rng = random.Random(5)
    for _ in range(200):
        game = get("bump").new(2, {})
        for _ in range(rng.randrange(4, 30)):
            if game.is_over:
                break
            game.play_turn(game.format_action(rng.choice(game.legal_actions())))
        if game.is_over:
            continue
        legal = next_actions(follow(game, []), t)
        choices = [a for a in legal if "(" in a.notation]
        if not choices:
            continue
        choice = choices[0]
        same = [a for a in legal if (a.start, a.end) == (choice.start, choice.end)]
        assert len(same) >= 2 and len({a.label for a in same}) == len(same)
        return
    pytest.fail("no position with a bump choice")


def test_the_pie_rule_and_bide_are_buttons() -> None:
    begird = get("begird").new(2, {})
    begird.play_turn("i9")
    swap = next(a for a in next_actions(follow(begird, []), t) if a.notation == "swap")
    assert (swap.cells, swap.start, swap.end) == ((), None, None)
    bide = next(a for a in next_actions(follow(get("bide").new(2, {}), []), t) if a.notation == "bide")
    assert bide.start is None


def test_an_action_that_cannot_come_next_is_the_games_refusal() -> None:
    game = get("begird").new(2, {})
    with pytest.raises(GameError):
        follow(game, ["z99"])
    with pytest.raises(GameError):
        follow(game, ["i9", "j9"])  # one stone a turn: nothing can follow
    with pytest.raises(BuilderError):
        follow(game, ["i9"] * 17)
