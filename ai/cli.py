"""The ``ai`` and ``arena`` commands of ``python -m games``.

``games/cli.py`` parses the arguments and imports this module only when one
of these commands runs, so :mod:`games` never depends on :mod:`ai`.
"""

from __future__ import annotations

import argparse
import json
import sys

from games.interface import Game, GameError, split_turns

from .arena import arena
from .levels import choose_turn, get_level


def _level(name: str) -> str:
    try:
        return get_level(name).name
    except ValueError as error:
        raise GameError(str(error)) from None


def run_ai(args: argparse.Namespace, game: Game) -> int:
    """Print the turn the computer would play after ``args.moves`` (exit 2 when there is none)."""
    level = _level(args.level)
    for index, turn in enumerate(split_turns(args.moves)):
        try:
            game.play_turn(turn)
        except GameError as error:
            raise GameError(f"turn {index + 1} ({turn}): {error}") from None
    if game.is_over:
        raise GameError("the game is over: there is no turn to play")
    choice = choose_turn(game, level, seed=args.seed)
    if args.json:
        print(json.dumps({"turn": choice.turn.notation, "level": choice.level,
                          "seconds": round(choice.seconds, 3)}))
    else:
        print(choice.turn.notation)
    return 0


def run_arena(args: argparse.Namespace, options: dict[str, str]) -> int:
    a, b = _level(args.a), _level(args.b)
    if args.games < 1:
        raise GameError("--games must be at least 1")

    def progress(result) -> None:  # type: ignore[no-untyped-def]
        if not args.json and not args.quiet:
            print(f"\r{result.games}/{args.games} games, {a} {result.rate:.0%}", end="", file=sys.stderr,
                  flush=True)

    result = arena(args.game, a, b, args.games, players=args.players, options=options,
                   seed=args.seed, progress=progress, jobs=args.jobs)
    if not args.json and not args.quiet:
        print(file=sys.stderr)
    low, high = result.interval
    if args.json:
        print(json.dumps({
            "a": a, "b": b, "games": result.games, "score_a": result.score_a,
            "rate": result.rate, "ci95": [low, high],
            "seconds_per_turn": {lv: dict(zip(("mean", "p95"), result.timing(lv))) for lv in result.seconds},
        }))
    else:
        print(result.line())
        for lv in result.seconds:
            mean, p95 = result.timing(lv)
            print(f"  {lv}: {mean:.3f} s per turn (p95 {p95:.3f} s, CPU)")
    return 0
