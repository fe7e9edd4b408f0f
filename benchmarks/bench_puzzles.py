"""Finding puzzles (issue 36): proof CPU per candidate and the share of candidates kept, per game.

For each game, ``--games`` games of the easy computer against itself (``ai.puzzles.self_play_game``, seeds
0, 1, …) are searched position by position as the bot's background search does: the cheap filter
(``worth_proving``), then the bounded proof at the default budget (``ai.puzzles.DEFAULT_BUDGET``). Printed per
game: positions, the share the filter passed, what the proofs said (puzzle / no win / not unique / unknown:
over budget), the share kept, the proofs' CPU seconds (mean, 95th percentile, most), and a baseline measured in
the same run on the same machine: one /hint search (the medium level) of a middle position.

Run: nice -n 10 .venv/bin/python benchmarks/bench_puzzles.py [--games 3]
Results: benchmarks/results/bench_puzzles-<date>.txt
"""

from __future__ import annotations

import argparse
import collections
import datetime
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai import choose_turn  # noqa: E402
from ai.puzzles import DEFAULT_BUDGET, attempts_from_game, self_play_game  # noqa: E402
from ai.puzzles.candidates import positions  # noqa: E402

GAMES = ("begird", "playbai", "bump", "bide")


def measure(game_id: str, games: int) -> dict:
    outcomes: collections.Counter[str] = collections.Counter()
    proof_seconds: list[float] = []
    hint_seconds: list[float] = []
    for seed in range(games):
        start, moves = self_play_game(game_id, seed)
        for attempt in attempts_from_game(start, moves, missed=False):
            outcomes[attempt.outcome] += 1
            if attempt.outcome != "filtered":
                proof_seconds.append(attempt.seconds)
        middle = [game for _, game, _ in positions(start, moves)][len(moves) // 2]
        began = time.process_time()
        choose_turn(middle, "medium", seed=seed)
        hint_seconds.append(time.process_time() - began)
    proofs = sorted(proof_seconds) or [0.0]
    return {
        "positions": sum(outcomes.values()),
        "outcomes": outcomes,
        "mean": statistics.fmean(proofs),
        "p95": proofs[min(len(proofs) - 1, int(0.95 * len(proofs)))],
        "most": proofs[-1],
        "hint": statistics.fmean(hint_seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="self-play games per game")
    args = parser.parse_args()
    lines = [
        f"puzzle search, {args.games} self-play games each, budget {DEFAULT_BUDGET.nodes} nodes / "
        f"{DEFAULT_BUDGET.seconds} CPU s per proof",
        f"{'game':<8} {'positions':>9} {'passed':>7} {'puzzle':>6} {'no win':>6} {'not uniq':>8} {'unknown':>7} "
        f"{'kept %':>6} {'proof s mean':>12} {'p95':>6} {'most':>6} {'1 hint s':>8}",
    ]
    print(lines[0], flush=True)
    print(lines[1], flush=True)
    for game_id in GAMES:
        m = measure(game_id, args.games)
        o = m["outcomes"]
        passed = m["positions"] - o["filtered"]
        kept = 100 * o["puzzle"] / passed if passed else 0.0
        line = (
            f"{game_id:<8} {m['positions']:>9} {passed:>7} {o['puzzle']:>6} {o['no win'] + o['not missed']:>6} "
            f"{o['not unique']:>8} {o['unknown']:>7} {kept:>6.1f} {m['mean']:>12.3f} {m['p95']:>6.2f} "
            f"{m['most']:>6.2f} {m['hint']:>8.2f}"
        )
        print(line, flush=True)
        lines.append(line)
    out = ROOT / "benchmarks" / "results" / f"bench_puzzles-{datetime.date.today()}.txt"
    out.write_text("\n".join(lines) + "\n")
    print(f"written to {out}")


if __name__ == "__main__":
    main()
