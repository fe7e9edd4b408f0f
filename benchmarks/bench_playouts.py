"""The search's speed per game, old and new side by side: playouts and simulations per CPU second.

    python benchmarks/bench_playouts.py --side old=../baseline-b3c7981 [--side mid=PATH ...] [--seconds S]

Each *side* is a checkout of the project (this one is always measured, as ``new``). For every game the
same positions (seeded random play, checked identical on every side by a fingerprint) are measured by
each side's own code in its own process, the sides taking turns game by game so that the machine's
load falls on them alike:

* playouts per CPU second: the game's knowledge scoring a leaf (``evaluate``: Begird's fill-in, Bide's
  weighted playout, Bump's few random turns and estimate; Play Bai has no playout, its leaves are a
  static estimate), repeated over the positions for ``--seconds`` of CPU;
* simulations per CPU second: whole searches (``ai.mcts.MCTS``, a fixed simulation count, no time cap)
  from each position, simulations done over CPU spent;
* for Bump and Play Bai, listing every distinct complete turn (``legal_actions`` on a fresh copy,
  ``turn_results``), milliseconds per position.

CPU time (``time.process_time``) throughout; the ratio column is new over the first side.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# (label, game id, players, options, plies of the positions, simulations per search)
SETUPS: tuple[tuple[str, str, int, dict[str, Any], tuple[int, ...], int], ...] = (
    ("Begird standard", "begird", 2, {}, (2, 12, 30, 50), 400),
    ("Bide 2 seats", "bide", 2, {}, (2, 10, 20, 30), 150),
    ("Bide 4 seats", "bide", 4, {}, (2, 10, 20, 30), 150),
    ("Bump", "bump", 2, {}, (2, 10, 24, 40), 200),
    ("Play Bai", "playbai", 2, {}, (2, 10, 24, 40), 200),
)


# -- one side's measurement (runs in a child process, with that side's code first on the path) -------


def positions(game_id: str, players: int, options: dict[str, Any], plies: tuple[int, ...]) -> list[Any]:
    from ai.turns import apply_turn, random_actions
    from games.registry import new_game

    out = []
    for k, count in enumerate(plies):
        rng = random.Random(1000 + k)
        game = new_game(game_id, players, options)
        for _ in range(count):
            if game.is_over:
                break
            apply_turn(game, random_actions(game, rng))
        if not game.is_over:
            out.append(game)
    return out


def knowledge_of(game: Any) -> Any:
    # ai.knowledge.knowledge_for after the search's seam (issue 38); ai.registry's on main at b3c7981.
    for name in ("ai.knowledge", "ai.registry"):
        knowledge_for = getattr(importlib.import_module(name), "knowledge_for", None)
        if knowledge_for is not None:
            return knowledge_for(game)
    raise ImportError("no knowledge_for in this checkout's ai/")


def measure(setup: int, seconds: float) -> dict[str, Any]:
    from ai.mcts import MCTS

    _, game_id, players, options, plies, simulations = SETUPS[setup]
    games = positions(game_id, players, options, plies)
    fingerprint = hashlib.sha1(json.dumps([g.to_json() for g in games], sort_keys=True).encode()).hexdigest()[:12]
    knowledge = knowledge_of(games[0])
    out: dict[str, Any] = {"fingerprint": fingerprint, "positions": len(games)}
    if game_id != "playbai":
        rng = random.Random(5)
        done = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for game in games:
                knowledge.evaluate(game, rng)
            done += len(games)
        out["playouts"] = done / (time.process_time() - start)
    sims = 0
    start = time.process_time()
    for k, game in enumerate(games):
        sims += MCTS(knowledge_of(game), random.Random(k), simulations=simulations).search(game).simulations
    out["simulations"] = sims / (time.process_time() - start)
    if game_id in ("bump", "playbai"):
        runs = 0
        start = time.process_time()
        while time.process_time() - start < seconds / 2:
            for game in games:
                if game_id == "bump":
                    trial = game.copy()
                    trial._cache = None  # no enumeration cached
                    trial.legal_actions()
                else:
                    game.turn_results()
            runs += len(games)
        out["enumeration_ms"] = 1000 * (time.process_time() - start) / runs
    return out


# -- the parent: every side, game by game ------------------------------------------------------------


def run_side(root: Path, setup: int, seconds: float) -> dict[str, Any]:
    code = (
        f"import sys; sys.path.insert(0, {str(root)!r}); sys.path.insert(1, {str(ROOT / 'benchmarks')!r}); "
        f"import json, bench_playouts as b; print(json.dumps(b.measure({setup}, {seconds})))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"{root}: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else run.returncode}")
    result: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def cell(value: float | None, first: float | None) -> str:
    if value is None:
        return "—"
    text = f"{value:,.0f}" if value >= 100 else f"{value:,.2f}"
    if first and first != value:
        text += f" ({value / first:.2f}×)"
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", action="append", default=[], help="LABEL=PATH of another checkout (first: base)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per playout measurement")
    parser.add_argument("--only", default=None, help="a game id: measure only that game")
    args = parser.parse_args()
    sides = [(label, Path(path).resolve()) for label, _, path in (s.partition("=") for s in args.side)]
    sides.append(("new", ROOT))
    heads = {}
    for label, root in sides:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
        heads[label] = rev.stdout.strip() or "?"
    print("sides: " + ", ".join(f"{label} = {root} ({heads[label]})" for label, root in sides))
    print(f"load average at start: {os.getloadavg()[0]:.1f}; CPU time; ratios against {sides[0][0]}", flush=True)
    rows = []
    for index, setup in enumerate(SETUPS):
        if args.only and setup[1] != args.only:
            continue
        results = [run_side(root, index, args.seconds) for _, root in sides]
        prints = {r["fingerprint"] for r in results}
        if len(prints) != 1:
            sys.exit(f"{setup[0]}: the sides measured different positions ({prints})")
        rows.append((setup[0], results))
        print(f"  {setup[0]}: done ({results[0]['positions']} positions)", flush=True)
    labels = [label for label, _ in sides]
    for what, key in (
        ("playouts per CPU second", "playouts"),
        ("search simulations per CPU second", "simulations"),
        ("ms to list every distinct turn", "enumeration_ms"),
    ):
        print(f"\n{what}")
        print("| game | " + " | ".join(labels) + " |")
        print("|---|" + "---:|" * len(labels))
        for name, results in rows:
            if all(key not in r for r in results):
                continue
            first = results[0].get(key)
            print(f"| {name} | " + " | ".join(cell(r.get(key), first) for r in results) + " |")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
