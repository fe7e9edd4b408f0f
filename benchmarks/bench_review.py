"""CPU seconds of a post-game review (issue 23) per 60-turn two-player game, beside baselines of the same run.

For each two-player game, a game of 60 turns is played by the easy computer on both sides (or until it ends,
if sooner: Play Bai's games are short), then reviewed at the bot's review budget (``ai.review.REVIEW_BUDGET``,
or ``--simulations``): one search per position, as the bot runs them one by one in its pool. Printed per game:
the review's CPU seconds (measured, and projected to 61 positions when the game was shorter), seconds per
position, and two baselines measured on the same machine in the same run: replaying the game's turns, and one
/hint search (the medium level) of the game's middle position. The target: at most 30 s per 60-turn game.

Run: .venv/bin/python benchmarks/bench_review.py [--simulations 400] [--turns 60] [--seed 1] [--game playbai]
Results: benchmarks/results/bench_review-<date>.txt

Side by side with another version (issue 39): ``--baseline TREE`` reviews the same games (played by this
tree's easy computer) through each tree's own ``ai.review.assess`` (benchmarks/review_side.py, each in its
own process), at ``--simulations`` for this tree and ``--baseline-simulations`` for the baseline, and prints
for each: CPU seconds, simulations per position, and how much the first player's chance swings from one
position to the next (mean absolute change, in points: lower is steadier) as the review shows it (its graph:
``ai.review.judge``'s chances) and as the searches gave it ("searches' swing"). ``--graphs DIR`` draws each
review's evaluation graph (render/review.py) as ``DIR/<game>-<side>.png``.

``--deep N`` adds a reference: every position searched again by this tree at N simulations (scaled per game),
without a CPU cap and without the early stop, scored by its chosen turn's mean (:func:`deep_reference`); each
side's "from deep" is the mean distance of its first player's chance as shown from the reference's, in points (lower
is nearer), and its "swing off deep" (:func:`swing_off_deep`) how much its chances zig-zag around the reference's:
a swing the deep search shares is not counted, and a flat review where the deep search swings is. Its graph is
``DIR/<game>-deep.png``.

``--option KEY=VALUE`` (repeatable) reviews a variant: the option on top of each game's own (``side=6``,
``expert=true`` for Play Bai); the results file's name says it.

``--repeats R`` reviews each game R times on each side, review ``r`` with seeds ``r * 1000 + k``, and adds the
"dice spread" (:func:`dice_spread`): how far the reviews of the same game disagree at the same position, the
noise of a verdict that a swing measure cannot tell from a real change (a review can be flat and wrong).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai import choose_turn  # noqa: E402
from ai.knowledge import knowledge_for  # noqa: E402
from ai.mcts import MCTS, SearchResult  # noqa: E402
from ai.review import REVIEW_BUDGET, ReviewBudget, assess, judge  # noqa: E402
from ai.search import Budget, scaled_simulations  # noqa: E402
from games.cli import parse_options  # noqa: E402
from games.registry import new_game  # noqa: E402

#: With ``--repeats``, review ``r`` searches position ``k`` with seed ``r * SEED_STRIDE + k``.
SEED_STRIDE = 1000
#: The deep reference's seeds: position ``k`` is searched with ``DEEP_SEED + k`` (not the review's ``k``).
DEEP_SEED = 10_000
GAMES: tuple[tuple[str, dict[str, object]], ...] = (("bide", {}), ("begird", {}), ("playbai", {}), ("bump", {}))
TARGET = 30.0


def played_game(game_id: str, options: dict, turns: int, seed: int):
    game = new_game(game_id, 2, options)
    start = game.copy()
    notations: list[str] = []
    while not game.is_over and len(notations) < turns:
        notation = choose_turn(game, "easy", seed=seed + len(notations)).turn.notation
        game.play_turn(notation)
        notations.append(notation)
    return start, notations


def measure(game_id: str, options: dict, budget: ReviewBudget, turns: int, seed: int) -> dict:
    start, notations = played_game(game_id, options, turns, seed)
    began = time.process_time()
    replay = start.copy()
    for notation in notations:
        replay.play_turn(notation)
    replay_cpu = time.process_time() - began

    middle = start.copy()
    for notation in notations[: len(notations) // 2]:
        middle.play_turn(notation)
    began = time.process_time()
    if not middle.is_over:
        choose_turn(middle, "medium", seed=seed)
    hint_cpu = time.process_time() - began

    game = start.copy()
    views, movers, slowest = [], [], 0.0
    began = time.process_time()
    for k, notation in enumerate(notations):
        movers.append(game.player_of_seat(game.to_move))
        position_began = time.process_time()
        views.append(assess(game, notation, budget, seed=k))
        slowest = max(slowest, time.process_time() - position_began)
        game.play_turn(notation)
    views.append(assess(game, None, budget))
    review = judge(views, notations, movers, 2)
    review_cpu = time.process_time() - began
    positions = len(notations) + 1
    return {
        "game": game_id,
        "turns": len(notations),
        "review": review_cpu,
        "per_position": review_cpu / positions,
        "slowest": slowest,
        "projected": review_cpu / positions * (turns + 1),
        "replay": replay_cpu,
        "hint": hint_cpu,
        "accuracy": review.accuracy,
    }


def review_in(
    tree: Path, game_id: str, options: dict, notations: list[str], simulations: int, seed_offset: int = 0
) -> dict:
    """The review of a game by the version in ``tree`` (its own code, its own process); position ``k`` is
    searched with seed ``seed_offset + k`` (a match's review: 0)."""
    request = {
        "game": game_id,
        "options": options,
        "notations": notations,
        "simulations": simulations,
        "seconds": REVIEW_BUDGET.seconds,
        "seed_offset": seed_offset,
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "review_side.py")],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    return json.loads(done.stdout)


def chosen(args: argparse.Namespace) -> list[tuple[str, dict[str, object]]]:
    """The games asked for with ``--game`` (every two-player game when none is), with the ``--option`` pairs
    (a variant: ``side=6``, ``expert=true``) on top of each game's own."""
    extra = parse_options(getattr(args, "option", None) or [])
    return [(game_id, {**options, **extra}) for game_id, options in GAMES if not args.game or game_id in args.game]


def games_part(args: argparse.Namespace) -> str:
    """A results file's name part for a run of some games only (a whole run's file is not overwritten), and
    the run's ``--label``."""
    games = "".join(f"-{game_id}" for game_id in args.game) if args.game else ""
    variant = "".join(f"-{key}{value}" for key, value in parse_options(getattr(args, "option", None) or []).items())
    return games + variant + (f"-{args.label}" if args.label else "")


def swing(chances: list[list[float]]) -> float:
    """Mean absolute change of the first player's chance between neighbouring positions, in points."""
    series = [c[0] for c in chances if c]
    return 100 * statistics.fmean(abs(b - a) for a, b in itertools.pairwise(series)) if len(series) > 1 else 0.0


def dice_spread(reviews: list[list[list[float]]]) -> float:
    """How much a review's verdicts depend on its search's dice: the same game reviewed with other seeds, the
    standard deviation of the first player's chance at each position across the reviews, in points, averaged
    over the positions every review scores. A real swing is in every review; noise differs from seed to seed."""
    spreads = [statistics.pstdev(c[0] for c in position) for position in zip(*reviews, strict=True) if all(position)]
    return 100 * statistics.fmean(spreads) if spreads else 0.0


def chosen_values(result: SearchResult) -> tuple[float, ...]:
    """Each player's value of a searched position by its chosen turn: exact when proven, else the mean of the
    simulations through it; where it has none (a forced or solved root, a turn chosen unvisited), the search's
    own position values."""
    chosen = result.subtree
    if chosen is None:
        return result.position_values
    if chosen.solved is not None:
        return chosen.solved
    if chosen.visits:
        return tuple(v / chosen.visits for v in chosen.value)
    return result.position_values


def deep_reference(game_id: str, options: dict, notations: list[str], simulations: int) -> list[float | None]:
    """The first player's chance at each position (the start, then after each turn) by a deep search of this
    tree: ``simulations`` scaled per game, no CPU cap, no early stop, scored by its chosen turn's mean (the
    standard value of a search; exact where the game is over or the search proved it). None where the turn
    was forced (nothing to choose)."""
    game = new_game(game_id, 2, options)
    reference: list[float | None] = []
    for k, notation in enumerate([*notations, None]):
        if game.is_over:
            values = assess(game, None).chances
        else:
            know = knowledge_for(game)
            mcts = MCTS(
                know, random.Random(DEEP_SEED + k), simulations=scaled_simulations(Budget(simulations), know, game)
            )
            mcts.check_every = sys.maxsize  # every simulation is made: the reference is the budget's, not a choice's
            values = chosen_values(mcts.search(game))
        reference.append(values[0] / sum(values) if values and sum(values) > 0 else None)
        if notation is not None:
            game.play_turn(notation)
    return reference


def from_deep(chances: list[list[float]], reference: list[float | None]) -> float:
    """Mean absolute distance of the first player's chance from the reference's, in points, over the
    positions where both say one."""
    gaps = [abs(c[0] - r) for c, r in zip(chances, reference, strict=True) if c and r is not None]
    return 100 * statistics.fmean(gaps) if gaps else 0.0


def swing_off_deep(chances: list[list[float]], reference: list[float | None]) -> float:
    """How much a review's chances zig-zag around the reference's: the mean change, from one position to the next,
    of the first player's chance minus the reference's, in points, over the positions both score. A swing the deep
    search shares counts nothing; a flat review where the deep search swings counts its swing."""
    gaps = [c[0] - r for c, r in zip(chances, reference, strict=True) if c and r is not None]
    return 100 * statistics.fmean(abs(b - a) for a, b in itertools.pairwise(gaps)) if len(gaps) > 1 else 0.0


def side_by_side(args: argparse.Namespace) -> None:
    baseline = args.baseline.resolve()
    lines = [
        f"bench_review {datetime.date.today()} side by side: this tree at {args.simulations} simulations, "
        f"{baseline} at {args.baseline_simulations} (scaled per game), cap {REVIEW_BUDGET.seconds} CPU s a position; "
        f"games of {args.turns} turns by this tree's easy computer, seed {args.seed}"
        + (f", options {' '.join(args.option)}" if args.option else "")
        + f"; {os.cpu_count()} CPUs, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        + (f"; deep reference: this tree at {args.deep} simulations, no cap, no early stop" if args.deep else ""),
        f"{'game':8} {'turns':>5} {'side':>9} {'review CPU s':>12} {'simulations/position':>21} {'swing (points)':>15}"
        f" {'from deep (points)':>19} {'searches swing':>15} {'swing off deep':>15}"
        + (f" {'dice spread':>12}" if args.repeats > 1 else ""),
    ]
    if args.repeats > 1:
        lines.insert(
            1,
            f"each side reviews each game {args.repeats} times, position k searched with seed r*{SEED_STRIDE} + k "
            "(r = 0 is a match's review); CPU, simulations, swing and distance are the reviews' means, dice spread "
            "the chances' standard deviation across them (bench_review.dice_spread)",
        )
    for line in lines:
        print(line, flush=True)
    for game_id, options in chosen(args):
        _start, notations = played_game(game_id, options, args.turns, args.seed)
        reviews = {
            side: [
                review_in(tree, game_id, options, notations, simulations, r * SEED_STRIDE) for r in range(args.repeats)
            ]
            for side, tree, simulations in (
                ("baseline", baseline, args.baseline_simulations),
                ("new", ROOT, args.simulations),
            )
        }
        reference = deep_reference(game_id, options, notations, args.deep) if args.deep else None
        if reference is not None:
            deep = [[r, 1 - r] if r is not None else [] for r in reference]
            line = f"{game_id:8} {len(notations):>5} {'deep':>9} {'':>12} {args.deep:>21} {swing(deep):>15.1f}"
            lines.append(line)
            print(line, flush=True)
            if args.graphs:
                draw(args.graphs, game_id, "deep", deep, None)
        for side, repeated in reviews.items():
            shown = [review["shown"] for review in repeated]
            distance, off_deep = (
                (
                    f"{statistics.fmean(from_deep(s, reference) for s in shown):>19.1f}",
                    f"{statistics.fmean(swing_off_deep(s, reference) for s in shown):>15.1f}",
                )
                if reference is not None
                else (f"{'-':>19}", f"{'-':>15}")
            )
            line = (
                f"{game_id:8} {len(notations):>5} {side:>9} "
                f"{statistics.fmean(sum(review['seconds']) for review in repeated):>12.1f} "
                f"{statistics.fmean(statistics.fmean(review['simulations']) for review in repeated):>21.0f} "
                f"{statistics.fmean(swing(s) for s in shown):>15.1f} {distance} "
                f"{statistics.fmean(swing(review['chances']) for review in repeated):>15.1f} {off_deep}"
                + (f" {dice_spread(shown):>12.1f}" if args.repeats > 1 else "")
            )
            lines.append(line)
            print(line, flush=True)
            if args.graphs:
                draw(args.graphs, game_id, side, shown[0], sum(repeated[0]["seconds"]))
    out = ROOT / "benchmarks" / "results" / f"bench_review-versions-{datetime.date.today()}{games_part(args)}.txt"
    out.write_text("\n".join(lines) + "\n")
    print(f"saved {out.relative_to(ROOT)}")


def draw(directory: Path, game_id: str, side: str, chances: list[list[float]], seconds: float | None) -> None:
    """A review's evaluation graph (render/review.py) as ``directory/<game>-<side>.png``."""
    from render.review import evaluation_graph

    directory.mkdir(parents=True, exist_ok=True)
    cost = f" ({seconds:.0f} CPU s)" if seconds is not None else ""
    png = evaluation_graph(
        [c or [0.5, 0.5] for c in chances], ["first player", "second player"], title=f"{game_id}: {side} review{cost}"
    )
    (directory / f"{game_id}-{side}.png").write_bytes(png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulations", type=int, default=REVIEW_BUDGET.simulations)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", type=Path, help="another version's work tree: review the same games in both")
    parser.add_argument("--baseline-simulations", type=int, default=REVIEW_BUDGET.simulations)
    parser.add_argument("--graphs", type=Path, help="with --baseline: draw each review's graph here")
    parser.add_argument(
        "--deep", type=int, default=0, help="with --baseline: a deep search's reference at this many simulations"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="with --baseline: review each game this many times with other seeds and print the dice spread",
    )
    parser.add_argument("--label", help="added to the results file's name (another run of the same day and games)")
    parser.add_argument(
        "--game", action="append", choices=[game_id for game_id, _ in GAMES], help="only this game (repeatable)"
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option for the games reviewed"
    )
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats: at least 1")
    if args.baseline:
        side_by_side(args)
        return
    budget = ReviewBudget(args.simulations, REVIEW_BUDGET.seconds)
    lines = [
        f"bench_review {datetime.date.today()}: review budget {budget.simulations} simulations (scaled per game), "
        f"cap {budget.seconds} CPU s a position; games of {args.turns} turns by the easy computer, seed {args.seed}"
        + (f", options {' '.join(args.option)}" if args.option else ""),
        f"{'game':8} {'turns':>5} {'review s':>9} {'per 60 turns':>12} {'s/position':>10} {'slowest':>8} "
        f"{'replay s':>9} {'1 hint s':>8}  accuracy (1, 2)  target <= {TARGET:.0f} s",
    ]
    print(lines[0], flush=True)
    print(lines[1], flush=True)
    for game_id, options in chosen(args):
        m = measure(game_id, options, budget, args.turns, args.seed)
        verdict = "ok" if m["projected"] <= TARGET else "OVER"
        accuracy = ", ".join(f"{m['accuracy'].get(p, 0):.0f}" for p in (1, 2))
        line = (
            f"{m['game']:8} {m['turns']:>5} {m['review']:>9.1f} {m['projected']:>12.1f} {m['per_position']:>10.3f} "
            f"{m['slowest']:>8.2f} {m['replay']:>9.3f} {m['hint']:>8.2f}  ({accuracy})  {verdict}"
        )
        lines.append(line)
        print(line, flush=True)
    out = ROOT / "benchmarks" / "results" / f"bench_review-{datetime.date.today()}{games_part(args)}.txt"
    out.write_text("\n".join(lines) + "\n")
    print(f"saved {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
