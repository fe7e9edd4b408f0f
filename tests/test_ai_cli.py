"""The `python -m games ai` and `python -m games arena` contract."""

import json
import subprocess
import sys

import pytest

from games.cli import main
from tests.test_ai import BIDE_FINISH


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_ai_prints_a_legal_turn_after_the_moves(capsys):
    status, out, _ = run(capsys, "ai", "begird", "--option", "board=small", "--moves", "e5; swap", "--level", "easy")
    assert status == 0
    turn = out.strip()
    status, out, _ = run(capsys, "replay", "begird", "--option", "board=small", "--moves", f"e5; swap; {turn}",
                         "--json")
    assert status == 0 and json.loads(out)["ply"] == 3


def test_ai_json_has_turn_level_seconds_and_is_deterministic(capsys):
    argv = ["ai", "bide", "--option", "side=4", "--moves", "bide; bide", "--level", "easy", "--seed", "7", "--json"]
    _, out, _ = run(capsys, *argv)
    doc = json.loads(out)
    assert set(doc) == {"turn", "level", "seconds"}
    assert doc["level"] == "easy" and isinstance(doc["seconds"], float) and doc["seconds"] >= 0
    _, again, _ = run(capsys, *argv)
    assert json.loads(again)["turn"] == doc["turn"]


def test_ai_from_a_position_file_finds_the_winning_release(tmp_path, capsys):
    path = tmp_path / "finish.json"
    path.write_text(json.dumps(BIDE_FINISH))
    status, out, _ = run(capsys, "ai", "bide", "--option", "side=4", "--position", str(path), "--json")
    assert status == 0
    status, out, _ = run(capsys, "replay", "bide", "--option", "side=4", "--position", str(path),
                         "--moves", json.loads(out)["turn"], "--json")
    assert json.loads(out)["winners"] == [1]


@pytest.mark.parametrize("argv,fragment", [
    (["ai", "bide", "--level", "godlike"], "unknown level"),
    (["ai", "bide", "--moves", "e5; e5"], "turn 2 (e5)"),
    (["ai", "begird", "--option", "board=y", "--position", "/nonexistent.json"], "cannot read"),
    (["arena", "bide", "--a", "easy", "--b", "nobody"], "unknown level"),
    (["arena", "bide", "--a", "easy", "--b", "easy", "--games", "0"], "at least 1"),
    (["arena", "begird", "--players", "3", "--a", "easy", "--b", "easy"], "2 players"),
])
def test_bad_ai_input_is_a_clear_error(capsys, argv, fragment):
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 2
    assert fragment in json.loads(out)["error"]


def test_ai_on_a_finished_game_says_there_is_no_turn(tmp_path, capsys):
    path = tmp_path / "finish.json"
    path.write_text(json.dumps(BIDE_FINISH))
    status, out, _ = run(capsys, "ai", "bide", "--option", "side=4", "--position", str(path),
                         "--moves", "e3,b2,c3", "--json")
    assert status == 2 and "the game is over" in json.loads(out)["error"]


def test_arena_prints_the_win_rate_of_a_with_a_confidence_interval(capsys):
    status, out, _ = run(capsys, "arena", "begird", "--option", "board=y", "--a", "easy", "--b", "random",
                         "--games", "4", "--json")
    assert status == 0
    doc = json.loads(out)
    assert doc["games"] == 4 and 0 <= doc["ci95"][0] <= doc["rate"] <= doc["ci95"][1] <= 1
    assert set(doc["seconds_per_turn"]) == {"easy", "random"}
    status, out, _ = run(capsys, "arena", "begird", "--option", "board=y", "--a", "easy", "--b", "random",
                         "--games", "2", "--quiet")
    assert status == 0 and "easy vs random: easy scores" in out and "95% CI" in out


def test_games_does_not_import_ai_until_asked():
    code = "import sys, games, games.cli; print('ai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
