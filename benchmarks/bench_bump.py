"""Bump: turn enumeration time and random plies per second, on one core (CPU time).

    python benchmarks/bench_bump.py [--seconds S] [--seed N]

* enumeration: every legal turn with its choice variants (``legal_actions``, what
  autocomplete, previews and the AI use), on the opening and on a crowded
  midgame; target under 10 ms each.
* plies: random turns (``random_action``: a random piece, a random reachable
  destination and facing) applied through ``apply_action``/``end_turn`` with full
  bump resolution, events and stasis records; games restart when over or after
  ``max_turns``; target at least 5,000 plies/s.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.bump import Bump

ENUM_TARGET_MS = 10.0
PLY_TARGET = 5000.0


def crowded_midgame(seed: int) -> Bump:
    """Both sides advanced for 40 random turns, preferring bumping moves."""
    rng = random.Random(seed)
    game = Bump.new()
    while game.ply < 40 and not game.is_over:
        game.play_turn(game.format_action(game.random_action(rng)))
    if game.is_over:
        return crowded_midgame(seed + 1)
    return game


def enumeration_ms(game: Bump, seconds: float) -> tuple[float, int, int]:
    runs = 0
    start = time.process_time()
    while True:
        trial = game.copy()  # an empty cache, as after every turn
        count = len(trial.legal_actions())
        runs += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            bumping = sum(1 for o in trial._enumerate()["outcomes"].values() if o is not None)
            return 1000 * elapsed / runs, count, bumping


def plies_per_second(seconds: float, seed: int) -> tuple[float, int, int, int]:
    rng = random.Random(seed)
    plies = games = bumps = 0
    game = Bump.new()
    limit = Bump.info.max_turns or 600
    start = time.process_time()
    while True:
        for _ in range(50):
            if game.is_over or game.ply >= limit:
                games += 1
                game = Bump.new()
            events = game.apply_action(game.random_action(rng))
            bumps += sum(1 for e in events if e.kind == "bump")
            if not game.is_over:
                game.end_turn()
            plies += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return plies / elapsed, plies, games, bumps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = 0
    for label, game in (("opening", Bump.new()), ("midgame", crowded_midgame(args.seed))):
        ms, count, bumping = enumeration_ms(game, args.seconds)
        ok = ms < ENUM_TARGET_MS
        result |= not ok
        pieces = game.on_board(1) + game.on_board(2)
        print(
            f"bump enumerate {label:8} {ms:7.2f} ms  ({count} turns, {bumping} of them bump, {pieces} pieces)"
            f"  {'ok' if ok else f'ABOVE TARGET {ENUM_TARGET_MS:.0f} ms'}"
        )
    rate, plies, games, bumps = plies_per_second(args.seconds, args.seed)
    ok = rate >= PLY_TARGET
    result |= not ok
    print(
        f"bump random plies {rate:9.0f} plies/s  ({plies} plies, {games} games finished, {bumps} bumps)"
        f"  {'ok' if ok else f'BELOW TARGET {PLY_TARGET:.0f}'}"
    )
    return int(result)


if __name__ == "__main__":
    sys.exit(main())
