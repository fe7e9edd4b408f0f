"""Fit Play Bai's lean (ai/knowledge/playbai.py, ``SET_WEIGHTS``) to who scored each set's goal, and measure it.

    python benchmarks/fit_playbai_eval.py [--seeds 0 1 2 3 4 5] [--held-out 4 5]

The positions are those of the cross-version arena's recorded Play Bai games
(``benchmarks/results/ai/versions-playbai-*.jsonl`` whose summary ``.txt`` names the run's seed and its
2 opening plies: each game is replayed from its opening; the runs of ``--seeds``, by default those the
shipped weights were fitted to, seeds 0-5). Every position where a playballer holds the ball
and whose set ended in a goal is kept with the seat that scored that goal. A position's features, for the
carrier: 1, the ball's closeness to the zones it attacks, and whether the opponent moves next with a
playballer next to the carrier (a jump over the carrier takes the ball). ``--reach`` adds an opponent at
distance 2 and 3 (a turn has three moves): it fits the games better but misjudges reach, a jump crossing a
line of playballers in one move, so the shipped lean leaves it out. The weights are a logistic regression
(Newton's method, a small ridge) on the games of the seeds not held out; it prints the held-out
cross-entropy of the hand-set lean (``set_chance``), of the weights just fitted and of the shipped
``SET_WEIGHTS``, how often a carrier next to an opponent about to move scored, and then the weights to
paste (fitted on every game).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from arena_versions import opening  # noqa: E402

from ai.knowledge.playbai import (  # noqa: E402
    SET_WEIGHTS,
    _closeness,
    cell_distances,
    fitted_set_chance,
    set_chance,
)
from games.playbai import PlayBai  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "ai"
SEED = re.compile(r"seed (\d+), 2 opening plies")

#: (run seed, carrier seat, closeness, carrier moves next, nearest opponent's distance when it moves next
#: (1-3, else 0), scorer seat)
Sample = tuple[int, int, float, bool, int, int]


#: The run seeds the shipped SET_WEIGHTS were fitted to (later runs are not in the fit).
FITTED_SEEDS = tuple(range(6))


def recorded_games(seeds: tuple[int, ...] = FITTED_SEEDS, results: Path = RESULTS) -> Iterator[tuple[int, dict]]:
    """Each recorded Play Bai arena game of a run of ``seeds`` with its run's seed (runs whose summary names
    it)."""
    for path in sorted(results.glob("versions-playbai-*.jsonl")):
        summary = path.with_suffix(".txt")
        match = SEED.search(summary.read_text()) if summary.exists() else None
        if match is None or int(match.group(1)) not in seeds:
            continue
        for line in path.read_text().splitlines():
            yield int(match.group(1)), json.loads(line)


def samples(seeds: tuple[int, ...] = FITTED_SEEDS, results: Path = RESULTS) -> list[Sample]:
    """Every position of the recorded games where the ball is held, with the scorer of its set's goal."""
    out: list[Sample] = []
    for seed, record in recorded_games(seeds, results):
        game = opening("playbai", 2, {}, 2, seed * 1_000_003 + record["pair"])
        assert isinstance(game, PlayBai)
        side = game.options["side"]
        pending: list[tuple[int, float, bool, int]] = []
        for turn in record["turns"]:
            carrier = game.carrier()
            if carrier:
                moves = game.to_move == carrier
                opponents = [c for c, s in enumerate(game.seat_of) if s == 3 - carrier]
                near = min(cell_distances(side)[game.ball][c] for c in opponents)
                danger = 0 if moves or near > 3 else near
                pending.append((carrier, _closeness(side, carrier)[game.ball], moves, danger))
            goals = list(game.goals)
            game.play_turn(turn)
            if list(game.goals) != goals:
                scorer = 1 if game.goals[0] > goals[0] else 2
                out.extend((seed, *p, scorer) for p in pending)
                pending = []
    return out


def design(sample: Sample, reach: bool = False) -> list[float]:
    """The carrier's features, signed for seat 1 (the model gives seat 1's log-odds)."""
    _, carrier, closeness, _, danger, _ = sample
    sign = 1.0 if carrier == 1 else -1.0
    features = [1.0, closeness, -float(danger == 1)]
    if reach:
        features += [-float(danger == 2), -float(danger == 3)]
    return [sign * f for f in features]


def fit(data: list[Sample], reach: bool = False, ridge: float = 0.1, rounds: int = 30) -> np.ndarray:
    """Logistic regression of "seat 1 scored" on :func:`design`, by Newton's method with a ridge."""
    z = np.array([design(s, reach) for s in data])
    y = np.array([1.0 if s[5] == 1 else 0.0 for s in data])
    theta = np.zeros(z.shape[1])
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-z @ theta))
        grad = z.T @ (p - y) + ridge * theta
        hess = (z * (p * (1 - p))[:, None]).T @ z + ridge * np.eye(len(theta))
        theta -= np.linalg.solve(hess, grad)
    return theta


def cross_entropy(data: list[Sample], chance: Callable[[Sample], float]) -> float:
    """Mean -log of the chance given to the seat that scored (seat 1's chance from ``chance``)."""
    total = 0.0
    for s in data:
        p = min(max(chance(s), 1e-9), 1 - 1e-9)
        total -= math.log(p if s[5] == 1 else 1 - p)
    return total / len(data)


def hand_set(s: Sample) -> float:
    return set_chance(s[1], s[2], s[3])


def by_weights(weights: tuple[float, ...]) -> Callable[[Sample], float]:
    """Seat 1's chance by ``weights`` (3 of them as shipped, 5 with ``--reach``)."""
    if len(weights) == 3:
        return lambda s: fitted_set_chance(s[1], s[2], s[4] == 1, weights)
    return lambda s: 1.0 / (1.0 + math.exp(-float(np.dot(design(s, True), weights))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=list(FITTED_SEEDS), help="the runs' seeds")
    parser.add_argument("--reach", action="store_true", help="add an opponent at distance 2 and 3")
    parser.add_argument("--held-out", type=int, nargs="+", default=[4, 5], help="run seeds held out of the fit")
    args = parser.parse_args(argv)
    data = samples(tuple(args.seeds))
    train = [s for s in data if s[0] not in args.held_out]
    test = [s for s in data if s[0] in args.held_out]
    print(f"{len(data)} positions with the ball held ({len(train)} to fit, {len(test)} held out)")
    theta = tuple(float(x) for x in fit(train, args.reach))
    hand, fitted = cross_entropy(test, hand_set), cross_entropy(test, by_weights(theta))
    shipped = cross_entropy(test, by_weights(SET_WEIGHTS))
    print(f"held-out cross-entropy: hand-set {hand:.3f}, fitted {fitted:.3f}, shipped {shipped:.3f}")
    near = [s for s in data if s[4] == 1]
    kept = sum(s[1] == s[5] for s in near)
    print(f"a carrier next to an opponent about to move scored {kept} of {len(near)}")
    every = fit(data, args.reach)
    print("SET_WEIGHTS = (" + ", ".join(f"{x:.2f}" for x in every) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
