"""One test per clause of RULES.md §1 (Bide) and of the Bide seeds."""

import pytest

from games import IllegalMove, OptionError, new_game
from games.bide import Bide, pool_sizes
from tests.bide_helpers import occupied, position, three_coloured_fill

# -- board, values, pools -----------------------------------------------------------


@pytest.mark.parametrize("side,points,centre,top", [(4, 37, "d4", 3), (5, 61, "e5", 4), (6, 91, "f6", 5)])
def test_board_sides_and_point_values(side, points, centre, top):
    game = new_game("bide", 2, {"side": side})
    board = game.board
    assert len(board) == points
    assert board.distance_to_edge(board.parse(centre)) == top
    assert board.distance_to_edge(board.parse("a1")) == 0


def test_default_side_is_5_and_bad_options_are_refused():
    assert new_game("bide", 2).options == {"side": 5}
    with pytest.raises(OptionError, match="side cannot be"):
        new_game("bide", 2, {"side": 7})
    with pytest.raises(OptionError, match="no option"):
        new_game("bide", 2, {"colour": "red"})
    for players in (1, 7):
        with pytest.raises(OptionError, match="2 to 6 players"):
            new_game("bide", players)


def test_pools_follow_the_equipment():
    game = new_game("bide", 6)
    # seat 1 has already drawn its first disc
    assert game.pools == [31, 32, 22, 17, 15, 12]
    assert game.hands == [1, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("side,points", [(4, 37), (6, 91)])
def test_pools_scale_with_the_board(side, points):
    import math

    expected = [math.ceil(p * points / 61) for p in (32, 32, 22, 17, 15, 12)]
    assert pool_sizes(6, points) == expected
    assert pool_sizes(6, 37) == [20, 20, 14, 11, 10, 8]
    assert pool_sizes(6, 91) == [48, 48, 33, 26, 23, 18]


# -- the turn -------------------------------------------------------------------------


def test_each_turn_draws_one_disc_from_the_pool():
    game = new_game("bide", 2)
    game.play_turn("bide")
    assert game.hands == [1, 1] and game.pools == [31, 31]
    game.play_turn("bide")
    assert game.hands == [2, 1] and game.pools == [30, 31]


def test_pass_is_a_synonym_of_bide():
    a, b = new_game("bide", 2), new_game("bide", 2)
    a.play_turn("bide")
    b.play_turn("pass")
    assert a.position() == b.position()


def test_play_places_one_disc():
    game = new_game("bide", 2)
    game.play_turn("e5")
    assert occupied(game) == {"e5": 1}
    assert game.hands == [0, 1] and game.to_move == 2


def test_a_play_with_several_discs_in_hand_keeps_the_rest():
    game = position(hands=[3, 0], pools=[10, 10])
    game.play_turn("e5")
    assert game.hands[0] == 2
    assert game.owed == [False, False]


def test_release_places_every_disc_in_order():
    game = position(hands=[3, 0], pools=[10, 10])
    game.play_turn("e5,e4,a1")
    # e4's wave pushed e5 to e6: each wave is resolved before the next disc
    assert occupied(game) == {"e4": 1, "e6": 1, "a1": 1}
    assert game.hands[0] == 0


def test_release_needs_two_discs_in_hand():
    game = new_game("bide", 2)  # one disc in hand after the first draw
    with pytest.raises(IllegalMove, match="hand is empty"):
        game.play_turn("e5,e4")
    assert occupied(game) == {} and game.hands == [1, 0]


def test_release_must_place_every_disc():
    game = position(hands=[3, 0], pools=[10, 10])
    before = game.position()
    with pytest.raises(IllegalMove, match="1 more to place"):
        game.play_turn("e5,e4")
    assert game.position() == before


def test_release_cannot_place_more_discs_than_in_hand():
    game = position(hands=[2, 0], pools=[10, 10])
    with pytest.raises(
        IllegalMove,
        match=r"hand is empty after e5,e4, so \w+ cannot be placed "
        r"\(a release places only the discs in your hand\)$",
    ):
        game.play_turn("e5,e4,e3")


def test_release_obliges_every_other_seat():
    game = position(players=3, hands=[2, 0, 0], pools=[10, 10, 10])
    events = game.play_turn("e5,a1")
    assert game.position()["owed"] == [2, 3]
    # the match log tells the release and who owes one (the turn's announcement reads them)
    told = [(e.kind, e.seat, dict(e.data)) for e in events if e.kind in ("release", "owe")]
    assert told == [("release", 1, {"discs": 2}), ("owe", 2, {}), ("owe", 3, {})]


def test_owed_release_forbids_bide_and_places_the_whole_hand():
    game = position(players=2, hands=[2, 2], pools=[10, 10], owed=[1])
    assert "bide" not in game.legal_notations()
    with pytest.raises(IllegalMove, match="owe a release"):
        game.play_turn("bide")
    with pytest.raises(IllegalMove, match="owe a release"):
        game.play_turn("e5")
    game.play_turn("e5,a1")
    # a forced release does not oblige anyone further, and the debt is settled
    assert game.position()["owed"] == []


def test_owed_release_of_a_single_disc_places_that_disc():
    game = new_game("bide", 2)
    game.play_turn("bide")  # seat 1: hand 1
    # seat 2 has 1 disc; seat 1 releases on its next turn (hand 2)
    game.play_turn("bide")  # seat 2: hand 1
    game.play_turn("e5,a1")  # seat 1 releases
    assert game.position()["owed"] == [2]
    assert game.hands[1] == 2  # seat 2 drew: it bided once, so it holds two
    game.play_turn("i5,i1")
    assert game.position()["owed"] == []


def test_owed_release_with_one_disc_is_one_placement():
    game = position(players=2, hands=[2, 1], pools=[10, 10])
    game.play_turn("e5,a1")
    assert game.hands[1] == 2  # drew on top of the one it held
    game2 = position(players=2, hands=[0, 1], pools=[10, 10], to_move=2, owed=[2])
    game2.play_turn("e5")
    assert game2.position()["owed"] == []


def test_bide_refused_with_empty_pool_and_discs_in_hand():
    game = position(hands=[2, 0], pools=[0, 5])
    assert "bide" not in game.legal_notations()
    with pytest.raises(IllegalMove, match="pool is empty"):
        game.play_turn("bide")
    game.play_turn("e5")  # a play is still fine


def test_seat_without_any_disc_passes_automatically():
    game = position(players=3, hands=[1, 0, 2], pools=[5, 0, 5])
    game.play_turn("e5")
    # seat 2 has neither pool nor hand: its turn is skipped, seat 3 draws
    assert game.to_move == 3
    assert game.hands == [0, 0, 3]


def test_automatic_pass_settles_an_owed_release():
    game = position(players=3, hands=[2, 0, 2], pools=[5, 0, 5])
    events = game.play_turn("e5,a1")
    assert game.position()["owed"] == [3]
    assert game.to_move == 3
    passes = [(e.seat, dict(e.data)) for e in events if e.kind == "pass"]
    assert passes == [(2, {"automatic": True})]  # the picture says who passed


def test_turn_order_and_ply():
    game = new_game("bide", 3)
    for expected in (1, 2, 3, 1):
        assert game.to_move == expected
        game.play_turn("bide")
    assert game.ply == 4


# -- shock waves ---------------------------------------------------------------------


def test_wave_pushes_adjacent_discs_one_point_outwards():
    game = position(board={"e4": 2, "d5": 2}, hands=[1, 0])
    game.play_turn("e5")
    assert occupied(game) == {"e5": 1, "e3": 2, "c5": 2}


def test_wave_chain_from_rules_example():
    # P X . Y Z . W along row e: X moves, then Y and Z, then W if it has room
    game = position(board={"e2": 2, "e4": 2, "e5": 2, "e7": 2}, hands=[1, 0])
    game.play_turn("e1")
    assert occupied(game) == {"e1": 1, "e3": 2, "e5": 2, "e6": 2, "e8": 2}


def test_wave_stops_at_a_full_line():
    board = {f"e{k}": 2 for k in range(2, 10)}
    game = position(board=board, hands=[1, 0])
    game.play_turn("e1")
    assert occupied(game) == {**board, "e1": 1}


def test_wave_stops_at_the_edge():
    game = position(board={"e7": 2, "e9": 2}, hands=[1, 0])
    game.play_turn("e6")
    # e7 moves into the gap, then touches e9 which has no room beyond the edge
    assert occupied(game) == {"e6": 1, "e8": 2, "e9": 2}


def test_wave_stops_at_a_double_gap():
    game = position(board={"e2": 2, "e5": 2}, hands=[1, 0])
    game.play_turn("e1")
    assert occupied(game) == {"e1": 1, "e3": 2, "e5": 2}


def test_connected_discs_move_together():
    game = position(board={"e6": 2, "e7": 1, "e8": 2}, hands=[1, 0])
    game.play_turn("e5")
    assert occupied(game) == {"e5": 1, "e7": 2, "e8": 1, "e9": 2}


def test_disc_not_in_line_is_not_pushed():
    # d6 is next to e6's new spot but on another grid line: it stays
    game = position(board={"e6": 2, "d7": 2}, hands=[1, 0])
    game.play_turn("e5")
    assert occupied(game) == {"e5": 1, "e7": 2, "d7": 2}


def test_wave_works_in_all_six_directions_independently():
    around = {"e4": 2, "e6": 2, "d4": 2, "d5": 2, "f4": 2, "f5": 2}
    game = position(board=around, hands=[1, 0])
    game.play_turn("e5")
    assert occupied(game) == {"e5": 1, "e3": 2, "e7": 2, "c3": 2, "c5": 2, "g3": 2, "g5": 2}


def test_push_events_report_every_move():
    game = position(board={"e2": 2, "e4": 2, "e5": 2}, hands=[1, 0])
    events = game.play_turn("e1")
    pushes = {(e.src, e.dst) for e in events if e.kind == "push"}
    assert pushes == {("e2", "e3"), ("e5", "e6"), ("e4", "e5")}
    assert [e.cell for e in events if e.kind == "place"] == ["e1"]


def test_placing_on_an_occupied_point_is_refused():
    game = position(board={"e5": 2}, hands=[1, 0])
    with pytest.raises(IllegalMove, match="e5 is occupied by a Blue disc"):
        game.play_turn("e5")


# -- the end and the score -----------------------------------------------------------


def test_game_ends_when_the_board_is_full_even_mid_release():
    board = three_coloured_fill(4, (1, 2, 1), skip={"a1", "a2"})
    # fix a 2-colouring clash? groups don't matter here, only the fill
    game = position(side=4, board=board, hands=[3, 0], pools=[0, 4])
    game.play_turn("a1,a2")
    assert game.is_over and game.to_move is None
    assert game.hands[0] == 1  # the disc left in hand is ignored
    for token in ("bide", "a3"):  # the end is the reason, whatever the action
        with pytest.raises(IllegalMove, match="^the game is over$"):
            game.parse_action(token)


def test_release_longer_than_the_board_is_refused_at_the_end():
    board = three_coloured_fill(4, (1, 2, 1), skip={"a1"})
    game = position(side=4, board=board, hands=[3, 0], pools=[0, 4])
    with pytest.raises(IllegalMove, match="ended after a1"):
        game.play_turn("a1,a2")


def test_group_score_is_the_sum_of_values_and_the_best_group_counts():
    game = position(board={"e5": 1, "e6": 1, "a1": 1, "b2": 1, "e1": 2, "d1": 2})
    assert game.group_scores() == [4 + 3, 0]
    game2 = position(board={"e5": 1, "e6": 2, "e7": 1, "e8": 1})
    assert game2.group_scores() == [4, 3]  # e5 alone beats e7+e8 = 2+1


def test_highest_group_wins():
    board = three_coloured_fill(5, (3, 4, 5), skip={"e4", "e5", "e6", "d4"})
    board.update({"e4": 1, "e5": 1, "e6": 1, "d4": 2})
    game = position(players=5, board=board, hands=[0] * 5, pools=[0] * 5)
    assert game.is_over and game.winners == (1,)
    assert game.scores()[0] == 10


SEED_TIEBREAK_RED = {"d4", "d5", "c3", "c4", "b2", "a2", "a3", "a4", "b5"}
SEED_TIEBREAK_BLUE = {"h2", "g2", "g3", "f3", "h5", "g5", "g6", "f6", "i2", "i3", "i4"}


def seed_tiebreak_game():
    board = three_coloured_fill(5, (3, 4, 5), skip=SEED_TIEBREAK_RED | SEED_TIEBREAK_BLUE)
    board.update(dict.fromkeys(SEED_TIEBREAK_RED, 1))
    board.update(dict.fromkeys(SEED_TIEBREAK_BLUE, 2))
    return position(players=5, board=board, hands=[0] * 5, pools=[0] * 5)


def test_seed_tiebreak_12_12_becomes_11_to_6_when_rings_split_groups():
    game = seed_tiebreak_game()
    assert game.group_scores()[:2] == [12, 12]
    rounds = game.tiebreak_rounds()
    assert rounds[0][1] == 12 and rounds[0][2] == 12
    # removing the outer ring splits both groups: Red keeps 11, Blue's halves are 6 and 6
    assert rounds[1] == {1: 11, 2: 6}
    assert game.is_over and game.winners == (1,)


def test_tiebreak_only_among_the_tied_leaders():
    game = seed_tiebreak_game()
    assert set(game.tiebreak_rounds()[1]) == {1, 2}


def test_tied_to_the_last_ring_shares_the_win():
    red, blue = {"e4", "d4"}, {"e6", "f5"}
    board = three_coloured_fill(5, (3, 4, 5), skip=red | blue)
    board.update(dict.fromkeys(red, 1))
    board.update(dict.fromkeys(blue, 2))
    game = position(players=5, board=board, hands=[0] * 5, pools=[0] * 5)
    assert game.group_scores()[:2] == [6, 6]
    assert game.winners == (1, 2)
    assert game.returns()[:2] == (0.5, 0.5)


def test_values_are_not_renumbered_when_a_ring_is_removed():
    red, blue = {"e5"}, {"e4", "d4"}  # 4 vs 3+3=6: blue wins outright
    board = three_coloured_fill(5, (3, 4, 5), skip=red | blue)
    board.update(dict.fromkeys(red, 1))
    board.update(dict.fromkeys(blue, 2))
    game = position(players=5, board=board, hands=[0] * 5, pools=[0] * 5)
    assert game.winners == (2,)


# -- resignation ----------------------------------------------------------------------


def test_two_player_resignation_gives_the_opponent_the_win():
    game = new_game("bide", 2)
    game.resign(2)  # on seat 1's turn
    assert game.is_over and game.winners == (1,)


def test_multiplayer_resignation_skips_the_seat_and_keeps_its_discs():
    game = new_game("bide", 3)
    game.play_turn("e5")
    game.resign(2)  # seat 2 resigns on its own turn
    assert game.to_move == 3
    assert occupied(game) == {"e5": 1}
    game.play_turn("bide")
    game.play_turn("bide")
    assert game.to_move == 3  # seat 2 is skipped


def test_resigned_seat_cannot_win_and_last_seat_standing_wins():
    game = new_game("bide", 3)
    game.resign(1)
    assert not game.is_over
    game.resign(3)
    assert game.is_over and game.winners == (2,)


def test_resigned_seat_does_not_owe_a_release_and_cannot_win_on_score():
    game = position(players=3, hands=[2, 0, 0], pools=[3, 3, 3])
    game.resign(3)
    game.play_turn("e5,a1")
    assert game.position()["owed"] == [2]
    red, blue = {"e5", "e4", "d4"}, {"e6"}
    board = three_coloured_fill(5, (4, 5, 6), skip=red | blue)
    board.update(dict.fromkeys(red, 3))
    board.update(dict.fromkeys(blue, 2))
    full = position(players=6, board=board, hands=[0] * 6, pools=[0] * 6)
    assert full.winners == (3,)
    doc = full.position()
    doc["resigned"] = [3]
    again = Bide.from_position(6, {"side": 5}, doc)
    assert 3 not in again.winners


def test_game_ends_when_no_active_seat_has_discs():
    game = position(players=3, hands=[1, 0, 0], pools=[0, 0, 0])
    game.play_turn("e5")
    assert game.is_over and game.winners == (1,)
    assert game.end_reason == "no discs left"


def test_resign_is_refused_after_the_end():
    game = new_game("bide", 2)
    game.resign(1)
    with pytest.raises(IllegalMove, match="over"):
        game.resign(2)


def test_resignation_events_reason_and_refusals():
    game = position(players=3, hands=[1, 0, 0], pools=[5, 5, 5], owed=[2])
    events = game.resign(3)  # not on its turn: the turn stays with seat 1
    assert [(e.kind, e.seat) for e in events] == [("resign", 3)] and game.to_move == 1
    assert game.position()["owed"] == [2]  # another seat's debt is untouched
    for seat in (3, 0, 4):  # twice, or a seat that does not exist
        with pytest.raises(IllegalMove, match=f"^seat {seat} is not in play$"):
            game.resign(seat)
    events = game.resign(2)
    assert [(e.kind, e.seat, e.data) for e in events] == [
        ("resign", 2, ()),
        ("end", None, (("reason", "resignation"),)),
    ]
    assert game.end_reason == "resignation" and game.winners == (1,)
    with pytest.raises(IllegalMove, match="^the game is over$"):
        game.resign(1)


def test_describe_action_counts_discs_and_pushes():
    assert position(hands=[2, 0], pools=[5, 5]).describe_action(-1) == "bide — keep your 2 discs in hand"
    game = position(board={"e5": 2, "e6": 2}, hands=[1, 0], pools=[5, 5])
    assert game.describe_action(game.parse_action("bide")) == "bide — keep your 1 disc in hand"
    assert game.describe_action(game.parse_action("a1")) == "a1 — value 0"  # no push: no push hint
    assert game.describe_action(game.parse_action("d4")) == "d4 — value 3, pushes 1 disc"
    assert game.describe_action(game.parse_action("e4")) == "e4 — value 3, pushes 2 discs"


# -- turn in progress, notation -------------------------------------------------------


def test_turn_in_progress_interface():
    game = position(hands=[3, 0], pools=[5, 5])
    assert not game.can_end_turn()
    e5 = game.parse_action("e5")
    game.apply_action(e5)
    assert game.can_end_turn()  # a play may end here
    game.apply_action(game.parse_action("a1"))
    assert not game.can_end_turn()  # now it is a release: one more to place
    with pytest.raises(IllegalMove, match="1 more"):
        game.end_turn()
    game.apply_action(game.parse_action("i5"))
    assert game.can_end_turn() and game.legal_actions() == []
    game.end_turn()
    assert game.position()["owed"] == [2]


def test_notation_is_case_insensitive_and_canonical_is_lower_case():
    game = new_game("bide", 2)
    game.play_turn("E5")
    assert occupied(game) == {"e5": 1}
    assert game.format_action(game.parse_action(" BIDE ")) == "bide"


def test_parse_errors_say_why():
    game = new_game("bide", 2)
    with pytest.raises(IllegalMove, match="row e has cells e1–e9"):
        game.play_turn("e10")
    with pytest.raises(IllegalMove, match="empty move"):
        game.play_turn("  ")


def test_describe_action_explains_values_and_pushes():
    game = position(board={"e6": 2}, hands=[1, 0])
    assert game.describe_action(game.parse_action("e5")) == "e5 — value 4, pushes 1 disc"
    assert "keep your 1 disc" in game.describe_action(game.parse_action("bide"))


def test_a_forced_release_that_fills_the_board_settles_the_debt():
    board = three_coloured_fill(4, (1, 2, 1), skip={"a1", "a2"})
    game = position(side=4, board=board, hands=[0, 3], pools=[4, 0], to_move=2, owed=[2])
    game.play_turn("a1,a2")
    assert game.is_over and game.position()["owed"] == []


def test_position_whose_mover_has_not_drawn_gets_the_draw():
    game = position(hands=[0, 0], pools=[5, 5])
    assert game.hands == [1, 0] and game.pools == [4, 5] and game.to_move == 1
    game.play_turn("e5")
    assert game.hands == [0, 1]


def test_position_with_bad_values_is_refused():
    from games import StateError

    for bad in ({"board": {"e5": 7}}, {"board": {"z9": 1}}, {"hands": [1]}, {"to_move": 3}, {"hands": [-1, 0]}):
        doc = {"board": {}, "hands": [1, 0], "pools": [5, 5], "to_move": 1, "owed": [], **bad}
        with pytest.raises(StateError):
            Bide.from_position(2, {"side": 5}, doc)


def test_the_text_board_shows_rows_seats_flags_and_the_result():
    game = new_game("bide", 3, {"side": 4})
    game.play_turn("d4")
    game.resign(3)
    assert game.render_text() == "\n".join(
        [
            "a    . . . .",
            "b   . . . . .",
            "c  . . . . . .",
            "d . . . 1 . . .",
            "e  . . . . . .",
            "f   . . . . .",
            "g    . . . .",
            "",
            "1 Red    hand  0  pool 19  score   3",
            "2 Blue   hand  1  pool 19  score   0 (to move)",
            "3 Yellow hand  0  pool 14  score   0 (resigned)",
        ]
    )
    game.resign(2)
    assert game.render_text().splitlines()[-1] == "Game over (resignation): 1 Red wins."
    red, blue = {"e4", "d4"}, {"e6", "f5"}
    board = three_coloured_fill(5, (3, 4, 5), skip=red | blue)
    board.update(dict.fromkeys(red, 1))
    board.update(dict.fromkeys(blue, 2))
    tied = position(players=5, board=board, hands=[0] * 5, pools=[0] * 5)
    assert tied.render_text().splitlines()[-3:] == [
        "4 Green  hand  0  pool  0  score   3",
        "5 Purple hand  0  pool  0  score   3",
        "Game over (board full): 1 Red and 2 Blue share the win.",
    ]


def test_resigning_in_the_middle_of_a_turn_is_refused_with_the_reason():
    game = new_game("bide", 2)
    game.apply_action(game.parse_action("e5"))  # a turn begun, not ended
    with pytest.raises(IllegalMove, match="^cannot resign in the middle of a turn$"):
        game.resign(1)


def test_a_position_without_hands_keeps_its_pools_and_draws_the_turns_disc():
    game = Bide.from_position(2, {"side": 4}, {"board": {}, "pools": [5, 7], "to_move": 2})
    assert game.to_move == 2
    assert game.pools == [5, 6] and game.hands == [0, 1]


def test_a_seat_without_discs_passes_and_the_next_seat_gets_the_turn():
    game = position(players=2, side=4, board={"d4": 1}, hands=[0, 0], pools=[0, 3], to_move=1)
    assert not game.is_over and game.to_move == 2
    assert game.hands == [0, 1] and game.pools == [0, 2]


def test_the_position_lists_exactly_the_seats_that_resigned():
    game = new_game("bide", 4)
    game.resign(2)
    assert game.position()["resigned"] == [2]
    game.resign(4)
    assert game.position()["resigned"] == [2, 4]
    assert "resigned" not in new_game("bide", 4).position()


def test_a_finished_position_without_a_mover_reloads_with_its_reason():
    won = Bide.from_position(2, {"side": 4}, {"board": {"d4": 1}, "to_move": None, "resigned": [2]})
    assert won.is_over and won.end_reason == "resignation" and won.winners == (1,)
    stopped = Bide.from_position(3, {"side": 4}, {"board": {"d4": 1}, "to_move": None})
    assert stopped.is_over and stopped.end_reason == "over"


def test_the_position_names_the_seat_to_move():
    game = new_game("bide", 3)
    game.play_turn("e5")
    assert set(game.position()) == {"board", "hands", "pools", "to_move", "owed"}
    assert game.position()["to_move"] == 2
