"""The puzzle prover against exhaustive search, and its budget (ai/puzzles/, docs/puzzles.md).

Positions are seeded random games played through the engines (small boards, short horizons); every verdict
of the prover (the shortest forced win and every first turn winning at it) must be the exhaustive search's
(tests/puzzle_brute.py), and each sample must hold positions of every depth, so the comparison is not
vacuous.
"""

from __future__ import annotations

import random
import time

import pytest

from ai.puzzles import ProofBudget, try_position
from ai.puzzles.begird import BegirdTactics
from ai.puzzles.bide import best_turn
from ai.puzzles.budget import Meter, OverBudget
from ai.puzzles.bump import BumpTactics, bump_key, saving_turns
from ai.puzzles.playbai import PlayBaiTactics
from ai.puzzles.prover import Prover
from ai.turns import apply_turn, random_actions
from games.begird import Begird
from games.bide import Bide
from games.playbai import PlayBai
from games.registry import new_game
from tests import puzzle_brute, puzzle_cases

UNBOUNDED = ProofBudget(nodes=10**9, seconds=None)


def begird_position(seed: int, empties: int) -> Begird:
    """A small-board game played at random by both colours until ``empties`` cells are left, nobody winning."""
    rng = random.Random(seed)
    while True:
        game = Begird.new(2, {"board": "small"})
        while len(game.empties) > empties and not game.is_over:
            game = apply_turn(game.copy(), (rng.choice(game.empties),))
        if not game.is_over:
            return game


@pytest.mark.parametrize(("empties", "most", "count"), [(12, 3, 70), (18, 2, 40)])
def test_begird_verdicts_are_the_exhaustive_search(empties, most, count):
    depths = set()
    for seed in range(count):
        game = begird_position(seed, empties)
        expected = puzzle_brute.begird_shortest(game, most)
        prover = Prover(BegirdTactics(game.to_move), Meter(UNBOUNDED))
        turns, winners = prover.shortest(game, most)
        assert (turns, set(winners)) == expected, f"seed {seed}: {game.position()}"
        depths.add(turns)
    assert depths == set(range(most + 1)), depths  # wins at once, in two (and three), and none


def playbai_position(rng: random.Random) -> PlayBai:
    """Small teams (1–2 playballers, the position form puzzles use) on random cells, the ball anywhere."""
    game = PlayBai.new(2, {})
    names = game.board.names
    free = [i for i in range(len(names)) if i not in game.field.dots]
    rng.shuffle(free)
    pieces = {names[free.pop()]: seat for seat in (1, 2) for _ in range(rng.randint(1, 2))}
    goals = [rng.randint(0, 2), rng.randint(0, 2)]
    position = {
        "pieces": pieces,
        "ball": rng.choice([*pieces, names[free[-1]]]),
        "goals": goals,
        "to_move": rng.choice([1, 2]),
        "kickoff": rng.random() < 0.2,
        "last_goal": rng.choice([s for s in (1, 2) if goals[s - 1]]) if sum(goals) else None,
    }
    return PlayBai.from_position(2, {}, position)


def test_playbai_verdicts_are_the_exhaustive_search():
    rng = random.Random(11)
    depths = set()
    for _ in range(40):
        game = playbai_position(rng)
        if game.is_over:
            continue
        expected = puzzle_brute.playbai_shortest(game)
        prover = Prover(PlayBaiTactics(game.to_move, game), Meter(UNBOUNDED))
        turns, winners = prover.shortest(game, 2)
        found = {"goal"} if turns == 1 else {key for key, _ in winners}
        assert (turns, found) == expected, game.position()
        depths.add(turns)
    assert depths == {0, 1, 2}, depths


def test_bump_takes_and_saves_are_the_exhaustive_search():
    """Around the stored games' takes and saves: each position's take (and, where the mover's centre is
    taken, each save) found by the prover is the exhaustive search's."""
    seen = {"take": 0, "save": 0}
    for kind in ("take1", "save1", "not unique take"):
        _, case = puzzle_cases.load("bump", kind)
        game = puzzle_cases.replay("bump", {"turns": case["turns"][:-2]})  # two turns before the case
        history = [*case["turns"][-2:], case["played"]]
        for turn in history:
            if game.is_over:
                break
            if puzzle_brute.centre_taken(game):
                saves = saving_turns(game, Meter(UNBOUNDED), enough=10**6)
                assert {puzzle_brute.key(apply_turn(game.copy(), (a,))) for a in saves} == puzzle_brute.bump_saves(game)
                seen["save"] += bool(saves)
            else:
                prover = Prover(BumpTactics(game.to_move), Meter(UNBOUNDED))
                takes = prover.winners(game, 1)
                found = {puzzle_brute.key(apply_turn(game.copy(), (a,))) for a in takes}
                assert found == puzzle_brute.bump_takes(game)
                assert len({bump_key(apply_turn(game.copy(), (a,))) for a in takes}) == len(takes)  # distinct
                seen["take"] += bool(takes)
            game.play_turn(turn)
    assert seen["take"] and seen["save"], seen


def test_bide_best_turn_is_the_exhaustive_comparison():
    rng = random.Random(5)
    leads = set()
    for _ in range(12):
        game = Bide.new(2, {"side": 4})
        while game.empty_count > rng.randint(3, 6) and not game.is_over:
            apply_turn(game, random_actions(game, rng))
        if game.is_over:
            continue
        values = puzzle_brute.bide_values(game)
        verdict = best_turn(game, Meter(UNBOUNDED))
        ranked = sorted(values.values(), reverse=True)
        assert verdict is not None and verdict.value == ranked[0]
        assert puzzle_brute.key(verdict.best.result(game)) in {k for k, v in values.items() if v == ranked[0]}
        assert verdict.runner_up == (ranked[1] if len(ranked) > 1 else None)
        assert verdict.turns == len(values)
        leads.add(verdict.lead is not None and verdict.lead >= 3)
    assert leads == {True, False}


# -- the budget ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "options", "turns"),
    [("playbai", {}, 6), ("begird", {}, 40), ("bide", {}, 10)],
)
def test_a_huge_position_is_unknown_within_its_node_budget(game_id, options, turns):
    rng = random.Random(3)
    game = new_game(game_id, 2, options)
    for _ in range(turns):
        apply_turn(game, random_actions(game, rng))
    attempt = try_position(game, None, ProofBudget(nodes=30, seconds=None), filtered=False)
    assert attempt.outcome == "unknown"
    assert attempt.nodes <= 31 + 64  # a tick may count a batch (an enumeration's share) past the limit
    assert attempt.puzzle is None


def test_a_proof_gives_up_at_its_cpu_cap():
    game, _ = puzzle_cases.load("playbai", "goal2")  # a proof of about two seconds
    began = time.process_time()
    attempt = try_position(game, None, ProofBudget(nodes=10**9, seconds=0.2), filtered=False)
    spent = time.process_time() - began
    assert attempt.outcome == "unknown"
    assert attempt.seconds < 0.2 + 0.15 and spent < 0.6


def test_the_meter_refuses_past_its_nodes():
    meter = Meter(ProofBudget(nodes=5, seconds=None))
    meter.tick(5)
    with pytest.raises(OverBudget):
        meter.tick()
