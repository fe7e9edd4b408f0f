"""Begird's turns: placing, the pie rule (``swap``), resignation, positions and state round trips,
the registry and the CLI."""

from __future__ import annotations

import json
import random

import pytest

from games import IllegalMove, StateError, get, load_state, new_game
from games.begird import SWAP, Begird
from games.begirdboard import VARIANTS
from games.cli import main as cli_main
from tests.begird_helpers import game

# ----------------------------------------------------------------------------
# Turns and the pie rule
# ----------------------------------------------------------------------------


def test_black_places_first_and_players_alternate():
    g = game()
    assert g.to_move == 1 and g.ply == 0 and not g.swapped
    assert "swap" not in g.legal_notations()
    assert len(g.legal_actions()) == 243
    g.play_turn("e5")
    assert g.to_move == 2 and g.ply == 1
    g.play_turn("F6")
    assert g.position() == {"board": {"e5": 1, "f6": 2}, "to_move": 1, "swapped": False}
    with pytest.raises(IllegalMove, match="occupied by a Black stone"):
        g.play_turn("e5")
    with pytest.raises(IllegalMove, match="off the board"):
        g.play_turn("a10")
    with pytest.raises(IllegalMove, match="one stone per turn|cannot be placed|remove"):
        g.play_turn("g7 g8")
    assert g.ply == 2 and g.position()["board"] == {"e5": 1, "f6": 2}
    assert g.scores() is None


def test_swap_exchanges_the_players_and_white_places_next():
    g = game()
    g.play_turn("e5")
    assert "swap" in g.legal_notations() and SWAP in g.legal_actions()
    assert g.legal_notations()[0] == "swap"
    events = g.play_turn("swap")
    assert [e.kind for e in events] == ["swap"]
    assert g.swapped and g.ply == 2
    # The board is unchanged: the black stone stays black, now owned by the second player.
    assert g.position() == {"board": {"e5": 1}, "to_move": 2, "swapped": True}
    assert g.player_of_colour(1) == 2 and g.player_of_colour(2) == 1
    assert g.colour_of_player(1) == 2 and g.colour_of_player(2) == 1
    # White (the player who joined first) makes the next placement.
    g.play_turn("f6")
    assert g.position()["board"] == {"e5": 1, "f6": 2} and g.to_move == 1
    assert "swap" not in g.legal_notations()
    with pytest.raises(IllegalMove, match="only once|second turn"):
        g.play_turn("swap")


def test_without_swap_players_keep_their_colours():
    g = game()
    g.play_turn("e5")
    g.play_turn("f6")
    assert g.player_of_colour(1) == 1 and g.colour_of_player(2) == 2


def test_swap_refused_on_the_first_turn():
    g = game()
    with pytest.raises(IllegalMove, match="second turn"):
        g.play_turn("swap")
    with pytest.raises(IllegalMove, match="second turn"):
        g.apply_action(SWAP)
    assert g.ply == 0 and not g.swapped


def test_swap_refused_on_the_third_turn():
    g = game()
    g.play_turn("e5")
    g.play_turn("f6")
    with pytest.raises(IllegalMove, match="second turn.*too late"):
        g.play_turn("swap")
    with pytest.raises(IllegalMove):
        g.apply_action(SWAP)
    assert not g.swapped and g.ply == 2


def test_swap_refused_after_a_placement_on_the_second_turn():
    g = game()
    g.play_turn("e5")
    with pytest.raises(IllegalMove):
        g.play_turn("f6 swap")
    assert g.ply == 1 and g.position()["board"] == {"e5": 1}
    g.apply_action(g.parse_action("f6"))
    assert g.legal_actions() == [] and g.can_end_turn()
    with pytest.raises(IllegalMove, match="one stone per turn"):
        g.apply_action(SWAP)
    with pytest.raises(IllegalMove):
        g.parse_action("swap")
    g.end_turn()
    assert not g.swapped and g.to_move == 1


def test_each_refused_swap_says_why():
    g = game()
    with pytest.raises(
        IllegalMove, match="^swap is only possible on the second turn, as White's answer to Black's first stone$"
    ):
        g.apply_action(SWAP)
    g.play_turn("e5")
    g.apply_action(g.parse_action("f6"))
    with pytest.raises(IllegalMove, match="^one stone per turn: swap must be the whole turn$"):
        g.parse_action("swap")
    g.end_turn()
    with pytest.raises(
        IllegalMove,
        match=r"^swap \(the pie rule\) is only possible on the second turn of the game; it is too late now$",
    ):
        g.apply_action(SWAP)
    g = game()
    g.play_turn("e5")
    g.play_turn("swap")
    with pytest.raises(IllegalMove, match="^the colours have already been swapped; swap can be used only once$"):
        g.apply_action(SWAP)


def test_resignation_gives_the_opponent_the_win():
    g = game()
    g.play_turn("e5")
    events = g.resign(1)
    assert g.is_over and g.winners == (2,) and g.to_move is None
    assert [e.kind for e in events] == ["resign", "end"]
    pos = g.position()
    assert pos["resigned"] == [1]
    back = Begird.from_position(2, None, pos)
    assert back.is_over and back.winners == (2,)
    g = game()
    events = g.resign(2)  # on Black's turn: allowed
    assert g.winners == (1,) and g.end_reason == "resignation"
    assert [(e.kind, e.seat, e.data) for e in events] == [("resign", 2, ()), ("end", 1, (("reason", "resignation"),))]
    with pytest.raises(IllegalMove, match="^the game is over$"):
        g.resign(1)
    with pytest.raises(IllegalMove, match="^seat 3 is not in play$"):
        game().resign(3)


def test_pie_is_another_word_for_swap():
    g = game()
    g.play_turn("e5")
    assert g.parse_action("pie") == g.parse_action("swap") == SWAP


def test_player_of_seat_follows_the_swap():
    g = game()
    assert g.player_of_seat(1) == 1 and g.player_of_seat(2) == 2
    g.play_turn("e5")
    g.play_turn("swap")
    assert g.player_of_seat(1) == 2 and g.player_of_seat(2) == 1
    back = load_state(json.loads(json.dumps(g.to_json())))
    assert back.player_of_seat(1) == 2 and back.swapped


def test_apply_action_refuses_what_is_not_a_cell_of_the_board():
    g = game()
    for bad in (-5, 10_000, "e5", 2.0, None):
        with pytest.raises(IllegalMove, match="no such cell"):
            g.apply_action(bad)
    assert g.position() == game().position()


# ----------------------------------------------------------------------------
# Serialization, registry, CLI
# ----------------------------------------------------------------------------


def _random_moves(g: Begird, rng: random.Random, count: int) -> None:
    for _ in range(count):
        if g.is_over:
            return
        g.play_turn(g.format_action(rng.choice(g.legal_actions())))


@pytest.mark.parametrize("variant", VARIANTS)
def test_position_and_state_json_round_trip(variant):
    rng = random.Random(11)
    for moves in (0, 1, 2, 7, 40, 400):
        g = game(variant)
        if moves >= 2:
            g.play_turn(g.format_action(rng.choice(g.empties)))
            g.play_turn("swap")
        _random_moves(g, rng, moves)
        doc = json.loads(json.dumps(g.to_json()))
        back = load_state(doc)
        assert isinstance(back, Begird)
        assert back.position() == g.position() and back.to_json() == doc
        assert back.ply == g.ply and back.winners == g.winners and back.swapped == g.swapped
        assert sorted(back.legal_actions()) == sorted(g.legal_actions())
        pos = json.loads(json.dumps(g.position()))
        again = Begird.from_position(2, {"board": variant}, pos)
        assert again.position() == g.position() and again.is_over == g.is_over
        # Both continue identically.
        if not g.is_over:
            seed = rng.randrange(10**6)
            _random_moves(g, random.Random(seed), 1000)
            _random_moves(back, random.Random(seed), 1000)
            assert back.position() == g.position() and back.winners == g.winners


def test_position_after_one_stone_still_allows_the_swap():
    g = Begird.from_position(2, None, {"board": {"e5": 1}, "to_move": 2, "swapped": False})
    assert g.ply == 1 and "swap" in g.legal_notations()
    g = Begird.from_position(2, None, {"board": {"e5": 1}, "swapped": True})
    assert g.ply == 2 and g.to_move == 2 and "swap" not in g.legal_notations()


def test_registry_entry():
    info = get("begird")
    assert info.name == "Begird" and info.min_players == info.max_players == 2
    assert info.seat_names == ("Black", "White")
    assert info.option("board").allowed == ("standard", "small", "y")
    assert info.option("board").default == "standard"
    assert [q.notation for q in info.quick_actions] == ["swap"]
    assert len(info.summary) < 900
    assert isinstance(new_game("begird"), Begird)


def test_cli_replay_with_swap(capsys):
    assert cli_main(["replay", "begird", "--moves", "e5; swap; f6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "begird" and out["ply"] == 3 and out["to_move"] == 1
    assert out["position"] == {"board": {"e5": 1, "f6": 2}, "to_move": 1, "swapped": True}
    assert out["scores"] is None and out["winners"] == [] and not out["over"]
    assert "swap" not in out["legal"] and len(out["legal"]) == 241


def test_cli_errors_and_variants(capsys):
    assert cli_main(["replay", "begird", "--moves", "swap", "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert "second turn" in out["error"]
    assert cli_main(["replay", "begird", "--option", "board=y", "--moves", "a1; m13", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"] == {"board": "y"} and len(out["legal"]) == 89
    assert cli_main(["replay", "begird", "--option", "board=small", "--moves", "e5"]) == 0
    text = capsys.readouterr().out
    assert "White to move" in text
    assert cli_main(["random", "begird", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] and len(out["winners"]) == 1


@pytest.mark.parametrize(
    "doc, reason",
    [
        ({"board": {"a1": True}}, "^a1: colour True is not 1 \\(Black\\) or 2 \\(White\\)$"),
        ({"board": {}, "swapped": "yes"}, "^swapped must be true or false$"),
        ({"board": {}, "resigned": [3]}, "^resigned must list one seat, 1 or 2$"),
        ({"board": {}, "swapped": True}, "^a swap needs Black's first stone on the board$"),
    ],
)
def test_bad_positions_are_refused_with_the_reason_word_for_word(doc, reason):
    with pytest.raises(StateError, match=reason):
        Begird.from_position(2, {"board": "small"}, doc)
