"""Harder tactics, two turns deep (issue 39): Begird wins in two by a double threat, and forced blocks of one.

The positions (tests/data/tactics.json, found by ``python -m tests.tactics`` in easy computers' games on the
small board) are checked exhaustively here before the computer is asked: the premise (no win at once for
either side; a win in two exists, or the opponent has one) and that only a few of the mover's stones answer
it. ``hard`` and ``expert`` must play one of those stones.
"""

from __future__ import annotations

import pytest

from ai import choose_turn
from tests import tactics

WINS = tactics.load("double_threat_win")
BLOCKS = tactics.load("double_threat_block")


def _quiet(game):
    colour = game.to_move
    return not tactics.winning_cells(game, colour) and not tactics.winning_cells(game, 3 - colour)


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(WINS)))
def test_a_win_in_two_by_a_double_threat_is_played(index, level):
    game = WINS[index]
    assert _quiet(game)  # nothing wins at once: the win is two turns deep
    answers = [cell for cell in game.empties if tactics.wins_in_two(game, cell)]
    assert answers and len(answers) <= len(game.empties) // 8  # a puzzle: few stones win
    turn = choose_turn(game, level, seed=index).turn
    assert turn.actions[0] in answers, (turn.notation, [game.board.names[c] for c in answers])


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_a_double_threat_in_the_making_is_stopped(index, level):
    game = BLOCKS[index]
    assert _quiet(game)
    threat = game.copy()
    threat.current = 3 - threat.current  # were the opponent to move, it would win in two
    assert tactics.has_win_in_two(threat)
    answers = [cell for cell in game.empties if tactics.stops_every_win_in_two(game, cell)]
    assert answers and len(answers) <= len(game.empties) // 8  # most stones lose
    turn = choose_turn(game, level, seed=index).turn
    assert turn.actions[0] in answers, (turn.notation, [game.board.names[c] for c in answers])
