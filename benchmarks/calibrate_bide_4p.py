"""How well four-seat Bide's cut playouts foretell the end (issue 39): the estimate against whole playouts.

    python benchmarks/calibrate_bide_4p.py [--playouts 12] [--every 4] [--seed 5]

Four-seat Bide's search cuts each playout after ``BideKnowledge.rollout_turns`` turns and scores where it stopped
by the fitted estimate (``ai/knowledge/bide_eval.py``, ``WEIGHTS_MORE_SEATS``); the old search played every
playout to the full board and scored it by ``margin_returns``. This measures, on positions of the recorded
four-seat arena games (``benchmarks/results/ai/versions-*bide-4p*.jsonl`` whose summary names the run's seed and
its 2 opening plies: each game replayed from its opening), every ``--every``-th ply, what each way of scoring a
simulation says of a position, averaged over ``--playouts`` seeded playouts from it, against two outcomes:

- the position's playouts played on to the end: their mean final ``returns`` (the winner's share, 1 to one
  seat), and their mean ``margin_returns`` (what the old search's simulations averaged to);
- the recorded game's real winner (what the search wants to see coming).

The ways of scoring: the playout cut after ``c`` turns (``--cuts``) and the estimate's utilities times a
sharpness ``k`` (1: as shipped), optionally played on to the end when no more than ``E`` empty points are left
at the cut (``whole``). The sharpness is fitted (by a grid, on the games whose index is not 3 modulo 4) to the
real winners; every loss printed is on the held-out games (index 3 modulo 4): cross-entropy (nats) and Brier
(squared distance summed over the seats).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from arena_versions import opening  # noqa: E402

from ai.knowledge import bide_eval  # noqa: E402
from ai.knowledge.bide import margin_returns  # noqa: E402
from ai.knowledge.bide_playout import PlayoutWeights  # noqa: E402
from ai.turns import returns_of  # noqa: E402
from games.bide import Bide  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "ai"
SEED = re.compile(r"seed (\d+), 2 opening plies")
SHARPNESS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0)
WHOLE = (0, 10, 15, 20, 25)


def recorded_games(results: Path = RESULTS) -> Iterator[tuple[Bide, list[str], tuple[int, ...]]]:
    """Each recorded four-seat Bide arena game: its opening position, its turns after it, its real winners."""
    for summary in sorted(results.glob("versions-*bide-4p*.txt")):
        match = SEED.search(summary.read_text())
        records = summary.with_suffix(".jsonl")
        if not match or not records.exists():
            continue
        seed = int(match.group(1))
        for line in records.read_text().splitlines():
            record = json.loads(line)
            if not record.get("finished", True):
                continue
            start = opening("bide", 4, {}, 2, seed * 1_000_003 + record["pair"])
            assert isinstance(start, Bide)
            game = start.copy()
            for turn in record["turns"]:
                game.play_turn(turn)
            if game.is_over and game.winners:
                yield start, record["turns"], tuple(game.winners)


@dataclass
class Playout:
    """One playout from a position: at each cut, the utilities (None where the playout had ended, then its
    ``margin_returns``) and the empty points left; and its end."""

    utilities: dict[int, list[float | None] | None] = field(default_factory=dict)
    ended_margin: dict[int, tuple[float, ...]] = field(default_factory=dict)
    empty: dict[int, int] = field(default_factory=dict)
    final_returns: tuple[float, ...] = ()
    final_margin: tuple[float, ...] = ()


@dataclass
class Position:
    game_index: int
    empty: int
    winner: np.ndarray  # the real game's returns (1 to its winner)
    playouts: list[Playout]


def play_out(game: Bide, cuts: tuple[int, ...], rng: random.Random) -> Playout:
    state = game.copy()
    playout = PlayoutWeights(state)
    out = Playout()
    turn = 0
    while True:
        if turn in cuts:
            out.empty[turn] = state.empty_count
            if state.is_over:
                out.utilities[turn] = None
                out.ended_margin[turn] = margin_returns(state)
            else:
                out.utilities[turn] = bide_eval.utilities(state)
        if state.is_over and turn >= max(cuts):
            break
        if not state.is_over:
            playout.play_turn(rng)
        turn += 1
    out.final_returns = returns_of(state)
    out.final_margin = margin_returns(state)
    return out


def positions(playouts: int, every: int, cuts: tuple[int, ...], seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for index, (start, turns, winners) in enumerate(recorded_games()):
        game = start.copy()
        winner = np.array([1.0 / len(winners) if s + 1 in winners else 0.0 for s in range(4)])
        for ply, turn in enumerate(turns):
            if ply % every == 0 and not game.is_over:
                out.append(
                    Position(index, game.empty_count, winner, [play_out(game, cuts, rng) for _ in range(playouts)])
                )
            game.play_turn(turn)
    return out


def value(p: Position, cut: int, k: float, whole: int) -> np.ndarray:
    """The search's mean value of ``p`` scored this way: playouts cut after ``cut`` turns, the estimate at
    sharpness ``k``, or the playout's end where it had ended or has at most ``whole`` empty points left."""
    total = np.zeros(4)
    for o in p.playouts:
        u = o.utilities[cut]
        if u is None:
            total += o.ended_margin[cut]
        elif o.empty[cut] <= whole:
            total += o.final_margin
        else:
            total += bide_eval.shares(u, k)  # the shipped estimate at sharpness k
    return total / len(p.playouts)


def whole_playout_value(p: Position, final: str) -> np.ndarray:
    return np.mean([getattr(o, final) for o in p.playouts], axis=0)


def cross_entropy(pred: list[np.ndarray], target: list[np.ndarray]) -> float:
    return float(np.mean([-np.sum(t * np.log(np.clip(q, 1e-9, 1.0))) for q, t in zip(pred, target, strict=True)]))


def brier(pred: list[np.ndarray], target: list[np.ndarray]) -> float:
    return float(np.mean([np.sum((q - t) ** 2) for q, t in zip(pred, target, strict=True)]))


BUCKETS = ((0, 15), (15, 30), (30, 45), (45, 62))


def report(name: str, held: list[Position], pred: list[np.ndarray]) -> None:
    real = [p.winner for p in held]
    wins = [whole_playout_value(p, "final_returns") for p in held]
    margins = [whole_playout_value(p, "final_margin") for p in held]
    parts = []
    for lo, hi in BUCKETS:
        inside = [(q, p.winner) for q, p in zip(pred, held, strict=True) if lo <= p.empty < hi]
        parts.append(f"{lo}-{hi - 1}: {cross_entropy([q for q, _ in inside], [t for _, t in inside]):.3f}")
    by_empty = "  ".join(parts)
    print(
        f"  {name:34s} real winner: CE {cross_entropy(pred, real):.4f} Brier {brier(pred, real):.4f} | "
        f"whole playouts' winners: CE {cross_entropy(pred, wins):.4f} | their margins: Brier "
        f"{brier(pred, margins):.4f} | CE to the real winner by empty points {by_empty}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--playouts", type=int, default=12)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--cuts", type=int, nargs="+", default=[0, 3, 6, 9, 12])
    args = parser.parse_args(argv)
    cuts = tuple(args.cuts)
    data = positions(args.playouts, args.every, cuts, args.seed)
    train = [p for p in data if p.game_index % 4 != 3]
    held = [p for p in data if p.game_index % 4 == 3]
    games = len({p.game_index for p in data})
    print(f"{games} recorded games, {len(train)} positions fitted, {len(held)} held out, {args.playouts} playouts each")
    fitted: dict[int, float] = {}
    for cut in cuts:
        losses = {k: cross_entropy([value(p, cut, k, 0) for p in train], [p.winner for p in train]) for k in SHARPNESS}
        fitted[cut] = min(losses, key=losses.__getitem__)
        grid = " ".join(f"{k}:{loss:.4f}" for k, loss in losses.items())
        print(f"  cut {cut:2d}: fitted sharpness {fitted[cut]} (train CE to the real winner by sharpness: {grid})")
    print("held out:")
    report("uniform", held, [np.full(4, 0.25) for _ in held])
    report("whole playouts, mean margin_returns", held, [whole_playout_value(p, "final_margin") for p in held])
    report("whole playouts, mean winner", held, [whole_playout_value(p, "final_returns") for p in held])
    for cut in cuts:
        report(f"cut {cut}, estimate as shipped", held, [value(p, cut, 1.0, 0) for p in held])
        report(f"cut {cut}, sharpness {fitted[cut]}", held, [value(p, cut, fitted[cut], 0) for p in held])
        for whole in WHOLE[1:]:
            report(
                f"cut {cut}, sharpness {fitted[cut]}, whole <={whole}",
                held,
                [value(p, cut, fitted[cut], whole) for p in held],
            )
    folds(data)
    return 0


#: The ways compared fold by fold: (name, cut, fitted sharpness or 1, whole-playout empty points)
CANDIDATES = (
    ("as shipped: cut 6", 6, False, 0),
    ("cut 6, fitted sharpness", 6, True, 0),
    ("cut 0, fitted sharpness", 0, True, 0),
    ("cut 0, fitted sharpness, whole <=15", 0, True, 15),
    ("cut 0, fitted sharpness, whole <=20", 0, True, 20),
    ("cut 3, fitted sharpness, whole <=20", 3, True, 20),
    ("cut 6, whole <=20", 6, False, 20),
)


def fitted_sharpness(train: list[Position], cut: int) -> float:
    """The sharpness of :data:`SHARPNESS` whose values at ``cut`` best foretell ``train``'s real winners."""
    losses = {k: cross_entropy([value(p, cut, k, 0) for p in train], [p.winner for p in train]) for k in SHARPNESS}
    return min(losses, key=losses.__getitem__)


def folds(data: list[Position]) -> None:
    """Each quarter of the games held out in turn (the sharpness fitted on the rest): held-out cross-entropy to
    the real winner of each candidate, and its gain over the shipped way with a bootstrap interval by game."""
    print("by fold (games whose index is f modulo 4 held out; CE to the real winner; gain over as shipped):")
    totals: dict[str, list[float]] = {name: [] for name, *_ in CANDIDATES}
    rng = np.random.default_rng(0)
    for fold in range(4):
        train = [p for p in data if p.game_index % 4 != fold]
        held = [p for p in data if p.game_index % 4 == fold]
        line = [f"  fold {fold} ({len(held)} positions)"]
        per_position: dict[str, np.ndarray] = {}
        for name, cut, fit_k, whole in CANDIDATES:
            k = fitted_sharpness(train, cut) if fit_k else 1.0
            losses = np.array([-np.sum(p.winner * np.log(np.clip(value(p, cut, k, whole), 1e-9, 1))) for p in held])
            per_position[name] = losses
            totals[name].extend(losses)
            line.append(f"{name} (k {k}): {losses.mean():.4f}")
        print(";  ".join(line))
    base = np.array(totals[CANDIDATES[0][0]])
    games = np.array([p.game_index for fold in range(4) for p in data if p.game_index % 4 == fold])
    ids = np.unique(games)
    for name, *_ in CANDIDATES[1:]:
        gain = base - np.array(totals[name])
        by_game = np.array([gain[games == g].sum() for g in ids])
        counts = np.array([(games == g).sum() for g in ids])
        boot = []
        for _ in range(2000):
            pick = rng.integers(0, len(ids), len(ids))
            boot.append(by_game[pick].sum() / counts[pick].sum())
        lo, hi = np.percentile(boot, [2.5, 97.5])
        print(
            f"  all folds: {name}: gain {gain.mean():+.4f} nats a position [95% bootstrap by game {lo:+.4f}, {hi:+.4f}]"
        )


if __name__ == "__main__":
    sys.exit(main())
