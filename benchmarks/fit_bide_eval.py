"""Fit Bide's static evaluation (ai/knowledge/bide_eval.py) to where playouts end, and measure it.

    python benchmarks/fit_bide_eval.py --players 2 [--playouts 8] [--seed 11]
    python benchmarks/fit_bide_eval.py --players 4
    python benchmarks/fit_bide_eval.py --play 16 --players 4 --level medium   # record more games first
    python benchmarks/fit_bide_eval.py --from-arena benchmarks/results/ai/versions-bide-2p-X.jsonl:SEED
        # add the games of a cross-version arena run (its --seed) first

The positions are those of recorded games (``benchmarks/results/ai/bide-eval-games-<n>p.jsonl``: each line a
whole game's turns from the start, written by ``--play``), every other ply. From each, ``--playouts`` seeded
playouts (ai/knowledge/bide_playout.py) are played to the full board, and the position after every second
playout turn up to 12 is kept with the playout's result: with two seats the winner's 0/1, with more the
margin-scored returns the multi-seat playouts use. The weights (one per count and basis function,
``bide_eval.FEATURES``) are a conditional logit fitted by Newton's method with a small ridge on the games
whose index is not 3 modulo 4; the rest are held out. It prints the held-out cross-entropy against a uniform
guess, and how far the estimate and a playout each are from another playout's result from the same
position (the estimate is worth a playout when the two are alike); then, by how full the board is, how
often the fitted weights and the weights in ``bide_eval`` name the held-out games' real winners (a game's
real winner is what a search wants its estimate to see early); then the weights to paste.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ai.knowledge import bide_eval  # noqa: E402
from ai.knowledge.bide import margin_returns  # noqa: E402
from ai.knowledge.bide_playout import PlayoutWeights  # noqa: E402
from ai.player import choose_turn  # noqa: E402
from ai.turns import apply_turn, random_actions, returns_of  # noqa: E402
from games.bide import Bide  # noqa: E402
from games.registry import new_game  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "ai"
STEPS = range(0, 13, 2)  # playout turns after which a position is kept


def games_file(players: int) -> Path:
    return RESULTS / f"bide-eval-games-{players}p.jsonl"


def play(players: int, count: int, level: str, seed: int) -> None:
    """Append ``count`` seeded games at ``level`` (2 random opening turns each) to the games file."""
    path = games_file(players)
    done = len(path.read_text().splitlines()) if path.exists() else 0
    for index in range(done, done + count):
        game = new_game("bide", players)
        rng = random.Random(seed * 1_000_003 + index)
        turns = []
        for _ in range(2):
            actions = random_actions(game, rng)
            turns.append(game.format_turn(actions))
            apply_turn(game, actions)
        while not game.is_over:
            turn = choose_turn(game, level, seed=rng.randrange(10**9)).turn.notation
            turns.append(turn)
            game.play_turn(turn)
        with path.open("a") as f:
            f.write(json.dumps({"players": players, "level": level, "turns": turns}) + "\n")
        print(f"game {index}: {len(turns)} turns, winners {game.winners}", flush=True)


def from_arena(source: str) -> None:
    """Append the games of a cross-version arena run (``FILE.jsonl:SEED``, the run's ``--seed``) to the games
    file, each from the start: its opening is replayed as the arena made it (benchmarks/arena_versions.py)."""
    from arena_versions import opening

    name, seed = source.rsplit(":", 1)
    records = [json.loads(line) for line in Path(name).read_text().splitlines() if line.strip()]
    lines = []
    for record in records:
        opening_seed = int(seed) * 1_000_003 + record["pair"]
        game, rng, turns = new_game("bide", 2), random.Random(opening_seed), []
        for _ in range(2):  # the arena's opening, its turns written down
            actions = random_actions(game, rng)
            turns.append(game.format_turn(actions))
            apply_turn(game, actions)
        assert game.to_json() == opening("bide", 2, {}, 2, opening_seed).to_json()
        lines.append(json.dumps({"players": 2, "level": f"arena {Path(name).stem}", "turns": turns + record["turns"]}))
    with games_file(2).open("a") as f:
        f.writelines(line + "\n" for line in lines)
    print(f"{len(lines)} games of {name} added")


def design(game: Bide) -> np.ndarray:
    """Per seat, every count times every basis function (the estimate's inputs), as ``bide_eval`` reads them."""
    counts = bide_eval.seat_features(game)
    basis = np.array(bide_eval.basis(game.empty_count))
    return (np.array(counts)[:, :, None] * basis[None, None, :]).reshape(game.players, -1)


Sample = tuple[int, int, int, int, np.ndarray, np.ndarray]


def samples(players: int, playouts: int, seed: int) -> list[Sample]:
    """(game, ply, playout, step, design, result) for every kept position."""
    rng = random.Random(seed)
    out: list[Sample] = []
    records = [json.loads(line) for line in games_file(players).read_text().splitlines() if line.strip()]
    for index, record in enumerate(records):
        game = Bide.new(players)
        for ply, turn in enumerate(record["turns"]):
            if ply % 2 == 0 and not game.is_over:
                for k in range(playouts):
                    state = game.copy()
                    playout = PlayoutWeights(state)
                    kept: list[tuple[int, np.ndarray]] = []
                    for step in range(400):
                        if step in STEPS and not state.is_over:
                            kept.append((step, design(state)))
                        if state.is_over:
                            break
                        playout.play_turn(rng)
                    ended = returns_of(state) if players == 2 else margin_returns(state)
                    result = np.array(ended, dtype=float)
                    out.extend((index, ply, k, step, x, result) for step, x in kept)
            game.play_turn(turn)
    return out


def fit(z: np.ndarray, y: np.ndarray, ridge: float = 1e-2, rounds: int = 25) -> np.ndarray:
    """Conditional logit: utilities ``z @ theta`` per seat, softmax, cross-entropy against ``y`` (soft)."""
    theta = np.zeros(z.shape[2])
    for _ in range(rounds):
        p = predict(z, theta)
        gradient = np.einsum("ns,nsd->d", p - y, z) + ridge * theta
        mean = np.einsum("ns,nsd->nd", p, z)
        hessian = np.einsum("ns,nsd,nse->de", p, z, z) - np.einsum("nd,ne->de", mean, mean)
        theta -= np.linalg.solve(hessian + ridge * np.eye(len(theta)), gradient)
    return theta


def predict(z: np.ndarray, theta: np.ndarray) -> np.ndarray:
    u = z @ theta
    u -= u.max(axis=-1, keepdims=True)
    e = np.exp(u)
    return e / e.sum(axis=-1, keepdims=True)


def cross_entropy(p: np.ndarray, y: np.ndarray) -> float:
    return float(-np.mean(np.sum(y * np.log(np.clip(p, 1e-9, 1.0)), axis=1)))


BUCKETS = ((0, 8), (8, 15), (15, 25), (25, 35), (35, 45), (45, 62))


def names_winners(players: int, theta: np.ndarray) -> None:
    """By empty points, how often the fitted weights and ``bide_eval``'s name each held-out game's winner."""
    current = np.array(bide_eval.WEIGHTS_TWO_SEATS if players == 2 else bide_eval.WEIGHTS_MORE_SEATS).reshape(-1)
    right = {name: dict.fromkeys(BUCKETS, 0) for name in ("fitted", "bide_eval")}
    total = dict.fromkeys(BUCKETS, 0)
    records = [json.loads(line) for line in games_file(players).read_text().splitlines() if line.strip()]
    for index, record in enumerate(records):
        if index % 4 != 3:
            continue
        game = Bide.new(players)
        positions = []
        for turn in record["turns"]:
            positions.append(game.copy())
            game.play_turn(turn)
        if len(game.winners) != 1:
            continue
        winner = game.winners[0] - 1
        for position in positions:
            bucket = next(b for b in BUCKETS if b[0] <= position.empty_count < b[1])
            total[bucket] += 1
            z = design(position)[None]
            for name, weights in (("fitted", theta), ("bide_eval", current)):
                right[name][bucket] += int(predict(z, weights)[0].argmax() == winner)
    for name, counts in right.items():
        shares = "  ".join(f"{lo}-{hi - 1}: {counts[(lo, hi)] / max(total[(lo, hi)], 1):.2f}" for lo, hi in BUCKETS)
        print(f"  {name:9s} names the held-out games' winner, by empty points: {shares}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--play", type=int, default=0, help="record this many more games first")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--from-arena", action="append", default=[], metavar="FILE.jsonl:SEED")
    args = parser.parse_args(argv)
    for source in args.from_arena:
        from_arena(source)
    if args.play:
        play(args.players, args.play, args.level, args.seed)
    rows = samples(args.players, args.playouts, args.seed)
    train = [r for r in rows if r[0] % 4 != 3]
    test = [r for r in rows if r[0] % 4 == 3]
    theta = fit(np.array([r[4] for r in train]), np.array([r[5] for r in train]))
    print(f"{len(train)} positions fitted, {len(test)} held out ({args.players} seats, {args.playouts} playouts each)")
    results: dict[tuple[int, int, int], Any] = {}
    for r in test:
        if r[3] == 0:
            results[r[:3]] = r[5]
    for step in (0, 6, 12):
        held = [r for r in test if r[3] == step]
        z = np.array([r[4] for r in held])
        y = np.array([r[5] for r in held])
        p = predict(z, theta)
        uniform = np.full_like(y, 1.0 / args.players)
        near_estimate, near_playout = [], []
        for r, estimate in zip(held, p, strict=True):
            other = results.get((r[0], r[1], (r[2] + 1) % args.playouts))
            if other is not None:
                near_estimate.append(np.sum((estimate - other) ** 2))
                near_playout.append(np.sum((r[5] - other) ** 2))
        print(
            f"  after {step:2d} playout turns: cross-entropy {cross_entropy(p, y):.4f} "
            f"(uniform {cross_entropy(uniform, y):.4f}); "
            f"squared distance to another playout's result: estimate {np.mean(near_estimate):.3f}, "
            f"playout {np.mean(near_playout):.3f}"
        )
    names_winners(args.players, theta)
    rows_out = ",\n".join(f"    ({', '.join(f'{w:.3f}' for w in row)})" for row in theta.reshape(-1, 3))
    print(f"weights ({len(bide_eval.FEATURES)} counts x 3 basis functions):\n(\n{rows_out},\n)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
