"""A puzzle as data (JSON, versioned) and the check of an answer (ai/puzzles/puzzle.py, docs/puzzles.md)."""

from __future__ import annotations

import copy
import json

import pytest

from ai.puzzles import PUZZLE_FORMAT, Puzzle, find_puzzle
from ai.puzzles.difficulty import rating
from ai.puzzles.prover import SolutionNode
from games.interface import IllegalMove
from tests import puzzle_cases
from tests.test_puzzles_cases import planted_begird


@pytest.fixture(scope="module")
def begird_puzzle() -> Puzzle:
    puzzle = find_puzzle(planted_begird("f4"), "j6")
    assert puzzle is not None
    return puzzle


def test_a_puzzle_survives_json(begird_puzzle):
    doc = json.loads(json.dumps(begird_puzzle.to_json()))
    assert doc["format"] == PUZZLE_FORMAT and doc["game"] == "begird"
    again = Puzzle.from_json(doc)
    assert again.to_json() == begird_puzzle.to_json()
    assert again.start().to_json() == planted_begird("f4").to_json()


def test_the_answer_wins_in_two_against_either_defence(begird_puzzle):
    wrong = begird_puzzle.check("j6")
    assert (wrong.status, wrong.expected, wrong.progress) == ("wrong", "e4", ())
    replies = set()
    for choice in (0, 1):
        first = begird_puzzle.check("E4 ", choice=choice)  # any spelling of the cell
        assert first.status == "continue" and first.progress == ("E4 ", first.reply)
        replies.add(first.reply)
        winning = {"e5": "f5", "f5": "e5"}[first.reply]
        last = begird_puzzle.check(winning, first.progress)
        assert (last.status, last.expected) == ("right", winning)
        assert last.progress == (*first.progress, winning)
        missed = begird_puzzle.check("j6", first.progress)
        assert (missed.status, missed.expected, missed.progress) == ("wrong", winning, first.progress)
    assert replies == {"e5", "f5"}  # every best defence is played by some choice


def test_an_illegal_answer_is_refused_with_its_reason(begird_puzzle):
    with pytest.raises(IllegalMove, match="occupied"):
        begird_puzzle.check("e1")
    with pytest.raises(IllegalMove):
        begird_puzzle.check("z99")


@pytest.mark.parametrize(
    ("progress", "reason"),
    [
        (["e4"], "each with the reply"),
        (["j6", "e5"], "does not follow"),
        (["e4", "a2"], "not a reply"),
        (["e1", "e5"], "not legal"),
        (["e4", "e5", "f5", "a2"], "does not follow"),
    ],
)
def test_a_progress_off_the_solution_is_refused(begird_puzzle, progress, reason):
    with pytest.raises(ValueError, match=reason):
        begird_puzzle.check("f5", progress)


def test_any_goal_is_right_at_the_last_turn():
    game, case = puzzle_cases.load("playbai", "goal1")
    puzzle = find_puzzle(game, case["played"])
    assert puzzle is not None
    seat = game.to_move
    goals = [
        notation for notation in game.complete_turns() if played(game, notation).goals[seat - 1] > game.goals[seat - 1]
    ]
    assert goals  # every turn that scores, whichever way it goes, is right: the goal is the answer
    assert all(puzzle.check(notation).status == "right" for notation in goals)
    assert puzzle.check(puzzle.solution.turn).status == "right"
    assert puzzle.check(case["played"]).status == "wrong"


def test_a_bump_take_of_another_spelling_is_the_same_answer():
    game, case = puzzle_cases.load("bump", "take1")
    puzzle = find_puzzle(game, case["played"])
    assert puzzle is not None
    assert puzzle.solution.turn == "59,C2-4"
    for spelling in ("59,C2-4", "59,c2-4", "59, C2 - 4"):  # the same move, however written
        assert puzzle.check(spelling).status == "right"
    for other in ("59,C2-3", case["played"]):  # the same square facing elsewhere is another move
        assert puzzle.check(other).status == "wrong"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(format=2), "format"),
        (lambda d: d.update(game="bump"), "state must be"),
        (lambda d: d["state"]["position"]["board"].update(e4="x"), "does not load"),
        (lambda d: d.update(goal={"kind": "take", "turns": 1}), "no take puzzles"),
        (lambda d: d.update(goal={"kind": "win", "turns": 0}), "turns"),
        (lambda d: d.update(goal={"kind": "points", "turns": 1}), "margin"),
        (lambda d: d.update(to_move=2), "seat to move"),
        (lambda d: d.update(to_move=True), "seat to move"),
        (lambda d: d["solution"].update(turn="e1"), "first turn is not legal"),
        (lambda d: d["solution"].update(final=True), "final node has no replies"),
        (lambda d: d["solution"].update(replies=[{"next": {}}]), "its notation"),
        (lambda d: d["difficulty"].update(rating=-5), "whole numbers"),
        (lambda d: d["difficulty"].update(found=2), "share"),
        (lambda d: d.update(source=[]), "source"),
    ],
)
def test_a_damaged_document_is_refused_with_a_reason(begird_puzzle, change, reason):
    doc = copy.deepcopy(begird_puzzle.to_json())
    change(doc)
    with pytest.raises(ValueError, match=reason):
        Puzzle.from_json(doc)


def test_a_solution_tree_reads_back_and_counts():
    doc = {"turn": "a", "final": False, "replies": [{"reply": "b", "next": {"turn": "c", "final": True}}]}
    node = SolutionNode.from_json(doc)
    assert node.to_json() == doc and node.depth == 2 and node.size() == 2


@pytest.mark.parametrize(
    ("depth", "rank", "found", "actions", "expected"),
    [(1, 1, 1.0, 1, 1250), (2, 1, 0.0, 1, 1700), (3, 8, 0.0, 1, 2270), (1, 1, 1.0, 4, 1370), (9, 999, 0, 9, 2600)],
)
def test_the_rating_formula(depth, rank, found, actions, expected):
    assert rating(depth, rank, found, actions) == expected


def played(game, notation):
    after = game.copy()
    after.play_turn(notation)
    return after
