"""What the searches for tactical positions share (tests/tactics.py for Begird, tests/bide_tactics.py for Bide):
the seeded search that fills a data file with each kind of position, and reading that file back as games."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from games.registry import load_state

GameT = TypeVar("GameT")

Found = dict[str, list[dict]]  # each kind of position: the entries found ({"state": …, "answers": …, …})


def collect(data: Path, kinds: Found, find: Callable[[int, Found, int], None], per_kind: int) -> None:
    """Search seeded games (seed 0, 1, … up to 400) with ``find`` until every kind has ``per_kind`` positions,
    then write them to ``data``."""
    seed = 0
    while any(len(found) < per_kind for found in kinds.values()) and seed < 400:
        find(seed, kinds, per_kind)
        seed += 1
    data.write_text(json.dumps(kinds, indent=1) + "\n")
    print({kind: len(found) for kind, found in kinds.items()}, "from", seed, "games")


def load_games(data: Path, kind: str, engine: type[GameT]) -> list[GameT]:
    """The positions of one kind stored in ``data``, as games of ``engine``."""
    games = []
    for entry in json.loads(data.read_text())[kind]:
        game = load_state(entry["state"])
        assert isinstance(game, engine)
        games.append(game)
    return games
