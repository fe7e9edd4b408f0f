"""Bide tactics two turns deep (issue 39): wins in two, and denials of the opponent's win within two turns.

The positions (tests/data/bide_tactics.json, found by ``python -m tests.bide_tactics`` in easy computers' games
on the side-4 board, where easy missed them) are checked exhaustively here, over every distinct complete turn
and every release order, before the computer is asked: the premise two turns deep (the mover cannot win at
once and has a win in two; or most of its turns hand the opponent a win within two turns), and the answers,
solved to the end of the game: the turns that keep the position's exact value, at most a sixth of them.
``hard`` and ``expert`` must play one of those turns.
"""

from __future__ import annotations

import pytest

from ai import choose_turn
from tests import bide_tactics
from tests.bide_tactics import bide_key

WINS = bide_tactics.load("win_in_two")
DENIALS = bide_tactics.load("denial")


def _answers(game):
    options, answers = bide_tactics.keeping(game)
    assert answers and len(answers) <= len(options) // 6  # a puzzle: few turns keep the value
    return {bide_key(t.result(game)) for t in answers}


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(WINS)))
def test_a_win_in_two_is_played(index, level):
    game = WINS[index]
    assert not bide_tactics.wins_at_once(game) and bide_tactics.has_win_in_two(game)  # two turns deep
    seat = game.to_move
    assert bide_tactics.solve(game, seat) == 1.0
    answers = _answers(game)
    turn = choose_turn(game, level, seed=index).turn
    assert bide_key(turn.result(game)) in answers, turn.notation


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(DENIALS)))
def test_the_opponents_win_within_two_turns_is_denied(index, level):
    game = DENIALS[index]
    options = bide_tactics.turns(game)
    assert not bide_tactics.wins_at_once(game) and not bide_tactics.has_win_in_two(game)
    assert sum(bide_tactics.careless(game, t) for t in options) > len(options) // 2  # most turns hand it over
    answers = _answers(game)
    turn = choose_turn(game, level, seed=index).turn
    assert bide_key(turn.result(game)) in answers, turn.notation
