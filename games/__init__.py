"""Pure rules engines for Hexplay's games: no I/O, no Discord, no Pillow.

Start with :mod:`games.interface` (the shape every game has) and
:mod:`games.registry` (games by id).
"""

from .interface import AnyGame, Event, Game, GameError, GameInfo, IllegalMove, OptionError, StateError
from .registry import GAMES, get, load_state, new_game

__all__ = [
    "GAMES",
    "AnyGame",
    "Event",
    "Game",
    "GameError",
    "GameInfo",
    "IllegalMove",
    "OptionError",
    "StateError",
    "get",
    "load_state",
    "new_game",
]
