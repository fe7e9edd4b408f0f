"""Strength levels and the one entry point: :func:`choose_turn`.

A level is a search budget. ``simulations`` keeps a level deterministic for
a seed; ``seconds`` (CPU time, ``time.process_time``) is a safety cap so
``hard`` answers within 5 s of one core even on a slow position (the cap
leaves room for the root expansion and the final checks) — when the
cap is what stops the search, the result depends on the machine's speed.
Each game scales the simulations by its knowledge's ``simulation_scale``
(Bide's playouts cost more than Begird's).

``random`` picks a uniformly random candidate turn: a baseline for the arena.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.interface import Game

from .knowledge import GameKnowledge
from .mcts import MCTS
from .registry import knowledge_for
from .turns import Turn


@dataclass(frozen=True)
class Level:
    name: str
    simulations: int
    seconds: float | None


LEVELS: dict[str, Level] = {
    "random": Level("random", 0, None),
    "easy": Level("easy", 60, 1.0),
    "medium": Level("medium", 500, 2.5),
    "hard": Level("hard", 4000, 4.0),
}
DEFAULT_LEVEL = "medium"


def get_level(name: str) -> Level:
    key = name.strip().lower()
    if key not in LEVELS:
        raise ValueError(f"unknown level {name!r}: choose one of {', '.join(LEVELS)}")
    return LEVELS[key]


@dataclass
class Choice:
    turn: Turn
    level: str
    seconds: float  # CPU seconds spent
    simulations: int


def choose_turn(
    game: Game, level: str = DEFAULT_LEVEL, seed: int = 0, knowledge: GameKnowledge | None = None
) -> Choice:
    """The turn the computer plays at ``level``; the same seed gives the same turn."""
    spec = get_level(level)
    know = knowledge or knowledge_for(game)
    rng = random.Random(seed)
    start = time.process_time()
    if spec.simulations == 0:
        turn = rng.choice(know.turns(game, rng))
        simulations = 0
    else:
        sims = max(10, round(spec.simulations * know.simulation_scale))
        result = MCTS(know, rng, simulations=sims, seconds=spec.seconds).search(game)
        turn, simulations = result.turn, result.simulations
    _ = turn.notation  # written now, from the position it was chosen in
    return Choice(turn, spec.name, time.process_time() - start, simulations)


#: A draw is accepted when the computer's expected result is below this (0.5 is even).
DRAW_ACCEPT_BELOW = 0.55


def accepts_draw(game: Game, player: int, seed: int = 0, level: str = DEFAULT_LEVEL) -> bool:
    """Whether the computer playing ``player`` accepts a draw offer now (issue 11).

    It searches the position at ``level`` (whoever is to move) and accepts unless it
    expects to be clearly winning.
    """
    if game.is_over:
        return False
    spec = get_level(level)
    know = knowledge_for(game)
    sims = max(10, round(max(spec.simulations, 60) * know.simulation_scale))
    result = MCTS(know, random.Random(seed), simulations=sims, seconds=spec.seconds).search(game)
    values = result.root_values
    if not values:
        return True
    return values[player - 1] < DRAW_ACCEPT_BELOW
