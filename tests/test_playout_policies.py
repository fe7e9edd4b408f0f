"""The playout policies made faster for issue 39 are the same policies (hypothesis, seeded).

Bide's playout keeps its weights point by point (``ai.knowledge.bide_playout``) and applies turns through
the engine's quiet path; the old one (``tests/reference_playouts.py``) recomputed every weight for every
disc through the full path. From the same generator state both must draw the same points in the same
order and reach the same final position, and the kept weights must always equal freshly computed ones.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.knowledge import knowledge_for
from ai.knowledge.bide import BideKnowledge
from ai.knowledge.bide_playout import Mast, PlayoutWeights
from ai.search import Budget, search
from games.bide import Bide
from tests import reference_playouts

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_bide(seed: int, players: int, side: int, turns: int) -> Bide:
    """A position after ``turns`` of the reference playout (the game may be over)."""
    rng = random.Random(seed)
    game = Bide.new(players, {"side": side})
    for _ in range(turns):
        if game.is_over:
            break
        reference_playouts.bide_rollout_step(game, rng)
    return game


def cut_playouts(knowledge: BideKnowledge) -> BideKnowledge:
    """``knowledge`` with more than two seats' leaves scored by cut playouts, as before their calibrated
    settings (no cut, a sharper estimate, whole playouts near the end: tests/test_ai_bide_four_seats.py)."""
    knowledge.rollout_turns_many = knowledge.rollout_turns
    knowledge.estimate_sharpness_many = 1.0
    knowledge.whole_playout_empty_many = 0
    return knowledge


def fresh_weights(game: Bide, seat: int) -> list[int]:
    values = game.board.edge_distance
    nbrs = game.board.neighbour_indices
    return [
        0 if v else 1 + values[p] ** 2 + 2 * sum(game.cells[n] == seat for n in nbrs[p])
        for p, v in enumerate(game.cells)
    ]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=seeds,
    players=st.integers(min_value=2, max_value=6),
    side=st.sampled_from([4, 5]),
    turns=st.integers(min_value=0, max_value=60),
)
def test_bide_playout_draws_the_same_points_to_the_same_end(seed: int, players: int, side: int, turns: int) -> None:
    start = random_bide(seed, players, side, turns)
    if start.is_over:
        return
    ours, theirs = start.copy(), start.copy()
    ours_rng, theirs_rng = random.Random(seed ^ 0x5EED), random.Random(seed ^ 0x5EED)
    playout = PlayoutWeights(ours)
    while not theirs.is_over:
        playout.play_turn(ours_rng)
        reference_playouts.bide_rollout_step(theirs, theirs_rng)
        assert ours_rng.getstate() == theirs_rng.getstate()
        assert ours.to_json() == theirs.to_json() if not ours.is_over else ours.position() == theirs.position()
        if not ours.is_over:
            for seat in range(1, players + 1):
                assert playout.weights[seat] == fresh_weights(ours, seat), seat
    assert ours.is_over and ours.winners == theirs.winners


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=seeds, players=st.integers(min_value=2, max_value=6), turns=st.integers(min_value=0, max_value=50))
def test_a_bide_draw_is_the_old_draw(seed: int, players: int, turns: int) -> None:
    game = random_bide(seed, players, 5, turns)
    if game.is_over:
        return
    seat = game.to_move
    assert seat is not None
    weights = PlayoutWeights(game)
    for k in range(8):
        ours, theirs = random.Random(seed + k), random.Random(seed + k)
        assert weights.draw(seat, ours) == reference_playouts.weighted_point(game, seat, theirs)
        assert ours.getstate() == theirs.getstate()


def test_the_bide_knowledge_scores_a_playout_as_the_old_one_did() -> None:
    # evaluate() is what the search calls: the same value from the same seed, two and four seats.
    # (MAST's greedy discs off: the draws are the reference's, disc for disc; MAST is tested below)
    for players in (2, 4):
        knowledge = cut_playouts(knowledge_for(Bide.new(players)))
        knowledge.mast_greedy = knowledge.mast_greedy_many = 0.0
        for seed in range(6):
            game = random_bide(seed, players, 5, 12)
            theirs, _ = reference_cut_playout(game, seed, knowledge.rollout_turns)
            assert knowledge.evaluate(game, random.Random(seed)) == knowledge.playout_value(theirs), (players, seed)


def test_a_bide_playout_near_the_end_runs_to_the_full_board() -> None:
    # whole_playout_empty: a two-seat playout that has few empty points left when its rollout_turns are up is
    # played on to the end (the same draws as the reference playout), so its value is the result, not an estimate
    knowledge = knowledge_for(Bide.new(2))
    knowledge.whole_playout_empty = 25
    knowledge.mast_greedy = 0.0
    ended = 0
    for seed in range(12):
        game = random_bide(seed, 2, 5, 30 + seed)
        if game.is_over:
            continue
        theirs, rng = reference_cut_playout(game, seed, knowledge.rollout_turns)
        whole = theirs.empty_count <= 25
        while whole and not theirs.is_over:
            reference_playouts.bide_rollout_step(theirs, rng)
        value = knowledge.evaluate(game, random.Random(seed))
        assert value == knowledge.playout_value(theirs), seed
        ended += whole
        assert whole == (sorted(value) in ([0.0, 1.0], [0.5, 0.5])), seed  # only the estimate is fractional
    assert ended >= 4  # the test saw playouts run on and playouts cut
    # with four seats the playouts stay cut (the setting is two seats' only)
    four = cut_playouts(knowledge_for(Bide.new(4)))
    four.whole_playout_empty = 61
    four.mast_greedy = four.mast_greedy_many = 0.0  # (the reference playout has no MAST)
    game = random_bide(1, 4, 5, 30)
    assert not game.is_over
    assert four.evaluate(game, random.Random(1)) == four.playout_value(
        reference_cut_playout(game, 1, four.rollout_turns)[0]
    )


def test_mast_learns_each_playouts_discs_and_draws_the_best_paying_point() -> None:
    # BideKnowledge.mast_greedy: a search's playouts credit every disc they placed with the playout's return
    # for its seat; with probability mast_greedy a disc goes to the empty point with its seat's best mean
    game = random_bide(3, 2, 5, 10)
    assert not game.is_over
    mast = Mast(2, len(game.cells), greedy=1.0)
    empty = [p for p, owner in enumerate(game.cells) if not owner]
    good, bad = empty[0], empty[1]
    mast.placed = [(1, good), (1, bad), (2, good)]
    mast.learn((1.0, 0.0))
    mast.placed = [(1, bad)]
    mast.learn((0.0, 1.0))
    assert mast.placed == []
    assert (mast.n[1][good], mast.w[1][good], mast.n[1][bad], mast.w[1][bad]) == (1, 1.0, 2, 1.0)
    assert (mast.n[2][good], mast.w[2][good]) == (1, 0.0)
    assert mast.best(1, game.cells) == good  # mean 1.0 against 0.5
    seat = game.to_move
    assert seat is not None
    weights = PlayoutWeights(game.copy(), mast)
    assert weights.draw(1, random.Random(0)) == good and mast.placed == [(1, good)]
    # never greedy: the weighted draw, recorded all the same
    mast.greedy, mast.placed = 0.0, []
    rng, plain = random.Random(5), random.Random(5)
    plain.random()  # the greedy roll comes first
    point = PlayoutWeights(game.copy(), mast).draw(2, rng)
    assert point == PlayoutWeights(game.copy()).draw(2, plain) and mast.placed == [(2, point)]


def test_the_bide_knowledge_with_mast_learns_from_its_playouts() -> None:
    game = random_bide(4, 2, 5, 14)
    off = knowledge_for(game)
    off.mast_greedy = 0.0
    off.evaluate(game, random.Random(4))
    assert off._mast is None  # mast_greedy 0: no table, the playouts as before
    knowledge = knowledge_for(game)
    knowledge.mast_greedy = 0.5
    rng = random.Random(4)
    for _ in range(30):
        knowledge.evaluate(game, rng)
    mast = knowledge._mast
    assert mast is not None and mast.placed == []  # each playout's discs credited when it ended
    assert sum(map(sum, mast.n)) >= 30  # every playout placed a disc or more
    for n_row, w_row in zip(mast.n, mast.w, strict=True):
        assert all(0.0 <= w <= n for n, w in zip(n_row, w_row, strict=True))  # returns between 0 and 1
    four = knowledge_for(Bide.new(4))
    four.mast_greedy, four.mast_greedy_many = 0.5, 0.0
    four.evaluate(random_bide(4, 4, 5, 14), random.Random(4))
    assert four._mast is None  # mast_greedy is two seats'; more seats read mast_greedy_many


def test_with_four_seats_mast_credits_each_disc_with_its_seats_share_of_the_playout() -> None:
    # BideKnowledge.mast_greedy_many: a four-seat playout pays each seat its margin-scored share (summing to 1),
    # and every disc a seat placed in it is credited with that seat's share
    game = random_bide(6, 4, 5, 12)
    assert not game.is_over
    knowledge = cut_playouts(knowledge_for(game))
    knowledge.mast_greedy, knowledge.mast_greedy_many = 0.0, 0.5
    value = knowledge.evaluate(game, random.Random(6))
    mast = knowledge._mast
    assert mast is not None and mast.greedy == 0.5 and mast.placed == []
    assert sum(value) == pytest.approx(1.0) and len(set(value)) > 1  # graded shares, not one winner
    credited = 0
    for seat in range(1, 5):
        for n, w in zip(mast.n[seat], mast.w[seat], strict=True):
            assert w == pytest.approx(n * value[seat - 1])  # one playout: each disc got its seat's share
            credited += n
    assert credited >= knowledge.rollout_turns // 2  # the playout's discs, each seat's own
    # the table keeps learning over the search's playouts, each mean a share between 0 and 1
    rng = random.Random(7)
    for _ in range(40):
        knowledge.evaluate(game, rng)
    assert knowledge._mast is mast and sum(map(sum, mast.n)) > credited
    assert all(0.0 <= w <= n for s in range(1, 5) for n, w in zip(mast.n[s], mast.w[s], strict=True))
    # two seats never read mast_greedy_many: the playout is the reference's, draw for draw
    two = random_bide(6, 2, 5, 12)
    plain = knowledge_for(two)
    plain.mast_greedy, plain.mast_greedy_many = 0.0, 0.9
    theirs, _ = reference_cut_playout(two, 6, plain.rollout_turns)
    assert plain.evaluate(two, random.Random(6)) == plain.playout_value(theirs) and plain._mast is None


def test_a_four_seat_search_with_mast_gives_the_same_turn_for_a_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    # the table lives for one search (ai.search makes a fresh knowledge), so a seed still decides the turn
    monkeypatch.setattr(BideKnowledge, "mast_greedy_many", 0.5)
    game = random_bide(8, 4, 5, 10)
    assert not game.is_over
    turns = [search(game, Budget(120, scaled=False), seed=5).turn.actions for _ in range(2)]
    assert turns[0] == turns[1]


def reference_cut_playout(game: Bide, seed: int, turns: int) -> tuple[Bide, random.Random]:
    """The reference playout's first ``turns`` turns from a copy of ``game`` (seeded by ``seed``), and its rng."""
    theirs = game.copy()
    rng = random.Random(seed)
    for _ in range(turns):
        reference_playouts.bide_rollout_step(theirs, rng)
        if theirs.is_over:
            break
    return theirs, rng
