"""Bide's static evaluation (ai/knowledge/bide_eval.py): its counts, its chances, and the fit that made it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from ai.knowledge import bide_eval
from ai.knowledge.bide import BideKnowledge
from games.bide import Bide
from games.registry import new_game
from tests.scripts import load_script
from tests.test_playout_policies import random_bide

ROOT = Path(__file__).resolve().parent.parent


def load_fit():
    return load_script("benchmarks/fit_bide_eval.py")


def positions():
    for players in (2, 4):
        for side in (4, 5):
            for seed in range(8):
                game = random_bide(seed, players, side, 3 + 4 * seed)
                if not game.is_over:
                    yield game


def test_the_counts_agree_with_the_engines_groups():
    for game in positions():
        best, total, count = bide_eval.seat_counts(game)
        assert best == game.group_scores()
        for seat in range(1, game.players + 1):
            mine = [p for p, owner in enumerate(game.cells) if owner == seat]
            assert count[seat - 1] == len(mine)
            assert total[seat - 1] == sum(game.board.edge_distance[p] for p in mine)


def test_the_estimate_is_a_chance_per_seat_and_a_resigned_seat_has_none():
    for game in positions():
        chances = bide_eval.estimate(game)
        assert len(chances) == game.players
        assert all(0.0 <= c <= 1.0 for c in chances) and sum(chances) == pytest.approx(1.0)
    game = Bide.new(4)
    for _ in range(6):
        BideKnowledge().rollout_step(game, random.Random(3))
    game.resign(game.to_move)
    assert not game.is_over
    chances = bide_eval.estimate(game)
    assert [c == 0.0 for c in chances] == game.resigned and sum(chances) == pytest.approx(1.0)


@pytest.mark.parametrize("players", [2, 4])
def test_the_fit_reads_the_position_as_the_estimate_does(players):
    # the weights in bide_eval were pasted from the fit: its design times them is the estimate
    fit = load_fit()
    weights = bide_eval.WEIGHTS_TWO_SEATS if players == 2 else bide_eval.WEIGHTS_MORE_SEATS
    theta = np.array(weights).reshape(-1)
    for game in positions():
        if game.players == players:
            predicted = fit.predict(fit.design(game)[None], theta)[0]
            assert predicted == pytest.approx(bide_eval.estimate(game))


def test_near_the_end_the_estimate_favours_the_recorded_winner():
    # two-seat games between medium computers, four turns before each ended
    path = ROOT / "benchmarks" / "results" / "ai" / "bide-eval-games-2p.jsonl"
    right = total = 0
    for line in path.read_text().splitlines():
        turns = json.loads(line)["turns"]
        game = new_game("bide", 2)
        for turn in turns[:-4]:
            game.play_turn(turn)
        end = game.copy()
        for turn in turns[-4:]:
            end.play_turn(turn)
        if len(end.winners) != 1:
            continue
        total += 1
        right += bide_eval.estimate(game)[end.winners[0] - 1] > 0.5
    assert total >= 20 and right >= 0.75 * total, (right, total)
