"""What the search may ask about a game: its turns, priors and an evaluation.

The search (:mod:`ai.search`) knows nothing about any game; it calls an object
with this shape. :class:`GameKnowledge` is the generic, game-blind version —
uniform priors and random playouts, cut short after ``rollout_turns`` turns
and scored by :meth:`estimate` — and each game's module in this package
overrides what makes it play well (the evaluation lives apart from the search, so one
search serves every game).
"""

from __future__ import annotations

import random
from typing import Generic

from ..turns import GameT, Turn, apply_turn, enumerate_turns, random_actions, returns_of


class GameKnowledge(Generic[GameT]):
    """Game-blind defaults; subclasses specialise one game (``BideKnowledge(GameKnowledge[Bide])``)."""

    #: Playout turns before a non-final position is scored by :meth:`estimate`.
    rollout_turns: int = 400
    #: Budget multiplier for the levels: < 1 for games whose playouts are slow.
    simulation_scale: float = 1.0

    def turns(self, game: GameT, rng: random.Random) -> list[Turn[GameT]]:
        """The complete turns the search considers from ``game`` (never empty while it goes on)."""
        return enumerate_turns(game)

    def prior(self, game: GameT, turns: list[Turn[GameT]]) -> list[float] | None:
        """Prior weights of ``turns`` (any positive scale), or ``None`` for uniform."""
        return None

    def winning_turn(self, game: GameT, turns: list[Turn[GameT]]) -> Turn[GameT] | None:
        """A turn after which the mover alone has won at once, if there is one."""
        mover = game.to_move
        for turn in turns:
            after = turn.result(game)
            if after.is_over and after.winners == (mover,):
                return turn
        return None

    def rollout_step(self, game: GameT, rng: random.Random) -> None:
        """Play one quick turn of a playout in place."""
        apply_turn(game, random_actions(game, rng))

    def estimate(self, game: GameT) -> tuple[float, ...]:
        """Each seat's chance to win a position that is not over (summing to 1)."""
        return tuple(1.0 / game.players for _ in range(game.players))

    def evaluate(self, game: GameT, rng: random.Random) -> tuple[float, ...]:
        """Per-seat value of ``game``: a playout, cut short and estimated if it runs long."""
        if game.is_over:
            return returns_of(game)
        state = game.copy()
        for _ in range(self.rollout_turns):
            self.rollout_step(state, rng)
            if state.is_over:
                break
        return self.playout_value(state)

    def playout_value(self, state: GameT) -> tuple[float, ...]:
        """Per-seat value of where a playout stopped: the result if it ended, else :meth:`estimate`."""
        return returns_of(state) if state.is_over else self.estimate(state)
