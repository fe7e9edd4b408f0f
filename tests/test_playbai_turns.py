"""Play Bai's legal actions and complete turns, positions (round trips, refused positions, draws), the
registry and the CLI."""

from __future__ import annotations

import json

import pytest

from games import StateError, get, load_state, new_game
from games.cli import main as cli_main
from games.playbai import PlayBai
from games.playbaisearch import GOAL
from tests.playbai_helpers import FAR, pos, refused

# -- legal actions, complete turns --------------------------------------------------------


def test_legal_actions_never_lead_to_a_dead_end():
    # After two moves onto the own dot with one move left, only ways off it remain.
    g = pos({"e3": 1, **FAR}, "i3")
    g.apply_action(g.parse_action("e3-e2"))
    g.apply_action(g.parse_action("e2-e1"))
    assert not g.can_end_turn()
    assert sorted(g.legal_notations()) == ["e1-d1", "e1-e2", "e1-f1"]


def test_complete_turns_from_the_opening():
    g = new_game("playbai")
    turns = g.complete_turns()
    assert len(turns) == 111
    assert "e2-e3,e3-e4" in turns and "e2-e3" in turns
    assert turns["e2-e3"] == (("b2", "e3", "h2"), "e5")
    # each is its shortest notation, and positions are distinct
    assert len(set(turns.values())) == len(turns)


def test_complete_turns_collapse_every_non_winning_goal_into_one_result():
    g = pos({"d8": 1, "d7": 1, **FAR}, "d8")
    turns = g.complete_turns()
    goals = [t for t, key in turns.items() if key == "goal"]
    assert len(goals) == 1 and len(goals[0].split(",")) == 1
    winning = pos({"d8": 1, "d7": 1, **FAR}, "d8", goals=(2, 0), last_goal=1)
    wins = [key for key in winning.complete_turns().values() if key[0] == "win"]
    assert len(wins) > 1  # the scorer's team-mates stand in different places


def test_complete_turns_continue_a_half_entered_turn():
    g = new_game("playbai")
    g.apply_action(g.parse_action("e2-e3"))
    rest = g.complete_turns()
    assert "" in rest  # ending here is one of them
    assert all(len(t.split(",")) <= 1 for t in rest if t)
    g.apply_action(g.parse_action("e3-e4"))
    assert g.complete_turns() == {"": (("b2", "e4", "h2"), "e5")}
    assert g.turn_results()[next(iter(g.turn_results()))] == ()
    assert GOAL not in g.turn_results()


# -- serialization and CLI ------------------------------------------------------------------


def test_state_round_trip_mid_game():
    g = new_game("playbai", options={"expert": True})
    g.play_turn("e2-e3 e3-e4")
    g.play_turn("e8-e7 e7-e6")
    again = load_state(json.loads(json.dumps(g.to_json())))
    assert again.position() == g.position() and again.ply == 2 and again.options == g.options
    assert again.complete_turns() == g.complete_turns()


@pytest.mark.parametrize(
    "doc,fragment",
    [
        ({"pieces": {"e2": 1}, "ball": "e5"}, "seat 2 has 0 playballers"),
        ({"pieces": {"e2": 1, "e1": 2}, "ball": "e5"}, "stands on a dot"),
        ({"pieces": {"e2": 1, "e3": 3}, "ball": "e5"}, "is not 1 or 2"),
        ({"pieces": {"e2": 1, "e3": 2}, "ball": "z5"}, "no row z"),
        ({"pieces": {"e2": 1, "e3": 2}}, "needs 'ball'"),
        ({"pieces": {"e2": 1, "e3": 2}, "ball": "e5", "goals": [1, 0]}, "last_goal must name"),
        ({"pieces": {"e2": 1, "e3": 2}, "ball": "e5", "goals": [3, 0], "last_goal": 1}, "to_move must be null"),
        ({"pieces": {"e2": 1, "e3": 2}, "ball": "e5", "to_move": None}, "nobody has won"),
        (
            {"pieces": {"e2": 1, "e3": 2}, "ball": "e5", "to_move": None, "goals": [1, 0], "last_goal": 1},
            "^to_move is null but nobody has won$",
        ),
        ({"pieces": {"e2": 1, "e3": 2}, "ball": "e5", "goals": [1]}, "^goals must list two counts of zero or more$"),
        ({"pieces": {"e2": 1, "e3": 2}, "ball": "e5", "resigned": [3]}, "^resigned must list one seat, 1 or 2$"),
        (
            {"pieces": {"e2": 1, "c3": 1, "g3": 1, "b3": 1, "e3": 2}, "ball": "e5"},
            "seat 1 has 4 playballers: a team has 1 to 3",
        ),
        (["e2"], "malformed Play Bai position"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(doc, fragment):
    with pytest.raises(StateError, match=fragment):
        PlayBai.from_position(2, {}, doc)


def test_an_agreed_draw_is_stored_and_reloaded():
    g = new_game("playbai")
    g.play_turn("e2-e3")
    g.agree_draw()
    assert g.is_over and g.winners == () and g.position()["drawn"] is True
    again = load_state(json.loads(json.dumps(g.to_json())))
    assert again.is_over and again.winners == () and again.end_reason == "draw by agreement"
    assert again.position() == g.position()
    refused(again, "b5-b4", "the game is over")
    assert "draw" in again.render_text()


def test_registry_and_metadata():
    info = get("playbai")
    assert get("Play Bai") is info and info.multi_action_turns and info.allows_draws
    assert [o.key for o in info.options] == ["side", "expert", "first"]
    assert not get("bide").allows_draws and not get("begird").allows_draws


def run_cli(capsys, *argv):
    status = cli_main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_replay_contract(capsys):
    status, out, _ = run_cli(capsys, "replay", "playbai", "--moves", "e2-e3 e3-e4; e8-e7,e7-e6", "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["game"] == "playbai" and doc["ply"] == 2 and doc["to_move"] == 1 and doc["scores"] == [0, 0]
    assert doc["options"] == {"side": 5, "expert": False, "first": 1}
    assert doc["position"]["pieces"] == {"b2": 1, "e4": 1, "h2": 1, "b5": 2, "e6": 2, "h5": 2}
    assert "e4-e5" in doc["legal"]


def test_cli_options_as_strings_and_illegal_turn_exit_2(capsys):
    status, out, _ = run_cli(
        capsys, "replay", "playbai", "--option", "side=6", "--option", "expert=true", "--option", "first=2", "--json"
    )
    doc = json.loads(out)
    assert status == 0 and doc["options"] == {"side": 6, "expert": True, "first": 2} and doc["to_move"] == 2
    status, out, _ = run_cli(capsys, "replay", "playbai", "--moves", "e2-e3; b2-b3", "--json")
    assert status == 2
    doc = json.loads(out)
    assert doc["ply"] == 1 and "b2 is not yours" in doc["error"]


def test_cli_position_and_scores_are_goals(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps(
            {
                "pieces": {"d8": 1, "c3": 1, "i3": 2, "h4": 2},
                "ball": "d8",
                "goals": [1, 2],
                "to_move": 1,
                "kickoff": False,
                "last_goal": 2,
            }
        )
    )
    status, out, _ = run_cli(capsys, "replay", "playbai", "--position", str(path), "--moves", "d8-e9", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["scores"] == [2, 2] and doc["position"]["kickoff"] is True
    status, out, _ = run_cli(capsys, "replay", "playbai", "--moves", "e2-e3")
    assert status == 0 and "Blue to move" in out and "Legal:" in out


def test_cli_random_game_replays(capsys):
    _, out, _ = run_cli(capsys, "random", "playbai", "--seed", "7", "--json")
    doc = json.loads(out)
    assert doc["over"]  # seed 7 ends by itself; most random games reach max_turns (500) unfinished
    _, out2, _ = run_cli(capsys, "replay", "playbai", "--moves", doc["moves"], "--json")
    assert json.loads(out2)["position"] == doc["position"]


def test_golden_game_replays_to_its_stored_end():
    """A stored seeded game: any change of the rules' behaviour shows here."""
    from pathlib import Path

    doc = json.loads((Path(__file__).parent / "data" / "playbai_golden.json").read_text())
    game = new_game("playbai", options=doc["options"])
    for turn in doc["moves"].split(";"):
        game.play_turn(turn)
    assert game.ply == doc["ply"] and list(game.winners) == doc["winners"]
    assert game.position() == doc["position"]


# -- positions: a finished game, a draw, a result key ----------------------------------------


def test_a_game_finished_on_goals_loads_as_finished_on_goals():
    g = pos({"e9": 1, "c3": 1, "i3": 2, "h4": 2}, "e9", to_move=None, goals=(3, 1), last_goal=1)
    assert (g.is_over, g.winners, g.end_reason) == (True, (1,), "goals")
    assert g.render_text().splitlines()[-1] == "Game over: Orange wins on goals."


def test_a_result_key_names_the_team_and_the_ball_even_on_the_first_cell():
    from games.playbaisearch import KEY_SHIFT, key_cells

    names = [f"c{i}" for i in range(10)]
    assert key_cells(0b101 | 7 << KEY_SHIFT, names) == (("c0", "c2"), "c7")


def test_an_agreed_draw_reloads_as_over_from_its_position():
    g = PlayBai.from_position(2, {}, {"pieces": {"e2": 1, "e3": 2}, "ball": "e5", "to_move": None, "drawn": True})
    assert g.is_over and g.winners == () and g.end_reason == "draw by agreement"
