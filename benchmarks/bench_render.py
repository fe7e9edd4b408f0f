"""How long a board picture takes and how big it is.

A plain script, not a test::

    .venv/bin/python benchmarks/bench_render.py [--renders 50] [--width 1080]

Prints, for a few positions, the mean and 95th percentile of milliseconds per
PNG (render + encode) and the PNG size. Aims: under 40 ms and under 300 KB.
The first picture of a board size pays for the cached background and palette;
it is timed separately ("cold").
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bide import Bide  # noqa: E402
from games.interface import Event, Game  # noqa: E402

import render  # noqa: E402

AIM_MS = 40.0
AIM_BYTES = 300_000


def random_turn(game: Bide, rng: random.Random) -> str:
    """A random legal turn, releases included, in notation."""
    seat = game.to_move
    assert seat is not None
    i = seat - 1
    if game.owed[i] or (game.hands[i] >= 2 and rng.random() < 0.2):
        trial = game.copy()
        placed = []
        while not trial.is_over:
            points = [a for a in trial.legal_actions() if a >= 0]
            if not points:
                break
            point = rng.choice(points)
            placed.append(trial.format_action(point))
            trial.apply_action(point)
        return ",".join(placed)
    actions = game.legal_actions()
    if -1 in actions and rng.random() < 0.25:
        return "bide"
    return game.format_action(rng.choice([a for a in actions if a >= 0]))


def position(players: int, side: int, turns: int, seed: int) -> tuple[Bide, list[Event]]:
    """The game after ``turns`` random turns (or at its end), with the last turn's events."""
    rng = random.Random(seed)
    game = Bide.new(players, {"side": side})
    events: list[Event] = []
    for _ in range(turns):
        if game.is_over:
            break
        events = game.play_turn(random_turn(game, rng))
    return game, events


def time_renders(game: Game, names: list[str], events: list[Event], renders: int,
                 width: int) -> tuple[bytes, float, float, float]:
    """(PNG, cold ms, mean ms, p95 ms) of rendering one position ``renders`` times."""
    start = time.perf_counter()
    data = render.render_png(game, player_names=names, last_events=events, width=width)
    cold = (time.perf_counter() - start) * 1000
    for _ in range(5):  # warm up (allocator, caches) before timing
        render.render_png(game, player_names=names, last_events=events, width=width)
    times = []
    for _ in range(renders):
        start = time.perf_counter()
        data = render.render_png(game, player_names=names, last_events=events, width=width)
        times.append((time.perf_counter() - start) * 1000)
    p95 = sorted(times)[max(0, int(round(0.95 * len(times))) - 1)]
    return data, cold, statistics.fmean(times), p95


def bench(name: str, game: Bide, events: list[Event], renders: int, width: int) -> tuple[float, float, int]:
    names = [f"Player {s}" for s in range(1, game.players + 1)]
    data, cold, mean, p95 = time_renders(game, names, events, renders, width)
    pushes = sum(1 for e in events if e.kind == "push")
    flag = "ok" if mean < AIM_MS and p95 < AIM_MS and len(data) < AIM_BYTES else "OVER AIM"
    print(f"{name:<28} {mean:7.1f} {p95:7.1f} {cold:8.1f} {len(data) / 1000:8.1f}  "
          f"{game.players}p side {game.options['side']}, {sum(1 for c in game.cells if c)} discs, "
          f"{pushes} pushes  {flag}")
    return mean, p95, len(data)


# -- Begird ------------------------------------------------------------------------------------------


def begird_position(variant: str, turns: int, seed: int) -> tuple[Game, list[Event]]:
    """A Begird game after ``turns`` random placements (or at its end), with the last turn's events."""
    from games.begird import Begird

    rng = random.Random(seed)
    game = Begird.new(2, {"board": variant})
    events: list[Event] = []
    for _ in range(turns):
        if game.is_over:
            break
        events = game.play_turn(game.format_action(rng.choice([a for a in game.legal_actions() if a >= 0])))
    return game, events


def bench_begird(name: str, game: Game, events: list[Event], renders: int, width: int) -> tuple[float, float, int]:
    from render.begird import picture_width

    data, cold, mean, p95 = time_renders(game, ["Player 1", "Player 2"], events, renders, width)
    flag = "ok" if mean < AIM_MS and p95 < AIM_MS and len(data) < AIM_BYTES else "OVER AIM"
    variant = game.options["board"]
    print(f"{name:<28} {mean:7.1f} {p95:7.1f} {cold:8.1f} {len(data) / 1000:8.1f}  "
          f"{variant} board at {picture_width(variant, width)}px, {sum(1 for c in game.cells if c)} stones"
          f"{', won' if game.is_over else ''}  {flag}")
    return mean, p95, len(data)


def begird_section(renders: int, width: int) -> bool:
    """Begird's pictures on each board: mid-game and a finished game. True when within the aims."""
    from render.animation import replay

    cases = []
    for variant, mid in (("standard", 80), ("small", 25), ("y", 30)):
        cases.append((f"begird {variant} mid-game", *begird_position(variant, mid, 3)))
        cases.append((f"begird {variant} won", *begird_position(variant, 10_000, 4)))
    print()
    print(f"Begird, requested width {width}px, {renders} renders each")
    print(f"{'position':<28} {'mean ms':>7} {'p95 ms':>7} {'cold ms':>8} {'KB/PNG':>8}")
    worst_ms = worst_bytes = 0.0
    for name, game, events in cases:
        mean, p95, size = bench_begird(name, game, events, renders, width)
        worst_ms = max(worst_ms, p95)
        worst_bytes = max(worst_bytes, size)
    print(f"Begird worst p95 {worst_ms:.1f} ms (aim < {AIM_MS:.0f}), largest PNG {worst_bytes / 1000:.1f} KB "
          f"(aim < {AIM_BYTES / 1000:.0f})")
    from games.begird import Begird

    turns: list[str] = []
    rng = random.Random(5)
    trial = Begird.new(2, {"board": "standard"})
    while not trial.is_over:
        turn = trial.format_action(rng.choice([a for a in trial.legal_actions() if a >= 0]))
        trial.play_turn(turn)
        turns.append(turn)
    frames = replay(Begird.new(2, {"board": "standard"}), turns)
    start = time.perf_counter()
    gif = render.render_gif(frames)
    elapsed = time.perf_counter() - start
    print(f"GIF of a whole standard Begird game: {len(frames)} frames, {len(gif) / 1000:.0f} KB, {elapsed:.2f} s")
    return worst_ms < AIM_MS and worst_bytes < AIM_BYTES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=50)
    parser.add_argument("--width", type=int, default=render.DEFAULT_WIDTH)
    args = parser.parse_args()
    cases = [
        ("2p mid-game", *position(2, 5, 30, 13)),
        ("2p full board", *position(2, 5, 1000, 11)),
        ("6p mid-game", *position(6, 5, 40, 7)),
        ("6p full board", *position(6, 5, 1000, 7)),
        ("4p side 6 mid-game", *position(4, 6, 60, 5)),
        ("3p side 4 full board", *position(3, 4, 1000, 5)),
    ]
    print(f"width {args.width}px, {args.renders} renders each")
    print(f"{'position':<28} {'mean ms':>7} {'p95 ms':>7} {'cold ms':>8} {'KB/PNG':>8}")
    worst_ms = worst_bytes = 0.0
    for name, game, events in cases:
        mean, p95, size = bench(name, game, events, args.renders, args.width)
        worst_ms = max(worst_ms, p95)
        worst_bytes = max(worst_bytes, size)
    print(f"worst p95 {worst_ms:.1f} ms (aim < {AIM_MS:.0f}), largest PNG {worst_bytes / 1000:.1f} KB "
          f"(aim < {AIM_BYTES / 1000:.0f})")

    game, _ = position(2, 5, 1000, 11)
    rng = random.Random(11)
    frames_game = Bide.new(2)
    from render.animation import replay

    turns = []
    replay_game = Bide.new(2)
    while not replay_game.is_over:
        turn = random_turn(replay_game, rng)
        replay_game.play_turn(turn)
        turns.append(turn)
    frames = replay(frames_game, turns)
    start = time.perf_counter()
    gif = render.render_gif(frames)
    elapsed = time.perf_counter() - start
    print(f"GIF of a whole 2-player game: {len(frames)} frames, {len(gif) / 1000:.0f} KB, {elapsed:.2f} s")
    begird_ok = begird_section(args.renders, args.width)
    return 0 if worst_ms < AIM_MS and worst_bytes < AIM_BYTES and begird_ok else 1


if __name__ == "__main__":
    sys.exit(main())
