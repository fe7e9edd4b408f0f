"""The builders Play Bai's tests share: a position in the documented form, a refused turn that changes nothing."""

from __future__ import annotations

import pytest

from games import IllegalMove
from games.playbai import PlayBai


def pos(pieces, ball, to_move=1, kickoff=False, goals=(0, 0), last_goal=None, **options):
    doc = {
        "pieces": pieces,
        "ball": ball,
        "goals": list(goals),
        "to_move": to_move,
        "kickoff": kickoff,
        "last_goal": last_goal,
    }
    return PlayBai.from_position(2, options, doc)


def refused(game, turn, fragment):
    before = game.to_json()
    with pytest.raises(IllegalMove) as error:
        game.play_turn(turn)
    assert fragment in str(error.value), str(error.value)
    assert game.to_json() == before  # a refused turn changes nothing
    return str(error.value)


FAR = {"i3": 2, "h4": 2}  # two Blue playballers out of the way
