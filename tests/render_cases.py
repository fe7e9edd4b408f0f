"""Sample positions of every registered game, for the picture tests and benchmarks; and
:func:`same_picture`, how those tests compare two PNGs.

Positions come from seeded random play through the generic engine interface
(``legal_actions``/``apply_action``/``end_turn``), so a newly registered game
gets cases without writing any.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from typing import Any

from PIL import Image

from games import new_game
from games.interface import Event, Game
from render.palettes import random_turn  # the palettes are fitted on the same random play

NAMES = ["Alice", "Bob", "Chloé", "Dmitri", "Eun-ji", "Farid"]


def played(
    game_id: str, players: int, options: Mapping[str, Any] | None, turns: int, seed: int
) -> tuple[Game, list[Event]]:
    """The game after ``turns`` random turns (fewer if it ends), and the last turn's events."""
    rng = random.Random(seed)
    game = new_game(game_id, players, dict(options or {}))
    events: list[Event] = []
    for _ in range(turns):
        if game.is_over:
            break
        events = game.play_turn(random_turn(game, rng))
    return game, events


#: (label, game id, players, options, turns, seed): mid-games and finished games of each board.
CASES: list[tuple[str, str, int, dict, int, int]] = [
    ("bide 2p mid", "bide", 2, {"side": 5}, 30, 13),
    ("bide 6p mid", "bide", 6, {"side": 5}, 40, 7),
    ("bide 2p over", "bide", 2, {"side": 5}, 10_000, 11),
    ("bide 4p side 6 mid", "bide", 4, {"side": 6}, 60, 5),
    ("bide 3p side 4 over", "bide", 3, {"side": 4}, 10_000, 5),
    ("begird standard mid", "begird", 2, {"board": "standard"}, 80, 3),
    ("begird standard over", "begird", 2, {"board": "standard"}, 10_000, 4),
    ("begird small mid", "begird", 2, {"board": "small"}, 25, 3),
    ("begird y over", "begird", 2, {"board": "y"}, 10_000, 4),
]


def cases(game_id: str | None = None):
    """Yield (label, game, last events, player names) for ``game_id`` (or every game with cases)."""
    for label, gid, players, options, turns, seed in CASES:
        if game_id is None or gid == game_id:
            game, events = played(gid, players, options, turns, seed)
            yield label, game, events, NAMES[:players]


def generic_cases(game_id: str, players: int = 2):
    """Cases for any registered game: the start, a mid-game, and a finished game."""
    for label, turns, seed in (("start", 0, 1), ("mid", 30, 2), ("over", 10_000, 3)):
        game, events = played(game_id, players, None, turns, seed)
        yield f"{game_id} {label}", game, events, NAMES[:players]


def same_picture(first: bytes, second: bytes) -> bool:
    """Two PNGs hold the same picture: size, mode, palette and every pixel. Not their bytes: ISA-L's deflate
    does not always give the same bytes for the same rows (docs/rendering.md, "Deflate by bands")."""
    a, b = Image.open(io.BytesIO(first)), Image.open(io.BytesIO(second))
    return (a.size, a.mode, a.getpalette(), a.tobytes()) == (b.size, b.mode, b.getpalette(), b.tobytes())
