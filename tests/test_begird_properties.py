"""Begird property tests (hypothesis), against the from-scratch reference in tests/begird_reference.py.

* No draws: on any completely filled board exactly one colour has a winning
  group — random fills and fills biased towards either colour, on every board.
* Incremental win detection (union-find + island masks) agrees with a BFS
  from scratch after every placement of random games, swaps included.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.begird import SWAP, Begird, winning_group
from games.begirdboard import VARIANTS, layout
from tests.begird_reference import Reference

REFERENCES = {v: Reference(layout(v).board, v) for v in VARIANTS}

variants = st.sampled_from(VARIANTS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
black_share = st.sampled_from([0.5, 0.5, 0.7, 0.3, 0.85, 0.15])


def random_fill(variant: str, seed: int, share: float) -> list[int]:
    rng = random.Random(seed)
    return [1 if rng.random() < share else 2 for _ in layout(variant).board.cells]


@settings(max_examples=400, deadline=None)
@given(variant=variants, seed=seeds, share=black_share)
def test_a_full_board_has_exactly_one_winner(variant, seed, share):
    cells = random_fill(variant, seed, share)
    ref = REFERENCES[variant]
    black, white = ref.has_win(cells, 1), ref.has_win(cells, 2)
    assert black != white, "a filled board must have exactly one winner"
    # The engine agrees when it reads the filled board as a position.
    board = layout(variant).board
    g = Begird.from_position(2, {"board": variant}, {"board": dict(zip(board.names, cells, strict=False))})
    assert g.is_over and g.winners == ((1,) if black else (2,))
    group, _ = winning_group(g)
    winner_groups = ref.winning_groups(cells, g.winners[0])
    assert {board.parse(n) for n in group} in winner_groups


@settings(max_examples=200, deadline=None)
@given(variant=variants, seed=seeds, share=black_share)
def test_filling_a_board_stone_by_stone_ends_when_the_reference_sees_a_win(variant, seed, share):
    # Stones of a biased fill are placed in random order (not alternating colours)
    # through the engine's incremental placement; it must fire exactly when the
    # reference first finds a winning group.
    cells = random_fill(variant, seed, share)
    rng = random.Random(seed ^ 0x5A5A)
    order = list(range(len(cells)))
    rng.shuffle(order)
    g = Begird.new(2, {"board": variant})
    ref = REFERENCES[variant]
    seen = [0] * len(cells)
    for i in order:
        colour = cells[i]
        won = g._place(i, colour)
        seen[i] = colour
        assert won == ref.has_win(seen, colour)
        if won:
            break
    else:
        raise AssertionError("a full board without a winner")


@settings(max_examples=100, deadline=None)
@given(variant=variants, seed=seeds)
def test_incremental_detection_matches_bfs_along_random_games(variant, seed):
    rng = random.Random(seed)
    ref = REFERENCES[variant]
    g = Begird.new(2, {"board": variant})
    while not g.is_over:
        before_black, before_white = ref.has_win(g.cells, 1), ref.has_win(g.cells, 2)
        assert not before_black and not before_white
        mover = g.to_move
        action = rng.choice(g.legal_actions())
        g.apply_action(action)
        if action == SWAP:
            assert g.swapped and not g.is_over
        else:
            assert g.is_over == ref.has_win(g.cells, mover)
            assert not ref.has_win(g.cells, 3 - mover)
        if not g.is_over:
            g.end_turn()
    assert g.winners == (mover,)
    cells, islands = winning_group(g)
    board = layout(variant).board
    assert {board.parse(n) for n in cells} in ref.winning_groups(g.cells, mover)
    # The state rebuilt from JSON is over with the same winner.
    back = Begird.from_json(g.to_json())
    assert back.is_over and back.winners == g.winners and winning_group(back)[1] == islands
