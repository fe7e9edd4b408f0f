"""benchmarks/bench_ai.py: saved games resume, are counted once, and make the figures table."""

import json

from tests.scripts import load_script


def load_bench():
    return load_script("benchmarks/bench_ai.py")


def test_saved_games_resume_count_once_and_fill_the_table(tmp_path):
    bench = load_bench()
    first = bench.Pair("begird", 2, "random", "random", 2, 0, 300, tmp_path)
    played = [first.play_next()["k"], first.play_next()["k"]]
    assert played == [0, 1] and len(first.done) == 2
    path = bench.result_path(tmp_path, "begird", 2, "random", "random", 0)
    lines = path.read_text().splitlines()
    with path.open("a") as f:  # a game replayed by a second run is the same game, counted once
        f.write(lines[0] + "\n")
    again = bench.Pair("begird", 2, "random", "random", 3, 0, 300, tmp_path)
    assert again.done == {0, 1}
    record = again.play_next()
    assert record["k"] == 2 and record["max_turns"] is None  # Begird always ends: no turn cap
    assert json.loads(path.read_text().splitlines()[-1])["k"] == 2
    table = bench.table(tmp_path)
    row = next(line for line in table.splitlines() if "random vs random" in line)
    score = sum(r["score_a"] for r in bench.load_records(path))
    assert "| 3 | 0 |" in row and f"{score / 3:.1%}" in row
    assert "| begird 2p | random | " in table  # seconds per turn at the level


def test_replayed_game_is_identical():
    bench = load_bench()
    from ai.arena import play_one

    one = play_one("begird", "easy", "random", 1, None, {"board": "y"}, 7)
    two = play_one("begird", "easy", "random", 1, None, {"board": "y"}, 7)
    assert one[:2] == two[:2] and one[3] == two[3]
    assert bench.turn_cap("bump", 300) == 300 and bench.turn_cap("bide", 300) is None


def test_like_replays_exactly_the_saved_games(tmp_path, capsys, monkeypatch):
    bench = load_bench()
    saved, again = tmp_path / "saved", tmp_path / "again"
    saved.mkdir()
    pair = bench.Pair("begird", 2, "random", "random", 2, 4, 300, saved)
    pair.play_next(), pair.play_next()
    monkeypatch.setattr("sys.argv", ["bench_ai.py", "--like", str(saved), "--out", str(again)])
    assert bench.main() == 0
    assert "random vs random: random scores" in capsys.readouterr().out
    original = bench.load_records(bench.result_path(saved, "begird", 2, "random", "random", 4))
    replayed = bench.load_records(bench.result_path(again, "begird", 2, "random", "random", 4))
    strip = [{k: v for k, v in r.items() if k not in ("cpu", "seconds", "ai")} for r in original]
    assert [{k: v for k, v in r.items() if k not in ("cpu", "seconds", "ai")} for r in replayed] == strip


def test_the_table_judges_each_pair_against_its_aim(tmp_path):
    """A level must beat the one below (strictly above 50% / 60%) and reach its aims against the others."""
    bench = load_bench()

    def save(a, b, wins, games, players=2):
        path = bench.result_path(tmp_path, "bide", players, a, b, 0)
        with path.open("w") as f:
            for k in range(games):
                f.write(
                    json.dumps(
                        {
                            "game": "bide",
                            "players": players,
                            "a": a,
                            "b": b,
                            "seed": 0,
                            "k": k,
                            "score_a": 1.0 if k < wins else 0.0,
                            "ply": 60,
                            "finished": True,
                            "seconds": {a: [0.1], b: [0.1]},
                        }
                    )
                    + "\n"
                )

    save("hard", "medium", 80, 100, players=4)  # interval 71–87%: above 50% throughout
    save("medium", "easy", 60, 100)  # exactly 60% is not "above 60%"
    save("hard", "easy", 15, 20)  # exactly 75% reaches "≥75%", but not across the interval
    save("hard", "random", 10, 20)  # the whole interval is below 95%
    rows = {line.split("|")[2].strip(): line for line in bench.table(tmp_path).splitlines() if " vs " in line}
    assert rows["hard vs medium"].endswith("| >50% | shown |")
    assert rows["medium vs easy"].endswith("| >60% | unclear |")
    assert rows["hard vs easy"].endswith("| ≥75% | likely |")
    assert rows["hard vs random"].endswith("| ≥95% | missed |")
