"""The search of issue 39 behind its one entry point: budgets per game, kept trees, the cross-version arena."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import ai.player
from ai.knowledge import knowledge_for
from ai.levels import LEVELS, MANY_SEATS
from ai.mcts import MCTS
from ai.player import TREES, choose_turn
from ai.search import Budget, TreeCache, scaled_simulations, search
from ai.turns import by_player
from games import new_game
from games.playbai import PlayBai

ROOT = Path(__file__).resolve().parent.parent


def test_hard_and_expert_name_each_games_own_count_and_others_scale():
    bide = knowledge_for(new_game("bide"))
    assert scaled_simulations(LEVELS["hard"].budget_for("bide"), bide) == LEVELS["hard"].per_game["bide"]
    assert scaled_simulations(LEVELS["medium"].budget_for("bide"), bide) == round(500 * bide.simulation_scale)
    for key in LEVELS["hard"].per_game:  # expert above hard in every game, with two seats and with more
        game_id, many, _ = key.partition(MANY_SEATS)
        players = 4 if many else 2
        expert, hard = (LEVELS[name].budget_for(game_id, players).simulations for name in ("expert", "hard"))
        assert expert > hard, key
    assert scaled_simulations(Budget(1), bide) == 10  # never fewer than ten


def test_more_than_two_seats_take_their_games_own_count_where_a_level_names_one(monkeypatch):
    hard = LEVELS["hard"]
    many = hard.per_game["bide" + MANY_SEATS]
    assert many != hard.per_game["bide"]  # (else this test proves nothing)
    assert hard.budget_for("bide", 4).simulations == hard.budget_for("bide", 3).simulations == many
    assert hard.budget_for("bide", 2) == hard.budget_for("bide") == Budget(hard.per_game["bide"], hard.seconds, False)
    medium = LEVELS["medium"]  # no count of its own: scaled as with two seats
    assert medium.budget_for("bide", 4) == medium.budget_for("bide", 2) == medium.budget
    # the computer's turn asks the search with its seats' budget
    asked = []
    real = ai.player.search
    monkeypatch.setattr(
        ai.player, "search", lambda game, budget, *rest: asked.append(budget) or real(game, Budget(20), *rest)
    )
    choose_turn(new_game("bide", 4), "hard", seed=0)
    choose_turn(new_game("bide", 2), "hard", seed=0)
    assert [budget.simulations for budget in asked] == [many, hard.per_game["bide"]]


def test_a_positions_share_of_the_simulations_is_its_knowledges(monkeypatch):
    # time by need: Bide's simulation_share gives a search early_share of its simulations while more than
    # late_empty points are empty, late_share after; the search is made with that many
    bide = knowledge_for(new_game("bide"))
    monkeypatch.setattr(type(bide), "early_share", 0.5)
    monkeypatch.setattr(type(bide), "late_share", 1.5)
    early = new_game("bide")
    late = new_game("bide")
    rng = random.Random(2)
    while late.empty_count > bide.late_empty:
        bide.rollout_step(late, rng)
    hard = LEVELS["hard"].budget_for("bide")
    assert scaled_simulations(hard, bide, early) == round(0.5 * hard.simulations)
    assert scaled_simulations(hard, bide, late) == round(1.5 * hard.simulations)
    assert scaled_simulations(Budget(500), bide, late) == round(500 * bide.simulation_scale * 1.5)
    made = []
    monkeypatch.setattr(MCTS, "search", lambda self, game, root=None: made.append(self.simulations))
    search(early, Budget(200), knowledge=bide)
    search(late, Budget(200), knowledge=bide)
    assert made == [50, 150]


def test_a_kept_tree_is_found_after_the_opponents_reply_and_reused():
    trees = TreeCache()
    game = new_game("begird", options={"board": "small"})
    first = search(game, Budget(300), seed=1, trees=trees)
    game.play_turn(first.turn.notation)
    kept = first.subtree
    assert kept is not None and kept.expanded
    # the opponent answers with the turn the kept tree looked at most
    reply = max(range(len(kept.moves)), key=lambda i: kept.n[i])
    game.play_turn(knowledge_for(game).turn_of(kept.state, kept.moves[reply]).notation)
    found = trees.find(game, knowledge_for(game))
    assert found is kept.kids[reply] and found.visits > 0  # what was searched there is kept
    assert trees.find(game, knowledge_for(game)) is None  # taken out: a tree is reused once


def test_the_cache_keeps_only_its_capacity():
    trees = TreeCache(capacity=2)
    for seed in range(4):
        game = new_game("begird", options={"board": "small"})
        game.play_turn(["a1", "e5", "d4", "c3"][seed])
        search(game, Budget(120), seed=seed, trees=trees)
    assert len(trees._trees) == 2


def test_without_reuse_a_seed_gives_the_same_turn_and_with_reuse_the_turns_are_legal():
    TREES.clear()
    game = new_game("begird", options={"board": "small"})
    game.play_turn("e5")
    alone = [choose_turn(game, "hard", seed=3).turn.notation for _ in range(2)]
    assert alone[0] == alone[1]
    played = new_game("begird", options={"board": "small"})
    for k in range(6):
        played.play_turn(choose_turn(played, "medium", seed=k, reuse=True).turn.notation)
    assert played.ply == 6
    TREES.clear()


def test_the_cross_version_arena_plays_paired_games_through_each_trees_own_code(tmp_path):
    # both sides are this tree, one with a setting changed, at a tiny budget: the referee, the sides' processes,
    # the paired openings, the saved lines and the summary
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "arena_versions.py"),
            "begird",
            "--option",
            "board=small",
            "--old",
            str(ROOT),
            "--level",
            "easy",
            "--scale",
            "0.5",
            "--pairs",
            "1",
            "--no-stop",
            "--new-set",
            "ai.knowledge.begird.BegirdKnowledge.settings.rave_weight=0",
            "--out",
            str(tmp_path),
            "--label",
            "smoke",
        ],
        capture_output=True,
        text=True,
        timeout=280,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in (tmp_path / "versions-smoke.jsonl").read_text().splitlines()]
    assert sorted(r["swapped"] for r in lines) == [False, True]  # one opening, both ways round
    assert all(r["new_hash"] == r["old_hash"] and r["search_seconds"]["new"] for r in lines)
    summary = (tmp_path / "versions-smoke.txt").read_text()
    assert "2 games (1 pairs)" in summary and "rave_weight=0" in summary and "load average" in summary


def _with(knowledge, **settings):
    """``knowledge`` with some of its search settings changed (on this instance only)."""
    knowledge.settings = dataclasses.replace(knowledge.settings, **settings)
    return knowledge


def test_a_leaf_expanded_at_its_first_visit_returns_its_expansions_value():
    game = new_game("playbai")
    know = knowledge_for(game)
    assert know.settings.expand_after == 0
    result = MCTS(know, random.Random(5), simulations=1).search(game)
    leaf = result.subtree  # the one child visited: expanded at that visit, its return its expansion's value
    assert leaf is not None and leaf.expanded and leaf.visits == 1 and all(kid is None for kid in leaf.kids)
    value = know.expand(leaf.state, random.Random(0)).value
    assert value is not None and leaf.value == pytest.approx(list(by_player(leaf.state, value)))


def test_expanded_at_its_first_visit_without_a_value_a_leaf_is_played_out_not_searched_to_the_end():
    game = new_game("begird", options={"board": "small"})
    know = _with(knowledge_for(game), expand_after=0, rave_weight=0.0)
    mcts = MCTS(know, random.Random(2), simulations=40)
    mcts.check_every = 10**9  # no early stop
    result = mcts.search(game)
    assert result.simulations == 40
    # the root's expansion, then one new node per simulation: each simulation stops at the leaf it expands
    assert mcts.listed <= 41 * len(game.empties)


def test_a_budget_in_listed_moves_buys_more_simulations_where_fewer_moves_are_listed():
    crowded = new_game("playbai")
    doc = {"pieces": {"e5": 1, "h6": 2}, "ball": "e5", "goals": [0, 0], "to_move": 1}  # one piece a side
    sparse = PlayBai.from_position(2, {}, {**doc, "kickoff": False, "last_goal": None})
    counts = {}
    for name, game in (("crowded", crowded), ("sparse", sparse)):
        mcts = MCTS(_with(knowledge_for(game), simulation_moves=700), random.Random(1), simulations=60)
        mcts.check_every = 10**9  # no early stop: the whole budget is spent
        counts[name] = mcts.search(game).simulations
    assert counts["sparse"] > 3 * counts["crowded"], counts
    off = MCTS(_with(knowledge_for(crowded), simulation_moves=0), random.Random(1), simulations=60)
    off.check_every = 10**9
    assert off.search(crowded).simulations == 60  # off: the budget counts simulations


def test_a_position_reached_again_takes_its_first_listing_only_with_share_expansions():
    # Blue's carrier on a2 runs to Orange's end zone unless Orange stops it: goals by many paths, each
    # leading to the same set-up (Orange to kick off at 0-1), and transpositions of quiet turns
    doc = {
        "pieces": {"a2": 1, "e5": 1, "h3": 1, "b6": 2, "d7": 2, "g4": 2},
        "ball": "a2",
        "goals": [0, 0],
        "to_move": 2,
        "kickoff": False,
        "last_goal": None,
    }
    game = PlayBai.from_position(2, {}, doc)
    seen = {}
    for share in (False, True):
        know = _with(knowledge_for(game), share_expansions=share)
        listed = []
        expand = know.expand
        know.expand = lambda state, rng: listed.append(know.key(state)) or expand(state, rng)  # type: ignore[method-assign]
        mcts = MCTS(know, random.Random(4), simulations=1300)  # in listed-move units (Play Bai: 700)
        mcts.check_every = 10**9  # no early stop: the whole budget is spent
        result = mcts.search(game)
        nodes = []
        stack = [result.subtree]
        while stack:
            node = stack.pop()
            if node is not None and node.expanded:
                nodes.append(node)
                stack.extend(node.kids)
        seen[share] = (result.simulations, listed, nodes)
    sims_off, listed_off, _ = seen[False]
    assert len(listed_off) > len(set(listed_off))  # positions do repeat in this search
    sims_on, listed_on, nodes = seen[True]
    assert len(listed_on) == len(set(listed_on))  # on: each position listed once
    assert sims_on > 2 * sims_off  # and a shared listing costs no listed moves: more simulations
    by_key = {}
    for node in nodes:  # the nodes of one position share its listing, each keeping its own visits
        first = by_key.setdefault(know.key(node.state), node)
        assert node.moves is first.moves and node.prior is first.prior
        assert node.n is first.n or node is first


def test_play_bais_budget_before_and_after_the_first_goal_scales_a_search(monkeypatch):
    import ai.search

    asked = []

    class Recording(MCTS):
        def __init__(self, knowledge, rng, simulations=1000, seconds=None):
            asked.append(simulations)
            super().__init__(knowledge, rng, simulations, seconds)

    monkeypatch.setattr(ai.search, "MCTS", Recording)
    know = knowledge_for(new_game("playbai"))
    monkeypatch.setattr(know, "budget_before_first_goal", 2.0, raising=False)
    monkeypatch.setattr(know, "budget_after_first_goal", 0.5, raising=False)
    doc = {"pieces": {"e5": 1, "h6": 2}, "ball": "e5", "to_move": 1, "kickoff": False}
    for goals, last in (([0, 0], None), ([1, 0], 1), ([0, 0], None)):
        game = PlayBai.from_position(2, {}, {**doc, "goals": goals, "last_goal": last})
        search(game, Budget(40, scaled=False), seed=1, knowledge=know)
    assert asked == [80, 20, 80]  # twice the budget before the first goal, half after it
    monkeypatch.undo()
    assert knowledge_for(new_game("playbai")).simulation_share(new_game("playbai")) == 1.0  # as shipped: off


def test_an_urgent_leaf_is_expanded_at_its_first_visit_only_with_expand_urgent():
    # Blue can step onto Orange's centre (C2) where nothing can bump it off: after such a step Orange must clear
    # its centre at once (an urgent leaf), and cannot, so the step wins
    from games.bump import Bump

    game = Bump.from_position(
        2,
        {},
        {"pieces": {"09": [1, 0], "31": [2, 1], "44": [2, 4], "22": [1, 4], "13": [1, 4]}, "to_move": 1},
    )
    seen = {}
    for urgent in (False, True):
        know = _with(knowledge_for(game), expand_after=4, expand_urgent=urgent)
        mcts = MCTS(know, random.Random(3))
        mcts.players = game.players
        root = mcts._new_node(game.copy())
        mcts._expand(root)
        for _ in range(20):
            mcts._simulate(root)
        kids = [k for k in root.kids if k is not None and know.urgent(k.state)]
        seen[urgent] = (root.solved, [(k.visits, k.expanded) for k in kids])
    solved, kids = seen[False]  # off: each step waits its four visits unexpanded, nothing is proven yet
    assert solved is None and kids and all(not expanded and visits <= 4 for visits, expanded in kids)
    solved, kids = seen[True]  # on: the first step is expanded at its first visit, proven, and proves the root
    assert solved == (1.0, 0.0) and kids == [(1, True)]
    assert not knowledge_for(new_game("begird")).settings.expand_urgent  # off by default elsewhere
