"""Each game shown to tools as *complete turns*.

A :class:`Turn` is everything one seat does between two changes of the seat
to move — one Begird stone, a Bide release of five discs, a Play Bai run of
moves and passes — so a search chooses among turns, never among half-turns.
Two turns that lead to the same position are one choice (only the first in
enumeration order is kept).

An engine may expose its own enumeration as ``turn_results()``, a mapping
from each resulting position to the actions of one turn reaching it (Play
Bai does); single-action games (Begird, Bump) list their legal actions; the
generic walk below serves the others (Bide, with its own sampling on top). Every random choice here comes from the
``random.Random`` passed in.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from games.interface import AnyGame

GameT = TypeVar("GameT", bound=AnyGame)


@dataclass
class Turn(Generic[GameT]):
    """One complete turn: its actions in order and, once known, the position it leads to.

    ``origin`` is the position the turn is played from; the notation is written from it
    only when asked for (a tree node lists hundreds of turns and formats few).
    """

    # The engine's actions. Typed Any: a turn is generic in its game, and a type variable
    # cannot name "the action type of GameT"; each game's knowledge knows what they are.
    actions: tuple[Any, ...]
    origin: GameT | None = field(default=None, repr=False, compare=False)
    state: GameT | None = field(default=None, repr=False, compare=False)
    text: str | None = None
    label: Any = field(default=None, repr=False, compare=False)  # the engine's name for the result

    @property
    def notation(self) -> str:
        if self.text is None:
            assert self.origin is not None
            self.text = self.origin.format_turn(self.actions)
        return self.text

    def result(self, game: GameT) -> GameT:
        """The position after this turn from ``game`` (computed once, then kept)."""
        if self.state is None:
            self.state = apply_turn(game.copy(), self.actions)
        return self.state


def apply_turn(game: GameT, actions: Sequence[Hashable]) -> GameT:
    """Apply a whole turn to ``game`` in place and return it (through the engine's quiet path: no events)."""
    for action in actions:
        game.apply_quiet(action)
        if game.is_over:
            return game
    if not game.is_over:
        game.end_turn_quiet()
    return game


def position_key(game: AnyGame) -> Hashable:
    """A key equal for equal positions (slow but generic; engines may do better)."""
    return json.dumps(game.position(), sort_keys=True)


class TooManyTurns(Exception):
    """The exhaustive walk exceeded its limit (the caller samples instead)."""


def enumerate_turns(
    game: GameT,
    limit: int | None = None,
    key: Callable[[GameT], Hashable] = position_key,
) -> list[Turn[GameT]]:
    """Every complete turn from ``game`` with a distinct resulting position.

    Single-action games take a fast path (no copies). For multi-action turns a
    depth-first walk applies actions to copies; ``limit`` caps the number of
    partial turns visited and raises :class:`TooManyTurns` when exceeded.
    """
    native = getattr(game, "turn_results", None)
    if native is not None and not game.turn_in_progress():
        # The engine's own enumeration: one shortest action list per resulting position.
        return [Turn(tuple(actions), game, label=key) for key, actions in native().items()]
    if not game.info.multi_action_turns:
        return [Turn((a,), game) for a in game.legal_actions()]
    turns: list[Turn[GameT]] = []
    seen: set[Hashable] = set()
    visited = 0
    stack: list[tuple[GameT, tuple[Hashable, ...], tuple[str, ...]]] = [(game, (), ())]
    while stack:
        state, actions, names = stack.pop()
        visited += 1
        if limit is not None and visited > limit:
            raise TooManyTurns(f"more than {limit} partial turns")
        if actions and (state.is_over or state.can_end_turn()):
            done = state if state.is_over else state.copy()
            if not done.is_over:
                done.end_turn_quiet()
            k = key(done)
            if k not in seen:
                seen.add(k)
                turns.append(Turn(actions, game, done, ",".join(names)))
            if state.is_over:
                continue
        # Reverse so the walk visits actions in the engine's order.
        for action in reversed(state.legal_actions()):
            child = state.copy()
            name = child.format_action(action)
            child.apply_quiet(action)
            stack.append((child, actions + (action,), names + (name,)))
    return turns


def random_actions(game: AnyGame, rng: random.Random, end_probability: float = 0.5) -> tuple[Hashable, ...]:
    """A random complete turn built action by action (the game is left unchanged).

    This is the one random-play step of the project's tools: after each action
    the turn ends with ``end_probability`` when it may.
    """
    trial = game.copy()
    actions: list[Hashable] = []
    while True:
        legal = trial.legal_actions()
        if trial.can_end_turn() and (not legal or rng.random() < end_probability):
            break
        if not legal:  # cannot happen with a consistent engine; do not loop forever
            break
        action = rng.choice(legal)
        actions.append(action)
        trial.apply_quiet(action)
        if trial.is_over:
            break
    return tuple(actions)


def returns_of(game: AnyGame) -> tuple[float, ...]:
    """Per-seat returns of a finished game that always sum to 1.

    Winners share 1 (``Game.returns``); a game over without winners (a draw by
    agreement) gives each seat 1/n, so a search never mistakes a draw for a loss.
    """
    if game.winners:
        return tuple(float(x) for x in game.returns())
    return tuple(1.0 / game.players for _ in range(game.players))


def by_player(state: AnyGame, returns: tuple[float, ...]) -> tuple[float, ...]:
    """Re-index per-seat ``returns`` of ``state`` by player."""
    out = [0.0] * len(returns)
    for seat, value in enumerate(returns, start=1):
        out[state.player_of_seat(seat) - 1] = value
    return tuple(out)


def player_to_move(state: AnyGame) -> int:
    seat = state.to_move
    assert seat is not None
    return state.player_of_seat(seat)
