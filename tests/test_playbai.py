"""Play Bai (RULES.md §3 and issue 7): one test per clause and per decision — the field, moves, passes,
end zones, goals and sets, the end of a turn.

Positions are written in the documented position form; ``pos`` (tests/playbai_helpers.py) fills in the
keys a test does not care about. The complete turns, positions and the CLI are in test_playbai_turns.py;
notation and words in test_playbai_words.py.
"""

from __future__ import annotations

import pytest

from games import IllegalMove, new_game
from games.playbai import PlayBai
from games.playbaifield import field
from games.playbaisearch import STEP
from tests.playbai_helpers import FAR, pos, refused

# -- field, end zones, set-up -------------------------------------------------------------


def test_field_is_a_side_5_hexhex_with_dots_only_on_the_six_corners():
    fld = field(5)
    names = fld.board.names
    assert len(fld.board) == 61 and names[fld.centre] == "e5"
    assert sorted(names[i] for i in fld.zones[0]) == ["a1", "e1", "i1"]
    assert sorted(names[i] for i in fld.zones[1]) == ["a5", "e9", "i5"]
    assert sorted(names[i] for i in fld.dots) == ["a1", "a5", "e1", "e9", "i1", "i5"]


def test_side_6_variant():
    g = new_game("playbai", options={"side": "6"})
    fld = g.field
    names = fld.board.names
    assert len(fld.board) == 91 and names[fld.centre] == "f6"
    assert sorted(names[i] for i in fld.zones[0]) == ["a1", "f1", "k1"]
    assert sorted(names[i] for i in fld.zones[1]) == ["a6", "f11", "k6"]
    assert g.position()["pieces"] == {"b2": 1, "f2": 1, "j2": 1, "b6": 2, "f10": 2, "j6": 2}
    assert g.position()["ball"] == "f6"


def test_opening_position_form_is_exact():
    g = new_game("playbai")
    assert g.position() == {
        "pieces": {"b2": 1, "e2": 1, "h2": 1, "b5": 2, "e8": 2, "h5": 2},
        "ball": "e5",
        "goals": [0, 0],
        "to_move": 1,
        "kickoff": True,
        "last_goal": None,
    }
    assert list(g.position()["pieces"]) == ["b2", "e2", "h2", "b5", "e8", "h5"]
    assert g.carrier() is None  # the ball lies loose on the centre


def test_options_arrive_as_strings():
    g = new_game("playbai", options={"side": "6", "expert": "true", "first": "2"})
    assert g.options == {"side": 6, "expert": True, "first": 2}
    assert g.to_move == 2 and g.kickoff
    with pytest.raises(Exception, match="first cannot be"):
        new_game("playbai", options={"first": "3"})


def test_option_first_chooses_who_begins_the_first_set():
    assert new_game("playbai").to_move == 1
    g = new_game("playbai", options={"first": 2})
    assert g.to_move == 2
    refused(g, "b2-b3", "b2 is not yours")
    g.play_turn("e8-e7")
    assert g.to_move == 1 and not g.kickoff


# -- moves: steps and jumps ---------------------------------------------------------------


def test_step_to_an_adjacent_empty_cell():
    g = new_game("playbai")
    events = g.play_turn("e2-e3")
    assert g.position()["pieces"]["e3"] == 1 and "e2" not in g.position()["pieces"]
    assert [(e.kind, e.src, e.dst) for e in events[:1]] == [("move", "e2", "e3")]


def test_step_to_an_occupied_or_distant_cell_is_refused():
    g = pos({"e3": 1, "e4": 2, **FAR}, "i3")
    refused(g, "e3-e4", "e4 is occupied")
    refused(g, "e3-c4", "c4 is not in line with e3")


def test_jump_passes_over_an_unbroken_line_of_either_team_and_lands_beyond():
    g = pos({"e2": 1, "e3": 2, "e4": 1, "i3": 2}, "i3")
    events = g.play_turn("e2^e")
    jump = next(e for e in events if e.kind == "jump")
    assert (jump.src, jump.dst) == ("e2", "e5")
    assert dict(jump.data) == {"bounced": False, "direction": "e", "over": ("e3", "e4")}
    assert g.position()["pieces"]["e5"] == 1


def test_jump_may_be_written_by_its_landing_cell():
    a = pos({"e2": 1, "e3": 2, "e4": 1, "i3": 2}, "i3")
    b = a.copy()
    a.play_turn("e2^e")
    b.play_turn("e2-e5")
    assert a.position() == b.position() and b.last_turn_notation == "e2^e"
    c = pos({"e2": 1, "e3": 2, "e4": 1, "i3": 2}, "i3")
    refused(c, "e2-e6", "its jump e lands on e5")


def test_jump_needs_a_playballer_next_to_the_jumper():
    g = pos({"e3": 1, **FAR}, "i3")
    refused(g, "e3^e", "nothing to jump over")


def test_bounce_at_the_edge_stays_and_counts_as_a_move():
    # c4 jumps north-east over b4 and a4: beyond a4 is off the field.
    g = pos({"c4": 1, "d4": 1, "b4": 2, "a4": 2, "i3": 2}, "i3")
    trial = g.copy()
    events = trial.apply_action(trial.parse_action("c4^ne"))
    jump = events[0]
    assert jump.kind == "jump" and jump.dst == "c4" and dict(jump.data)["bounced"]
    assert trial._moves == 1
    trial.apply_action(trial.parse_action("c4^ne"))
    trial.apply_action(trial.parse_action("d4-d5"))
    with pytest.raises(IllegalMove, match="3 moves are already made"):
        trial.parse_action("d5-d6")


def test_a_turn_that_is_only_a_bounce_taking_nothing_is_refused():
    g = pos({"c4": 1, "b4": 2, "a4": 2, "i3": 2}, "i3")
    refused(g, "c4^ne", "that turn leaves the position unchanged")


def test_a_bounce_takes_the_ball_from_a_playballer_jumped_over():
    g = pos({"c4": 1, "b4": 2, "a4": 2, "i3": 2}, "b4")
    events = g.play_turn("c4^ne")
    assert g.position()["ball"] == "c4" and g.carrier() == 1
    ball = next(e for e in events if e.kind == "ball")
    assert ball.src == "b4" and ball.cell == "c4" and dict(ball.data) == {"from_seat": 2}


def test_a_jumper_takes_the_ball_from_any_playballer_it_jumps_over():
    g = pos({"e2": 1, "e3": 2, "e4": 2, "i3": 2}, "e3")
    g.play_turn("e2^e")
    assert g.position()["ball"] == "e5" and g.carrier() == 1
    # also from a team-mate
    g = pos({"e2": 1, "e3": 1, "i3": 2, "h4": 2}, "e3")
    g.play_turn("e2^e")
    assert g.position()["ball"] == "e4"


def test_entering_the_loose_ball_cell_takes_it_by_step_or_jump():
    g = pos({"e4": 1, **FAR}, "e5")
    assert g.carrier() is None
    events = g.play_turn("e4-e5")
    assert g.carrier() == 1 and any(e.kind == "ball" and dict(e.data) == {"loose": True} for e in events)
    g = pos({"e2": 1, "e3": 1, "e4": 2, "i3": 2}, "e5")
    g.play_turn("e3^e")
    assert g.position()["ball"] == "e5" and g.carrier() == 1


def test_the_ball_moves_with_its_carrier():
    g = pos({"e4": 1, **FAR}, "e4")
    g.play_turn("e4-e5 e5-e6")
    assert g.position()["ball"] == "e6"


def test_kick_off_allows_at_most_two_moves():
    g = new_game("playbai")
    refused(g, "e2-e3 e3-e4 e4-d4", "kick-off turn allows only 2 moves")
    g.play_turn("e2-e3 e3-e4")
    assert not g.kickoff
    g.play_turn("e8-e7 e7-e6 b5-b4")  # three moves after the kick-off
    assert g.to_move == 1


def test_one_to_three_moves_and_at_least_one():
    g = pos({"e3": 1, "c3": 1, **FAR}, "c3")
    refused(g, "c3>e3 e3>c3 c3-c4 c4-c5 c5-c6 e3-e4", "3 moves are already made")
    refused(g, "c3>e3", "at least one move")


# -- passes -------------------------------------------------------------------------------


def test_pass_along_a_line_team_mates_and_empty_cells_do_not_block():
    g = pos({"e2": 1, "e4": 1, "e7": 1, "i3": 2, "h4": 2}, "e2")
    events = g.play_turn("e2>e7 e4-d4")
    assert g.position()["ball"] == "e7"
    assert [(e.kind, e.src, e.dst) for e in events if e.kind == "pass"] == [("pass", "e2", "e7")]


def test_an_opponent_between_blocks_the_pass():
    g = pos({"e2": 1, "e7": 1, "e5": 2, "i3": 2}, "e2")
    refused(g, "e2>e7", "opposing playballer on e5 blocks the pass")


def test_a_pass_off_the_line_is_refused():
    g = pos({"e5": 1, "d2": 1, **FAR}, "e5")
    refused(g, "e5>d2", "d2 is not in line with e5")


def test_pass_by_receiver_only():
    g = pos({"e5": 1, "c3": 1, **FAR}, "e5")
    g.play_turn(">c3 c3-b3")
    assert g.position()["ball"] == "b3"


def test_pass_needs_the_ball_and_a_team_mate():
    g = pos({"e5": 1, "c3": 1, "c5": 2, "i3": 2}, "c5")
    refused(g, ">c3", "your team does not have the ball")
    g = pos({"e5": 1, "c3": 1, "c5": 2, "i3": 2}, "e5")
    refused(g, "c3>e5", "c3 does not hold the ball")
    refused(g, "e5>c5", "c5 is not a team-mate")


def test_a_pass_to_an_opponents_end_zone_is_not_allowed():
    g = pos({"e5": 1, "c3": 1, **FAR}, "e5")
    refused(g, "e5>a5", "a pass to an opponent's end zone is not allowed")


def test_passes_do_not_count_as_moves():
    g = pos({"e2": 1, "e4": 1, "e6": 1, "i3": 2, "h4": 2}, "e2")
    g.play_turn("e2>e4 e4>e6 e6>e2 e2>e6 e2-d2 d2-d3 d3-d4 e6>e4")
    assert g.position()["ball"] == "e4" and g.to_move == 2


def test_a_turn_of_passes_only_is_refused_even_if_the_ball_changes_hands():
    g = pos({"e2": 1, "e4": 1, **FAR}, "e2")
    refused(g, "e2>e4", "at least one move")


# -- dots and end zones -------------------------------------------------------------------


def test_a_playballer_may_cross_its_own_dot_but_not_end_the_turn_on_it():
    g = pos({"e2": 1, **FAR}, "i3")
    refused(g, "e2-e1", "a turn may not end on a dot")
    g.play_turn("e2-e1 e1-d1")
    assert "d1" in g.position()["pieces"]


def test_entering_an_opponents_end_zone_without_the_ball_is_refused():
    g = pos({"e8": 1, "c3": 1, **FAR}, "c3")
    refused(g, "e8-e9", "e9 is an end zone of the opponent")


def test_stepping_onto_a_loose_ball_in_an_opponents_end_zone_takes_it_and_scores():
    # A loaded position may leave the ball loose anywhere; entering its cell takes it,
    # so the playballer enters the end zone carrying the ball.
    g = pos({"e8": 1, "c3": 1, **FAR}, "e9")
    assert g.carrier() is None
    assert (STEP, g.board.parse("e8"), g.board.parse("e9")) in g.legal_actions()
    events = g.play_turn("e8-e9")
    assert any(e.kind == "goal" and e.cell == "e9" for e in events)
    assert g.goals == [1, 0]


def test_own_end_zone_with_the_ball_is_no_goal_and_no_place_to_end():
    g = pos({"e2": 1, **FAR}, "e2")
    refused(g, "e2-e1", "a turn may not end on a dot")
    trial = g.copy()
    events = trial.apply_action(trial.parse_action("e2-e1"))
    assert not any(e.kind == "goal" for e in events) and trial.goals == [0, 0]


def test_a_jump_landing_in_an_opponents_end_zone_without_the_ball_is_illegal_not_a_bounce():
    g = pos({"e7": 1, "e8": 2, "i3": 2}, "i3")
    refused(g, "e7^e", "e9 is an end zone of the opponent")


def test_a_jump_that_takes_the_ball_into_an_opponents_end_zone_scores():
    g = pos({"e7": 1, "e8": 2, "i3": 2}, "e8")
    events = g.play_turn("e7^e")
    assert any(e.kind == "goal" and e.cell == "e9" for e in events)
    assert g.goals == [1, 0]


# -- goals and sets -----------------------------------------------------------------------


def test_a_goal_starts_a_new_set_with_the_conceding_team_kicking_off():
    g = pos({"d8": 1, "c3": 1, **FAR}, "d8", goals=(1, 1), last_goal=2)
    events = g.play_turn("d8-e9")
    kinds = [e.kind for e in events]
    assert kinds == ["move", "goal", "set"]
    assert g.position() == {
        "pieces": {"b2": 1, "e2": 1, "h2": 1, "b5": 2, "e8": 2, "h5": 2},
        "ball": "e5",
        "goals": [2, 1],
        "to_move": 2,
        "kickoff": True,
        "last_goal": 1,
    }
    assert g.set_number == 4


def test_actions_after_a_goal_make_the_whole_turn_illegal():
    g = pos({"d8": 1, "c3": 1, **FAR}, "d8")
    message = refused(g, "d8-e9 c3-c4", "already ended the turn")
    assert "goal" in message
    trial = g.copy()
    trial.apply_action(trial.parse_action("d8-e9"))
    assert trial.legal_actions() == [] and trial.can_end_turn()
    with pytest.raises(IllegalMove, match="goal already ended the turn"):
        trial.parse_action("c3-c4")


def test_first_to_three_goals_wins_and_the_final_position_shows_the_scorer():
    g = pos({"d8": 1, "c3": 1, **FAR}, "d8", goals=(2, 1), last_goal=2)
    events = g.play_turn("d8-e9")
    assert g.is_over and g.winners == (1,) and g.end_reason == "goals"
    assert events[-1].kind == "end" and not any(e.kind == "set" for e in events)
    assert g.position() == {
        "pieces": {"c3": 1, "e9": 1, "i3": 2, "h4": 2},
        "ball": "e9",
        "goals": [3, 1],
        "to_move": None,
        "kickoff": False,
        "last_goal": 1,
    }
    refused(g, "c3-c4", "the game is over")
    again = PlayBai.from_position(2, {}, g.position())
    assert again.is_over and again.winners == (1,)


def test_actions_after_the_winning_goal_are_refused_with_the_goal_as_reason():
    g = pos({"d8": 1, "c3": 1, **FAR}, "d8", goals=(2, 0), last_goal=1)
    refused(g, "d8-e9, c3-c4", "already ended the turn")


def test_expert_two_goals_in_a_row_win():
    g = pos({"d8": 1, "c3": 1, **FAR}, "d8", goals=(1, 0), last_goal=1, expert=True)
    g.play_turn("d8-e9")
    assert g.winners == (1,)


def test_expert_alternating_goals_never_win():
    g = pos({"d8": 1, "c3": 1, **FAR}, "d8", goals=(5, 5), last_goal=2, expert=True)
    g.play_turn("d8-e9")
    assert not g.is_over and g.goals == [6, 5] and g.to_move == 2 and g.kickoff


def test_expert_third_goal_alone_does_not_win_and_normal_third_goal_does():
    expert = pos({"d8": 1, "c3": 1, **FAR}, "d8", goals=(2, 2), last_goal=2, expert=True)
    expert.play_turn("d8-e9")
    assert not expert.is_over
    normal = pos({"d8": 1, "c3": 1, **FAR}, "d8", goals=(2, 2), last_goal=2)
    normal.play_turn("d8-e9")
    assert normal.winners == (1,)


def test_seat_2_scores_in_seat_1_end_zones():
    g = pos({"c3": 1, "h2": 1, "e2": 2, "i3": 2}, "e2", to_move=2)
    g.play_turn("e2-e1")
    assert g.goals == [0, 1] and g.to_move == 1 and g.kickoff


# -- the end of a turn --------------------------------------------------------------------


def test_the_position_must_change():
    g = pos({"e3": 1, **FAR}, "i3")
    refused(g, "e3-e4 e4-e3", "that turn leaves the position unchanged")


def test_team_mates_are_interchangeable_for_the_position_check():
    # e3 jumps over e4 to e5, e4 steps back to e3, e5 steps to e4: the same cells as before.
    g = pos({"e3": 1, "e4": 1, **FAR}, "i3")
    refused(g, "e3^e e4-e3 e5-e4", "that turn leaves the position unchanged")


def test_who_holds_the_ball_is_part_of_the_position():
    g = pos({"e3": 1, "e4": 1, **FAR}, "e3")
    g.play_turn("e3^e e4-e3 e5-e4")  # the same cells, but the ball went from e3 to e4 with the jumper
    assert g.position()["ball"] == "e4"


def test_a_seat_with_no_legal_turn_passes_automatically(monkeypatch):
    # No reachable position leaves a team without a legal turn on a side-5 field
    # (docs/rules.md); the mechanism is checked by making seat 2 stuck.
    g = new_game("playbai")
    real = PlayBai.has_legal_turn
    monkeypatch.setattr(PlayBai, "has_legal_turn", lambda self: self.current != 2 and real(self))
    events = g.play_turn("e2-e3")
    automatic = [e for e in events if e.kind == "pass" and dict(e.data).get("automatic")]
    assert [e.seat for e in automatic] == [2]
    assert g.to_move == 1 and g.ply == 1
    assert g.describe_turn(events) == "e2-e3; Blue cannot move and passes"


def test_neither_team_able_to_move_ends_the_game_without_a_winner(monkeypatch):
    g = new_game("playbai")
    monkeypatch.setattr(PlayBai, "has_legal_turn", lambda self: False)
    events = g.play_turn("e2-e3")
    assert g.is_over and g.winners == () and g.end_reason == "no legal turn"
    assert events[-1].kind == "end" and events[-1].data == (("reason", "no legal turn"),)
    with pytest.raises(IllegalMove, match="^the game is over$"):
        g.end_turn()


# -- events, a team's own dot mid-turn, the kick-off's third move -----------------------------


def test_every_event_of_a_turn_names_the_seat_that_acted():
    g = pos({"e5": 1, "b5": 1, "e3": 1, "e4": 2, **FAR}, "e5", goals=(1, 1), last_goal=2)
    events = g.play_turn("e5>b5, e3^e, b5-c5")
    assert [(e.kind, e.seat) for e in events] == [("pass", 1), ("jump", 1), ("move", 1)]
    g = pos({"e8": 1, "c3": 1, "e3": 2, "b4": 2}, "e8", goals=(1, 1), last_goal=2)
    goal = [e for e in g.play_turn("e8-e9") if e.kind == "goal"]
    assert [(e.seat, e.cell, dict(e.data)) for e in goal] == [(1, "e9", {"score": (2, 1), "wins": False})]


def test_a_team_of_two_may_stand_on_its_own_dot_in_the_middle_of_a_turn():
    g = pos({"b2": 1, "c3": 1, **FAR}, "e5")
    g.apply_action(g.parse_action("b2-a1"))  # a1: Orange's own end zone (a dot), and the field's first cell
    assert not g.can_end_turn()
    assert sorted(g.legal_notations()) == [
        "a1-a2",
        "a1-b1",
        "a1-b2",
        "c3-b2",
        "c3-b3",
        "c3-c2",
        "c3-c4",
        "c3-d3",
        "c3-d4",
    ]
    g.apply_action(g.parse_action("a1-a2"))
    g.end_turn()
    assert g.position()["pieces"] == {"a2": 1, "c3": 1, "i3": 2, "h4": 2}


def test_a_third_move_at_the_kick_off_is_refused_with_the_rule():
    g = new_game("playbai")
    for move in ("e2-e3", "e3-e4"):
        g.apply_action(g.parse_action(move))
    with pytest.raises(IllegalMove, match="^the kick-off turn allows only 2 moves, both made: only passes may follow$"):
        g.parse_action("b2-b3")
