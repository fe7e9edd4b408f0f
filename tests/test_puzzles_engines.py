"""The engines' small helpers the puzzle prover asks (games/playbai.py, games/bump.py): each the same as the
engine's full answer, on seeded random games."""

from __future__ import annotations

import random

from ai.turns import apply_turn, random_actions
from games.bump import OPPONENT_CENTRE, Bump
from games.playbai import PlayBai
from games.playbaisearch import GOAL


def is_goal(result: object) -> bool:
    return result == GOAL or (isinstance(result, tuple) and result[:1] == ("win",))


def test_scoring_turn_is_what_the_whole_enumeration_says_of_goals():
    rng = random.Random(21)
    goals = 0
    for _ in range(12):
        game = PlayBai.new(2, {"side": rng.choice((5, 6)), "expert": rng.random() < 0.3})
        while not game.is_over and game.ply < 50:
            results = game.turn_results()
            found = game.scoring_turn()
            scoring = [path for key, path in results.items() if is_goal(key)]
            assert (found is not None) == bool(scoring), game.position()
            if found is not None:
                goals += 1
                seat = game.to_move
                after = apply_turn(game.copy(), found)
                assert after.goals[seat - 1] == game.goals[seat - 1] + 1
                moves = sum(1 for action in found if action[0] != 2)  # the fewest moves, as the enumeration's
                assert moves == sum(1 for action in scoring[0] if action[0] != 2)
            apply_turn(game, random_actions(game, rng))
    assert goals >= 20


def test_scoring_turn_of_a_finished_game_is_none():
    game = PlayBai.new(2, {})
    game.resign(1)
    assert game.scoring_turn() is None


def test_centre_takers_and_bumping_turns_are_what_playing_each_turn_shows():
    rng = random.Random(8)
    takers_seen = bumps_seen = 0
    for _ in range(3):
        game = Bump.new(2, {})
        for ply in range(160):
            if game.is_over:
                break
            if ply % 8 == 7:
                seat = game.to_move
                mine = game.board.cells
                before = {s: (p, game.board.owner[p], game.board.facing[p]) for s, p in enumerate(mine) if p >= 0}
                takers, bumping = set(game.centre_takers()), set(game.bumping_turns())
                for action in game.legal_actions():
                    after = game.copy()
                    after.apply_quiet(action)
                    pid = after.board.cells[OPPONENT_CENTRE[seat]]
                    assert (action in takers) == (pid >= 0 and after.board.owner[pid] == seat), action
                    board = after.board
                    now = {s: (p, board.owner[p], board.facing[p]) for s, p in enumerate(board.cells) if p >= 0}
                    moved = {s for s in before if now.get(s) != before[s]}
                    named = {action[1]} if action[0] == "move" else set()
                    if action not in bumping:  # only the piece named moved
                        assert moved <= named, action
                takers_seen += len(takers)
                bumps_seen += len(bumping)
            apply_turn(game, (game.random_action(rng),))
    assert takers_seen and bumps_seen
