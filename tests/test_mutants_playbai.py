"""Play Bai rules that `make mutation` found unpinned (docs/testing.md, "Mutation testing")."""

from __future__ import annotations

import pytest

from games.interface import IllegalMove
from games.playbai import PlayBai
from games.playbaisearch import STEP


def position(pieces: dict[str, int]) -> PlayBai:
    """Seat 1 to move, not on a kick-off, the ball loose on the centre."""
    return PlayBai.from_position(
        2, {}, {"pieces": pieces, "ball": "e5", "goals": [0, 0], "to_move": 1, "kickoff": False, "last_goal": None}
    )


def test_a_step_given_as_an_action_goes_to_an_adjacent_cell_only():
    """playbai ``_why_illegal`` 29: the parser refuses ``b2-d5`` itself (not in line); ``apply_action``
    must refuse the same step handed to it directly."""
    game = position({"b2": 1, "e2": 1, "h2": 1, "b5": 2, "e8": 2, "h5": 2})
    index = {name: i for i, name in enumerate(game.board.names)}
    before = game.position()
    for far in ("d5", "b4", "e5"):
        with pytest.raises(IllegalMove, match=f"^b2-{far}: a step goes to an adjacent cell$"):
            game.apply_action((STEP, index["b2"], index[far]))
    assert game.position() == before


def test_a_jump_over_a_playballer_on_the_first_cell_a1_bounces_back_at_the_edge():
    """playbai ``_why_illegal`` 57: cell a1 is cell 0, and a playballer on it can be jumped over (from a2,
    westwards: at the edge the jumper bounces back, still a move)."""
    game = position({"b2": 1, "a2": 1, "h2": 1, "b5": 2, "e8": 2, "h5": 2})
    game.apply_action(game.parse_action("b2-a1"))  # into its own end zone, within the turn
    game.apply_action(game.parse_action("a2^w"))
    game.apply_action(game.parse_action("a1-b1"))  # off the dot
    game.end_turn()
    assert game.position()["pieces"] == {"b1": 1, "a2": 1, "h2": 1, "b5": 2, "e8": 2, "h5": 2}
    assert game.to_move == 2
