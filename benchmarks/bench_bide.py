"""Bide engine speed: complete random games per second on one core, and legal-action listing.

Run: .venv/bin/python benchmarks/bench_bide.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import new_game


def random_game(players: int, side: int, rng: random.Random) -> int:
    game = new_game("bide", players, {"side": side})
    while not game.is_over:
        legal = game.legal_actions()
        if game.can_end_turn() and (not legal or rng.random() < 0.5):
            game.end_turn()
        else:
            game.apply_action(rng.choice(legal))
    return game.ply


def games_per_second(players: int, side: int, seconds: float) -> tuple[float, float]:
    rng = random.Random(players * 100 + side)
    count = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        plies += random_game(players, side, rng)
        count += 1
    elapsed = time.perf_counter() - start
    return count / elapsed, plies / count


def legal_actions_time(players: int, repeats: int = 20000) -> float:
    rng = random.Random(5)
    game = new_game("bide", players)
    for _ in range(30):  # a mid-game position
        game.play_turn(rng.choice(game.legal_notations()[:-1]))
    start = time.perf_counter()
    for _ in range(repeats):
        game.legal_actions()
    return (time.perf_counter() - start) / repeats * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print("Bide random games (one core, uniform random legal actions)")
    for players, side in ((2, 5), (6, 5), (2, 4), (2, 6), (4, 5)):
        rate, turns = games_per_second(players, side, args.seconds)
        print(f"  {players} players, side {side}: {rate:8.0f} games/s  ({turns:.0f} turns per game)")
    for players in (2, 6):
        print(f"  legal_actions() mid-game, {players} players: {legal_actions_time(players):.2f} µs")


if __name__ == "__main__":
    main()
