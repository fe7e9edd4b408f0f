"""CPU per board picture (render + PNG), its size, and a guard against slowdowns.

A plain script, not a test (`make bench` runs it)::

    .venv/bin/python benchmarks/bench_render.py [--renders 60] [--width 1080] [--update-baseline]

For sample positions of every registered game (tests/render_cases.py: mid-games
and finished games) prints the mean and 95th percentile of CPU milliseconds
(``time.process_time``: the machine is shared, wall time is noisy) per PNG, and
its size. Aims: a mid-game picture under 6 ms (p95 under 9 ms), every picture
under 300 KB.

Repeating one position measures the warm path (its sprites' tiles, text and deflated
bands are cached after the first picture). The bot draws each position once, so the
"turns" lines draw the pictures of consecutive turns of a seeded game, each once (the
caches warm only from earlier turns, as in a match): the figure a player's turn costs.

Regression guard: CPU time differs from machine to machine, so each picture's
time is divided by that of a fixed calibration workload (Pillow drawing, palette
conversion and zlib on a synthetic image, none of it this project's code)
measured just before and after it (a shared machine's load drifts during a run).
The ratios are compared with the committed
benchmarks/render_baseline.json: a picture more than ``--slack`` (30%) slower
than its baseline fails the run. ``--update-baseline`` rewrites the file after a
deliberate change.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import zlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image, ImageDraw  # noqa: E402

import render  # noqa: E402
from render import textdraw as td  # noqa: E402
from tests.render_cases import cases, generic_cases  # noqa: E402

if TYPE_CHECKING:
    from games.interface import AnyGame, Event

AIM_MS = 6.0
AIM_P95_MS = 9.0
AIM_BYTES = 300_000
BASELINE = Path(__file__).resolve().parent / "render_baseline.json"


def cpu_ms(fn, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    return times


def p95(times: list[float]) -> float:
    return sorted(times)[max(0, round(0.95 * len(times)) - 1)]


def quartile(times: list[float]) -> float:
    """The lower quartile: on a shared machine, interference only ever adds time."""
    return sorted(times)[len(times) // 4]


def calibration_ms(runs: int = 21) -> float:
    """Lower-quartile CPU ms of a fixed workload of the same kind as a picture, independent of this code."""
    work = _calibration_work()
    work()
    return quartile(cpu_ms(work, runs))


@lru_cache(maxsize=1)
def _calibration_work():
    rng = random.Random(1)
    im = Image.new("RGB", (1080, 1300), (247, 243, 234))
    d = ImageDraw.Draw(im)
    for _ in range(400):
        x, y, r = rng.uniform(0, 1080), rng.uniform(0, 1300), rng.uniform(5, 60)
        d.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    palette = im.quantize(255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    font = td.font(24)

    def work():
        canvas = im.copy()
        draw = ImageDraw.Draw(canvas)
        for k in range(12):
            draw.text((20, 40 * k), f"Calibration line {k} · Turn {k * 7}", font=font, fill=(20, 20, 20))
        zlib.compress(canvas.quantize(palette=palette, dither=Image.Dither.NONE).tobytes(), 3)

    return work


def all_cases():
    yield from cases()
    for game_id in render.registered():
        if game_id not in ("bide", "begird"):
            yield from generic_cases(game_id)


#: (label, game id, players, options, first turn measured, last turn): consecutive turns, each drawn once.
TURN_RUNS: list[tuple[str, str, int, dict[str, Any], int, int]] = [
    ("bide 2p turns 20-60", "bide", 2, {"side": 5}, 20, 60),
    ("bide 6p turns 20-60", "bide", 6, {"side": 5}, 20, 60),
    ("begird standard turns 40-100", "begird", 2, {"board": "standard"}, 40, 100),
    ("playbai turns 15-50", "playbai", 2, {}, 15, 50),
    ("bump turns 15-50", "bump", 2, {}, 15, 50),
]


def turn_run(game_id: str, players: int, options: dict, first: int, last: int):
    """The states and events of turns ``first``..``last`` of a seeded game (fewer if it ends),
    and those of the turns before, drawn first as a match would have."""
    from games import new_game
    from tests.render_cases import NAMES, random_turn

    rng = random.Random(7)
    game = new_game(game_id, players, options)
    before: list[tuple[AnyGame, list[Event]]] = []
    measured: list[tuple[AnyGame, list[Event]]] = []
    for turn in range(last):
        if game.is_over:
            break
        events = game.play_turn(random_turn(game, rng))
        (measured if turn >= first else before).append((game.copy(), events))
    return NAMES[:players], before, measured


def turn_times(game_id: str, players: int, options: dict, first: int, last: int, width: int):
    names, before, measured = turn_run(game_id, players, options, first, last)
    for game, events in before:
        render.render_png(game, player_names=names, last_events=events, width=width)
    times, sizes = [], []
    for game, events in measured:
        start = time.process_time()
        data = render.render_png(game, player_names=names, last_events=events, width=width)
        times.append((time.process_time() - start) * 1000)
        sizes.append(len(data))
    return times, max(sizes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=60)
    parser.add_argument("--width", type=int, default=render.DEFAULT_WIDTH)
    parser.add_argument("--slack", type=float, default=0.30)
    parser.add_argument("--update-baseline", action="store_true")
    parser.add_argument(
        "--slowdown",
        type=float,
        default=1.0,
        help="multiply every picture's measured CPU by this (checks that the guard fails)",
    )
    args = parser.parse_args()

    render.warm_up()
    calib = calibration_ms()
    print(
        f"width {args.width}px, {args.renders} renders each; CPU ms (process_time); calibration workload {calib:.1f} ms"
    )
    print(f"{'position':<29} {'mean':>6} {'p95':>6} {'cold':>7} {'KB':>6} {'ratio':>6} {'base':>6}")
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {"ratios": {}}
    ratios: dict[str, float] = {}
    failures: list[str] = []

    def report(
        label: str, times: list[float], cold: float | None, size: int, typical: bool, local_calib: float
    ) -> None:
        times = [t * args.slowdown for t in times]
        mean = statistics.fmean(times)
        ratio = quartile(times) / local_calib
        ratios[label] = round(ratio, 4)
        base = baseline["ratios"].get(label)
        notes = []
        if typical and (mean >= AIM_MS or p95(times) >= AIM_P95_MS):
            notes.append(f"over the {AIM_MS:g} ms aim")
        if size >= AIM_BYTES:
            notes.append("over 300 KB")
            failures.append(f"{label}: {size} bytes")
        if base is not None and ratio > base * (1 + args.slack):
            notes.append(f"SLOWER than baseline by {100 * (ratio / base - 1):.0f}%")
            failures.append(f"{label}: {ratio:.3f} x calibration, baseline {base:.3f}")
        print(
            f"{label:<29} {mean:6.2f} {p95(times):6.2f} {'-' if cold is None else f'{cold:.1f}':>7} "
            f"{size / 1000:6.1f} {ratio:6.3f} {base if base is not None else '-':>6}  {'; '.join(notes) or 'ok'}"
        )

    for label, game, events, names in all_cases():

        def one(game=game, names=names, events=events):  # this case's, not the loop's last
            return render.render_png(game, player_names=names, last_events=events, width=args.width)

        cold = cpu_ms(one, 1)[0]
        for _ in range(5):
            one()
        local_calib = calibration_ms(7)  # next to the measure: the machine's load drifts during a run
        times = cpu_ms(one, args.renders)
        report(label, times, cold, len(one()), "mid" in label, (local_calib + calibration_ms(7)) / 2)
    print("zoomed (issue 37: /board zoom and the board post's Zoom button, privately, around the last turn):")
    for label, game, events, names in all_cases():
        if "mid" not in label or not render.zoom_helps(game):
            continue

        def zoomed(game=game, names=names, events=events):
            return render.render_png(game, player_names=names, last_events=events, width=args.width, zoom="last")

        cold = cpu_ms(zoomed, 1)[0]
        for _ in range(5):
            zoomed()
        local_calib = calibration_ms(7)
        times = cpu_ms(zoomed, args.renders)
        report(f"{label} zoom", times, cold, len(zoomed()), False, (local_calib + calibration_ms(7)) / 2)
    print("each position below drawn once, after the turns before it:")
    for label, game_id, players, options, first, last in TURN_RUNS:
        local_calib = calibration_ms(7)
        times, size = turn_times(game_id, players, options, first, last, args.width)
        report(label, times, None, size, True, (local_calib + calibration_ms(7)) / 2)

    from games import new_game
    from render.animation import replay

    for game_id, players in (("bide", 2), ("begird", 2)):
        rng = random.Random(5)
        start = new_game(game_id, players)
        trial = start.copy()
        turns: list[str] = []
        while not trial.is_over and len(turns) < 400:
            from tests.render_cases import random_turn

            tokens = random_turn(trial, rng)
            trial.play_turn(tokens)
            turns.append(",".join(tokens))
        frames = replay(start, turns)
        t0 = time.process_time()
        gif = render.render_gif(frames)
        print(
            f"GIF of a whole {game_id} game: {len(frames)} frames, {len(gif) / 1000:.0f} KB, "
            f"{time.process_time() - t0:.2f} s CPU"
        )

    if args.update_baseline:
        BASELINE.write_text(
            json.dumps(
                {
                    "note": "lower-quartile CPU per picture / that of the calibration workload, "
                    "from benchmarks/bench_render.py --update-baseline",
                    "ratios": ratios,
                },
                indent=1,
            )
            + "\n"
        )
        print(f"baseline written to {BASELINE.relative_to(ROOT)}")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("render benchmark: within the baseline and size aims")
    return 0


if __name__ == "__main__":
    sys.exit(main())
