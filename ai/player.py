"""The computer as a player: a level's turn (:func:`choose_turn`) and its answer to a draw offer.

Both ask the one search (:func:`ai.search.search`) with the level's budget.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.interface import Game

from .knowledge import GameKnowledge, knowledge_for
from .levels import DEFAULT_LEVEL, get_level
from .search import Budget, TreeCache, search
from .turns import Turn


@dataclass
class Choice:
    turn: Turn
    level: str
    seconds: float  # CPU seconds spent
    simulations: int


#: This process's kept trees (``choose_turn(..., reuse=True)``): the thinking processes reuse them.
TREES = TreeCache()


def choose_turn(
    game: Game, level: str = DEFAULT_LEVEL, seed: int = 0, knowledge: GameKnowledge | None = None, reuse: bool = False
) -> Choice:
    """The turn the computer plays at ``level``; the same seed gives the same turn (without ``reuse``).

    ``reuse``: start from this process's kept tree of the position when there is one (:class:`TreeCache`),
    and keep this search's for the next turn.
    """
    spec = get_level(level)
    know = knowledge or knowledge_for(game)
    start = time.process_time()
    if spec.simulations == 0:
        rng = random.Random(seed)
        turn = rng.choice(know.turns(game, rng))
        simulations = 0
    else:
        result = search(game, spec.budget_for(game.info.id), seed, know, TREES if reuse else None)
        turn, simulations = result.turn, result.simulations
    _ = turn.notation  # written now, from the position it was chosen in
    return Choice(turn, spec.name, time.process_time() - start, simulations)


#: A draw is accepted when the computer's expected result is below this (0.5 is even).
DRAW_ACCEPT_BELOW = 0.55
#: The fewest simulations a draw offer is searched with (the ``random`` level has none of its own).
DRAW_MIN_SIMULATIONS = 60


def accepts_draw(game: Game, player: int, seed: int = 0, level: str = DEFAULT_LEVEL) -> bool:
    """Whether the computer playing ``player`` accepts a draw offer now (issue 11).

    It searches the position at ``level`` (whoever is to move) and accepts unless it
    expects to be clearly winning.
    """
    if game.is_over:
        return False
    spec = get_level(level)
    own = spec.budget_for(game.info.id)
    budget = Budget(max(own.simulations, DRAW_MIN_SIMULATIONS), own.seconds, own.scaled)
    values = search(game, budget, seed).root_values
    if not values:
        return True
    return values[player - 1] < DRAW_ACCEPT_BELOW
