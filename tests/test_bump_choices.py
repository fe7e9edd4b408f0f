"""Bump's stasis (decision 4) and the choices of a bump phase (decisions 2 and 3): the default bumper,
choices written by the space pushed into or ``x``, refusals, and every choice variant a legal turn."""

from __future__ import annotations

import json

import pytest

from games import IllegalMove
from games.bump import Bump
from tests.bump_helpers import CYCLE, S1, S2, S3, at, bumps, choice_game, game, kinds

# -- stasis (decision 4) ----------------------------------------------------------------------


def test_stasis_captures_on_the_third_repetition_within_one_turn():
    g = game(dict(CYCLE))
    events = g.play_turn(f"{at(0, -1)},{at(*S1)}")
    cycle = [(at(*S1), at(*S2)), (at(*S2), at(*S3)), (at(*S3), at(*S1))]
    assert bumps(events) == cycle * 2 + [(at(*S1), None)]
    capture = dict(kinds(events, "capture")[0].data)
    assert capture["reason"] == "stasis" and capture["toward"] == at(*S2)  # the picture draws the push to S2
    assert g.captured == [1, 0]


def test_partial_stasis_a_choice_breaks_the_cycle():
    pieces = dict(CYCLE, **{at(2, -3): [2, 1]})  # a second bumper on s2, pushing to (2, -1)
    move = f"{at(0, -1)},{at(*S1)}"
    escape = at(2, -1)
    # default (decision 2): the lowest facing, 1, pushes it out at once
    g = game(dict(pieces))
    g.play_turn(move)
    assert g.pieces()[escape] == (1, 0) and g.last_turn_notation == f"{move} ({escape})"
    # choosing the cycle twice leads to stasis
    g = game(dict(pieces))
    events = g.play_turn(f"{move} ({at(*S3)}) ({at(*S3)})")
    assert dict(kinds(events, "capture")[0].data)["reason"] == "stasis"
    # choosing the cycle once, then the other bump: spared
    g = game(dict(pieces))
    g.play_turn(f"{move} ({at(*S3)} {escape})")
    assert g.pieces()[escape] == (1, 0) and g.captured == [0, 0]
    assert g.last_turn_notation == f"{move} ({at(*S3)}) ({escape})"
    # after one cycle the cycle's push is not a capture yet, so (x) names nothing
    with pytest.raises(IllegalMove, match="choice 2 \\(x\\) names no option"):
        game(dict(pieces)).play_turn(f"{move} ({at(*S3)}) (x)")


def test_stasis_history_lasts_the_whole_game_and_ignores_whose_turn():
    g = game({"02": [1, 1], "03": [2, 2], "39": [2, 0]})
    g.play_turn("02-0")  # 1st: 03 → 04
    g.play_turn("04,03")  # 2nd (seat 2's own move walks into the same bump)
    assert g.pieces()["04"] == (2, 2)
    g.play_turn("pass")
    events = g.play_turn("04,03")  # 3rd occurrence: stasis
    assert dict(kinds(events, "capture")[0].data)["reason"] == "stasis"
    assert g.captured == [0, 1]


def test_stasis_history_is_in_the_state_json_not_the_position():
    g = game({"02": [1, 1], "03": [2, 2], "39": [2, 0]})
    g.play_turn("02-0")
    g.play_turn("04,03")
    doc = json.loads(json.dumps(g.to_json()))
    assert "stasis" not in doc["position"]
    assert [count for _, count in doc["extra"]["stasis"]] == [2]
    again = Bump.from_json(doc)
    again.play_turn("pass")
    events = again.play_turn("04,03")
    assert dict(kinds(events, "capture")[0].data)["reason"] == "stasis"


def test_x_also_names_an_option_that_stasis_would_capture():
    pieces = dict(CYCLE, **{at(2, -3): [2, 1]})
    move = f"{at(0, -1)},{at(*S1)}"
    probe = game(dict(pieces))
    probe.play_turn(f"{move} ({at(*S3)}) ({at(2, -1)})")
    s2_on = [key for key in probe.stasis if key.endswith(f"| {at(*S2)}>2")]
    assert len(s2_on) == 1  # the push s2 → s3 from the same position, once
    # the same position with that push already seen twice: going on round now captures
    doc = game(dict(pieces)).to_json()
    doc["extra"]["stasis"] = [[s2_on[0], 2]]
    g = Bump.from_json(doc)
    events = g.play_turn(f"{move} (x)")
    assert dict(kinds(events, "choice")[0].data)["chosen"] == at(*S3)  # written by its space
    assert dict(kinds(events, "capture")[0].data)["reason"] == "stasis"
    assert g.last_turn_notation == f"{move} ({at(*S3)})"


# -- choices (decisions 2 and 3) -------------------------------------------------------------


def test_decision_2_default_is_the_lowest_facing_bumper():
    g = choice_game()
    events = g.play_turn("04,03-4")
    # bumpers on 03: 02 facing 0 (pushes to 04) and 021 facing 5 (pushes to 513): 0 < 5
    assert bumps(events) == [("03", "04")]
    assert g.last_turn_notation == "04,03 (04)"  # facing 4 unchanged: no -4
    choice = dict(kinds(events, "choice")[0].data)
    assert choice["options"] == ("04", "513") and choice["chosen"] == "04"


def test_decision_3_choice_named_by_the_space_pushed_into():
    g = choice_game()
    events = g.play_turn("04,03 (513)")
    assert bumps(events) == [("03", "513")]
    assert g.last_turn_notation == "04,03 (513)"
    assert g.pieces()["513"] == (1, 4)


def test_decision_3_entries_in_one_or_several_parentheses_and_missing_ones_default():
    one = game(dict(CYCLE, **{at(2, -3): [2, 1]}))
    two = one.copy()
    move = f"{at(0, -1)},{at(*S1)}"
    one.play_turn(f"{move} ({at(*S3)} {at(2, -1)})")
    two.play_turn(f"{move} ({at(*S3)}) ({at(2, -1)})")
    assert one.position() == two.position()
    three = game(dict(CYCLE, **{at(2, -3): [2, 1]}))
    three.play_turn(f"{move} ({at(*S3)})")  # the second choice takes the default: escape
    assert three.position() == one.position()


def test_decision_3_refusals():
    with pytest.raises(IllegalMove, match=r"names no option: the piece on 03 can be pushed to \(04\) or \(513\)"):
        choice_game().play_turn("04,03 (06)")
    with pytest.raises(IllegalMove, match=r"has 1 choice; remove \(04\)"):
        choice_game().play_turn("04,03 (04) (04)")
    with pytest.raises(IllegalMove, match=r"no choice to make: remove the parentheses"):
        game({"02": [1, 1], "03": [2, 2], "39": [2, 0]}).play_turn("02-0 (04)")
    with pytest.raises(IllegalMove, match="remove the parentheses"):
        choice_game().play_turn("pass (04)")
    with pytest.raises(IllegalMove, match="moves nothing"):
        choice_game().play_turn("04 (04)")


def test_decision_3_x_names_a_push_into_a_wall_or_any_capture():
    # the mover's piece arrives on the area's edge (4, -2) facing 2; (3, -2) faces 0 (into the
    # wall) and (4, -1) faces 4 (back to (4, -3)).
    west, south, start, edge = at(3, -2), at(4, -1), at(4, -3), at(4, -2)
    pieces = {west: [2, 0], south: [2, 4], start: [1, 3], "39": [2, 0]}
    move = f"{start},{edge}-2"
    g = game(dict(pieces))
    events = g.play_turn(f"{move} (x)")
    assert dict(kinds(events, "capture")[0].data)["reason"] == "wall"
    assert g.last_turn_notation == f"{move} (x)" and g.captured == [1, 0]
    g = game(dict(pieces))
    g.play_turn(move)  # default: facing 0 < 4, the wall
    assert g.captured == [1, 0] and g.last_turn_notation == f"{move} (x)"
    g = game(dict(pieces))
    g.play_turn(f"{move} ({start})")
    assert g.pieces()[start] == (1, 2) and g.captured == [0, 0]


def test_decision_3_every_choice_point_takes_an_entry_even_when_all_options_capture():
    # 512 comes to 03 facing 4; both pushes (to 04 and to 513) run into pieces.
    pieces = {"02": [2, 0], "021": [2, 5], "04": [2, 0], "513": [2, 4], "512": [1, 5], "39": [2, 0]}
    g = game(dict(pieces))
    events = g.play_turn("512,03-4")
    assert g.last_turn_notation == "512,03-4 (04)" and g.captured == [1, 0]
    assert dict(kinds(events, "choice")[0].data)["options"] == ("04", "513")
    g = game(dict(pieces))
    g.play_turn("512,03-4 (x)")  # x names the first capturing option
    assert g.last_turn_notation == "512,03-4 (04)"
    g = game(dict(pieces))
    events = g.play_turn("512,03-4 (513)")
    assert g.last_turn_notation == "512,03-4 (513)" and dict(kinds(events, "bump")[0].data)["direction"] == 5


def test_legal_actions_list_every_choice_variant():
    g = choice_game()
    notes = [n for n in g.legal_notations() if n.startswith("04,03")]
    assert "04,03 (04)" in notes and "04,03 (513)" in notes and "04,03" not in notes
    assert "04,03-5 (04)" in notes and "04,03-5 (513)" in notes  # blind toward both bumpers
    assert "04,03-3" in notes  # facing 3 meets 02 bumper to bumper: only 021 bumps, no choice
    cycle = game(dict(CYCLE, **{at(2, -3): [2, 1]}))
    move = f"{at(0, -1)},{at(*S1)}"
    variants = sorted(n for n in cycle.legal_notations() if n.startswith(move + " "))
    # at s2: escape at once, or go round and then escape, or go round twice into stasis
    assert variants == sorted(
        [f"{move} ({at(2, -1)})", f"{move} ({at(*S3)}) ({at(2, -1)})", f"{move} ({at(*S3)}) ({at(*S3)})"]
    )


def test_two_pushes_into_walls_are_one_turn_written_x():
    # 08 comes to 093 facing 3, where two bumpers would both push it into a wall:
    # one notation, "(x)", so one turn (the first wall), and "(x)" replays it.
    pieces = {
        "01": [1, 0],
        "03": [1, 0],
        "11": [1, 1],
        "111": [1, 3],
        "113": [1, 1],
        "13": [1, 3],
        "221": [1, 4],
        "411": [1, 5],
        "413": [1, 3],
        "52": [1, 0],
        "55": [1, 2],
        "08": [2, 3],
        "09": [2, 4],
        "092": [2, 4],
        "17": [2, 3],
        "191": [2, 2],
        "39": [2, 0],
        "47": [2, 2],
        "49": [2, 1],
        "59": [2, 2],
        "592": [2, 2],
    }
    g = game(pieces, to_move=2, reserves=[1, 1], captured=[1, 2])
    notations = g.legal_notations()
    assert len(set(notations)) == len(notations)
    assert [n for n in notations if n.startswith("08,093")] == ["08,093 (x)"]
    direct = g.copy()
    direct.apply_action(next(a for a in g.legal_actions() if g.format_action(a) == "08,093 (x)"))
    direct.end_turn()
    typed = g.copy()
    typed.play_turn("08,093 (x)")
    assert typed.position() == direct.position() and typed.last_turn_notation == "08,093 (x)"
    assert typed.captured == [1, 3]


def test_a_choice_no_bumper_makes_is_refused_by_its_number_and_space():
    """A move whose choice names a direction no bumper pushes in (a raw action, as the search or a stored
    turn could hold) is refused with the choice's number (counted from 1) and the space pushed."""
    g = choice_game()
    src, dst, facing = 10, 8, 0
    assert ("move", src, dst, facing, (0,)) in g.legal_actions() and (
        "move",
        src,
        dst,
        facing,
        (5,),
    ) in g.legal_actions()
    with pytest.raises(IllegalMove) as refused:
        g.apply_action(("move", src, dst, facing, (1,)))
    assert str(refused.value) == "choice 1: no bumper pushes 03 that way"
