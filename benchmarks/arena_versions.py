"""The cross-version arena: one work tree's computer against another's, each through its own code.

Not a test: it plays whole games. Each side is a process (benchmarks/arena_side.py) started with its work
tree as the working directory and on ``PYTHONPATH``, alive for the whole game (a search that keeps its tree
between turns can show it), and asked for each of its turns through its own ``ai.choose_turn``. This
referee holds the game (the working tree's engine), sends each side the state document, plays the answer.

Openings are paired: opening ``k`` (``--opening-plies`` random turns from a seed) is played twice, the sides
swapped (with four seats a side holds every other seat). The score is the new side's share of the points
(a game cut off at ``--max-turns`` is a draw), with a 95% Wilson interval over games; CPU seconds per turn
(mean, p95) for each side as its search reports them and as its process spent them over the whole game
(start-up excluded), the machine and its load.

A sequential stop: after each pair (from ``--min-pairs`` on) the run stops once the interval settles the
claim "scores at least ``--aim`` with a lower bound of at least ``--floor``": met (observed ≥ aim and
lower bound ≥ floor) or out of reach (upper bound below the aim).

    python benchmarks/arena_versions.py begird --old ../ai-core-baseline --new . --level hard --pairs 20
    python benchmarks/arena_versions.py bide --players 4 --old-level hard --new-level expert --scale 0.25 \\
        --new-set ai.knowledge.bide.BideKnowledge.some_parameter=3 --out benchmarks/results/ai

Every game is appended to ``DIR/versions-<label>.jsonl`` and the summary to ``DIR/versions-<label>.txt``,
with each tree's ai/ source hash; ``--summarize FILE.jsonl...`` prints the figures of saved games (a run
still going, or one stopped early).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench_ai import source_hash  # noqa: E402

from ai.arena import wilson  # noqa: E402
from ai.turns import apply_turn, random_actions, returns_of  # noqa: E402
from games.cli import parse_options  # noqa: E402
from games.interface import AnyGame  # noqa: E402
from games.registry import GAMES, new_game  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a live process has spent, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@dataclass
class Side:
    """One version's settings."""

    name: str  # "old" or "new"
    tree: Path
    level: str
    scale: float
    sets: list[str]
    reuse: bool = True  # keep the search's tree between turns where the version can
    simulations: int | None = None  # the level's count in every game (before the scale); None: the level's own


class Player:
    """A side's process for one game."""

    def __init__(self, side: Side) -> None:
        env = {**os.environ, "PYTHONPATH": str(side.tree), "PYTHONHASHSEED": "0"}
        args = [sys.executable, str(HERE / "arena_side.py"), "--scale", str(side.scale)]
        for assignment in side.sets:
            args += ["--set", assignment]
        if not side.reuse:
            args.append("--no-reuse")
        if side.simulations is not None:
            args += ["--simulations", f"{side.level}={side.simulations}"]
        self.process = subprocess.Popen(
            args, cwd=side.tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self._read()  # {"ready": true}: imports done
        self.started_cpu = process_cpu(self.process.pid)

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"arena side exited with {self.process.wait()}")
        return json.loads(line)

    def turn(self, game: AnyGame, level: str, seed: int) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"state": game.to_json(), "level": level, "seed": seed}) + "\n")
        self.process.stdin.flush()
        return self._read()

    def spent(self) -> float:
        return process_cpu(self.process.pid) - self.started_cpu

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def opening(game_id: str, players: int, options: dict[str, Any], plies: int, seed: int) -> AnyGame:
    game = new_game(game_id, players, options)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        apply_turn(game, random_actions(game, rng))
    return game


@dataclass
class GameRecord:
    pair: int
    swapped: bool
    score_new: float
    plies: int
    finished: bool
    search_seconds: dict[str, list[float]] = field(default_factory=dict)
    process_seconds: dict[str, float] = field(default_factory=dict)
    turns: list[str] = field(default_factory=list)


def play(
    args: argparse.Namespace, old: Side, new: Side, options: dict[str, Any], pair: int, swapped: bool
) -> GameRecord:
    game = opening(args.game, args.players, options, args.opening_plies, args.seed * 1_000_003 + pair)
    start_ply = game.ply
    # new holds the seats s with (s + pair + swapped) even: every other seat, and the other half when swapped
    seats_new = {s for s in range(1, game.players + 1) if (s + pair + swapped) % 2 == 0}
    sides = {"old": Player(old), "new": Player(new)}
    record = GameRecord(pair, swapped, 0.0, 0, False, {"old": [], "new": []})
    try:
        cap = args.max_turns
        for index in range(cap):
            if game.is_over:
                break
            seat = game.to_move
            assert seat is not None
            side = new if seat in seats_new else old
            seed = (args.seed * 1_000_003 + pair) * 1_009 + index
            answer = sides[side.name].turn(game, side.level, seed)
            record.search_seconds[side.name].append(answer["seconds"])
            record.turns.append(answer["turn"])
            game.play_turn(answer["turn"])
        record.process_seconds = {name: player.spent() for name, player in sides.items()}
    finally:
        for player in sides.values():
            player.close()
    returns = returns_of(game) if game.is_over else tuple(1.0 / game.players for _ in range(game.players))
    record.score_new = sum(returns[s - 1] for s in seats_new)
    record.plies = game.ply - start_ply
    record.finished = game.is_over
    return record


def percentile95(xs: Sequence[float]) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def machine() -> str:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        model = next((ln.split(":", 1)[1].strip() for ln in cpuinfo.read_text().splitlines() if "model name" in ln), "")
    return f"{platform.node()}: {os.cpu_count()} CPUs {model}, Python {platform.python_version()}"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def summary(args: argparse.Namespace, old: Side, new: Side, records: list[GameRecord], header: str) -> str:
    games = len(records)
    score = sum(r.score_new for r in records)
    low, high = wilson(score, games)
    lines = [
        header,
        f"  {games} games ({games // 2} pairs), new scores {score:.1f} = {score / max(games, 1):.1%} "
        f"[95% CI {low:.1%}–{high:.1%}]; {sum(not r.finished for r in records)} cut off as draws",
    ]
    ratios = {}
    for side in (old, new):
        search = [x for r in records for x in r.search_seconds[side.name]]
        turns = len(search)
        process = sum(r.process_seconds.get(side.name, 0.0) for r in records)
        per_turn = process / turns if turns else 0.0
        ratios[side.name] = statistics.fmean(search) if search else 0.0
        lines.append(
            f"  {side.name} ({side.level}{'' if side.simulations is None else f' at {side.simulations}'}, "
            f"scale {side.scale:g}{', ' + ' '.join(side.sets) if side.sets else ''}"
            f"{'' if side.reuse else ', no tree reuse'}; "
            f"ai/ {source_hash(side.tree)}): search CPU per turn mean {ratios[side.name]:.3f} s, "
            f"p95 {percentile95(search):.3f} s; process CPU per turn {per_turn:.3f} s ({turns} turns)"
        )
    if ratios["old"]:
        lines.append(f"  new's mean CPU per turn is {ratios['new'] / ratios['old']:.1%} of old's")
    return "\n".join(lines)


def settled(args: argparse.Namespace, records: list[GameRecord]) -> str | None:
    games = len(records)
    if games < 2 * args.min_pairs:
        return None
    score = sum(r.score_new for r in records)
    low, high = wilson(score, games)
    if score / games >= args.aim and low >= args.floor:
        return "met"
    if high < args.aim:
        return "out of reach"
    return None


def summarize(path: Path) -> str:
    """The score and CPU per turn of the games saved in ``path`` (a run still going, or one stopped)."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    games = len(lines)
    score = sum(r["score_new"] for r in lines)
    low, high = wilson(score, games)
    text = [
        f"{path.name}: {games} games, new scores {score:g} = {score / max(games, 1):.1%} [95% CI {low:.1%}–{high:.1%}]"
    ]
    means = {}
    for side in ("old", "new"):
        xs = [x for r in lines for x in r["search_seconds"][side]]
        means[side] = statistics.fmean(xs) if xs else 0.0
        hashes = sorted({r[f"{side}_hash"] for r in lines})
        text.append(
            f"  {side} (ai/ {', '.join(hashes)}): search CPU per turn mean {means[side]:.3f} s, "
            f"p95 {percentile95(xs):.3f} s ({len(xs)} turns)"
        )
    if means["old"]:
        text.append(f"  new's mean CPU per turn is {means['new'] / means['old']:.1%} of old's")
    return "\n".join(text)


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "--summarize":  # python benchmarks/arena_versions.py --summarize FILE.jsonl...
        for name in argv[1:]:
            print(summarize(Path(name)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--old", type=Path, required=True, help="the baseline's work tree")
    parser.add_argument("--new", type=Path, default=HERE.parent, help="the work tree under test (this one)")
    parser.add_argument("--level", default="hard", help="both sides' level (unless --old-level/--new-level)")
    parser.add_argument("--old-level")
    parser.add_argument("--new-level")
    parser.add_argument("--scale", type=float, default=1.0, help="both sides' budgets times this")
    parser.add_argument("--old-set", action="append", default=[])
    parser.add_argument("--new-set", action="append", default=[])
    parser.add_argument("--old-simulations", type=int, help="the old level's count in every game (before --scale)")
    parser.add_argument("--new-simulations", type=int, help="the new level's count in every game (before --scale)")
    parser.add_argument("--new-no-reuse", action="store_true", help="the new side never reuses its tree")
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--min-pairs", type=int, default=5)
    parser.add_argument("--aim", type=float, default=0.5)
    parser.add_argument("--floor", type=float, default=0.45)
    parser.add_argument("--no-stop", action="store_true", help="play every pair (no sequential stop)")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--label", help="file name part (default: game, seats, levels, scale, date)")
    args = parser.parse_args(argv)
    options = parse_options(args.option)
    old = Side(
        "old",
        args.old.resolve(),
        args.old_level or args.level,
        args.scale,
        args.old_set,
        simulations=args.old_simulations,
    )
    new = Side(
        "new",
        args.new.resolve(),
        args.new_level or args.level,
        args.scale,
        args.new_set,
        not args.new_no_reuse,
        args.new_simulations,
    )
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H%M")
    label = args.label or f"{args.game}-{args.players}p-{new.level}-vs-{old.level}-x{args.scale:g}-{stamp}"
    header = (
        f"arena_versions {stamp} UTC: {args.game} {args.players}p {args.option or ''} new {new.tree} vs old "
        f"{old.tree}; seed {args.seed}, {args.opening_plies} opening plies, cap {args.max_turns} turns\n"
        f"  {machine()}; at start {load()}"
    )
    print(header, flush=True)
    records: list[GameRecord] = []
    lock = threading.Lock()
    out_lines = None
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        out_lines = args.out / f"versions-{label}.jsonl"
    stop: str | None = None

    def one(pair: int, swapped: bool) -> GameRecord:
        record = play(args, old, new, options, pair, swapped)
        with lock:
            records.append(record)
            if out_lines is not None:
                with out_lines.open("a") as f:
                    line = {"new_hash": source_hash(new.tree), "old_hash": source_hash(old.tree), **record.__dict__}
                    f.write(json.dumps(line) + "\n")
            old_t = statistics.fmean(record.search_seconds["old"] or [0.0])
            new_t = statistics.fmean(record.search_seconds["new"] or [0.0])
            print(
                f"  pair {pair}{' swapped' if swapped else ''}: new {record.score_new:.2f} in {record.plies} plies; "
                f"CPU per turn new {new_t:.3f} s, old {old_t:.3f} s; total {sum(r.score_new for r in records):.1f}"
                f"/{len(records)}",
                flush=True,
            )
        return record

    started = time.time()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for pair in range(args.pairs):
            futures = [pool.submit(one, pair, swapped) for swapped in (False, True)]
            for future in futures:
                future.result()
            if not args.no_stop:
                stop = settled(args, records)
                if stop:
                    break
    text = summary(args, old, new, records, header)
    text += f"\n  at end {load()}; {time.time() - started:.0f} s wall"
    if stop:
        claim = f"≥{args.aim:.0%}, lower bound ≥{args.floor:.0%}"
        text += f"\n  sequential stop after {len(records) // 2} pairs: the claim ({claim}) {stop}"
    print(text, flush=True)
    if args.out:
        (args.out / f"versions-{label}.txt").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
