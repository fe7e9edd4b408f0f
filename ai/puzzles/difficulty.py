"""A puzzle's difficulty estimate, which seeds its rating (ratings then move with every attempt).

Three things make a puzzle hard, each measured, none guessed:

- **depth**: the player's turns along the longest defence (a win at once is easier than a double threat,
  which is easier than a forcing turn that sets one up);
- **plausibility**: the solution's rank among the turns by the computer's first impression, its prior (the
  game's knowledge, :mod:`ai.knowledge`): rank 1 is the turn that looks best at a glance, rank 30 is hidden
  among the others;
- **found**: the share of quick searches (the easy computer, :data:`QUICK_SEARCHES` seeds) that play it;
- **length**: the actions of the solution's first turn (a Play Bai goal of three moves and two passes, a
  Bide release of three discs, is more to see than one stone).

``rating = 1250 + 300·(depth − 1) + 90·log2(rank) + 150·(1 − found) + 40·(actions − 1)``, rounded to 10
and kept within 800–2600: a win at once of one stone that looks best and that every quick search finds
starts at 1250 (below an average 1500), a hidden win in three that none finds near 2200.
"""

from __future__ import annotations

import math
import random

from games.interface import AnyGame, split_turn

from ..knowledge import knowledge_for
from ..player import choose_turn
from ..turns import position_key
from .puzzle import Difficulty

QUICK_SEARCHES = 3
QUICK_LEVEL = "easy"
BASE, PER_TURN, PER_RANK_DOUBLING, UNFOUND, PER_ACTION = 1250, 300, 90, 150, 40
LOWEST, HIGHEST = 800, 2600


def rating(depth: int, rank: int, found: float, actions: int = 1) -> int:
    """The formula above."""
    raw = BASE + PER_TURN * (depth - 1) + PER_RANK_DOUBLING * math.log2(max(rank, 1)) + UNFOUND * (1 - found)
    raw += PER_ACTION * (max(actions, 1) - 1)
    return int(min(HIGHEST, max(LOWEST, round(raw / 10) * 10)))


def estimate(game: AnyGame, solution: str, depth: int) -> Difficulty:
    """The difficulty of finding, from ``game``, the turn ``solution`` (notation) of a ``depth``-turn solution."""
    solution_after = game.copy()
    solution_after.play_turn(solution)
    target = position_key(solution_after)
    know = knowledge_for(game)
    turns = know.turns(game, random.Random(0))
    priors = know.prior(game, turns) or [1.0] * len(turns)
    mine = [p for t, p in zip(turns, priors, strict=True) if position_key(t.result(game)) == target]
    rank = 1 + sum(1 for p in priors if p > max(mine)) if mine else len(turns)
    found = 0
    for seed in range(QUICK_SEARCHES):
        played = choose_turn(game, QUICK_LEVEL, seed=seed).turn
        found += position_key(played.result(game)) == target
    share = found / QUICK_SEARCHES
    actions = len(split_turn(solution)) if game.info.multi_action_turns else 1
    return Difficulty(rating(depth, rank, share, actions), depth, len(turns), rank, round(share, 3))
