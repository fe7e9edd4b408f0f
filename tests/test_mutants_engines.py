"""Engine refusals and words that a mutation sample found unpinned (the run for issue 39).

Each test pins one sentence or one edge exactly as players read it; the mutant it kills is named in
its comment (``make mutation``, docs/testing.md).
"""

from __future__ import annotations

import random

import pytest

from games.begird import Begird
from games.bide import Bide
from games.bump import Bump
from games.bumpboard import parse_space
from games.bumpwords import describe_events
from games.interface import Event, IllegalMove, OptionError, StateError
from games.playbai import PlayBai
from games.playbaisearch import JUMP, PASS, STEP


def test_begird_names_the_occupied_cell_and_its_colour() -> None:
    # games.begird.xǁBegirdǁ_occupied_message__mutmut_2 (the cell's name dropped)
    game = Begird.new()
    game.play_turn("e5")
    with pytest.raises(IllegalMove) as refused:
        game.play_turn("e5")
    assert str(refused.value) == "e5 is occupied by a Black stone"


def test_a_begird_position_naming_a_cell_twice_says_so() -> None:
    # games.begird.xǁBegirdǁfrom_position__mutmut_22 (the sentence dropped: a TypeError instead)
    with pytest.raises(StateError) as refused:
        Begird.from_position(2, None, {"board": {"e5": 1, "E5": 2}})
    assert str(refused.value) == "E5 is listed twice"


def test_a_begird_position_with_two_resigned_seats_is_refused() -> None:
    # games.begird.xǁBegirdǁfrom_position__mutmut_63 (two resigned seats read as none)
    with pytest.raises(StateError) as refused:
        Begird.from_position(2, None, {"board": {"e5": 1}, "resigned": [1, 2]})
    assert str(refused.value) == "resigned must list one seat, 1 or 2"


def test_play_bai_words_the_winning_goal() -> None:
    # games.playbai.xǁPlayBaiǁdescribe_turn__mutmut_78 (the winning goal's sentence dropped)
    events = [
        Event("move", seat=1, src="b2", dst="c2"),
        Event("goal", seat=1, cell="a1", data=(("score", (3, 1)), ("wins", True))),
    ]
    assert PlayBai.new().describe_turn(events) == "b2-c2 — GOAL! 3–1 and the game"


def test_a_play_bai_position_past_three_goals_must_be_over() -> None:
    # games.playbai.xǁPlayBaiǁfrom_position__mutmut_240 (the count of goals dropped from the reason)
    position = {"pieces": {"b3": 1, "b5": 2}, "ball": "e5", "goals": [3, 0], "to_move": 1, "last_goal": 1}
    with pytest.raises(StateError) as refused:
        PlayBai.from_position(2, None, position)
    assert str(refused.value) == "seat 1 already has 3 goals: to_move must be null"


def test_a_play_bai_step_names_its_landing_cell_after_the_first_dash() -> None:
    # games.playbai.xǁPlayBaiǁparse_action__mutmut_48 (split at the last dash: "b2-c2" read as the cell)
    with pytest.raises(IllegalMove) as refused:
        PlayBai.new().parse_action("b2-c2-d2")
    assert str(refused.value).startswith("'c2-d2' is not a cell name")


def test_bump_words_a_second_bumper_with_then() -> None:
    # games.bump.x__bump_words__mutmut_26 ("then" never said)
    events = [
        Event("shift", seat=1, src="01", dst="02"),
        Event("bump", seat=1, cell="02", src="03", dst="04"),
        Event("bump", seat=1, cell="11", src="12", dst="13"),
    ]
    assert describe_events(events) == "bumps 03 to 04, then 11 bumps 12 to 13"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("c3", "c3 is not a space: the centres are C1 and C2"),  # x_parse_space__mutmut_20
        ("0123", "0123 is not a space: names have 2 or 3 digits (axis, step, offset)"),  # x_parse_space__mutmut_47
    ],
)
def test_bump_says_why_a_name_is_no_space(text: str, reason: str) -> None:
    with pytest.raises(IllegalMove) as refused:
        parse_space(text)
    assert str(refused.value) == reason


def test_no_draw_is_agreed_in_the_middle_of_a_turn() -> None:
    # games.interface.xǁTurnBookkeepingǁagree_draw__mutmut_12 (the reason dropped)
    game = PlayBai.new()
    game.apply_action(game.legal_actions()[0])
    with pytest.raises(IllegalMove) as refused:
        game.agree_draw()
    assert str(refused.value) == "cannot agree a draw in the middle of a turn"


def test_a_finished_bide_game_refuses_every_action_with_the_reason() -> None:
    # games.bide.xǁBideǁ_apply__mutmut_3 (the reason's wording changed), on both paths
    rng = random.Random(2)
    game = Bide.new(2, {"side": 4})
    while not game.is_over:
        legal = game.legal_actions()
        if game.can_end_turn() and (not legal or rng.random() < 0.5):
            game.end_turn()
        else:
            game.apply_action(rng.choice(legal))
    for step in (game.apply_action, game.apply_quiet):
        with pytest.raises(IllegalMove) as refused:
            step(0)
        assert str(refused.value) == "the game is over"


def test_a_bide_turn_tells_the_hand_it_keeps() -> None:
    # games.bide.xǁBideǁ_apply__mutmut_17, _19, _23 (the bide event's seat or hand lost)
    game = Bide.new(2, {"side": 4})
    assert game.play_turn("bide")[0] == Event("bide", seat=1, data=(("hand", 1),))


def test_the_disc_that_fills_the_board_ends_the_game_and_says_why() -> None:
    # games.bide.xǁBideǁ_apply__mutmut_60, _70 (the reason's wording or its key changed)
    rng = random.Random(2)
    game = Bide.new(2, {"side": 4})
    events: list[Event] = []
    while not game.is_over:
        legal = game.legal_actions()
        if game.can_end_turn() and (not legal or rng.random() < 0.5):
            events = game.end_turn()
        else:
            events = game.apply_action(rng.choice(legal))
    assert game.end_reason == "board full"
    assert events[-1] == Event("end", data=(("reason", "board full"),))


def test_when_no_seat_holds_a_disc_each_passes_in_turn_and_the_game_ends() -> None:
    # games.bide.xǁBideǁ_start_turn_of__mutmut_3 (one seat more asked before the game ends): the next
    # seats are asked once round, the first of them twice, then the board is scored as it is.
    game = Bide.from_position(
        2, {"side": 4}, {"board": {"a1": 2, "a2": 2}, "hands": [1, 0], "pools": [0, 0], "to_move": 1}
    )
    events = game.play_turn("d4")
    assert [(e.kind, e.seat) for e in events] == [("place", 1), ("pass", 2), ("pass", 1), ("pass", 2)]
    assert game.end_reason == "no discs left"


@pytest.mark.parametrize("cell", [-2, 10_000])  # (-1 is the swap)
def test_begird_refuses_a_cell_off_the_board_on_both_paths(cell: int) -> None:
    # games.begird.xǁBegirdǁ_apply__mutmut_35 (the reason's wording changed)
    for step in (Begird.new().apply_action, Begird.new().apply_quiet):
        with pytest.raises(IllegalMove) as refused:
            step(cell)
        assert str(refused.value) == f"no such cell: {cell!r}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # games.bump.xǁBumpǁ_parse_facing__mutmut_13 (the reason's template broken: a KeyError instead)
        ("01-7", "facing '7' is not a direction: facings are 0–5 (0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE)"),
        # games.bump.xǁBumpǁparse_action__mutmut_57 (the reason dropped)
        ("R,01-0 (02)", "a reinforcement bumps nothing: remove the parentheses"),
    ],
    # Plain ids: pytest wrote the reason's "–" as "\u2013", and the mutation run leaves out every id holding a
    # backslash, so the first case ran for no mutant (and _parse_facing 13 survived); tests/conftest.py now
    # gives such text a plain id anyway.
    ids=["facing-out-of-range", "reinforcement-with-choices"],
)
def test_bump_says_why_it_cannot_read_a_turn(text: str, reason: str) -> None:
    game = Bump.new(options={"reserve1": 1})
    with pytest.raises(IllegalMove) as refused:
        game.parse_action(text)
    assert str(refused.value) == reason


def test_play_bai_says_why_an_action_is_refused() -> None:
    # games.playbai.xǁPlayBaiǁ_why_illegal__mutmut_12 and _57, _why_no_pass__mutmut_62 (reasons dropped or changed)
    position = {
        "pieces": {"b3": 1, "c3": 1, "d5": 1, "b4": 2, "f6": 2, "g7": 2},
        "ball": "b3",
        "goals": [0, 0],
        "to_move": 1,
        "kickoff": False,
        "last_goal": None,
    }
    game = PlayBai.from_position(2, None, position)
    cell = {name: k for k, name in enumerate(game.board.names)}
    refusals = {
        ("x",): "not a Play Bai action: ('x',)",
        (STEP, cell["f6"], game.field.nbr[cell["f6"]][0]): "f6 is not yours",
        (PASS, cell["b3"], cell["b2"]): "there is no playballer on b2 to receive the pass",
        (STEP, cell["b3"], cell["b4"]): "b4 is occupied: jump over it with b3^e",  # _why_illegal__mutmut_97
        # games.playbairules.xǁPlayBaiRulesǁ_why_illegal__mutmut_27, _40 and _122 (the reasons' wording changed)
        (STEP, 10_000, 0): "no such cell: 10000",
        (7, cell["b3"], 0): f"not a Play Bai action: (7, {cell['b3']}, 0)",
        (JUMP, cell["b3"], 6): "no such direction: 6",
    }
    for action, reason in refusals.items():
        for step in (game.apply_action, game.apply_quiet):
            with pytest.raises(IllegalMove) as refused:
                step(action)  # type: ignore[arg-type]  # ("x",) is no action: that is the point
            assert str(refused.value) == reason


def test_a_bump_move_that_changes_nothing_suggests_the_next_facing() -> None:
    # games.bump.xǁBumpǁ_check_legal__mutmut_83 (the example's facing two steps on): the example is the
    # piece turned one step, wrapping from 5 to 0
    game = Bump.from_position(
        2, None, {"pieces": {"08": [1, 5], "39": [2, 0]}, "to_move": 1, "reserves": [0, 0], "captured": [0, 0]}
    )
    with pytest.raises(IllegalMove) as refused:
        game.play_turn("08")
    assert str(refused.value) == (
        "08 stays on 08 facing 5: that moves nothing. Name another space or a new facing (e.g. 08-0), "
        "or write pass to skip moving"
    )


def test_a_guard_call_alone_is_its_own_sentence() -> None:
    # games.bump.x_describe_events__mutmut_154 (say(None)): in play a guard call follows the move or the
    # reinforcement that reached the centre, but describe_events words whatever events it is handed
    # (tests/test_game_words.py tells a guard call alone this way)
    assert describe_events([Event("guard", seat=1, cell="C2")]) == "Guard your center!"


def test_a_play_bai_jump_off_the_edge_names_the_cell_and_the_direction() -> None:
    # games.playbai.xǁPlayBaiǁ_why_illegal__mutmut_133 (the reason's template broken: a KeyError instead)
    position = {
        "pieces": {"b1": 1, "c3": 1, "d5": 1, "b4": 2, "f6": 2, "g7": 2},
        "ball": "c3",
        "goals": [0, 0],
        "to_move": 1,
        "kickoff": False,
        "last_goal": None,
    }
    game = PlayBai.from_position(2, None, position)
    west = 3
    action = (JUMP, game.board.names.index("b1"), west)
    for step in (game.apply_action, game.apply_quiet):
        with pytest.raises(IllegalMove) as refused:
            step(action)
        assert str(refused.value) == "nothing to jump over: b1 is at the edge towards w"
    with pytest.raises(IllegalMove) as refused:
        game.parse_action("b1^w")
    assert str(refused.value) == "nothing to jump over: b1 is at the edge towards w"


def test_a_wrong_seat_count_for_a_two_player_game_names_both_counts() -> None:
    # games.interface.xǁGameInfoǁcheck_players__mutmut_12 (the count asked dropped: a KeyError) and _13
    # (the reason's text changed)
    with pytest.raises(OptionError) as refused:
        Bump.new(players=3)
    assert str(refused.value) == "Bump is played by exactly 2 players, not 3"
    assert refused.value.fields["players"] == 3  # the bot words it from the template and its fields


def test_a_state_of_another_game_names_the_game_it_holds() -> None:
    # games.interface.xǁGameǁfrom_json__mutmut_26 and _27 (the game found read from no key: None)
    with pytest.raises(StateError) as refused:
        Bide.from_json(Begird.new().to_json())
    assert str(refused.value) == "state of 'begird', not 'bide'"
