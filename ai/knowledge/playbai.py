"""Play Bai for the search: goals found by the engine's turn search, a static estimate.

Random Play Bai turns almost never score, so playouts say nothing: a leaf is
scored at once from the goals, who holds the ball and how close it is to
the end zones it attacks; the tree does the looking ahead. The engine's
``turn_results()`` names every distinct result, so a scoring turn (``GOAL``)
and the winning goal (``("win", …)``) are known without playing them.
"""

from __future__ import annotations

import math
import random
from functools import cache
from typing import Any

from games.hexgrid import distance
from games.playbai import GOAL, KEY_SHIFT, PlayBai, field

from ..turns import Turn, apply_turn, returns_of
from .base import Expansion, GameKnowledge, SearchSettings

CELLS = (1 << KEY_SHIFT) - 1


@cache
def zone_distance(side: int, seat: int) -> tuple[int, ...]:
    """Per cell: hex distance to the nearest end zone ``seat`` attacks (the opponent's)."""
    fld = field(side)
    cells = fld.board.cells
    targets = [cells[i] for i in fld.zones[2 - seat]]
    return tuple(min(distance(c, t) for t in targets) for c in cells)


def _is_win(turn: Turn) -> bool:
    return _wins(turn.label)


def _wins(label: Any) -> bool:
    """Whether the engine's name for a turn's result is the winning goal (``("win", …)``)."""
    return type(label) is tuple and label[:1] == ("win",)


class PlayBaiKnowledge(GameKnowledge[PlayBai]):
    rollout_turns = 0  # static evaluation at the leaves (see the module's docstring)
    simulation_scale = 0.4  # every new node enumerates hundreds of turns
    settings = SearchSettings(c_puct=1.5, expand_after=1)

    def expand(self, game: PlayBai, rng: random.Random) -> Expansion:
        """The engine's distinct turns as (name, actions) pairs, with no object per candidate: a node lists
        hundreds of turns and plays few."""
        results = game.turn_results()
        if not results:
            raise RuntimeError("playbai: no complete turn from a position that is not over")
        win = next((label for label in results if _wins(label)), None)
        if win is not None:
            move = (win, results[win])
            return Expansion([move], solved=returns_of(self.play(game, move)))
        labels = list(results)
        return Expansion(list(results.items()), self.weights(game, labels))

    def play(self, game: PlayBai, move: Any) -> PlayBai:
        return apply_turn(game.copy(), move[1])

    def turn_of(self, game: PlayBai, move: Any) -> Turn[PlayBai]:
        return Turn(tuple(move[1]), game, label=move[0])

    def winning_turn(self, game: PlayBai, turns: list[Turn[PlayBai]]) -> Turn[PlayBai] | None:
        return next((t for t in turns if _is_win(t)), None)

    def prior(self, game: PlayBai, turns: list[Turn[PlayBai]]) -> list[float]:
        return self.weights(game, [t.label for t in turns])

    def weights(self, game: PlayBai, labels: list[Any]) -> list[float]:
        """Prior weights of the turns named ``labels``: goals first, then keeping the ball near the zone."""
        seat = game.to_move
        assert seat is not None
        dist = zone_distance(game.options["side"], seat)
        far = max(dist) or 1
        weights = []
        for key in labels:
            if key == GOAL or _wins(key):
                weights.append(60.0)
            elif isinstance(key, int):
                ball = key >> KEY_SHIFT
                if (key & CELLS) >> ball & 1:  # we hold the ball after the turn
                    weights.append(1.0 + 3.0 * (1 - dist[ball] / far))
                else:
                    weights.append(0.6)
            else:
                weights.append(1.0)
        return weights

    def estimate(self, game: PlayBai) -> tuple[float, ...]:
        # A goal (3.0) outweighs any ball position (at most 0.3 + 1.0 + 0.8).
        g1, g2 = game.goals
        diff = 3.0 * (g1 - g2)
        carrier = game.carrier()
        if carrier:
            sign = 1 if carrier == 1 else -1
            dist = zone_distance(game.options["side"], carrier)
            closeness = 1 - dist[game.ball] / (max(dist) or 1)
            diff += sign * (0.3 + 1.0 * closeness)
            if game.to_move == carrier:
                diff += sign * 0.8 * closeness  # it moves next: close to the zone is a threat
        v = 1.0 / (1.0 + math.exp(-diff))
        return (v, 1.0 - v)

    def evaluate(self, game: PlayBai, rng: random.Random) -> tuple[float, ...]:
        if game.is_over:
            return super().evaluate(game, rng)
        return self.estimate(game)
