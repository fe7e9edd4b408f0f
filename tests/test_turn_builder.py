"""The turn builder's pure part (bot/turn_builder.py): picks, menus, limits, staleness."""

from __future__ import annotations

import pytest

from bot.chat.words import moves as move_words
from bot.service.turn_builder import (
    CUSTOM_ID_LIMIT,
    MAX_SELECTS,
    OPTIONS_PER_SELECT,
    BuilderError,
    build,
    decode,
    encode,
    ranked_actions,
)
from games import new_game
from i18n import t


def pick(game, picks, notation):
    """The index of ``notation`` among the next actions after ``picks``."""
    state = build(game, picks, t)
    return picks + [next(c.index for c in state.choices if c.label == notation)]


def test_picks_round_trip_through_text():
    assert decode(encode([0, 15, 300])) == [0, 15, 300]
    assert decode("") == [] and encode([]) == ""
    with pytest.raises(BuilderError):
        decode("zz")


def test_a_play_bai_turn_built_pick_by_pick():
    game = new_game("playbai")
    state = build(game, [], t)
    # issue 26: it said "No action yet: pick the first one. Pick the next action."
    assert (
        not state.can_end
        and move_words.builder_summary(state) == "No action yet: pick your first action from the menu."
    )
    assert all(len(c.label) <= 100 and len(c.description) <= 100 for c in state.choices)
    step = next(c for c in state.choices if c.label == "e2-e3")
    assert step.description == "step to e3"
    picks = pick(game, [], "e2-e3")
    state = build(game, picks, t)
    assert state.can_end and state.notation == "e2-e3" and "End turn" in move_words.builder_summary(state)
    picks = pick(game, picks, "e3-e4")
    state = build(game, picks, t)
    assert state.notation == "e2-e3,e3-e4" and state.choices == []  # the kick-off allows 2 moves
    assert [e.kind for e in state.events] == ["move", "move"]
    game.play_turn(state.notation)  # what End turn submits is accepted by the engine
    assert game.ply == 1


def test_a_pick_that_cannot_end_says_why():
    game = new_game("playbai")
    state = build(game, pick(game, [], "e2-e1"), t)
    assert not state.can_end and "dot" in move_words.why_not_end(state) and "dot" in move_words.builder_summary(state)


def test_many_actions_are_cut_into_menus_of_25():
    game = new_game("bide", 2, {"side": 5})
    state = build(game, [], t)
    menus = state.menus()
    assert len(state.choices) == len(ranked_actions(game)) == 62  # 61 points and bide
    assert len(menus) == 3 and all(len(m) <= OPTIONS_PER_SELECT for m in menus) and len(menus) <= MAX_SELECTS
    big = new_game("begird")  # 243 cells: the menus hold the best-ranked 100
    state = build(big, [], t)
    assert len(state.choices) == OPTIONS_PER_SELECT * MAX_SELECTS and state.more == 243 - 100


def test_old_picks_are_refused():
    game = new_game("playbai")
    with pytest.raises(BuilderError) as old:
        build(game, [99], t)
    assert "older position" in move_words.builder_error(old.value)
    game.play_turn("e2-e3")
    with pytest.raises(BuilderError) as old:
        build(game, [0, 0, 0, 0], t)  # blue has no 4th action after 3 moves and no ball
    assert "older position" in move_words.builder_error(old.value)


def test_custom_ids_stay_within_discord_limits():
    game = new_game("playbai")
    game.play_turn("e2-e3 e3-e4")
    game.play_turn("e8-e7 e7-e6 e6-e5")  # blue holds the ball: passes may go on for ever
    game.play_turn("b2-c3")
    picks: list[int] = []
    state = build(game, picks, t)
    while not state.full and state.choices:
        passes = [c for c in state.choices if ">" in c.label]
        picks = picks + [(passes or state.choices)[0].index]
        state = build(game, picks, t)
        prefix = f"hx:tb:pick3:{10**6}:{10**6}:"
        assert len(prefix + encode(picks)) <= CUSTOM_ID_LIMIT
    assert state.full or not state.choices


def test_a_bump_turn_is_built_piece_then_target_then_turn_in_small_menus():
    """Issue 26 item 7: Bump's builder was four menus holding 100 bare codes of 481 turns."""
    game = new_game("bump", options={"reserve1": 1})
    pieces = build(game, [], t)
    labels = [c.label for c in pieces.choices]
    assert len(labels) <= OPTIONS_PER_SELECT and pieces.more == 0 and not pieces.can_end
    assert labels[-1] == "pass"  # last (issue 37): real moves first
    assert "Piece on 01" in labels and len([x for x in labels if x.startswith("Piece")]) == 12
    assert "No action yet" in move_words.builder_summary(pieces)
    picks = [labels.index("Piece on 01")]
    targets = build(game, picks, t)
    assert targets.path == ["Piece on 01"] and not targets.can_end
    assert "01" in move_words.builder_summary(targets) and "target" in move_words.builder_summary(targets)
    target_labels = [c.label for c in targets.choices]
    assert "to 03" in target_labels and "stay on 01 (turn it)" in target_labels
    assert all(move_words.choice_description(c) for c in targets.choices)  # how many turns lead there
    picks.append(target_labels.index("to 03"))
    turns = build(game, picks, t)
    assert all(c.label.startswith("01,03") for c in turns.choices) and 0 < len(turns.choices) <= 6
    picks.append(0)
    done = build(game, picks, t)
    assert done.can_end and done.notation.startswith("01,03") and done.path == []
    played = game.copy()
    played.play_turn(done.notation)
    assert played.pieces()["03"][0] == 1
