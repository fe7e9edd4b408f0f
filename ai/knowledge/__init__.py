"""What the search knows of each game, one module per game behind one shape (:class:`GameKnowledge`).

The search (:mod:`ai.search`) is game-blind: it asks a game's knowledge for its turns, their priors, a win
at once and the value of a leaf. :func:`knowledge_for` picks a game's own; a game without one gets the
game-blind defaults of :mod:`ai.knowledge.base`.
"""

from __future__ import annotations

from typing import Any

from games.interface import AnyGame

from .base import GameKnowledge
from .begird import BegirdKnowledge
from .bide import BideKnowledge
from .bump import BumpKnowledge
from .playbai import PlayBaiKnowledge

KNOWLEDGE: dict[str, type[GameKnowledge[Any]]] = {
    "bide": BideKnowledge,
    "begird": BegirdKnowledge,
    "bump": BumpKnowledge,
    "playbai": PlayBaiKnowledge,
}


def knowledge_for(game: AnyGame) -> GameKnowledge[Any]:
    return KNOWLEDGE.get(game.info.id, GameKnowledge)()


__all__ = ["KNOWLEDGE", "GameKnowledge", "knowledge_for"]
