"""One side of the cross-version arena (benchmarks/arena_versions.py): a work tree's computer, alive for a game.

Run with a work tree as the working directory and on ``PYTHONPATH``, so ``import ai`` is *that tree's*
code (the baseline's or the working tree's); it reads one JSON request per line on stdin and answers one
JSON line on stdout:

    {"state": <Game.to_json()>, "level": "hard", "seed": 7}
      -> {"turn": "f5", "seconds": 0.41, "simulations": 1200}

``seconds`` is what the tree's own ``choose_turn`` reports (the search's CPU seconds). The process stays
alive across a game's turns, so a search that keeps its tree between turns in the process that thinks can
show it (``--no-reuse`` turns that off). Only names every version has are used: ``ai.choose_turn``,
``ai.levels.LEVELS`` (a dataclass per level with ``simulations`` and ``seconds``) and
``games.registry.load_state``.

    --scale X          every level's simulations and CPU cap times X (tuning at reduced budgets)
    --set DOTTED=VALUE set a named search parameter before the first turn (a JSON value), e.g.
                       --set ai.knowledge.begird.BegirdKnowledge.settings.rave_weight=500
    --simulations LEVEL=N  the level's own simulation count in every game (before --scale): tuning a count
                       without editing ai/levels.py (a version without per-game counts: its base count)
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import json
import sys
from typing import Any


def scale_levels(scale: float) -> None:
    import ai.levels

    for name, level in list(ai.levels.LEVELS.items()):
        if level.simulations:
            seconds = None if level.seconds is None else level.seconds * scale
            changes: dict[str, Any] = {"simulations": max(1, round(level.simulations * scale)), "seconds": seconds}
            if getattr(level, "per_game", None):  # a version with per-game counts: scaled alike
                changes["per_game"] = {game: max(1, round(n * scale)) for game, n in level.per_game.items()}
            ai.levels.LEVELS[name] = dataclasses.replace(level, **changes)


def set_simulations(assignment: str) -> None:
    import ai.levels

    name, _, raw = assignment.partition("=")
    level = ai.levels.LEVELS[name]
    count = int(raw)
    if getattr(level, "per_game", None):
        changes: dict[str, Any] = {"per_game": dict.fromkeys(level.per_game, count)}
    else:
        changes = {"simulations": count}
    ai.levels.LEVELS[name] = dataclasses.replace(level, **changes)


def set_parameter(assignment: str) -> None:
    """``module.Class.attribute=VALUE``, or ``module.Class.settings.field=VALUE`` for a field of a frozen
    dataclass (replaced by a copy with the field changed)."""
    dotted, _, raw = assignment.partition("=")
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):  # the longest importable module prefix
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        break
    else:
        raise SystemExit(f"arena_side: no module in {dotted!r}")
    chain = [target]
    for name in parts[cut:-1]:
        chain.append(getattr(chain[-1], name))
    owner, attribute, value = chain[-1], parts[-1], json.loads(raw)
    if not hasattr(owner, attribute):
        raise SystemExit(f"arena_side: {dotted} is no parameter")
    if dataclasses.is_dataclass(owner) and not isinstance(owner, type):
        setattr(chain[-2], parts[-2], dataclasses.replace(owner, **{attribute: value}))
    else:
        setattr(owner, attribute, value)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--simulations", action="append", default=[], metavar="LEVEL=N")
    parser.add_argument("--no-reuse", action="store_true", help="never reuse a kept tree between turns")
    args = parser.parse_args()
    from ai import choose_turn
    from games.registry import load_state

    # a version whose computer keeps its tree between turns (as its thinking processes do) keeps it here too
    reuse: dict[str, Any] = (
        {"reuse": True} if "reuse" in inspect.signature(choose_turn).parameters and not args.no_reuse else {}
    )

    for assignment in args.simulations:
        set_simulations(assignment)
    if args.scale != 1.0:
        scale_levels(args.scale)
    for assignment in args.set:
        set_parameter(assignment)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        game = load_state(request["state"])
        choice = choose_turn(game, request["level"], seed=request["seed"], **reuse)
        answer = {"turn": choice.turn.notation, "seconds": choice.seconds, "simulations": choice.simulations}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
