"""Differential test: the project's Bide engine against the independent reference.

Random games are played with the reference choosing the turns; every turn is
applied to both implementations and their observable state is compared after
each turn. Random illegal turns are also tried on both: they must be rejected
by both, and leave the engine untouched.

Games are spread over 2-6 players and board sides 4/5/6. The number of games
is ``BIDE_DIFF_GAMES`` (environment variable; default below) and the first
seed ``BIDE_DIFF_SEED`` (default 0), e.g.::

    BIDE_DIFF_GAMES=3000 .venv/bin/python -m pytest tests/test_bide_differential.py -q -x

``BIDE_DIFF_LENIENT_END=1`` ignores ``owed`` in the final position of a finished
game. The reference follows RULES.md literally: the turn that fills the board
settles the mover's own debt ("the debt is settled by that seat's next turn
whatever it held"), and a release cut short by the full board obliges nobody.
"""

from __future__ import annotations

import copy
import math
import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_bide import RefBide

from games import IllegalMove, new_game

DEFAULT_GAMES = 300
GAMES = int(os.environ.get("BIDE_DIFF_GAMES", DEFAULT_GAMES))
FIRST_SEED = int(os.environ.get("BIDE_DIFF_SEED", 0))
LENIENT_END = os.environ.get("BIDE_DIFF_LENIENT_END") == "1"
COMBOS = [(players, side) for side in (4, 5, 6) for players in range(2, 7)]
# Each test case plays a batch of games, so pytest's overhead stays small.
BATCH = 20


def replay_command(players, side, moves):
    return f'python -m games replay bide --players {players} --option side={side} --moves "{"; ".join(moves)}"'


class Mismatch(AssertionError):
    pass


def snapshot(engine):
    over = engine.is_over
    return {
        "position": engine.position(),
        "over": over,
        "winners": tuple(engine.winners),
        "scores": tuple(engine.scores()),
        "legal": set() if over else set(engine.legal_notations()),
    }


def ref_snapshot(ref):
    return {
        "position": ref.position(),
        "over": ref.over,
        "winners": tuple(ref.winners),
        "scores": tuple(ref.scores),
        "legal": ref.legal_turn_starts(),
    }


def compare(ref, engine, players, side, note=""):
    want = ref_snapshot(ref)
    got = snapshot(engine)
    if LENIENT_END and want["over"] and got["over"]:
        want["position"]["owed"] = got["position"]["owed"] = None
    if want != got:
        lines = [
            f"MISMATCH after {len(ref.moves)} turns {note}".rstrip(),
            "replay: " + replay_command(players, side, ref.moves),
        ]
        for key in want:
            if want[key] != got[key]:
                if key == "position":
                    for sub in want[key]:
                        if want[key][sub] != got[key].get(sub):
                            lines.append(f"  position.{sub}: reference={want[key][sub]!r} engine={got[key].get(sub)!r}")
                elif key == "legal":
                    lines.append(
                        f"  legal: only reference={sorted(want[key] - got[key])} "
                        f"only engine={sorted(got[key] - want[key])}"
                    )
                else:
                    lines.append(f"  {key}: reference={want[key]!r} engine={got[key]!r}")
        message = "\n".join(lines)
        print(message)
        raise Mismatch(message)


def illegal_candidates(ref, rng):
    """Turns that are probably illegal now (the reference decides which really are)."""
    seat = ref.current
    hand = ref.hands[seat - 1]
    empty = [ref.name_of[p] for p in ref.empty_points()]
    occupied = [ref.name_of[p] for p in ref.board]
    out = []
    if occupied:
        out.append(rng.choice(occupied))  # an occupied cell
        if hand >= 2:
            cells = [rng.choice(occupied)] + rng.sample(empty, min(hand - 1, len(empty)))
            out.append(",".join(cells))  # a release starting on an occupied cell
    if not ref.can_bide():
        out.append(rng.choice(["bide", "pass"]))  # bide while owing, or with an empty pool
    if hand == 1 and len(empty) >= 2:
        out.append(",".join(rng.sample(empty, 2)))  # a release with one disc in hand
    if len(empty) >= hand + 1:
        out.append(",".join(rng.sample(empty, hand + 1)))  # more cells than discs
    if hand >= 3 and len(empty) >= hand - 1:
        out.append(",".join(rng.sample(empty, rng.randint(2, hand - 1))))  # a partial release
    if hand >= 2 and seat in ref.owed:
        out.append(rng.choice(empty))  # a single play while owing several discs
    out.append(rng.choice(["z9", "a0", "bide,e5", "e5,bide", "", "j99", "e", "5"]))
    if empty:
        out.append(rng.choice(empty).upper())  # legal (case-insensitive) or not: both must agree
    return out


def try_turn(ref, engine, text, players, side):
    """Offer ``text`` to both; they must agree on legality (and on the result when legal).

    The engine itself (not a copy) receives the turn, so a rejected turn must
    leave it exactly as it was. A turn both accept is kept: the game goes on
    from there. Returns True when the turn was rejected.
    """
    before = snapshot(engine)
    ref_ok = engine_ok = True
    ref_error = engine_error = None
    trial_ref = copy.deepcopy(ref)
    try:
        trial_ref.apply_turn(text)
    except ValueError as error:
        ref_ok, ref_error = False, error
    try:
        engine.play_turn(text)
    except IllegalMove as error:
        engine_ok, engine_error = False, error
    if ref_ok != engine_ok:
        message = (
            f"MISMATCH on legality of {text!r} after {len(ref.moves)} turns: "
            f"reference {'accepts' if ref_ok else f'rejects ({ref_error})'}, "
            f"engine {'accepts' if engine_ok else f'rejects ({engine_error})'}\n"
            f"replay: {replay_command(players, side, ref.moves)}"
        )
        print(message)
        raise Mismatch(message)
    if not engine_ok:
        if snapshot(engine) != before:
            message = (
                f"engine changed its state on rejected turn {text!r}\n"
                f"replay: {replay_command(players, side, ref.moves)}"
            )
            print(message)
            raise Mismatch(message)
        return True
    ref.__dict__.update(trial_ref.__dict__)
    compare(ref, engine, players, side, f"(after extra turn {text!r})")
    return False


def play_game(seed):
    rng = random.Random(seed)
    players, side = COMBOS[seed % len(COMBOS)]
    # vary the style of play: some games bide a lot (big hands, long releases)
    p_bide = rng.choice([0.1, 0.35, 0.6, 0.8])
    p_release = rng.choice([0.2, 0.5, 0.9])
    ref = RefBide(players, side)
    engine = new_game("bide", players, {"side": side})
    compare(ref, engine, players, side)
    rejected = 0
    while not ref.over:
        if rng.random() < 0.15:
            for text in illegal_candidates(ref, rng):
                if ref.over:
                    break
                rejected += try_turn(ref, engine, text, players, side)
            if ref.over:
                break
        turn = ref.random_turn(rng, p_bide=p_bide, p_release=p_release)
        ref.apply_turn(turn)
        try:
            engine.play_turn(turn)
        except IllegalMove as error:
            message = (
                f"MISMATCH: engine rejects {turn!r} ({error}) after {len(ref.moves) - 1} turns\n"
                f"replay: {replay_command(players, side, ref.moves[:-1])}"
            )
            print(message)
            raise Mismatch(message) from None
        compare(ref, engine, players, side)
    return len(ref.moves), rejected


@pytest.mark.parametrize("start", range(FIRST_SEED, FIRST_SEED + GAMES, BATCH))
def test_random_games_agree(start):
    for seed in range(start, min(start + BATCH, FIRST_SEED + GAMES)):
        play_game(seed)


def test_reference_geometry_wave_and_scoring():
    """Hand-made checks of the reference itself, straight from RULES.md."""
    ref = RefBide(2, 5)
    assert len(ref.points) == 61 and ref.pools == [31, 32] and ref.hands == [1, 0]
    assert ref.point_of["e5"] == (0, 0) and ref.value[(0, 0)] == 4
    assert ref.point_of["a1"] == (0, -4) and ref.point_of["i5"] == (0, 4) and ref.point_of["e1"] == (-4, 0)
    assert sorted(ref.value.values()).count(0) == 24
    assert [math.ceil(32 * 37 / 61), math.ceil(12 * 91 / 61)] == [RefBide(6, 4).pools[0] + 1, RefBide(6, 6).pools[5]]

    # the wave example "P X . Y Z . W" along row e, P placed on e1
    ref.board = {(-3, 0): 2, (-1, 0): 2, (0, 0): 2, (2, 0): 2}
    ref._place(1, (-4, 0))
    assert ref.board == {(-4, 0): 1, (-2, 0): 2, (0, 0): 2, (1, 0): 2, (3, 0): 2}
    # a line full to the edge does not move
    ref.board = {(q, 0): 2 for q in range(-3, 5)}
    ref._place(1, (-4, 0))
    assert ref.board == {(-4, 0): 1, **{(q, 0): 2 for q in range(-3, 5)}}

    # tie-break: 4 (e5) against four value-1 discs; removing ring 1 decides
    ref.board = {(0, 0): 1, (-3, 0): 2, (-3, 1): 2, (-3, 2): 2, (-3, 3): 2}
    assert ref.scores == (4, 4) and ref._compute_winners() == (1,)
    # still tied when no disc is left: a shared win
    ref.board = {(1, 0): 1, (-1, 0): 2}
    assert ref.scores == (3, 3) and ref._compute_winners() == (1, 2)
    # removing ring 0 splits seat 2's group (joined only through value-0 points)
    group = {(-3, 0): 2, (-4, 1): 2, (-4, 2): 2, (-3, 2): 2}
    ref.board = {(-2, 0): 1, **group}
    assert ref.scores == (2, 2) and ref._compute_winners() == (1,)
    assert ref.scores_of({p: s for p, s in ref.board.items() if ref.value[p] > 0}) == [2, 1]
