"""The computer opponent: Monte Carlo tree search over complete turns.

Depends only on :mod:`games`. Start with :func:`choose_turn` (:mod:`ai.player`;
the levels are in :mod:`ai.levels`). Whatever thinks asks the one search entry
point, :func:`ai.search.search`; each game's knowledge lives in :mod:`ai.knowledge`
(one module per game), and :mod:`ai.turns` shows every game as complete turns.
"""

from .levels import DEFAULT_LEVEL, LEVELS, get_level
from .player import Choice, accepts_draw, choose_turn

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Choice", "accepts_draw", "choose_turn", "get_level"]
