"""Begird rules that `make mutation` found unpinned (docs/testing.md, "Mutation testing")."""

from __future__ import annotations

import pytest

from games.begird import Begird
from games.interface import StateError


@pytest.mark.parametrize("colour", [True, False, 1.0, "1", 0, 3])
def test_a_stored_stone_is_black_or_white_written_1_or_2_and_nothing_that_merely_equals_them(colour):
    """begird ``from_position`` 22: ``true`` equals 1 and ``1.0`` equals 1, yet neither is a colour."""
    with pytest.raises(StateError, match=r"a1: colour .* is not 1 \(Black\) or 2 \(White\)"):
        Begird.from_position(2, {}, {"board": {"a1": colour}, "to_move": 2, "swapped": False})
    game = Begird.from_position(2, {}, {"board": {"a1": 1}, "to_move": 2, "swapped": False})
    assert game.position()["board"] == {"a1": 1}
