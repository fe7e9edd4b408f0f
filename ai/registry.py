"""Which knowledge the search uses for each game (game-blind defaults otherwise)."""

from __future__ import annotations

from typing import Any

from games.interface import AnyGame

from .begird import BegirdKnowledge
from .bide import BideKnowledge
from .bump import BumpKnowledge
from .knowledge import GameKnowledge
from .playbai import PlayBaiKnowledge

KNOWLEDGE: dict[str, type[GameKnowledge[Any]]] = {
    "bide": BideKnowledge,
    "begird": BegirdKnowledge,
    "bump": BumpKnowledge,
    "playbai": PlayBaiKnowledge,
}


def knowledge_for(game: AnyGame) -> GameKnowledge[Any]:
    return KNOWLEDGE.get(game.info.id, GameKnowledge)()
