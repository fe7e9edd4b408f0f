"""The quiet path (``apply_quiet``/``end_turn_quiet``, games/interface.py) is the same game as the full one.

Random games are played twice in step, one copy through ``apply_action``/``end_turn`` and the other through
the quiet twins, for every registered game: after every action the two must agree on everything the
contract shows (position, whose turn, the turn in progress, the result, the state document at turn ends,
the notation of the action just applied), and an action that is refused must be refused by both with the
same reason and nothing changed. Refused candidates come from earlier positions' legal lists, which are
mostly illegal later (an occupied point, a piece that moved, a turn already complete).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bide import BIDE, Bide
from games.interface import AnyGame, IllegalMove
from games.registry import new_game

seeds = st.integers(min_value=0, max_value=2**32 - 1)

SETUPS = [
    ("bide", 2, {}),
    ("bide", 4, {"side": 4}),
    ("begird", 2, {}),
    ("playbai", 2, {}),
    ("playbai", 2, {"expert": True}),
    ("bump", 2, {}),
    ("bump", 2, {"reserve1": 2, "reserve2": 1}),
]


def snapshot(game: AnyGame) -> dict[str, Any]:
    """Everything the contract shows about a game, mid-turn included."""
    out: dict[str, Any] = {
        "position": game.position(),
        "to_move": game.to_move,
        "over": game.is_over,
        "winners": game.winners,
        "ply": game.ply,
        "turn": game.turn_actions,
        "can_end": game.can_end_turn(),
    }
    if game.turn_actions:
        out["last"] = game.format_action(game.turn_actions[-1])
    else:
        out["state"] = game.to_json()
    return out


def outcome(step: Any) -> tuple[str, str]:
    """What a step did: ``("ok", "")`` or the refusal's class and reason."""
    try:
        step()
    except IllegalMove as error:
        return (type(error).__name__, str(error))
    return ("ok", "")


def play_in_step(game_id: str, players: int, options: dict[str, Any], seed: int, actions: int) -> int:
    """Play ``actions`` random steps on a full and a quiet copy; return how many refusals were compared."""
    rng = random.Random(seed)
    full = new_game(game_id, players, options)
    quiet = full.copy()
    earlier: list[Any] = []
    refusals = 0
    for _ in range(actions):
        if full.is_over:
            break
        legal = full.legal_actions()
        assert quiet.legal_actions() == legal
        if earlier and rng.random() < 0.2:
            stale = rng.choice(earlier)  # mostly refused now: both must say the same, and change nothing
            before = snapshot(full)
            said = outcome(lambda: full.apply_action(stale))
            assert outcome(lambda: quiet.apply_quiet(stale)) == said
            refusals += said[0] != "ok"
            if said[0] != "ok":
                assert snapshot(full) == before
        elif full.can_end_turn() and (not legal or rng.random() < 0.4):
            full.end_turn()
            quiet.end_turn_quiet()
        elif not legal:
            break  # a stale action Play Bai's movement rules accepted left a turn that cannot end
        else:
            action = rng.choice(legal)
            earlier.extend(rng.sample(legal, min(3, len(legal))))
            full.apply_action(action)
            quiet.apply_quiet(action)
        assert snapshot(quiet) == snapshot(full)
    if not full.is_over and not full.turn_actions:
        # Ending a turn that has not started is refused the same way by both.
        assert outcome(quiet.end_turn_quiet) == outcome(full.end_turn) != ("ok", "")
    return refusals


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS, ids=lambda v: str(v))
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=seeds)
def test_the_quiet_path_reaches_the_same_positions_and_refusals(
    game_id: str, players: int, options: dict[str, Any], seed: int
) -> None:
    play_in_step(game_id, players, options, seed, actions=160)


def test_refusals_are_compared_in_every_game() -> None:
    # The check above is only worth something if stale actions really are refused along the way.
    for game_id, players, options in SETUPS:
        assert sum(play_in_step(game_id, players, options, seed, actions=160) for seed in range(4)) > 0, game_id


def test_a_quiet_game_plays_to_the_same_end() -> None:
    # Whole games, so the endings (a full board, a centre held, the third goal) are reached both ways.
    for game_id, players, options in SETUPS:
        rng = random.Random(7)
        full = new_game(game_id, players, options)
        quiet = full.copy()
        while not full.is_over and full.ply < 300:
            legal = full.legal_actions()
            if full.can_end_turn() and (not legal or rng.random() < 0.5):
                full.end_turn()
                quiet.end_turn_quiet()
            else:
                action = rng.choice(legal)
                full.apply_action(action)
                quiet.apply_quiet(action)
        assert snapshot(quiet) == snapshot(full), game_id
        if game_id in ("bide", "begird"):
            assert full.is_over, game_id  # these always end: the comparison above covered an ending


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=seeds, players=st.integers(min_value=2, max_value=6))
def test_bide_place_quiet_names_every_point_it_changed(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = Bide.new(players, {"side": 4})
    while not game.is_over:
        legal = game.legal_actions()
        if game.can_end_turn() and (not legal or rng.random() < 0.5):
            game.end_turn_quiet()
            continue
        action = rng.choice(legal)
        before = game.cells[:]
        changed = game.place_quiet(action)
        differ = {p for p, (a, b) in enumerate(zip(before, game.cells, strict=True)) if a != b}
        assert differ <= set(changed)
        if action == BIDE:
            assert changed == []
        else:
            assert changed[0] == action
            # only the point and lines of pushed discs: each listed point holds a disc or was emptied by a push
            assert all(game.cells[p] or before[p] for p in changed)
