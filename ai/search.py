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
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from games.interface import AnyGame

from .knowledge import GameKnowledge, knowledge_for
from .mcts import MCTS, Node, SearchResult

#: The fewest simulations a budget scales down to (a tiny budget times a small scale still searches).
MIN_SIMULATIONS = 10


@dataclass(frozen=True)
class Budget:
    """What one search may spend."""

    simulations: int
    """Before the game's ``simulation_scale``; the search may stop sooner once its answer is settled."""
    seconds: float | None = None
    """CPU seconds (``time.process_time``) from the search's start; None: the simulations alone."""
    scaled: bool = True
    """Whether ``simulations`` is still to be scaled by the game (False: already this game's own count)."""


def scaled_simulations(budget: Budget, knowledge: GameKnowledge[Any]) -> int:
    """The simulations ``budget`` buys in the game ``knowledge`` serves."""
    if not budget.scaled:
        return max(MIN_SIMULATIONS, budget.simulations)
    return max(MIN_SIMULATIONS, round(budget.simulations * knowledge.simulation_scale))


class TreeCache:
    """The subtrees of a process's last searches, kept so a later turn of the same game starts from one.

    After a search the chosen turn's subtree is kept (the position after the computer's turn); when the
    computer is next asked, the position after the opponent's reply is looked for among that subtree's
    children (by :meth:`GameKnowledge.key`), and a match is the new search's root, its simulations already
    made (MoHex and Ludii keep their trees so). Bounded: the ``capacity`` most recent subtrees (a worker
    serves many matches; a tree holds a position per node). A search that reuses a tree depends on the one
    before it, so the same seed gives the same turn only without a cache.
    """

    def __init__(self, capacity: int = 2) -> None:
        self.capacity = capacity
        self._trees: OrderedDict[int, Node] = OrderedDict()

    def find(self, game: AnyGame, knowledge: GameKnowledge[Any]) -> Node | None:
        """The kept node of ``game``'s position (taken out of the cache), if any."""
        key: Hashable | None = None
        for ident, tree in reversed(self._trees.items()):
            if tree.state.info.id != game.info.id or tree.state.players != game.players:
                continue
            for kid in tree.kids:
                if kid is None or kid.state.ply != game.ply:
                    continue
                if key is None:
                    key = knowledge.key(game)
                if knowledge.key(kid.state) == key:
                    del self._trees[ident]
                    return kid
        return None

    def keep(self, tree: Node | None) -> None:
        if tree is None or tree.solved is not None or not tree.expanded:
            return
        self._trees[id(tree)] = tree
        while len(self._trees) > self.capacity:
            self._trees.popitem(last=False)

    def clear(self) -> None:
        self._trees.clear()


def search(
    game: AnyGame,
    budget: Budget,
    seed: int = 0,
    knowledge: GameKnowledge[Any] | None = None,
    trees: TreeCache | None = None,
) -> SearchResult:
    """Search ``game`` (not over; left unchanged) within ``budget``, every random draw from ``seed``.

    With ``trees``, the search starts from a kept subtree of the same position when there is one, and
    keeps its own chosen subtree there for the next turn.
    """
    know = knowledge or knowledge_for(game)
    simulations = scaled_simulations(budget, know)
    share = know.budget_share(game)
    if share != 1.0:  # time by need: the knowledge says what this position deserves
        simulations = max(MIN_SIMULATIONS, round(simulations * share))
    mcts = MCTS(know, random.Random(seed), simulations=simulations, seconds=budget.seconds)
    if trees is None:
        return mcts.search(game)
    result = mcts.search(game, trees.find(game, know))
    trees.keep(result.subtree)
    return result


__all__ = ["Budget", "SearchResult", "TreeCache", "scaled_simulations", "search"]
