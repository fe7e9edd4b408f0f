"""Positions that are puzzles, and positions that are not, in each game (ai/puzzles/, docs/puzzles.md).

Begird's are planted by playing stones on the small board; the others are stored games of the computer
against itself (tests/puzzle_cases.py, tests/data/puzzle_games.json), replayed turn by turn. Each solution is
checked against the rules here, not taken from the prover.
"""

from __future__ import annotations

import pytest

from ai.puzzles import ProofBudget, find_puzzle, try_position
from ai.puzzles.budget import Meter
from ai.puzzles.playbai import PlayBaiTactics
from ai.puzzles.prover import Prover
from ai.turns import apply_turn
from games.begird import Begird
from games.bump import OPPONENT_CENTRE
from games.interface import AnyGame
from games.playbai import PlayBai
from tests import puzzle_brute, puzzle_cases

# Black's row e1–e3 touches islands 6 and 7, its row f6–f10 island 2: joined, they win. e4 is a stone away
# from e3 and a bridge away from f6, so it leaves two winning cells, e5 and f5. f5 too would be a stone from
# f6 and a bridge from e3 (through e4 and f4), unless White holds f4.
BLACK = ("e1", "e2", "e3", "f6", "f7", "f8", "f9", "f10")
WHITE = ("a1", "a3", "a5", "c2", "c5", "j1", "j3")


def planted_begird(last_white: str) -> Begird:
    game = Begird.new(2, {"board": "small"})
    for black, white in zip(BLACK, (*WHITE, last_white), strict=True):
        game.play_turn(black)
        game.play_turn(white)
    return game


def winning_cells(game: Begird, colour: int) -> set[str]:
    return {game.board.names[i] for i in game.empties if game.would_win(i, colour)}


def test_a_planted_missed_win_in_two_becomes_that_puzzle():
    game = planted_begird("f4")
    # The rules, not the prover: no win at once; after e4 two winning cells, so every reply loses.
    assert not winning_cells(game, 1) and not winning_cells(game, 2)
    after = apply_turn(game.copy(), (game.board.parse("e4"),))
    assert winning_cells(after, 1) == {"e5", "f5"}
    puzzle = find_puzzle(game, "j6")
    assert puzzle is not None
    assert puzzle.goal.to_json() == {"kind": "win", "turns": 2}
    assert puzzle.to_move == 1 and puzzle.state == game.to_json()
    assert puzzle.solution.to_json() == {
        "turn": "e4",
        "final": False,
        "replies": [
            {"reply": "e5", "next": {"turn": "f5", "final": True}},
            {"reply": "f5", "next": {"turn": "e5", "final": True}},
        ],
    }
    assert puzzle.difficulty.depth == 2 and 1200 <= puzzle.difficulty.rating <= 2600


def test_the_winning_turn_played_is_no_missed_puzzle():
    game = planted_begird("f4")
    assert try_position(game, "e4", filtered=False).outcome == "not missed"
    assert find_puzzle(game, "e4") is None


def test_two_winning_first_turns_are_not_unique():
    game = planted_begird("j5")  # White never took f4: f5 wins in two as well as e4
    for first in ("e4", "f5"):
        after = apply_turn(game.copy(), (game.board.parse(first),))
        assert len(winning_cells(after, 1)) >= 2
    assert try_position(game, "j6", filtered=False).outcome == "not unique"
    assert find_puzzle(game, "j6") is None


def scores_after(game: PlayBai, seat: int) -> bool:
    return game.scoring_turn() is not None and game.to_move == seat


def test_playbai_missed_forced_goal_in_two():
    game, case = puzzle_cases.load("playbai", "goal2")
    assert isinstance(game, PlayBai)
    seat = game.to_move
    puzzle = find_puzzle(game, case["played"])
    assert puzzle is not None and puzzle.goal.to_json() == {"kind": "goal", "turns": 2}
    assert puzzle.solution.turn == case["solution"]
    # The rules: no goal now; after the solution no reply scores, and after every reply the mover scores.
    assert game.scoring_turn() is None
    after = game.copy()
    after.play_turn(case["solution"])
    for path in after.turn_results().values():
        then = apply_turn(after.copy(), path)
        assert then.goals == after.goals and scores_after(then, seat)
    # Each best defence the puzzle may play has its answer, a goal.
    for reply, node in puzzle.solution.replies:
        then = after.copy()
        then.play_turn(reply)
        scored = then.copy()
        scored.play_turn(node.turn)
        assert node.final and scored.goals[seat - 1] == then.goals[seat - 1] + 1


def test_playbai_goal_now():
    game, case = puzzle_cases.load("playbai", "goal1")
    puzzle = find_puzzle(game, case["played"])
    assert puzzle is not None and puzzle.goal.to_json() == {"kind": "goal", "turns": 1}
    assert puzzle.solution.final and not puzzle.solution.replies


def test_playbai_two_first_turns_forcing_a_goal_are_not_unique():
    game, case = puzzle_cases.load("playbai", "not unique goal2")
    assert isinstance(game, PlayBai)
    assert try_position(game, case["played"], filtered=False).outcome == "not unique"
    # The two first turns the prover stopped at both force a goal, by the rules (every reply tried).
    prover = Prover(PlayBaiTactics(game.to_move, game), Meter(ProofBudget(nodes=10**9, seconds=None)))
    turns, winners = prover.shortest(game, 2, limit=2)
    assert turns == 2 and len(winners) == 2
    assert game.scoring_turn() is None
    assert all(puzzle_brute.playbai_forces_goal(game, path) for _, path in winners)


def test_bump_centre_taken_for_good():
    game, case = puzzle_cases.load("bump", "take1")
    puzzle = find_puzzle(game, case["played"])
    assert puzzle is not None and puzzle.goal.to_json() == {"kind": "take", "turns": 1}
    assert {puzzle_brute.key(played(game, puzzle.solution.turn))} == puzzle_brute.bump_takes(game)


def test_bump_two_takes_are_not_unique():
    game, case = puzzle_cases.load("bump", "not unique take")
    assert len(puzzle_brute.bump_takes(game)) >= 2
    assert try_position(game, case["played"], filtered=False).outcome == "not unique"


def test_bump_the_only_save():
    game, case = puzzle_cases.load("bump", "save1")
    seat = game.to_move
    assert game.board.owner[game.board.cells[OPPONENT_CENTRE[3 - seat]]] == 3 - seat  # our centre is taken
    puzzle = find_puzzle(game, case["played"])
    assert puzzle is not None and puzzle.goal.to_json() == {"kind": "save", "turns": 1}
    assert {puzzle_brute.key(played(game, puzzle.solution.turn))} == puzzle_brute.bump_saves(game)


def test_bide_the_turn_ahead_by_a_margin():
    game, case = puzzle_cases.load("bide", "points1")
    puzzle = find_puzzle(game, case["played"])
    assert puzzle is not None and puzzle.goal.kind == "points"
    values = puzzle_brute.bide_values(game)
    best = values[puzzle_brute.key(played(game, puzzle.solution.turn))]
    others = [v for k, v in values.items() if k != puzzle_brute.key(played(game, puzzle.solution.turn))]
    assert best - max(others) == puzzle.goal.margin >= 3


def test_bide_without_a_clear_margin_is_no_puzzle():
    game, case = puzzle_cases.load("bide", "no margin")
    ranked = sorted(puzzle_brute.bide_values(game).values(), reverse=True)
    assert len(ranked) == 1 or ranked[0] - ranked[1] < 3
    assert try_position(game, case["played"], filtered=False).outcome == "no win"


@pytest.mark.parametrize("game_id", ["begird", "playbai", "bump", "bide"])
def test_a_finished_game_is_no_candidate(game_id):
    game, _ = (planted_begird("f4"), None) if game_id == "begird" else puzzle_cases.load(game_id, first_kind(game_id))
    game.resign(game.to_move)
    assert try_position(game, None).outcome == "filtered"


def first_kind(game_id: str) -> str:
    return puzzle_cases.WANTED[game_id][0]


def played(game: AnyGame, turn: str) -> AnyGame:
    after = game.copy()
    after.play_turn(turn)
    return after
