"""``python -m ai``: the computer opponent from the command line.

    python -m ai turn GAME [--players N] [--option KEY=VALUE]... [--position FILE]
                           [--moves "TURN; TURN; ..."] [--level L] [--seed S] [--json]
    python -m ai arena GAME --a LEVEL --b LEVEL --games N [--players N] [--option KEY=VALUE]...
                           [--seed S] [--jobs J] [--json] [--quiet]

``turn`` prints the turn the computer would play after the moves; ``arena``
plays two levels against each other. The game is set up exactly as by
``python -m games replay`` (:mod:`games.cli`). As there, an error exits with
status 2 and no traceback is ever shown to a user.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.cli import Parser, UsageError, add_game_arguments, fail, parse_options, setup_game
from games.interface import AnyGame, GameError, split_turns
from games.registry import get

from .arena import ArenaResult, arena
from .levels import get_level
from .player import choose_turn


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m ai", description="Hexplay's computer opponent from the command line.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    turn = sub.add_parser("turn", help="print the turn the computer would play")
    add_game_arguments(turn)
    turn.add_argument("--position", metavar="FILE", help="start from a position in JSON form ('-' for stdin)")
    turn.add_argument("--moves", default="", help="turns played before the computer's")
    turn.add_argument("--level", default="medium", help="random, easy, medium, hard or expert")
    turn.add_argument("--seed", type=int, default=0, help="the same seed gives the same turn")
    turn.add_argument("--json", action="store_true", help='print {"turn": ..., "level": ..., "seconds": ...}')

    duel = sub.add_parser("arena", help="play levels against each other; win rate of a with a 95%% CI")
    add_game_arguments(duel)
    duel.add_argument("--a", required=True, metavar="LEVEL")
    duel.add_argument("--b", required=True, metavar="LEVEL")
    duel.add_argument("--games", type=int, default=10)
    duel.add_argument("--seed", type=int, default=0)
    duel.add_argument("--json", action="store_true")
    duel.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    duel.add_argument("--jobs", type=int, default=1, help="games played at once, in processes")
    return parser


def _level(name: str) -> str:
    try:
        return get_level(name).name
    except ValueError as error:
        raise GameError("{reason}", reason=error) from None


def run_turn(args: argparse.Namespace, game: AnyGame) -> int:
    """Print the turn the computer would play after ``args.moves`` (exit 2 when there is none)."""
    level = _level(args.level)
    for index, turn in enumerate(split_turns(args.moves)):
        try:
            game.play_turn(turn)
        except GameError as error:
            raise GameError("turn {number} ({turn}): {reason}", number=index + 1, turn=turn, reason=error) from None
    if game.is_over:
        raise GameError("the game is over: there is no turn to play")
    choice = choose_turn(game, level, seed=args.seed)
    if args.json:
        print(json.dumps({"turn": choice.turn.notation, "level": choice.level, "seconds": round(choice.seconds, 3)}))
    else:
        print(choice.turn.notation)
    return 0


def run_arena(args: argparse.Namespace, options: dict[str, str]) -> int:
    a, b = _level(args.a), _level(args.b)
    if args.games < 1:
        raise GameError("--games must be at least 1")

    def progress(result: ArenaResult) -> None:
        if not args.json and not args.quiet:
            print(f"\r{result.games}/{args.games} games, {a} {result.rate:.0%}", end="", file=sys.stderr, flush=True)

    result = arena(
        args.game,
        a,
        b,
        args.games,
        players=args.players,
        options=options,
        seed=args.seed,
        progress=progress,
        jobs=args.jobs,
    )
    if not args.json and not args.quiet:
        print(file=sys.stderr)
    low, high = result.interval
    if args.json:
        print(
            json.dumps(
                {
                    "a": a,
                    "b": b,
                    "games": result.games,
                    "score_a": result.score_a,
                    "rate": result.rate,
                    "ci95": [low, high],
                    "seconds_per_turn": {
                        lv: dict(zip(("mean", "p95"), result.timing(lv), strict=True)) for lv in result.seconds
                    },
                }
            )
        )
    else:
        print(result.line())
        for lv in result.seconds:
            mean, p95 = result.timing(lv)
            print(f"  {lv}: {mean:.3f} s per turn (p95 {p95:.3f} s, CPU)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    try:
        args = build_parser().parse_args(argv)
        if args.command == "turn":
            return run_turn(args, setup_game(args))
        if args.command == "arena":
            info = get(args.game)
            info.check_players(args.players or info.min_players)
            return run_arena(args, parse_options(args.option))
    except (UsageError, GameError) as error:
        return fail(str(error), as_json)
    except Exception as error:  # never a traceback for a user
        return fail(f"internal error: {error.__class__.__name__}: {error}", as_json, status=1)
    return 1
