"""Which knowledge the search uses for each game (game-blind defaults otherwise)."""

from __future__ import annotations

from games.interface import Game

from .begird import BegirdKnowledge
from .bide import BideKnowledge
from .bump import BumpKnowledge
from .knowledge import GameKnowledge
from .playbai import PlayBaiKnowledge

KNOWLEDGE: dict[str, type[GameKnowledge]] = {
    "bide": BideKnowledge,
    "begird": BegirdKnowledge,
    "bump": BumpKnowledge,
    "playbai": PlayBaiKnowledge,
}


def knowledge_for(game: Game) -> GameKnowledge:
    return KNOWLEDGE.get(game.info.id, GameKnowledge)()
