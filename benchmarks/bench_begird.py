"""Complete random Begird games per second, on one core.

    python benchmarks/bench_begird.py [--seconds S] [--seed N]

Each game goes through the public engine interface (legal_actions,
apply_action, end_turn): uniformly random legal actions, the pie rule's
``swap`` included on the second turn, until someone wins. Prints one line
per board variant; the target is at least 200 games/s on the standard board.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.begird import Begird
from games.begirdboard import VARIANTS

TARGET = 200.0


def random_game(rng: random.Random, variant: str) -> Begird:
    game = Begird.new(2, {"board": variant})
    choice = rng.choice
    while not game.is_over:
        game.apply_action(choice(game.legal_actions()))
        if not game.is_over:
            game.end_turn()
    return game


def measure(variant: str, seconds: float, seed: int) -> tuple[int, float, float]:
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while True:
        game = random_game(rng, variant)
        games += 1
        plies += game.ply + 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed, plies / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per variant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant in VARIANTS:
        random_game(random.Random(0), variant)  # build the layout outside the timing
    result = 0
    for variant in VARIANTS:
        games, elapsed, length = measure(variant, args.seconds, args.seed)
        rate = games / elapsed
        note = ""
        if variant == "standard":
            note = "  ok" if rate >= TARGET else f"  BELOW TARGET {TARGET:.0f}"
            result = 0 if rate >= TARGET else 1
        print(f"begird {variant:8}  {rate:8.1f} games/s  ({games} games, {length:.1f} turns each){note}")
    return result


if __name__ == "__main__":
    sys.exit(main())
