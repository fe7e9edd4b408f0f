"""Play Bai: complete random games per second and complete-turn enumeration time (CPU).

    python benchmarks/bench_playbai.py [--games N] [--positions N] [--seed N]

* Random games, uniform over the distinct complete turns (``turn_results``),
  each turn applied through the engine interface (``apply_action`` per action,
  then ``end_turn``), capped at 500 turns: games/s and how many hit the cap.
  A goal is one resulting position among hundreds, so such games rarely score;
  a second line gives games whose players take any goal on offer. An extra
  line gives the uniform run as turns per second (the games are capped, so
  games/s mostly says how long a capped game takes).
* Enumeration of every distinct complete turn from the opening, from a busy
  midgame, and over positions sampled from random games (mean, 95th
  percentile, worst); an extra line does the same on the side-6 field.

* The picture: milliseconds per PNG (render + encode) and its size, at
  1080 and 400 pixels wide, for a midgame with a three-action last turn.

Aims (issue 7): enumeration under 5 ms from any position, at least 50
complete random games per second; pictures under 300 KB. CPU time
(``time.process_time``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.playbai import PlayBai
from games.playbaisearch import GOAL

CAP = 500
ENUMERATION_AIM_MS = 5.0
GAMES_AIM = 50.0
MIDGAME = {
    "pieces": {"b3": 1, "c3": 1, "d5": 1, "b4": 2, "f6": 2, "g7": 2},
    "ball": "b3",
    "goals": [0, 0],
    "to_move": 1,
    "kickoff": False,
    "last_goal": None,
}


def play_turn(game: PlayBai, actions) -> None:
    for action in actions:
        game.apply_action(action)
    if not game.is_over:
        game.end_turn()


def random_game(rng: random.Random, take_goals: bool) -> PlayBai:
    game = PlayBai.new()
    while not game.is_over and game.ply < CAP:
        results = game.turn_results()
        keys = list(results)
        goals = [k for k in keys if k == GOAL or isinstance(k, tuple)] if take_goals else []
        play_turn(game, results[goals[0] if goals else keys[rng.randrange(len(keys))]])
    return game


def measure_games(games: int, seed: int, take_goals: bool) -> str:
    rng = random.Random(seed)
    capped = turns = 0
    start = time.process_time()
    for _ in range(games):
        game = random_game(rng, take_goals)
        turns += game.ply
        capped += not game.is_over
    cpu = time.process_time() - start
    rate = games / cpu
    how = "taking any goal on offer" if take_goals else "uniform over distinct complete turns"
    note = "" if rate >= GAMES_AIM else f"  (aim {GAMES_AIM:.0f}/s)"
    return (
        f"random games, {how}: {rate:7.2f} games/s, {turns / games:6.1f} turns each, "
        f"{capped}/{games} hit the {CAP}-turn cap, {cpu / max(turns, 1) * 1000:.2f} ms/turn{note}\n"
        f"  (extra) the same run as throughput: {turns / cpu:.0f} turns/s, each turn = enumerate "
        f"every distinct complete turn, pick one, apply it action by action, end the turn"
    )


def enumeration_ms(game: PlayBai, repeat: int = 20) -> tuple[float, int]:
    start = time.process_time()
    for _ in range(repeat):
        count = len(game.turn_results())
    return (time.process_time() - start) / repeat * 1000, count


def sample_positions(count: int, seed: int, options: dict | None = None) -> list[PlayBai]:
    rng = random.Random(seed)
    out: list[PlayBai] = []
    while len(out) < count:
        game = PlayBai.new(2, options)
        for _ in range(rng.randrange(1, 60)):
            if game.is_over:
                break
            results = game.turn_results()
            play_turn(game, results[list(results)[rng.randrange(len(results))]])
        if not game.is_over:
            out.append(game)
    return out


def sampled_enumeration(count: int, seed: int, options: dict | None = None, label: str = "") -> str:
    times = []
    counts = []
    for game in sample_positions(count, seed, options):
        ms, turns = enumeration_ms(game, repeat=3)
        times.append(ms)
        counts.append(turns)
    times.sort()
    over = sum(1 for t in times if t > ENUMERATION_AIM_MS)
    return (
        f"enumerate {len(times)} sampled {label}positions: mean {sum(times) / len(times):.2f} ms, "
        f"95% {times[int(len(times) * 0.95)]:.2f} ms, worst {times[-1]:.2f} ms, "
        f"{over} over {ENUMERATION_AIM_MS:.0f} ms; turns per position mean {sum(counts) / len(counts):.0f}, "
        f"max {max(counts)}"
    )


def picture_figures(renders: int = 10) -> list[str]:
    import render

    game = PlayBai.from_position(
        2,
        {},
        {
            "pieces": {"b2": 1, "e6": 1, "c4": 1, "b4": 2, "a4": 2, "e8": 2},
            "ball": "e6",
            "goals": [1, 1],
            "to_move": 1,
            "kickoff": False,
            "last_goal": 2,
        },
    )
    events = game.play_turn("b2-c2, e6>c4, c4^ne")
    lines = []
    for width in (1080, 400):
        render.render_png(game, player_names=["alice", "bob"], last_events=events, width=width)  # warm caches
        start = time.process_time()
        for _ in range(renders):
            data = render.render_png(game, player_names=["alice", "bob"], last_events=events, width=width)
        ms = (time.process_time() - start) / renders * 1000
        lines.append(f"picture {width:4} px: {ms:6.1f} ms per PNG, {len(data) / 1000:.0f} KB")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="uniform random games (each up to 500 turns)")
    parser.add_argument("--positions", type=int, default=150, help="sampled positions for enumeration")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    for name, game in (("opening", PlayBai.new()), ("busy midgame", PlayBai.from_position(2, {}, MIDGAME))):
        ms, count = enumeration_ms(game)
        print(f"enumerate {name:13} {ms:6.2f} ms  ({count} distinct complete turns)")
    print(sampled_enumeration(args.positions, args.seed))
    print("  (extra) " + sampled_enumeration(max(args.positions // 3, 1), args.seed, {"side": 6}, "side 6 "))
    print(measure_games(args.games, args.seed, take_goals=False))
    print(measure_games(max(args.games * 5, 10), args.seed, take_goals=True))
    for line in picture_figures():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
