"""The `python -m games` contract."""

import json
import subprocess
import sys

import pytest

from games.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_replay_json_has_every_field(capsys):
    status, out, _ = run(capsys, "replay", "bide", "--moves", "e5; d4; bide", "--json")
    assert status == 0
    doc = json.loads(out)
    assert set(doc) == {
        "game",
        "players",
        "options",
        "ply",
        "to_move",
        "over",
        "winners",
        "scores",
        "legal",
        "position",
    }
    assert doc["game"] == "bide" and doc["players"] == 2 and doc["options"] == {"side": 5}
    assert doc["ply"] == 3 and doc["to_move"] == 2 and doc["over"] is False and doc["winners"] == []
    assert doc["position"] == {
        "board": {"d4": 2, "f5": 1},
        "hands": [1, 1],
        "pools": [30, 30],
        "to_move": 2,
        "owed": [],
    }
    assert "bide" in doc["legal"] and "e5" in doc["legal"] and "d4" not in doc["legal"]
    assert len(doc["scores"]) == 2


def test_actions_of_a_turn_split_by_commas_or_spaces(capsys):
    moves = "bide; bide; e5 e4"
    _, out, _ = run(capsys, "replay", "bide", "--moves", moves, "--json")
    _, out2, _ = run(capsys, "replay", "bide", "--moves", moves.replace("e5 e4", "e5,e4"), "--json")
    assert json.loads(out) == json.loads(out2)
    assert json.loads(out)["position"]["owed"] == [2]


def test_illegal_turn_exits_2_with_the_index_of_the_rejected_turn(capsys):
    status, out, _ = run(capsys, "replay", "bide", "--moves", "e5; e5", "--json")
    assert status == 2
    doc = json.loads(out)
    assert doc["ply"] == 1 and "e5 is occupied" in doc["error"]


def test_illegal_turn_without_json_goes_to_stderr(capsys):
    status, out, err = run(capsys, "replay", "bide", "--moves", "q9")
    assert status == 2 and out == "" and "no row q" in err


def test_players_and_options(capsys):
    _, out, _ = run(capsys, "replay", "bide", "--players", "4", "--option", "side=4", "--json")
    doc = json.loads(out)
    assert doc["players"] == 4 and doc["options"] == {"side": 4}
    assert doc["position"]["pools"] == [19, 20, 14, 11]


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["replay", "chess"], "unknown game"),
        (["replay", "bide", "--option", "side=9"], "side cannot be"),
        (["replay", "bide", "--option", "side"], "KEY=VALUE"),
        (["replay", "bide", "--players", "9"], "2 to 6 players"),
        (["replay", "bide", "--position", "/nonexistent.json"], "cannot read"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_setup_is_a_clear_error(capsys, argv, fragment):
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 2
    assert fragment in json.loads(out)["error"]


def test_position_from_file_and_stdin(tmp_path, capsys, monkeypatch):
    position = {"board": {"e5": 2}, "hands": [2, 0], "pools": [10, 10], "to_move": 1, "owed": []}
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    _, out, _ = run(capsys, "replay", "bide", "--position", str(path), "--moves", "e4,a1", "--json")
    doc = json.loads(out)
    assert doc["position"]["board"] == {"e4": 1, "e6": 2, "a1": 1}
    assert doc["position"]["owed"] == [2]
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(position)))
    _, out, _ = run(capsys, "replay", "bide", "--position", "-", "--json")
    assert json.loads(out)["position"]["board"] == {"e5": 2}


def test_text_output_is_readable(capsys):
    status, out, _ = run(capsys, "replay", "bide", "--moves", "e5")
    assert status == 0
    assert "Blue" in out and "to move" in out and "Legal:" in out


def test_random_game_replays_to_the_same_result(capsys):
    _, out, _ = run(capsys, "random", "bide", "--players", "3", "--seed", "7", "--json")
    doc = json.loads(out)
    assert doc["over"]
    _, out2, _ = run(capsys, "replay", "bide", "--players", "3", "--moves", doc["moves"], "--json")
    again = json.loads(out2)
    assert again["position"] == doc["position"] and again["winners"] == doc["winners"]


def test_module_entry_point_never_prints_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "games", "replay", "bide", "--position", "-", "--json"],
        input="{not json",
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    assert "not valid JSON" in json.loads(result.stdout)["error"]


def test_bump_replay_contract(capsys):
    status, out, _ = run(capsys, "replay", "bump", "--moves", "01,03; 09-2; 03,05", "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["game"] == "bump" and doc["options"] == {"reserve1": 0, "reserve2": 0}
    assert doc["ply"] == 3 and doc["to_move"] == 2 and doc["scores"] is None
    assert doc["position"]["pieces"]["05"] == [1, 0] and doc["position"]["held_centre"] == []
    assert "pass" in doc["legal"] and "09,08" in doc["legal"]


def test_bump_illegal_turn_and_choice_notation(capsys):
    status, out, _ = run(capsys, "replay", "bump", "--moves", "01,03; 09,C2", "--json")
    assert status == 2
    doc = json.loads(out)
    assert doc["ply"] == 1 and "C2 is your own centre" in doc["error"]
    status, out, _ = run(capsys, "replay", "bump", "--moves", "153", "--json")
    assert status == 2 and "15 is gate 1 and takes no offset" in json.loads(out)["error"]


def test_bump_position_with_options(tmp_path, capsys):
    position = {
        "pieces": {"02": [2, 0], "021": [2, 5], "04": [1, 4], "39": [2, 0]},
        "to_move": 1,
        "reserves": [1, 0],
        "captured": [0, 0],
        "held_centre": [],
    }
    path = tmp_path / "bump.json"
    path.write_text(json.dumps(position))
    _, out, _ = run(
        capsys, "replay", "bump", "--option", "reserve1=1", "--position", str(path), "--moves", "04,03 (513)", "--json"
    )
    doc = json.loads(out)
    assert doc["position"]["pieces"]["513"] == [1, 4] and doc["position"]["reserves"] == [1, 0]


def test_bump_random_game_is_capped_and_replays(capsys):
    _, out, _ = run(capsys, "random", "bump", "--seed", "3", "--json")
    doc = json.loads(out)
    turns = doc["moves"].split("; ")
    assert doc["over"] or len(turns) == 600
    _, out2, _ = run(capsys, "replay", "bump", "--moves", doc["moves"], "--json")
    assert json.loads(out2)["position"] == doc["position"]
