"""Bump: the board, the set-up, movement, bumps, the seed's named examples, reinforcements and the end.

Every clause of RULES.md §4, the decisions of issue 8 and the seed's named examples are tested across
tests/test_bump*.py: stasis and choices in test_bump_choices.py, words and suggestions in
test_bump_words.py.
"""

from __future__ import annotations

import json

import pytest

from games import IllegalMove, StateError, get
from games.bump import (
    C1,
    C2,
    COORDS,
    GATES,
    NAMES,
    NEIGHBOURS,
    START,
    Bump,
    SpaceNameError,
    gate_part,
    parse_space,
    space_at,
)
from tests.bump_helpers import at, bumps, game, kinds

# -- board -----------------------------------------------------------------------------


def test_board_has_128_spaces_two_centres_and_six_gates():
    assert len(NAMES) == 128 and len(set(NAMES)) == 128
    assert COORDS[C1] == ((0, 0),) and COORDS[C2] == ((10, 0),)
    assert [NAMES[g] for g in GATES] == ["05", "15", "25", "35", "45", "55"]
    assert COORDS[GATES[0]] == ((5, 0),)  # gate 0 drawn once
    assert COORDS[GATES[1]] == ((0, 5), (10, -5))  # C1 + 5·d1 and C2 − 5·d1


def test_space_at_finds_the_space_drawn_at_a_cell_and_nothing_off_the_board():
    for i, cells in enumerate(COORDS):
        assert all(space_at(cell) == i for cell in cells)
    assert space_at((9, -9)) == -1 and space_at((20, 0)) == -1


def test_names_from_the_rules():
    assert COORDS[parse_space("03")] == ((3, 0),)
    assert COORDS[parse_space("011")] == ((1, 1),)
    assert COORDS[parse_space("09")] == ((9, 0),)
    assert COORDS[parse_space("091")] == ((9, -1),)  # C2 − 1·d0 + 1·d4
    # area 1: f n m = C1 + n·d_f + m·d_(f+1); area 2: C2 − (10 − n)·d_f + m·d_(f+4)
    assert COORDS[parse_space("213")] == ((-4, 1),)  # (-1, 1) + 3·(-1, 0)
    assert COORDS[parse_space("122")] == ((-2, 4),)  # 2·(0, 1) + 2·(-1, 1)
    assert COORDS[parse_space("182")] == ((12, -4),)  # (10, 0) − 2·(0, 1) + 2·(1, -1)
    with pytest.raises(SpaceNameError, match="at most 1"):
        parse_space("172")
    assert parse_space("c1") == C1 and parse_space(" C2 ") == C2


def test_every_space_name_round_trips_and_the_areas_have_60_spaces_each():
    assert all(parse_space(name) == i for i, name in enumerate(NAMES))
    area1 = [i for i, c in enumerate(COORDS) if max(abs(c[0][0]), abs(c[0][1]), abs(sum(c[0]))) <= 4]
    assert len(area1) == 61  # 60 + C1


@pytest.mark.parametrize(
    "text,reason",
    [
        ("153", "15 is gate 1 and takes no offset"),
        ("064", "at step 6 only the axis space 06 exists"),
        ("014", "at step 1 the offset is at most 3"),
        ("094", "at step 9 the offset is at most 3"),
        ("73", "the axis 7 does not exist"),
        ("00", "steps along an axis are 1–9"),
        ("030", "without an offset, 03"),
        ("C3", "the centres are C1 and C2"),
        ("3", "a name has an axis and a step"),
        ("0123", "names have 2 or 3 digits"),
        ("a1", "write C1, C2 or digits"),
    ],
)
def test_space_name_errors_say_why(text, reason):
    with pytest.raises(SpaceNameError, match=reason):
        parse_space(text)


def test_gate_adjacent_only_to_the_axis_spaces_the_rest_walls():
    for f, g in enumerate(GATES):
        row = NEIGHBOURS[g]
        assert NAMES[row[f]] == f"{f}6" and NAMES[row[(f + 3) % 6]] == f"{f}4"
        assert sum(n >= 0 for n in row) == 2


def test_adjacency_is_symmetric_with_opposite_directions():
    for a, row in enumerate(NEIGHBOURS):
        for d, b in enumerate(row):
            if b >= 0:
                assert NEIGHBOURS[b][(d + 3) % 6] == a


def test_walking_an_axis_from_c1_reaches_c2_through_the_gate():
    for f in range(6):
        here, walk = C1, []
        for _ in range(10):
            here = NEIGHBOURS[here][f]
            walk.append(NAMES[here])
        assert walk == [f"{f}{n}" for n in range(1, 10)] + ["C2"]


def test_area_edges_are_walls():
    assert NEIGHBOURS[parse_space("013")][0] == -1  # 013 is (1, 3); (2, 3) is out of area 1
    edge = space_at((4, -2))
    assert [d for d in range(6) if NEIGHBOURS[edge][d] < 0] == [0, 5]


def test_gate_pieces_are_drawn_on_the_side_their_bumper_faces():
    g1 = GATES[1]
    assert [gate_part(g1, f) for f in range(6)] == [1, 1, 1, 0, 0, 0]  # facings 1, 1±1 → area 2
    assert {gate_part(GATES[0], f) for f in range(6)} == {0}


# -- set-up ----------------------------------------------------------------------------


def test_set_up_twelve_pieces_each_facing_as_the_rules_say():
    g = Bump.new()
    pieces = g.pieces()
    assert len(pieces) == 24
    assert pieces["01"] == (1, 0) and pieces["11"] == (1, 1) and pieces["51"] == (1, 5)
    assert pieces["011"] == (1, 1) and pieces["111"] == (1, 2) and pieces["511"] == (1, 0)
    assert pieces["09"] == (2, 3) and pieces["091"] == (2, 4)
    for f in range(6):
        assert pieces[f"{f}9"] == (2, (f + 3) % 6) and pieces[f"{f}91"] == (2, (f + 4) % 6)
    assert g.to_move == 1 and g.position()["reserves"] == [0, 0]


def test_no_bumper_faces_a_blind_side_at_the_start():
    g = Bump.new()
    for space, (seat, facing) in g.pieces().items():
        assert not g._would_bump(-1, parse_space(space), facing, seat), space


def test_position_form_exactly():
    g = Bump.new()
    pos = g.position()
    assert set(pos) == {"pieces", "to_move", "reserves", "captured", "held_centre"}
    assert pos["pieces"]["01"] == [1, 0] and pos["to_move"] == 1 and pos["held_centre"] == []
    doc = {
        "pieces": {"01": [1, 0], "011": [1, 1], "09": [2, 3]},
        "to_move": 1,
        "reserves": [0, 0],
        "captured": [0, 0],
        "held_centre": [],
    }
    assert Bump.from_position(2, None, doc).position() == doc


@pytest.mark.parametrize(
    "pieces,reason",
    [
        ({"153": [1, 0]}, "takes no offset"),
        ({"01": [3, 0]}, "seat 3"),
        ({"01": [1, 6]}, "facing 6"),
        ({"C1": [1, 0]}, "own centre"),
        ({"01": [1]}, "seat, facing"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(pieces, reason):
    with pytest.raises(StateError, match=reason):
        game(pieces)


def test_start_spaces_are_the_set_up():
    assert sorted(NAMES[s] for s in START[1]) == sorted([f"{f}1" for f in range(6)] + [f"{f}11" for f in range(6)])


def test_bad_positions_and_reinforcements_are_refused_with_the_reason():
    import copy

    game = get("bump").new(2)
    doc = copy.deepcopy(game.position())
    doc["reserves"], doc["captured"] = [2, 0], [2, 0]
    with pytest.raises(StateError, match="^seat 1 has 16 pieces in all; at most 15$"):
        Bump.from_position(2, {}, doc)
    with pytest.raises(StateError, match="^malformed Bump position: "):
        Bump.from_position(2, {}, ["01"])
    with pytest.raises(IllegalMove, match="^not a Bump reinforcement: "):
        game.apply_action(("reinforce", 3, 6))  # no facing 6
    # a raw move off the board (no space 128 or -1, no facing 6) is refused with the action itself in the reason
    for bad in (("move", 128, 0, 0, ()), ("move", 0, -1, 0, ()), ("move", 0, 0, 6, ())):
        with pytest.raises(IllegalMove) as refused:
            game.apply_action(bad)
        assert str(refused.value) == f"not a Bump move: {bad!r}"


@pytest.mark.parametrize(
    "pieces",
    [
        {"08": [1, 0], "09": [2, 1]},  # 08 faces 09, which does not face back
        {"09": [2, 1], "08": [1, 0]},  # the same, listed the other way round
    ],
)
def test_an_unstable_position_is_refused_whichever_piece_comes_first(pieces):
    with pytest.raises(StateError, match="bumps 09: a position must be stable"):
        game(pieces)


# -- movement --------------------------------------------------------------------------


def test_shift_then_rotate_within_three_points():
    g = game({"02": [1, 0], "39": [2, 0]})
    events = g.play_turn(f"02,{at(4, -1)}-1")
    shifts = [(e.src, e.dst) for e in kinds(events, "shift")]
    assert len(shifts) == 2 and shifts[0][0] == "02" and shifts[1][1] == at(4, -1)
    assert shifts[0][1] == shifts[1][0] and shifts[0][1] in (at(3, -1), "03")
    assert dict(kinds(events, "rotate")[0].data) == {"from": 0, "to": 1, "steps": 1}
    assert g.pieces()[at(4, -1)] == (1, 1)


def test_rotation_costs_the_shorter_way_round():
    g = game({"02": [1, 0], "39": [2, 0]})
    g.copy().play_turn("02-3")  # three steps either way
    anticlockwise = g.copy().play_turn("02,03-5")  # one shift + one step (0 → 5 anticlockwise)
    # the log says which way it turned: one step back, not five forward
    assert dict(kinds(anticlockwise, "rotate")[0].data) == {"from": 0, "to": 5, "steps": -1}
    with pytest.raises(IllegalMove, match="3 is more than 3|is more than 3"):
        g.copy().play_turn("02,04-3")


def test_no_shift_through_a_wall():
    edge = at(4, -2)
    g = game({edge: [1, 3], "39": [2, 0]})
    one_point = {NAMES[s] for s, k in g.reachable(parse_space(edge)).items() if k == 1}
    assert one_point == {at(3, -2), at(3, -1), at(4, -1), at(4, -3)}  # E and NE are walls
    gate = game({"15": [1, 1], "39": [2, 0]})
    assert {NAMES[s] for s, k in gate.reachable(parse_space("15")).items() if k == 1} == {"14", "16"}


def test_moving_through_a_gate_into_the_other_area():
    g = game({"03": [1, 0], "39": [2, 0]})
    events = g.play_turn("03,06")
    assert [e.dst for e in kinds(events, "shift")] == ["04", "05", "06"]


def test_no_shift_into_or_through_a_piece_or_own_centre():
    g = game({"01": [1, 0], "02": [2, 3], "39": [2, 0]})
    with pytest.raises(IllegalMove, match="is occupied"):
        g.copy().play_turn("01,02")
    with pytest.raises(IllegalMove, match="own centre"):
        g.copy().play_turn("01,C1")
    # 01 → 31 is two steps round C1 (never through it)
    events = g.copy().play_turn("01,31")
    assert len(kinds(events, "shift")) == 3 and all(e.dst != "C1" for e in kinds(events, "shift"))


def test_a_shown_shift_goes_round_a_piece_never_through_it_whichever_piece_it_is():
    # The piece on 02 is listed first, so it is piece number 0: it blocks the shift like any other.
    g = game({"02": [2, 3], "03": [1, 0], "39": [2, 0]})
    events = g.play_turn("03,01")
    assert [e.dst for e in kinds(events, "shift")] == ["021", "011", "01"]


def test_opponent_centre_restriction_after_holding_it():
    pieces = {"09": [1, 0], "29": [2, 0]}
    free = game(pieces)
    events = free.copy().play_turn("09,39-1")  # through C2: two shifts and a turn
    assert [e.dst for e in kinds(events, "shift")] == ["C2", "39"]
    held = game(pieces, held_centre=[1])
    with pytest.raises(IllegalMove, match="held C2"):
        held.copy().play_turn("09,C2")
    with pytest.raises(IllegalMove, match="is more than 3"):
        held.copy().play_turn("09,39-1")  # round C2 takes three shifts
    held.copy().play_turn("09,39")


def test_moving_an_opponents_piece_or_an_empty_space_is_refused():
    g = Bump.new()
    with pytest.raises(IllegalMove, match="opponent's"):
        g.play_turn("09,08")
    with pytest.raises(IllegalMove, match="no piece on 03"):
        g.play_turn("03,04")


def test_decision_1_pass_moves_nothing():
    g = game({"03": [1, 0], "39": [2, 0]})
    events = g.play_turn("pass")
    assert g.last_turn_notation == "pass" and kinds(events, "pass") and g.to_move == 2


@pytest.mark.parametrize("text", ["03", "03,03", "03-0", "03,03-0"])
def test_decision_1_a_written_move_that_changes_nothing_is_refused_with_why(text):
    """Issue 26: a typo such as 01,01 used to cost the turn as a silent pass."""
    g = game({"03": [1, 0], "39": [2, 0]})
    with pytest.raises(IllegalMove, match=r"03 stays on 03 facing 0: .*write pass"):
        g.play_turn(text)
    assert g.to_move == 1 and g.pieces()["03"] == (1, 0)


def test_piece_at_takes_a_space_by_name_or_by_number():
    from games.bumpboard import NAMES

    game = get("bump").new(2)
    occupied = [i for i in range(len(NAMES)) if game.piece_at(i) is not None]
    assert len(occupied) == 24 and game.piece_at("C1") is None
    assert all(game.piece_at(NAMES[i]) == game.piece_at(i) for i in occupied)


def test_random_turns_are_legal_turns():
    import random

    game, rng = get("bump").new(2), random.Random(3)
    for _ in range(12):
        action = game.random_action(rng)
        game.apply_action(action)  # refuses an illegal action
        if game.turn_in_progress() and not game.is_over:
            game.end_turn()
    assert game.ply == 12


# -- bumps -----------------------------------------------------------------------------


def test_a_bumper_pushes_a_blind_side_one_space_in_its_facing_whoever_owns_it():
    for owner in (1, 2):
        g = game({"02": [1, 1], "03": [owner, 2], "39": [2, 0]})
        events = g.play_turn("02-0")
        assert bumps(events) == [("03", "04")]
        assert g.pieces()["04"] == (owner, 2)


def test_bumpers_facing_each_other_are_stable():
    g = game({"02": [2, 0], "04": [1, 3], "39": [2, 0]})
    events = g.play_turn("04,03")
    assert bumps(events) == [] and g.pieces()["03"] == (1, 3) and g.pieces()["02"] == (2, 0)


def test_no_bump_across_a_wall():
    edge = at(4, -2)
    g = game({edge: [1, 1], "39": [2, 0]})
    # a gate-adjacent wall: 14 facing 0 looks at a wall (the gate is at its side 1)
    events = g.play_turn(f"{edge}-0")
    assert bumps(events) == []


def test_bumped_into_a_wall_is_captured():
    g = game({at(3, -2): [1, 1], at(4, -2): [2, 1], "39": [2, 0]})
    events = g.play_turn(f"{at(3, -2)}-0")
    cap = kinds(events, "capture")
    assert len(cap) == 1 and dict(cap[0].data)["reason"] == "wall" and g.captured == [0, 1]
    assert at(4, -2) not in g.pieces()


def test_bumped_into_a_piece_is_captured_including_bumper_to_bumper():
    g = game({"01": [1, 1], "02": [2, 0], "03": [2, 3], "39": [2, 0]})
    events = g.play_turn("01-0")
    assert dict(kinds(events, "capture")[0].data)["reason"] == "piece"
    assert g.captured == [0, 1] and g.pieces()["03"] == (2, 3)


def test_bumped_into_its_own_centre_is_captured():
    g2 = game({"01": [1, 2], "02": [1, 5], "39": [2, 0]})
    events = g2.play_turn("02-3")
    assert dict(kinds(events, "capture")[0].data)["reason"] == "centre"
    assert g2.captured == [1, 0]


def test_bumped_into_the_opponents_centre_moves_when_not_held():
    g = game({"08": [2, 1], "09": [1, 1], "39": [2, 1]}, to_move=2)
    events = g.play_turn("08-0")
    assert bumps(events) == [("09", "C2")]
    # decision 6: the turn passes to seat 1, which stands on C2: seat 1 wins at once
    assert g.is_over and g.winners == (1,) and g.end_reason == "centre"
    assert kinds(events, "end")


def test_decision_5_bumped_into_opponents_centre_captured_when_owner_held_it():
    g = game({"08": [2, 1], "09": [1, 1], "39": [2, 1]}, to_move=2, held_centre=[1])
    events = g.play_turn("08-0")
    cap = kinds(events, "capture")
    assert cap and dict(cap[0].data)["reason"] == "centre" and g.captured == [1, 0]
    assert not g.is_over


def test_decision_5_held_flag_changes_only_at_the_end_of_its_own_turn():
    g = game({"08": [1, 0], "19": [2, 0], "39": [2, 1]})
    g.play_turn("08,C2")  # seat 1 on C2 at the end of its turn
    assert g.position()["held_centre"] == [1]
    events = g.play_turn("19-1")  # seat 2 bumps it out of C2, on to 49
    assert bumps(events) == [("C2", "49")]
    assert g.position()["held_centre"] == [1]  # still set after seat 2's turn
    g.play_turn("pass")
    assert g.position()["held_centre"] == []  # seat 1 ended a turn off C2


def test_guard_your_center_and_win_at_the_start_of_the_next_turn():
    g = game({"08": [1, 0], "39": [2, 0], "29": [2, 4]})
    events = g.play_turn("08,C2")
    assert kinds(events, "guard") and "Guard your center!" in g.describe_turn(events)
    assert [(e.seat, e.cell) for e in events if e.kind == "guard"] == [(1, "C2")]
    assert not g.is_over and g.to_move == 2
    g.play_turn("pass")
    assert g.is_over and g.winners == (1,)
    with pytest.raises(IllegalMove, match="over"):
        g.play_turn("pass")


def test_centre_takers_are_the_turns_that_end_on_the_opponents_centre():
    # games.bump.xǁBumpǁcentre_takers__mutmut_6 (the enumeration's outcomes dropped): the puzzles ask it
    g = game({"08": [1, 0], "39": [2, 0]})
    takers = g.centre_takers()
    assert sorted(g.format_action(a) for a in takers) == ["08,C2", "08,C2-1", "08,C2-5"]
    for action in g.legal_actions():
        after = g.copy()
        after.apply_quiet(action)
        assert (action in takers) == after.occupies_opponent_centre(1), g.format_action(action)
    assert game({"01": [1, 0], "39": [2, 0]}).centre_takers() == []  # too far to reach C2 this turn


# -- the seed's named examples ------------------------------------------------------------


def test_bump_chain_through_a_gate():
    # 02 turns to face 0: it bumps 03 to 04, whose bumper then bumps the gate piece on to 06
    g = game({"02": [1, 1], "03": [2, 0], "05": [2, 1], "39": [2, 0]})
    events = g.play_turn("02-0")
    assert bumps(events) == [("03", "04"), ("05", "06")]
    assert [e.cell for e in kinds(events, "bump")] == ["02", "04"]  # by which piece
    assert g.describe_turn(events).startswith("bumps 03 to 04, which bumps 05 to 06")


def test_bump_ladder():
    # 01 bumps 02 to 03, where 031 (facing 4) bumps it again, on to 512
    g = game({"01": [1, 1], "02": [2, 2], "031": [2, 4], "39": [2, 0]})
    events = g.play_turn("01-0")
    assert bumps(events) == [("02", "03"), ("03", at(3, -1))]
    assert g.pieces()[at(3, -1)] == (2, 2)


def test_double_bump_chain_moves_the_forward_piece_two_spaces():
    g2 = game({"01": [2, 0], "03": [2, 0], at(2, 1): [1, 0], "39": [2, 0]})
    events = g2.play_turn(f"{at(2, 1)},02")
    assert bumps(events) == [("03", "04"), ("02", "03"), ("04", "05")]
    assert g2.pieces()["05"] == (2, 0) and g2.pieces()["03"] == (1, 0)


def test_bumping_before_being_bumped():
    # the arriving piece first bumps ahead (and that chain resolves), then it is bumped itself
    g = game({"01": [2, 0], "03": [2, 2], "011": [1, 1], "39": [2, 0]})
    events = g.play_turn("011,02-0")
    assert bumps(events) == [("03", "04"), ("02", "03"), ("04", "05")]
    assert [e.cell for e in kinds(events, "bump")] == ["02", "01", "03"]


def test_multiple_captures_in_one_bump_phase():
    # 02 turns to 0: 03 goes to 04 and bumps the gate piece into 06 (captured against a piece);
    # then 031 bumps the piece on 04 into the wall.
    g = game({"02": [1, 1], "03": [2, 0], "05": [2, 1], "06": [2, 0], "031": [2, 5], "39": [2, 0]})
    events = g.play_turn("02-0")
    assert bumps(events) == [("03", "04"), ("05", None), ("04", None)]
    assert [dict(e.data)["reason"] for e in kinds(events, "capture")] == ["piece", "wall"]
    assert g.captured == [0, 2]


def test_challenging_a_gate_bumper_to_bumper_holds_and_two_pieces_dislodge():
    # Orange occupies gate 0 facing Blue's 04: stable.
    g = game({"04": [1, 0], "05": [2, 3], "07": [1, 4], "39": [2, 0]})
    assert bumps(g.copy().play_turn("pass")) == []
    # A second Blue piece comes to 06 facing 3: it bumps the gate piece into 04 — captured.
    events = g.play_turn("07,06-3")
    assert bumps(events) == [("05", None)]
    assert dict(kinds(events, "capture")[0].data)["reason"] == "piece" and g.captured == [0, 1]


def test_passing_through_a_gate_and_transfer_keep_facing():
    g = game({"04": [1, 2], "39": [2, 0]})
    g.play_turn("04,06")
    assert g.pieces()["06"] == (1, 2)


def test_a_piece_is_bumped_through_a_gate_by_the_direction_of_the_bump():
    g = game({"03": [1, 1], "04": [2, 1], "39": [2, 0]})
    events = g.play_turn("03-0")
    assert bumps(events) == [("04", "05")]
    g3 = game({"04": [1, 1], "05": [2, 2], "39": [2, 0]})
    events = g3.play_turn("04-0")
    assert bumps(events) == [("05", "06")]  # out of the gate into area 2


# -- reinforcements (decision 7) -------------------------------------------------------------


def test_reinforcement_variant():
    g = Bump.new(options={"reserve1": 2})
    g.play_turn("01,03")  # free a starting space
    g.play_turn("pass")
    with pytest.raises(IllegalMove, match="would bump or be bumped"):
        g.copy().play_turn("R,01-1")  # its bumper would face 011's blind side
    events = g.play_turn("R,01")  # set-up facing 0
    assert kinds(events, "reinforce") and g.pieces()["01"] == (1, 0)
    assert g.position()["reserves"] == [1, 0] and g.reserves_used(1) == 1
    assert g.last_turn_notation == "R,01-0"


def test_reinforcement_refusals():
    g = Bump.new(options={"reserve2": 1})
    with pytest.raises(IllegalMove, match="no reserve"):
        g.copy().play_turn("R,01")
    g2 = Bump.new(options={"reserve1": 1})
    with pytest.raises(IllegalMove, match="occupied"):
        g2.copy().play_turn("R,01")
    with pytest.raises(IllegalMove, match="not one of your starting spaces"):
        g2.copy().play_turn("R,03")
    with pytest.raises(IllegalMove, match="not one of your starting spaces"):
        g2.copy().play_turn("R,09-0")


def test_a_bare_r_says_the_real_reason():
    """Issue 26: `R` with a reserve piece but every starting space taken said "cannot read 'r'"."""
    full = Bump.new(options={"reserve1": 1})
    with pytest.raises(IllegalMove, match=r"no starting space of yours is empty \(01, .*\): free one"):
        full.play_turn("R")
    with pytest.raises(IllegalMove, match="no reserve"):
        Bump.new().play_turn("r")
    free = Bump.new(options={"reserve1": 1})
    free.play_turn("01,03")
    free.play_turn("pass")
    with pytest.raises(IllegalMove, match=r"write where it comes on: R,01 \(empty starting spaces: 01\)"):
        free.play_turn("R")


def test_reinforcement_bumper_to_bumper_is_allowed():
    g = game({"02": [2, 3], "39": [2, 0]}, options={"reserve1": 1}, reserves=[1, 0])
    g.play_turn("R,01-0")  # faces 02, whose bumper faces back: stable
    assert g.pieces()["01"] == (1, 0) and g.pieces()["02"] == (2, 3)


def test_reserve_options_are_0_to_3():
    info = get("bump")
    assert info.resolve_options({"reserve1": "3"}) == {"reserve1": 3, "reserve2": 0}
    with pytest.raises(Exception, match="reserve1 cannot be"):
        info.resolve_options({"reserve1": 4})


# -- end of the game ----------------------------------------------------------------------


def test_resignation_on_any_turn_and_draws_by_agreement():
    g = Bump.new()
    g.resign(2)
    assert g.winners == (1,) and g.end_reason == "resignation"
    d = Bump.new()
    d.agree_draw()
    assert d.is_over and d.winners == () and d.returns() == (0.5, 0.5)
    assert get("bump").allows_draws and not get("bide").allows_draws and not get("begird").allows_draws
    assert get("bump").max_turns


def test_finished_games_round_trip():
    g = game({"08": [1, 0], "39": [2, 0]})
    g.play_turn("08,C2")
    g.play_turn("pass")
    doc = json.loads(json.dumps(g.to_json()))
    again = Bump.from_json(doc)
    assert again.is_over and again.winners == (1,) and again.position() == g.position()
    assert Bump.from_position(2, None, g.position()).winners == (1,)


def test_a_position_where_the_mover_already_stands_on_the_centre_is_over():
    g = game({"C2": [1, 0], "29": [2, 0]})
    assert g.is_over and g.winners == (1,)


def test_text_board_of_the_opening():
    lines = get("bump").new(2).render_text().splitlines()
    assert lines[5] == " :   .   .   .  b3   C  b0   .   .   .   :   .   .   .  o3   C  o0   .   .   .   :"
    assert lines[0] == "           :                   :                   :                   :"
    assert lines[-2:] == [
        "1 Blue   pieces 12  captured  0  reserves 0 (to move)",
        "2 Orange pieces 12  captured  0  reserves 0",
    ]
