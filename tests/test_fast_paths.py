"""The engines' faster hot paths (issue 39) give exactly the old answers (hypothesis, seeded).

The old versions are kept as the tests' reference (``tests/reference_bump.py``): Bump's moves of a seat in
the same order (so ``legal_actions`` lists the same turns in the same order), the same stasis record for
every bump, and the same random turn from the same generator state.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bump import Bump
from tests import reference_bump

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_bump(seed: int, plies: int, reserves: int) -> Bump:
    rng = random.Random(seed)
    game = Bump.new(options={"reserve1": reserves, "reserve2": reserves})
    for _ in range(plies):
        if game.is_over:
            break
        game.apply_quiet(game.random_action(rng))
        if not game.is_over:
            game.end_turn_quiet()
    return game


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=seeds, plies=st.integers(min_value=0, max_value=80), reserves=st.integers(min_value=0, max_value=3))
def test_bump_moves_random_turns_and_stasis_records_are_the_old_ones(seed: int, plies: int, reserves: int) -> None:
    game = random_bump(seed, plies, reserves)
    for seat in (1, 2):
        assert list(game._raw_moves(seat)) == list(reference_bump.raw_moves(game, seat))
    b = game.board
    for space, pid in enumerate(b.cells):
        if pid >= 0:
            for direction in range(6):
                assert b.stasis_key(space, direction) == reference_bump.stasis_key(b, space, direction)
    if not game.is_over:
        for k in range(5):
            ours, theirs = random.Random(seed + k), random.Random(seed + k)
            assert game.random_action(ours) == reference_bump.random_action(game, theirs)
            assert ours.getstate() == theirs.getstate()  # the same draws: a playout's stream is unchanged
