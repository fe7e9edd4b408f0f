"""The `python -m ai turn` and `python -m ai arena` contract."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ai.cli import main
from games.cli import main as games_main
from tests.test_ai import BIDE_FINISH


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def replay(capsys, *argv):
    status = games_main(["replay", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_ai_prints_a_legal_turn_after_the_moves(capsys):
    status, out, _ = run(capsys, "turn", "begird", "--option", "board=small", "--moves", "e5; swap", "--level", "easy")
    assert status == 0
    turn = out.strip()
    status, out, _ = replay(capsys, "begird", "--option", "board=small", "--moves", f"e5; swap; {turn}", "--json")
    assert status == 0 and json.loads(out)["ply"] == 3


def test_ai_json_has_turn_level_seconds_and_is_deterministic(capsys):
    argv = ["turn", "bide", "--option", "side=4", "--moves", "bide; bide", "--level", "easy", "--seed", "7", "--json"]
    _, out, _ = run(capsys, *argv)
    doc = json.loads(out)
    assert set(doc) == {"turn", "level", "seconds"}
    assert doc["level"] == "easy" and isinstance(doc["seconds"], float) and doc["seconds"] >= 0
    _, again, _ = run(capsys, *argv)
    assert json.loads(again)["turn"] == doc["turn"]


def test_ai_from_a_position_file_finds_the_winning_release(tmp_path, capsys):
    path = tmp_path / "finish.json"
    path.write_text(json.dumps(BIDE_FINISH))
    status, out, _ = run(capsys, "turn", "bide", "--option", "side=4", "--position", str(path), "--json")
    assert status == 0
    status, out, _ = replay(
        capsys, "bide", "--option", "side=4", "--position", str(path), "--moves", json.loads(out)["turn"], "--json"
    )
    assert json.loads(out)["winners"] == [1]


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["turn", "bide", "--level", "godlike"], "unknown level"),
        (["turn", "bide", "--moves", "e5; e5"], "turn 2 (e5)"),
        (["turn", "begird", "--option", "board=y", "--position", "/nonexistent.json"], "cannot read"),
        (["turn", "chess"], "unknown game"),
        (["replay", "bide"], "invalid choice"),
        (["arena", "bide", "--a", "easy", "--b", "nobody"], "unknown level"),
        (["arena", "bide", "--a", "easy", "--b", "easy", "--games", "0"], "at least 1"),
        (["arena", "begird", "--players", "3", "--a", "easy", "--b", "easy"], "2 players"),
    ],
)
def test_bad_ai_input_is_a_clear_error(capsys, argv, fragment):
    status, out, _ = run(capsys, *argv, "--json")
    assert status == 2
    assert fragment in json.loads(out)["error"]


def test_ai_on_a_finished_game_says_there_is_no_turn(tmp_path, capsys):
    path = tmp_path / "finish.json"
    path.write_text(json.dumps(BIDE_FINISH))
    status, out, _ = run(
        capsys, "turn", "bide", "--option", "side=4", "--position", str(path), "--moves", "e3,b2,c3", "--json"
    )
    assert status == 2 and "the game is over" in json.loads(out)["error"]


def test_arena_prints_the_win_rate_of_a_with_a_confidence_interval(capsys):
    status, out, _ = run(
        capsys, "arena", "begird", "--option", "board=y", "--a", "easy", "--b", "random", "--games", "4", "--json"
    )
    assert status == 0
    doc = json.loads(out)
    assert doc["games"] == 4 and 0 <= doc["ci95"][0] <= doc["rate"] <= doc["ci95"][1] <= 1
    assert set(doc["seconds_per_turn"]) == {"easy", "random"}
    status, out, _ = run(
        capsys, "arena", "begird", "--option", "board=y", "--a", "easy", "--b", "random", "--games", "2", "--quiet"
    )
    assert status == 0 and "easy vs random: easy scores" in out and "95% CI" in out


def test_module_entry_point_never_prints_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "ai", "turn", "bide", "--position", "-", "--json"],
        input="{not json",
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    assert "not valid JSON" in json.loads(result.stdout)["error"]


@pytest.mark.parametrize("command,new", [("ai", "python -m ai turn"), ("arena", "python -m ai arena")])
def test_games_says_where_its_old_ai_commands_went(capsys, command, new):
    status = games_main([command, "bide", "--json"])
    assert status == 2
    assert f"run {new} bide --json" in json.loads(capsys.readouterr().out)["error"]


def test_games_imports_nothing_outside_games():
    for path in sorted(Path(__file__).resolve().parents[1].joinpath("games").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                tops = {node.module.split(".")[0]}
            elif isinstance(node, ast.Import):
                tops = {alias.name.split(".")[0] for alias in node.names}
            else:
                continue
            assert not tops & {"ai", "render", "bot", "emulator", "sandbox"}, f"{path.name} imports {tops}"
    code = "import sys, games, games.cli; games.cli.main(['list']); print('ai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("False")
