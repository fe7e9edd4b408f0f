"""The one entry point to the search: ``search(game, budget, seed, knowledge) -> SearchResult``.

Everything that thinks — a computer turn at a level (:mod:`ai.player`), a draw offer's answer, a
post-game review's position (:mod:`ai.review`) — asks this function, so the search behind it
(:mod:`ai.mcts`) changes in one module behind one signature. A :class:`Budget` is counted in
simulations *before* the game's ``simulation_scale`` (a Bide simulation costs more than a Begird one,
so each game's knowledge scales the count), with an optional CPU cap.

With no cap binding, the result is a function of the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.interface import AnyGame

from .knowledge import GameKnowledge, knowledge_for
from .mcts import MCTS, SearchResult

#: The fewest simulations a budget scales down to (a tiny budget times a small scale still searches).
MIN_SIMULATIONS = 10


@dataclass(frozen=True)
class Budget:
    """What one search may spend."""

    simulations: int
    """Before the game's ``simulation_scale``; the search may stop sooner once its answer is settled."""
    seconds: float | None = None
    """CPU seconds (``time.process_time``) from the search's start; None: the simulations alone."""


def scaled_simulations(budget: Budget, knowledge: GameKnowledge[Any]) -> int:
    """The simulations ``budget`` buys in the game ``knowledge`` serves."""
    return max(MIN_SIMULATIONS, round(budget.simulations * knowledge.simulation_scale))


def search(game: AnyGame, budget: Budget, seed: int = 0, knowledge: GameKnowledge[Any] | None = None) -> SearchResult:
    """Search ``game`` (not over; left unchanged) within ``budget``, every random draw from ``seed``."""
    know = knowledge or knowledge_for(game)
    return MCTS(know, random.Random(seed), simulations=scaled_simulations(budget, know), seconds=budget.seconds).search(
        game
    )


__all__ = ["Budget", "SearchResult", "scaled_simulations", "search"]
