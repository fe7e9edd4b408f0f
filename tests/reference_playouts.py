"""The playout policies as they were before issue 39 made them faster: the tests' reference.

Bide's playout recomputed every empty point's weight for every disc and applied turns through the full
path (events and all); ``tests/test_playout_policies.py`` checks that today's playout makes the same
draws, in the same order, to the same final position.
"""

from __future__ import annotations

import random

from games.bide import BIDE, Bide


def weighted_point(game: Bide, seat: int, rng: random.Random) -> int:
    """An empty point, drawn towards high values and the seat's own discs."""
    cells = game.cells
    values = game.board.edge_distance
    nbrs = game.board.neighbour_indices
    empties = [p for p, v in enumerate(cells) if v == 0]
    weights = []
    for p in empties:
        w = 1 + values[p] * values[p]
        for n in nbrs[p]:
            if cells[n] == seat:
                w += 2
        weights.append(w)
    return rng.choices(empties, weights)[0]


def play_turn(game: Bide, actions: tuple[int, ...]) -> None:
    for action in actions:
        game.apply_action(action)
        if game.is_over:
            return
    game.end_turn()


def sample_release(game: Bide, seat: int, rng: random.Random) -> tuple[int, ...]:
    trial = game.copy()
    actions = []
    while trial.hands[seat - 1] and not trial.is_over:
        p = weighted_point(trial, seat, rng)
        actions.append(p)
        trial.apply_action(p)
    return tuple(actions)


def bide_rollout_step(game: Bide, rng: random.Random) -> None:
    seat = game.to_move
    assert seat is not None
    i = seat - 1
    hand = game.hands[i]
    if (
        game.owed[i]
        or (hand >= 2 and rng.random() < 0.25)
        or (not game.bide_allowed() and hand >= 2 and rng.random() < 0.5)
    ):
        actions: tuple[int, ...] = sample_release(game, seat, rng)
    elif game.bide_allowed() and rng.random() < 0.4:
        actions = (BIDE,)
    else:
        actions = (weighted_point(game, seat, rng),)
    play_turn(game, actions)
