"""A review with and without the bound of the turn played (``ai.review.chances_shown``), against a deep search.

For each two-player game, the game of ``bench_review.py`` (60 turns by the easy computer, ``--seed``) is reviewed
once at the review budget, and its chances are shown two ways: as the searches gave them (forced turns filled,
:func:`ai.review.chances_filled`) and with the bound (:func:`ai.review.chances_shown`). Each is printed with its
swing and its distance from a deep search of the same positions (``bench_review.py``'s ``deep_reference``, at
``--deep`` simulations, scaled per game), in points; the mean gap between each turn's drop and the deep search's
drop for that turn ("drop gap", points); and the review's labels and accuracies either way.

Run: .venv/bin/python benchmarks/bench_review_bound.py [--seed 1] [--deep 1500] [--game bump] [--label NAME]
Results: benchmarks/results/bench_review_bound-<date>[-<game>...][-<label>].txt
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_review import GAMES, deep_reference, from_deep, games_part, played_game, swing  # noqa: E402

from ai.review import REVIEW_BUDGET, GameReview, assess, chances_filled, chances_shown, verdicts  # noqa: E402


def described(review: GameReview) -> str:
    labels = Counter(t.label for t in review.turns if t.label)
    counts = "/".join(str(labels[name]) for name in ("inaccuracy", "mistake", "blunder"))
    return f"{counts:>9} {', '.join(f'{review.accuracy.get(p, 0):.1f}' for p in (1, 2)):>11}"


def drop_gap(review: GameReview, reference: list[float | None]) -> float:
    """Mean absolute difference, in points, between each turn's drop and the drop of the mover's chance in
    ``reference`` (the first player's, by position) over the same turn, where the reference says both."""
    gaps = []
    for turn in review.turns:
        before, after = reference[turn.index], reference[turn.index + 1]
        if before is None or after is None:
            continue
        if turn.player == 2:
            before, after = 1 - before, 1 - after
        gaps.append(abs(turn.drop - max(0.0, before - after)))
    return 100 * statistics.fmean(gaps) if gaps else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deep", type=int, default=1500)
    parser.add_argument("--game", action="append", choices=[game_id for game_id, _ in GAMES])
    parser.add_argument("--label", help="added to the results file's name (another run of the same day and games)")
    args = parser.parse_args()
    lines = [
        f"bench_review_bound {datetime.date.today()}: review budget {REVIEW_BUDGET.simulations} simulations (scaled "
        f"per game), cap {REVIEW_BUDGET.seconds} CPU s; deep reference {args.deep} simulations, no cap, no early stop; "
        f"games of 60 turns by the easy computer, seed {args.seed}; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"{'game':8} {'turns':>5} {'chances':>9} {'swing':>6} {'from deep':>10} {'drop gap':>9} "
        f"{'labels i/m/b':>12} {'accuracy':>11}",
    ]
    for line in lines:
        print(line, flush=True)
    for game_id, options in GAMES:
        if args.game and game_id not in args.game:
            continue
        start, notations = played_game(game_id, options, 60, args.seed)
        game, views, movers = start.copy(), [], []
        for k, notation in enumerate(notations):
            movers.append(game.player_of_seat(game.to_move or 0))
            views.append(assess(game, notation, seed=k))
            game.play_turn(notation)
        views.append(assess(game, None))
        began = time.process_time()
        reference = deep_reference(game_id, options, notations, args.deep)
        deep_cpu = time.process_time() - began
        ways = {"searched": chances_filled(views, 2), "bounded": chances_shown(views, movers, 2)}
        for way, chances in ways.items():
            series = [list(c) for c in chances]
            review = verdicts(chances, views, notations, movers, 2)
            line = (
                f"{game_id:8} {len(notations):>5} {way:>9} {swing(series):>6.1f} {from_deep(series, reference):>10.1f} "
                f"{drop_gap(review, reference):>9.1f} {described(review)}"
            )
            lines.append(line)
            print(line, flush=True)
        line = f"{game_id:8} {len(notations):>5} {'deep':>9} {swing([[r] for r in reference if r is not None]):>6.1f}"
        lines.append(f"{line}  ({deep_cpu:.0f} CPU s)")
        print(lines[-1], flush=True)
    # a run of some games, or a labelled one, has its own file: the whole run's is not overwritten
    out = ROOT / "benchmarks" / "results" / f"bench_review_bound-{datetime.date.today()}{games_part(args)}.txt"
    out.write_text("\n".join(lines) + "\n")
    print(f"saved {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
