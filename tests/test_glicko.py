"""Glicko-2's arithmetic (bot/service/glicko.py) against the paper's worked example (Glickman 2013)."""

from __future__ import annotations

import pytest

from bot.service.glicko import HIGHEST_DEVIATION, updated


def test_the_papers_example():
    rating, deviation, volatility = updated(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert deviation == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_win_raises_a_loss_lowers_and_no_game_only_widens():
    assert updated(1500, 350, 0.06, [(1500, 350, 1)])[0] > 1500 > updated(1500, 350, 0.06, [(1500, 350, 0)])[0]
    rating, deviation, _ = updated(1500, 100, 0.06, [])
    assert rating == 1500 and 100 < deviation <= HIGHEST_DEVIATION
