"""Computer opponent figures (issue 11): strength between levels and thinking time.

Not a test: it plays many whole games. For each game with its standard options
(two players; Bide also with four, two seats per side), the win rate of the
first level against the second with a 95% Wilson interval: hard vs random,
hard vs easy, medium vs easy. Then CPU seconds per turn (mean, p95) at each
level over all those games, and search speed (simulations per CPU second).

    python benchmarks/bench_ai.py [--games 100] [--slow-games 20] [--jobs 1] [--only bide]

Pairs involving ``hard`` use ``--slow-games`` (a hard turn takes seconds);
the printed line always states how many games were played.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.arena import arena  # noqa: E402
from ai.levels import LEVELS  # noqa: E402
from ai.mcts import MCTS  # noqa: E402
from ai.registry import knowledge_for  # noqa: E402
from games.registry import GAMES, new_game  # noqa: E402

PAIRS = (("hard", "random"), ("hard", "easy"), ("medium", "easy"))


def setups(only: str | None) -> list[tuple[str, int]]:
    out = []
    for game_id in ("begird", "bide", "playbai", "bump"):
        if game_id in GAMES and (only is None or only == game_id):
            out.append((game_id, 2))
            if game_id == "bide":
                out.append((game_id, 4))
    return out


def search_speed(game_id: str, players: int, simulations: int = 300) -> float:
    """Simulations per CPU second from the opening position (a playout each, plus the tree)."""
    game = new_game(game_id, players)
    search = MCTS(knowledge_for(game), random.Random(0), simulations=simulations)
    start = time.process_time()
    result = search.search(game)
    return result.simulations / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair without hard")
    parser.add_argument("--slow-games", type=int, default=20, help="games per pair with hard")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in processes")
    parser.add_argument("--only", default=None, help="one game id")
    parser.add_argument("--pairs", default=None, help='e.g. "medium:easy,hard:random"')
    args = parser.parse_args()
    pairs = PAIRS if not args.pairs else tuple(tuple(p.split(":")) for p in args.pairs.split(","))
    print("levels: " + ", ".join(f"{lv.name} {lv.simulations} simulations (cap {lv.seconds} s CPU)"
                                  for lv in LEVELS.values() if lv.simulations))
    for game_id, players in setups(args.only):
        name = f"{game_id} ({players} players)"
        scale = knowledge_for(new_game(game_id, players)).simulation_scale
        print(f"\n== {name}: simulations scaled by {scale}; "
              f"{search_speed(game_id, players):.0f} simulations per CPU second from the opening", flush=True)
        seconds: dict[str, list[float]] = {}
        for a, b in pairs:
            n = args.slow_games if "hard" in (a, b) else args.games
            start = time.perf_counter()
            result = arena(game_id, a, b, n, players=players, jobs=args.jobs)
            wall = time.perf_counter() - start
            print(f"{result.line()}; {result.turns / result.games:.0f} turns per game; {wall:.0f} s wall",
                  flush=True)
            for level, xs in result.seconds.items():
                seconds.setdefault(level, []).extend(xs)
        for level in LEVELS:
            xs = sorted(seconds.get(level, []))
            if xs:
                mean = sum(xs) / len(xs)
                p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
                print(f"  {level:>6}: {mean:.3f} s per turn, p95 {p95:.3f} s, max {xs[-1]:.3f} s "
                      f"(CPU, {len(xs)} turns)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
