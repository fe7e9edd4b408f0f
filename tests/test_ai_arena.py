"""Arena bookkeeping: confidence intervals, alternating seats, determinism across processes."""

import pytest

from ai.arena import arena, play_one, wilson


def test_wilson_interval_known_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(10, 10)[1] == 1.0 and wilson(10, 10)[0] == pytest.approx(0.7225, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_sides_alternate_seats_and_a_four_seat_game_gives_each_side_two():
    # random vs random on the small board: game k gives side a the seats s with s + k even.
    for k in range(2):
        score, _ply, seconds, finished = play_one("bide", "random", "random", k, 4, {"side": 4}, seed=3)
        assert finished and 0.0 <= score <= 1.0 and set(seconds) == {"random"}
    first = arena("begird", "easy", "random", 2, options={"board": "y"}, seed=1)
    assert first.games == 2 and first.score_a == 2.0  # easy wins as Black and as White


def test_results_do_not_depend_on_the_number_of_processes():
    one = arena("begird", "random", "random", 4, options={"board": "y"}, seed=5)
    two = arena("begird", "random", "random", 4, options={"board": "y"}, seed=5, jobs=2)
    assert (one.score_a, one.turns) == (two.score_a, two.turns)


def test_a_game_cut_off_at_the_turn_cap_is_a_draw():
    result = arena("bump", "random", "random", 1, seed=0, max_turns=4)
    assert result.unfinished == 1 and result.score_a == 0.5 and "cut off as draws" in result.line()
