"""Harder tactics, two turns deep (issue 39): Begird wins in two by a double threat, and forced blocks of one;
Play Bai goals forced in two, and stopped (tests/tactics_playbai.py); Bump wins forced in two, and wins in one
stopped (tests/tactics_bump.py).

The positions (tests/data/tactics.json, found by ``python -m tests.tactics`` in easy computers' games on the
small board) are checked exhaustively here before the computer is asked: the premise (no win at once for
either side; a win in two exists, or the opponent has one) and that only a few of the mover's stones answer
it. ``hard`` and ``expert`` must play one of those stones.
"""

from __future__ import annotations

import pytest

from ai import choose_turn
from games.playbaikeys import result_keys
from tests import tactics, tactics_bump, tactics_playbai

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


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(tactics_playbai.FORCED)))
def test_playbai_a_goal_forced_in_two_is_played(index, level):
    game = tactics_playbai.position(*tactics_playbai.FORCED[index], to_move=1)
    assert not tactics_playbai.scores(game)  # no goal at once: it is two turns deep
    keys = result_keys(game)
    answers = [key for key in keys if tactics_playbai.forced_in_two(game, key)]
    assert answers and len(answers) <= len(keys) // 6  # a puzzle: few results force the goal
    turn = choose_turn(game, level, seed=index).turn
    assert turn.label in answers, turn.notation


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(tactics_playbai.STOPPED)))
def test_playbai_a_goal_forced_in_two_is_stopped(index, level):
    game = tactics_playbai.position(*tactics_playbai.STOPPED[index], to_move=2)
    threat = tactics_playbai.position(*tactics_playbai.STOPPED[index], to_move=1)
    assert not tactics_playbai.scores(threat) and tactics_playbai.has_forced_in_two(threat)
    keys = result_keys(game)
    answers = [key for key in keys if tactics_playbai.stops(game, key)]
    assert answers and len(answers) <= len(keys) // 6  # most results let the goal through
    turn = choose_turn(game, level, seed=index).turn
    assert turn.label in answers, turn.notation


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(tactics_bump.FORCED)))
def test_bump_a_win_forced_in_two_is_played(index, level):
    game = tactics_bump.position(tactics_bump.FORCED[index])
    assert not tactics_bump.has_win_in_one(game)  # it is two turns deep
    moves = game.legal_actions()
    answers = [move for move in moves if tactics_bump.forces_in_two(game, move)]
    assert answers and len(answers) <= len(moves) // 8  # a puzzle: few turns force the win
    turn = choose_turn(game, level, seed=index).turn
    assert turn.actions[0] in answers, turn.notation


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(tactics_bump.STOPPED)))
def test_bump_a_win_in_one_is_stopped(index, level):
    game = tactics_bump.position(tactics_bump.STOPPED[index])
    assert not tactics_bump.has_win_in_one(game)
    assert tactics_bump.has_win_in_one(tactics_bump.after(game, tactics_bump.PASS))  # the opponent threatens one
    moves = game.legal_actions()
    answers = [move for move in moves if tactics_bump.stops_win_in_one(game, move)]
    assert answers and len(answers) <= len(moves) // 8  # most turns let it through
    turn = choose_turn(game, level, seed=index).turn
    assert turn.actions[0] in answers, turn.notation


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize("index", range(len(tactics_bump.FORCED_TWO_ON_ONE)))
def test_bump_a_win_forced_in_two_with_two_pieces_against_one_is_played(index, level):
    game = tactics_bump.position(tactics_bump.FORCED_TWO_ON_ONE[index])
    assert not tactics_bump.has_win_in_one(game)
    moves = game.legal_actions()
    answers = [move for move in moves if tactics_bump.forces_in_two(game, move)]
    assert len(answers) == 1 and len(moves) >= 130  # one turn of 130 or more forces the win in two
    # other turns may win later (a step onto the centre that one reply clears, won two turns on): the
    # computer must take the shortest win, whatever its seed
    for seed in range(6):
        turn = choose_turn(game, level, seed=seed).turn
        assert turn.actions[0] in answers, (seed, turn.notation)
