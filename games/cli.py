"""``python -m games``: replay moves, list games, show rules, play random games.

    python -m games replay GAME [--players N] [--option KEY=VALUE]... [--position FILE]
                                [--moves "TURN; TURN; ..."] [--json]
    python -m games random GAME [--players N] [--option KEY=VALUE]... [--seed S] [--json]
    python -m games list
    python -m games rules GAME

The computer opponent has its own command, ``python -m ai`` (:mod:`ai.cli`), which
reuses this module's game set-up: ``games`` imports nothing outside itself.

Turns are separated by ``;``; the actions of one turn by ``,`` or spaces.
An illegal turn exits with status 2. No traceback is ever shown to a user.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .interface import AnyGame, GameError, split_turns
from .registry import GAMES, get

EXIT_ILLEGAL = 2


# Moved to `python -m ai` (kept here only to say where they went).
MOVED = {"ai": "python -m ai turn", "arena": "python -m ai arena"}


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UsageError`, reported like any other error."""

    def error(self, message: str) -> NoReturn:  # argparse would print usage and exit 2
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m games", description="Hexplay game engines from the command line.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    replay = sub.add_parser("replay", help="apply turns to a new game or a position and print the result")
    add_game_arguments(replay)
    replay.add_argument("--position", metavar="FILE", help="start from a position in JSON form ('-' for stdin)")
    replay.add_argument("--moves", default="", help='turns separated by ";", e.g. "e5; d4; bide"')
    replay.add_argument("--json", action="store_true", help="print one JSON object")

    rand = sub.add_parser("random", help="play one random game and print its move list")
    add_game_arguments(rand)
    rand.add_argument("--seed", type=int, default=None)
    rand.add_argument("--json", action="store_true")

    sub.add_parser("list", help="the games and their options")
    rules = sub.add_parser("rules", help="a game's rules summary")
    rules.add_argument("game")
    return parser


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game id: " + ", ".join(sorted(GAMES)))
    p.add_argument("--players", type=int, default=None, help="number of seats")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def setup_game(args: argparse.Namespace) -> AnyGame:
    info = get(args.game)
    options = parse_options(args.option)
    players = args.players or info.min_players
    if getattr(args, "position", None):
        text = sys.stdin.read() if args.position == "-" else _read(args.position)
        try:
            position = json.loads(text)
        except json.JSONDecodeError as error:
            raise UsageError(f"the position is not valid JSON: {error}") from None
        if not isinstance(position, dict):
            raise UsageError("the position must be a JSON object")
        assert info.game_class is not None
        info.check_players(players)
        return info.game_class.from_position(players, options, position)
    return info.new(players, options)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def summary(game: AnyGame) -> dict[str, Any]:
    """The replay result object of the command-line contract."""
    over = game.is_over
    scores = game.scores()
    return {
        "game": game.info.id,
        "players": game.players,
        "options": game.options,
        "ply": game.ply,
        "to_move": game.to_move,
        "over": over,
        "winners": list(game.winners),
        "scores": list(scores) if scores is not None else None,
        "legal": [] if over else game.legal_notations(),
        "position": game.position(),
    }


def replay(args: argparse.Namespace) -> int:
    game = setup_game(args)
    for index, turn in enumerate(split_turns(args.moves)):
        try:
            game.play_turn(turn)
        except GameError as error:
            return fail(f"turn {index + 1} ({turn}): {error}", args.json, ply=index)
    if args.json:
        print(json.dumps(summary(game)))
    else:
        print(game.render_text())
        if not game.is_over:
            print(f"Legal: {' '.join(game.legal_notations())}")
    return 0


def random_game(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    game = setup_game(args)
    turns: list[str] = []
    limit = game.info.max_turns  # games that can go on forever (Bump) stop here, unfinished
    while not game.is_over and (limit is None or len(turns) < limit):
        actions = []
        while True:
            legal = game.legal_actions()
            if game.can_end_turn() and (not legal or rng.random() < 0.5):
                break
            action = rng.choice(legal)
            actions.append(game.format_action(action))
            game.apply_action(action)
            if game.is_over:
                break
        if not game.is_over:
            game.end_turn()
        turns.append(",".join(actions))
    moves = "; ".join(turns)
    if args.json:
        print(json.dumps({"moves": moves, **summary(game)}))
    else:
        print(moves)
        print(game.render_text())
    return 0


def fail(message: str, as_json: bool, ply: int | None = None, status: int = EXIT_ILLEGAL) -> int:
    if as_json:
        print(json.dumps({"error": message, "ply": ply}))
    else:
        print(f"error: {message}", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    try:
        if argv and argv[0] in MOVED:
            raise UsageError(f"{argv[0]} has moved: run {MOVED[argv[0]]} {' '.join(argv[1:])}".rstrip())
        args = build_parser().parse_args(argv)
        if args.command == "replay":
            return replay(args)
        if args.command == "random":
            return random_game(args)
        if args.command == "list":
            for info in GAMES.values():
                opts = ", ".join(f"{o.key}={o.default} ({'/'.join(map(str, o.allowed))})" for o in info.options)
                print(f"{info.id:8} {info.name:10} {info.min_players}-{info.max_players} players  {opts}")
            return 0
        if args.command == "rules":
            print(get(args.game).summary)
            return 0
    except (UsageError, GameError) as error:
        return fail(str(error), as_json)
    except Exception as error:  # never a traceback for a user
        return fail(f"internal error: {error.__class__.__name__}: {error}", as_json, status=1)
    return 1
