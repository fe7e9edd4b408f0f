"""The computer opponent: Monte Carlo tree search over complete turns.

Depends only on :mod:`games`. Start with :func:`choose_turn` (levels in
:mod:`ai.levels`); the search is :mod:`ai.mcts`, game knowledge lives in one
module per game, and :mod:`ai.turns` shows every game as complete turns.
"""

from .levels import DEFAULT_LEVEL, LEVELS, Choice, accepts_draw, choose_turn, get_level

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Choice", "accepts_draw", "choose_turn", "get_level"]
