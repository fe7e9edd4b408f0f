"""Exhaustive references for the puzzle prover's tests: every turn of both sides tried, nothing pruned.

Written from the rules through the engines' public turns alone (legal actions, ``turn_results``, applying
a turn), never through :mod:`ai.puzzles`, so a prover that prunes a turn it should not is caught. Slow:
only for small positions and short horizons.
"""

from __future__ import annotations

import json
from collections.abc import Hashable

from ai.turns import apply_turn
from games.begird import Begird
from games.bide import Bide
from games.bump import CENTRE, OPPONENT_CENTRE, Bump
from games.interface import AnyGame
from games.playbai import PlayBai
from games.playbaisearch import GOAL


def key(game: AnyGame) -> Hashable:
    return json.dumps(game.position(), sort_keys=True)


# -- Begird: every empty cell, both sides ---------------------------------------------------------------


def _begird_after(game: Begird, cell: int) -> Begird:
    return apply_turn(game.copy(), (cell,))


def begird_turn_wins(game: Begird, cell: int, attacker: int, turns: int) -> bool:
    after = _begird_after(game, cell)
    if after.is_over:
        return after.winners == (attacker,)
    if turns <= 1:
        return False
    for reply in after.empties:
        then = _begird_after(after, reply)
        if then.is_over:
            if then.winners != (attacker,):
                return False
            continue
        if not any(begird_turn_wins(then, c, attacker, turns - 1) for c in then.empties):
            return False
    return True


def begird_shortest(game: Begird, most: int) -> tuple[int, set[int]]:
    """The fewest turns (up to ``most``) within which the mover wins, and every first turn that does."""
    attacker = game.to_move
    assert attacker is not None
    for turns in range(1, most + 1):
        found = {c for c in game.empties if begird_turn_wins(game, c, attacker, turns)}
        if found:
            return turns, found
    return 0, set()


# -- Play Bai: every distinct turn, both sides; the goal is a goal ------------------------------------------


def _scores(result: object) -> bool:
    return result == GOAL or (isinstance(result, tuple) and result[:1] == ("win",))


def playbai_shortest(game: PlayBai) -> tuple[int, set[Hashable]]:
    """1 (and {"goal"}) when the mover scores now; else 2 and every first turn's result after which every
    reply leaves it a goal (and no reply scores for the other side); else (0, set())."""
    attacker = game.to_move
    assert attacker is not None
    base = list(game.goals)
    results = game.turn_results()
    if any(_scores(k) for k in results):
        return 1, {"goal"}
    found: set[Hashable] = set()
    for result, path in results.items():
        after = apply_turn(game.copy(), path)
        if after.is_over:
            continue
        forced = True
        for reply_path in after.turn_results().values():
            then = apply_turn(after.copy(), reply_path)
            if then.is_over or then.goals[2 - attacker] > base[2 - attacker]:
                forced = False
                break
            if not any(_scores(k) for k in then.turn_results()):
                forced = False
                break
        if forced:
            found.add(result)
    return (2, found) if found else (0, set())


def playbai_forces_goal(game: PlayBai, first: tuple[tuple[int, int, int], ...]) -> bool:
    """Whether the mover's turn ``first`` (its actions) leaves every reply a goal for the mover next turn,
    no reply scoring for the other side."""
    attacker = game.to_move
    assert attacker is not None
    after = apply_turn(game.copy(), first)
    if after.is_over or after.goals != game.goals:
        return False
    for reply in after.turn_results().values():
        then = apply_turn(after.copy(), reply)
        if then.is_over or then.goals != game.goals or not any(_scores(k) for k in then.turn_results()):
            return False
    return True


# -- Bump: every legal turn, both sides ------------------------------------------------------------------


def _on_centre(game: Bump, seat: int) -> bool:
    pid = game.board.cells[OPPONENT_CENTRE[seat]]
    return pid >= 0 and game.board.owner[pid] == seat


def bump_takes(game: Bump) -> set[Hashable]:
    """The results of the mover's turns that put a piece on the opponent's centre that every reply leaves
    there (the mover wins when its turn comes back)."""
    seat = game.to_move
    assert seat is not None
    out = set()
    for action in game.legal_actions():
        after = apply_turn(game.copy(), (action,))
        if after.is_over or not _on_centre(after, seat):
            continue
        if all(apply_turn(after.copy(), (reply,)).winners == (seat,) for reply in after.legal_actions()):
            out.add(key(after))
    return out


def bump_saves(game: Bump) -> set[Hashable]:
    """The results of the mover's turns (its centre taken) that survive the turn passing and leave the
    opponent no take."""
    out = set()
    for action in game.legal_actions():
        after = apply_turn(game.copy(), (action,))
        if not after.is_over and not bump_takes(after):
            out.add(key(after))
    return out


def centre_taken(game: Bump) -> bool:
    seat = game.to_move
    assert seat is not None
    pid = game.board.cells[CENTRE[seat]]
    return pid >= 0 and game.board.owner[pid] != seat


# -- Bide: every turn, every reply -------------------------------------------------------------------------


def bide_values(game: Bide) -> dict[Hashable, int]:
    """Each distinct result of the mover's turns: the mover's margin (best group minus the opponent's) after
    the opponent's best reply (two seats; no reply when the game ended or the mover plays again)."""
    seat = game.to_move
    assert seat is not None

    def margin(state: Bide) -> int:
        scores = state.group_scores()
        return scores[seat - 1] - scores[2 - seat]

    out: dict[Hashable, int] = {}
    for after in _bide_results(game):
        if after.is_over or after.to_move == seat:
            out[key(after)] = margin(after)
        else:
            out[key(after)] = min(margin(then) for then in _bide_results(after))
    return out


def _bide_results(game: Bide) -> list[Bide]:
    """Every position a complete turn reaches (a release in every order)."""
    done: dict[Hashable, Bide] = {}
    stack: list[Bide] = [game]
    while stack:
        state = stack.pop()
        for action in state.legal_actions():
            child = state.copy()
            child.apply_action(action)
            if child.is_over or child.can_end_turn():
                finished = child.copy()
                if not finished.is_over:
                    finished.end_turn()
                done.setdefault(key(finished), finished)
            if not child.is_over and child.legal_actions():
                stack.append(child)
    return list(done.values())
