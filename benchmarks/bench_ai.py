"""Computer opponent figures (issue 11): strength between levels and thinking time.

Not a test: it plays many whole games. For each game with its standard options
(two players; Bide also with four, two seats per side), the win rate of the
first level against the second with a 95% Wilson interval (issue 11's pairs:
hard vs random, hard vs easy, medium vs easy), then CPU seconds per turn
(mean, p95) at each level over all those games.

    python benchmarks/bench_ai.py                 # make bench: medium:easy x2, hard:random x1 per game
    python benchmarks/bench_ai.py [--games N] [--slow-games N] [--only bide:4,begird]
                                  [--pairs medium:easy,hard:easy,hard:random] [--seed 0] [--max-turns 300] [--out DIR]
    python benchmarks/bench_ai.py --like benchmarks/results/ai --out DIR   # replay the published games
    python benchmarks/bench_ai.py --table DIR     # the figures table (docs/ai.md) from saved games
    python benchmarks/bench_ai.py --timing-positions 10     # only seconds per turn, per level

Game ``k`` of a pair is the arena's game ``k`` (``ai.arena.play_one``): its
seeds depend only on ``--seed`` and ``k``, so any game can be replayed alone
(a search stopped by its CPU cap rather than its simulation count depends on
the machine's speed, so such games may differ). With ``--out`` every finished
game is appended as one JSON line to ``DIR/ai-<game>-<players>p-<a>-vs-<b>-seed<S>.jsonl``
and a rerun plays only the games missing there, so a long run can be
interrupted and resumed; ``--like`` plays exactly the games of a saved
directory. Pairs are played round-robin (the one least far towards its count
next), so an interrupted run still covers every pair. Pairs involving
``hard`` use ``--slow-games`` (a hard turn takes seconds).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.arena import play_one, wilson
from ai.levels import LEVELS
from ai.player import choose_turn
from ai.turns import apply_turn, random_actions
from games.registry import GAMES, new_game

AI_VERSION = ""  # set by ai_version() when a run starts
PAIRS = (("medium", "easy"), ("hard", "easy"), ("hard", "random"), ("hard", "medium"), ("expert", "hard"))
DEFAULT_PAIRS = (("medium", "easy"), ("hard", "random"))  # make bench: a few minutes
AIMS = {
    ("hard", "random"): 0.95,
    ("hard", "easy"): 0.75,
    ("medium", "easy"): 0.60,
    ("hard", "medium"): 0.50,
    ("expert", "hard"): 0.50,
}  # "each level clearly stronger than the one below"
STRICT = {("medium", "easy"), ("hard", "medium"), ("expert", "hard")}  # aims to beat, not to reach


def setups(only: str | None) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for game_id in ("begird", "bide", "playbai", "bump"):
        if game_id in GAMES and (only is None or only == game_id):
            out.append((game_id, 2))
            if game_id == "bide":
                out.append((game_id, 4))
    return out


def turn_cap(game_id: str, max_turns: int) -> int | None:
    """Bump and Play Bai can go on for ever: cut at ``max_turns`` (a draw). Bide and Begird always end."""
    info = GAMES[game_id]
    return max_turns if (info.max_turns is not None or info.allows_draws) else None


def percentile95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def timing_line(label: str, xs: list[float]) -> str:
    return (
        f"  {label}: mean {statistics.fmean(xs):.3f} s, p95 {percentile95(xs):.3f} s, "
        f"max {max(xs):.3f} s (CPU, {len(xs)} turns)"
    )


def time_levels(game_id: str, players: int, positions: int) -> None:
    """CPU seconds per turn at each level over positions reached by seeded random play."""
    rng = random.Random(11)
    for level in (name for name, lv in LEVELS.items() if lv.simulations):
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


# -- saved results -------------------------------------------------------------------


def ai_version() -> str:
    """A short hash of the ai/ sources, saved with each game (which code played it)."""
    return source_hash(Path(__file__).resolve().parent.parent)


def source_hash(tree: Path) -> str:
    """A short hash of the ai/ sources of the work tree ``tree`` (every module, the subpackages' too)."""
    digest = hashlib.sha1()
    root = tree / "ai"
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:10]


def result_path(out: Path, game_id: str, players: int, a: str, b: str, seed: int) -> Path:
    return out / f"ai-{game_id}-{players}p-{a}-vs-{b}-seed{seed}.jsonl"


def load_records(path: Path) -> list[dict]:
    """The games saved in ``path``, each game number once (a replayed game is identical)."""
    if not path.exists():
        return []
    records: dict[int, dict] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            records.setdefault(record["k"], record)
    return list(records.values())


class Pair:
    """One (game, players, a, b) series: the games done so far and those still to play."""

    def __init__(
        self,
        game_id: str,
        players: int,
        a: str,
        b: str,
        target: int,
        seed: int,
        max_turns: int,
        out: Path | None,
        numbers: list[int] | None = None,
    ) -> None:
        self.game_id, self.players, self.a, self.b = game_id, players, a, b
        self.target, self.seed, self.cap = target, seed, turn_cap(game_id, max_turns)
        self.numbers = numbers  # the game numbers to play (default: 0, 1, 2, …)
        self.path = result_path(out, game_id, players, a, b, seed) if out else None
        self.records = [r for r in load_records(self.path) if r["max_turns"] == self.cap] if self.path else []
        self.done = {r["k"] for r in self.records}

    @property
    def progress(self) -> float:
        return len(self.done) / self.target if self.target else 1.0

    def play_next(self) -> dict:
        numbers = self.numbers if self.numbers is not None else range(self.target + len(self.done) + 1)
        k = next(k for k in numbers if k not in self.done)
        start = time.process_time()
        score, ply, seconds, finished = play_one(
            self.game_id, self.a, self.b, k, self.players, None, self.seed, self.cap
        )
        record = {
            "game": self.game_id,
            "players": self.players,
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "k": k,
            "max_turns": self.cap,
            "score_a": score,
            "ply": ply,
            "finished": finished,
            "cpu": round(time.process_time() - start, 3),
            "ai": AI_VERSION,
            "seconds": {lv: [round(x, 4) for x in xs] for lv, xs in seconds.items()},
        }
        self.records.append(record)
        self.done.add(k)
        if self.path is not None:
            with self.path.open("a") as f:
                f.write(json.dumps(record) + "\n")
        return record


def summary(records: list[dict]) -> dict:
    n = len(records)
    score = sum(r["score_a"] for r in records)
    low, high = wilson(score, n)
    return {
        "games": n,
        "score_a": score,
        "rate": score / n if n else 0.0,
        "ci95": (low, high),
        "unfinished": sum(not r["finished"] for r in records),
        "turns": statistics.fmean(r["ply"] for r in records) if n else 0.0,
    }


def pair_line(pair: Pair) -> str:
    s = summary(pair.records)
    low, high = s["ci95"]
    cut = f", {s['unfinished']} cut off as draws" if s["unfinished"] else ""
    return (
        f"{pair.game_id} ({pair.players} players) {pair.a} vs {pair.b}: {pair.a} scores {s['rate']:.1%} "
        f"[95% CI {low:.1%}–{high:.1%}] over {s['games']} games{cut}; {s['turns']:.0f} turns per game"
    )


def table(out: Path) -> str:
    """A Markdown table of every saved series in ``out`` (all seeds of a pair pooled).

    "aim met?": *shown* when the whole 95% interval meets the aim, *likely* when
    only the observed rate does, *unclear* when only the interval's top does,
    *missed* when the interval lies wholly below it.
    """
    series: dict[tuple[str, int, str, str], list[dict]] = {}
    for path in sorted(out.glob("ai-*.jsonl")):
        for r in load_records(path):
            series.setdefault((r["game"], r["players"], r["a"], r["b"]), []).append(r)
    order = {g: i for i, g in enumerate(("begird", "bide", "playbai", "bump"))}
    pair_order = {p: i for i, p in enumerate(PAIRS)}
    keys = sorted(series, key=lambda k: (order.get(k[0], 9), k[1], pair_order.get((k[2], k[3]), 9)))
    lines = [
        "| game | pair (a vs b) | games | cut off (draw) | a scores | 95% CI | aim | aim met? |",
        "|---|---|---:|---:|---:|---|---|---|",
    ]
    seconds: dict[tuple[str, int], dict[str, list[float]]] = {}
    for key in keys:
        game_id, players, a, b = key
        s = summary(series[key])
        low, high = s["ci95"]
        aim = AIMS.get((a, b))
        if aim is None:
            aim_text = met = ""
        else:
            strict = (a, b) in STRICT
            aim_text = (">" if strict else "≥") + f"{aim:.0%}"

            def meets(x: float) -> bool:
                return x > aim if strict else x >= aim  # noqa: B023

            # Shown: the whole interval meets the aim; missed: none of it does.
            met = "shown" if meets(low) else "likely" if meets(s["rate"]) else "unclear" if meets(high) else "missed"
        lines.append(
            f"| {game_id} {players}p | {a} vs {b} | {s['games']} | {s['unfinished']} | {s['rate']:.1%} "
            f"| {low:.1%}–{high:.1%} | {aim_text} | {met} |"
        )
        per_level = seconds.setdefault((game_id, players), {})
        for r in series[key]:
            for lv, xs in r["seconds"].items():
                per_level.setdefault(lv, []).extend(xs)
    lines += ["", "| game | level | turns timed | CPU s per turn, mean | p95 | max |", "|---|---|---:|---:|---:|---:|"]
    for (game_id, players), per_level in seconds.items():
        for lv in LEVELS:
            xs = per_level.get(lv)
            if xs:
                lines.append(
                    f"| {game_id} {players}p | {lv} | {len(xs)} | {statistics.fmean(xs):.3f} "
                    f"| {percentile95(xs):.3f} | {max(xs):.3f} |"
                )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per pair without hard")
    parser.add_argument("--slow-games", type=int, default=1, help="games per pair with hard")
    parser.add_argument("--only", default=None, help="game ids, or game:players, comma-separated (bide:4,begird)")
    parser.add_argument("--pairs", default=None, help='e.g. "medium:easy,hard:random"')
    parser.add_argument("--seed", type=int, default=0, help="another seed plays other games")
    parser.add_argument(
        "--max-turns", type=int, default=300, help="Bump and Play Bai games still going after this many turns are draws"
    )
    parser.add_argument("--out", type=Path, default=None, help="append each game to DIR/ai-*.jsonl; resume")
    parser.add_argument("--table", type=Path, default=None, help="only print the table of the results in DIR")
    parser.add_argument(
        "--like",
        type=Path,
        default=None,
        help="replay exactly the games saved in DIR (pairs, seeds, game numbers) into --out",
    )
    parser.add_argument(
        "--timing-positions",
        type=int,
        default=0,
        help="only time each level on this many positions per game (from random play)",
    )
    args = parser.parse_args()
    global AI_VERSION
    AI_VERSION = ai_version()
    if args.table:
        print(table(args.table))
        return 0
    pairs = DEFAULT_PAIRS if not args.pairs else tuple(tuple(p.split(":")) for p in args.pairs.split(","))
    chosen = setups(None)
    if args.only:
        wanted = [w.partition(":") for w in args.only.split(",")]
        chosen = [(g, p) for g, p in chosen if any(g == w and (not n or p == int(n)) for w, _, n in wanted)]
    if args.timing_positions:
        for game_id, players in chosen:
            time_levels(game_id, players, args.timing_positions)
        return 0
    print(
        "levels: "
        + ", ".join(
            f"{lv.name} {lv.simulations} simulations (cap {lv.seconds} s CPU)"
            for lv in LEVELS.values()
            if lv.simulations
        )
    )
    print(f"a Bump or Play Bai game still going after {args.max_turns} turns is a draw", flush=True)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    if args.like:
        series = []
        for path in sorted(args.like.glob("ai-*.jsonl")):
            saved = load_records(path)
            if saved:
                r = saved[0]
                cap = r["max_turns"] if r["max_turns"] is not None else args.max_turns
                series.append(
                    Pair(
                        r["game"],
                        r["players"],
                        r["a"],
                        r["b"],
                        len(saved),
                        r["seed"],
                        cap,
                        args.out,
                        sorted(x["k"] for x in saved),
                    )
                )
    else:
        series = [
            Pair(
                g,
                p,
                a,
                b,
                args.slow_games if {"hard", "expert"} & {a, b} else args.games,
                args.seed,
                args.max_turns,
                args.out,
            )
            for a, b in pairs
            for g, p in chosen
        ]
    while True:
        todo = [s for s in series if len(s.done) < s.target]
        if not todo:
            break
        pair = min(todo, key=lambda s: s.progress)
        record = pair.play_next()
        print(
            f"{pair.game_id} {pair.players}p {pair.a}-{pair.b} game {record['k']}: a scored {record['score_a']:g} "
            f"in {record['ply']} turns, {record['cpu']:.0f} s CPU",
            flush=True,
        )
    print()
    for pair in series:
        print(pair_line(pair))
    seconds: dict[tuple[str, int], dict[str, list[float]]] = {}
    for pair in series:
        per_level = seconds.setdefault((pair.game_id, pair.players), {})
        for r in pair.records:
            for lv, xs in r["seconds"].items():
                per_level.setdefault(lv, []).extend(xs)
    print("\nCPU seconds per turn:")
    for (game_id, players), per_level in seconds.items():
        for level in LEVELS:
            if per_level.get(level):
                print(timing_line(f"{game_id} ({players} players) {level:>6}", per_level[level]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
