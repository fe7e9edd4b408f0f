"""Maps a game's id to its rules and metadata."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .begird import Begird
from .bide import Bide
from .bump import Bump
from .interface import AnyGame, GameInfo, OptionError
from .playbai import PlayBai

GAMES: dict[str, GameInfo] = {info.id: info for info in (Bide.info, Begird.info, PlayBai.info, Bump.info)}


def register(info: GameInfo) -> None:
    GAMES[info.id] = info


def get(game_id: str) -> GameInfo:
    key = game_id.strip().lower().replace(" ", "").replace("-", "")
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise OptionError("unknown game {game!r}: choose one of {known}", game=game_id, known=known) from None


def new_game(game_id: str, players: int | None = None, options: Mapping[str, Any] | None = None) -> AnyGame:
    return get(game_id).new(players, options)


def load_state(doc: Mapping[str, Any]) -> AnyGame:
    """Rebuild a game from its stored state document, whatever the game."""
    info = get(str(doc.get("game", "")))
    assert info.game_class is not None
    return info.game_class.from_json(doc)
