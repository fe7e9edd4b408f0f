"""Computer opponent figures (issue 11): strength between levels and thinking time.

Not a test: it plays many whole games. For each game with its standard options
(two players; Bide also with four, two seats per side), the win rate of the
first level against the second with a 95% Wilson interval: hard vs random,
hard vs easy, medium vs easy. Then CPU seconds per turn (mean, p95) at each
level over all those games, and search speed (simulations per CPU second).

    python benchmarks/bench_ai.py [--games 100] [--slow-games 20] [--jobs 1] [--only bide]
                                  [--pairs medium:easy] [--seed 0] [--max-turns 300]
    python benchmarks/bench_ai.py --timing-positions 10     # only seconds per turn, per level

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
from ai.levels import LEVELS, choose_turn  # noqa: E402
from ai.mcts import MCTS  # noqa: E402
from ai.registry import knowledge_for  # noqa: E402
from ai.turns import apply_turn, random_actions  # noqa: E402
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


def timing_line(label: str, xs: list[float]) -> str:
    xs = sorted(xs)
    mean = sum(xs) / len(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"  {label}: mean {mean:.3f} s, p95 {p95:.3f} s, max {xs[-1]:.3f} s (CPU, {len(xs)} turns)"


def time_levels(game_id: str, players: int, positions: int) -> None:
    """CPU seconds per turn at each level over positions reached by seeded random play."""
    rng = random.Random(11)
    for level in ("easy", "medium", "hard"):
        xs = []
        for k in range(positions):
            game = new_game(game_id, players)
            for _ in range(rng.randrange(0, 40)):
                if game.is_over:
                    break
                apply_turn(game, random_actions(game, rng))
            if game.is_over:
                continue
            xs.append(choose_turn(game, level, seed=k).seconds)
        if xs:
            print(timing_line(f"{game_id} ({players} players) {level:>6}", xs), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair without hard")
    parser.add_argument("--slow-games", type=int, default=20, help="games per pair with hard")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in processes")
    parser.add_argument("--only", default=None, help="one game id")
    parser.add_argument("--pairs", default=None, help='e.g. "medium:easy,hard:random"')
    parser.add_argument("--seed", type=int, default=0, help="another seed plays other games (more batches)")
    parser.add_argument("--timing-positions", type=int, default=0,
                        help="only time each level on this many positions per game (from random play)")
    parser.add_argument("--max-turns", type=int, default=300,
                        help="Bump and Play Bai games still going after this many turns are draws")
    args = parser.parse_args()
    pairs = PAIRS if not args.pairs else tuple(tuple(p.split(":")) for p in args.pairs.split(","))
    print("levels: " + ", ".join(f"{lv.name} {lv.simulations} simulations (cap {lv.seconds} s CPU)"
                                  for lv in LEVELS.values() if lv.simulations))
    print(f"jobs {args.jobs}; a Bump or Play Bai game still going after {args.max_turns} turns is a draw")
    chosen = setups(args.only)
    if args.timing_positions:
        for game_id, players in chosen:
            time_levels(game_id, players, args.timing_positions)
        return 0
    for game_id, players in chosen:
        scale = knowledge_for(new_game(game_id, players)).simulation_scale
        print(f"{game_id} ({players} players): simulations x{scale}, "
              f"{search_speed(game_id, players):.0f} simulations per CPU second from the opening", flush=True)
    seconds: dict[tuple[str, int], dict[str, list[float]]] = {}
    # Round by round (the cheap pair first), so an interrupted run still covers every game.
    for a, b in sorted(pairs, key=lambda p: "hard" in p):
        for game_id, players in chosen:
            n = args.slow_games if "hard" in (a, b) else args.games
            start = time.perf_counter()
            info = GAMES[game_id]
            endless = info.max_turns is not None or info.allows_draws  # Bide and Begird always end
            result = arena(game_id, a, b, n, players=players, jobs=args.jobs, seed=args.seed,
                           max_turns=args.max_turns if endless else None)
            wall = time.perf_counter() - start
            print(f"{game_id} ({players} players) {result.line()}; "
                  f"{result.turns / result.games:.0f} turns per game; {wall:.0f} s wall", flush=True)
            for level, xs in result.seconds.items():
                print(timing_line(level, xs), flush=True)
            per_level = seconds.setdefault((game_id, players), {})
            for level, xs in result.seconds.items():
                per_level.setdefault(level, []).extend(xs)
    print("\nCPU seconds per turn (all games above):")
    for (game_id, players), per_level in seconds.items():
        for level in LEVELS:
            if per_level.get(level):
                print(timing_line(f"{game_id} ({players} players) {level:>6}", per_level[level]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
