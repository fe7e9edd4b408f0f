"""Play Bai's lean (ai/knowledge/playbai.py): a carrier an opponent can jump is seen to lose the ball, and the
fit behind ``SET_WEIGHTS`` (benchmarks/fit_playbai_eval.py)."""

from __future__ import annotations

import pytest

from ai.knowledge.playbai import (
    SET_WEIGHTS,
    PlayBaiKnowledge,
    _closeness,
    cell_distances,
    fitted_set_chance,
    next_to,
)
from games.playbai import KEY_SHIFT, PlayBai
from games.playbaikeys import result_keys
from tests.scripts import load_script
from tests.tactics_playbai import position


def load_fit():
    return load_script("benchmarks/fit_playbai_eval.py")


def held_results(game: PlayBai) -> dict[tuple[float, bool], list[int]]:
    """The mover's results that keep the ball, by (the ball's closeness, an opponent next to it): the keys'
    indices."""
    seat = game.to_move
    assert seat is not None
    side = game.options["side"]
    opponents = [c for c, s in enumerate(game.seat_of) if s == 3 - seat]
    groups: dict[tuple[float, bool], list[int]] = {}
    for index, key in enumerate(result_keys(game)):
        if type(key) is not int:
            continue
        ball = key >> KEY_SHIFT
        if key >> ball & 1:
            threatened = next_to(cell_distances(side)[ball], opponents)
            groups.setdefault((_closeness(side, seat)[ball], threatened), []).append(index)
    return groups


#: seat 1 to move with the ball, seat 2 close enough that some of its results leave the carrier next to an
#: opponent and others, as close to the goal, do not
CARRIER_NEAR = ({"e4": 1, "c3": 1, "e6": 2, "c5": 2}, "e4")


@pytest.mark.parametrize("fitted", [True, False])
def test_a_carrier_left_next_to_an_opponent_is_valued_below_one_as_close_and_out_of_reach(fitted):
    game = position(*CARRIER_NEAR, 1)
    know = PlayBaiKnowledge()
    know.fitted_set_chance = fitted
    values, _ = know.judge(game, result_keys(game))
    groups = held_results(game)
    pairs = [(c, groups[(c, True)][0], groups[(c, False)][0]) for c, t in groups if t and (c, False) in groups]
    assert pairs, "the position should offer a result next to an opponent and one out of reach, as close"
    for _, near, far in pairs:
        if fitted:
            assert values[near] < values[far] - 0.2
        else:  # the hand-set lean saw only the ball's place: the same value
            assert values[near] == values[far]


def test_the_fitted_lean_favours_a_safe_carrier_and_not_one_about_to_be_jumped():
    for carrier in (1, 2):

        def mine(p: float, c: int = carrier) -> float:  # seat 1's chance -> the carrier's
            return p if c == 1 else 1 - p

        assert mine(fitted_set_chance(carrier, 0.5, False)) > 0.8
        assert mine(fitted_set_chance(carrier, 0.5, True)) < 0.1
        assert mine(fitted_set_chance(carrier, 0.9, False)) > mine(fitted_set_chance(carrier, 0.1, False))
    assert fitted_set_chance(None, 0.0, False) == 0.5


def test_next_to_sees_an_opponent_on_the_carriers_ring_only():
    side = 5
    row = cell_distances(side)[30]  # the centre
    ring = [c for c, d in enumerate(row) if d == 1]
    beyond = [c for c, d in enumerate(row) if d in (2, 3)]
    assert len(ring) == 6
    assert next_to(row, ring[:1] + beyond)
    assert not next_to(row, beyond)
    assert not next_to(row, [])


def test_the_shipped_weights_are_the_fit_on_the_recorded_games_and_beat_the_hand_set_lean():
    fit = load_fit()
    data = fit.samples()
    assert len(data) > 2000
    every = fit.fit(data)
    assert all(abs(a - b) < 0.05 for a, b in zip(every, SET_WEIGHTS, strict=True))
    held_out = [s for s in data if s[0] in (4, 5)]
    shipped = fit.cross_entropy(held_out, fit.by_weights(SET_WEIGHTS))
    assert shipped < fit.cross_entropy(held_out, fit.hand_set) - 0.2
