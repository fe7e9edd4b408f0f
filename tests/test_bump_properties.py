"""Bump invariants (hypothesis) and pinned counts of legal turns.

* pieces on the board + captured = 12 + reserves brought on, for each side;
* no two pieces on one space (the board's index and the pieces agree);
* every enumerated turn replays from its notation to the same result;
* the state and the position forms round-trip through JSON;
* resolution terminates, even on crowded random boards.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bump import NAMES, NEIGHBOURS, OPPOSITE, PASS, START, Bump
from games.bumpwords import turn_notation

COUNTS = json.loads((Path(__file__).parent / "data" / "bump_turn_counts.json").read_text())
seeds = st.integers(min_value=0, max_value=2**32 - 1)
reserves = st.integers(min_value=0, max_value=3)


def random_game(seed: int, plies: int, reserve1: int = 0, reserve2: int = 0) -> Bump:
    """A game after ``plies`` random turns (fewer if it ends), preferring turns that bump."""
    rng = random.Random(seed)
    game = Bump.new(options={"reserve1": reserve1, "reserve2": reserve2})
    for _ in range(plies):
        if game.is_over:
            break
        actions = game.legal_actions()
        outcomes = game._enumerate()["outcomes"]
        busy = [a for a in actions if outcomes.get(a) is not None]
        pick = rng.choice(busy if busy and rng.random() < 0.5 else actions)
        game.play_turn(game.format_action(pick))
    return game


def check_invariants(game: Bump) -> None:
    b = game.board
    for seat in (1, 2):
        assert game.on_board(seat) + game.captured[seat - 1] == 12 + game.reserves_used(seat)
    placed = [p for p in b.cells if p >= 0]
    assert len(placed) == len(set(placed))
    for space, pid in enumerate(b.cells):
        if pid >= 0:
            assert b.where[pid] == space
    assert sum(w >= 0 for w in b.where) == len(placed)
    # stable: no bumper faces a blind side once a turn is over
    for space, pid in enumerate(b.cells):
        if pid >= 0:
            front = NEIGHBOURS[space][b.facing[pid]]
            if front >= 0 and b.cells[front] >= 0:
                assert b.facing[b.cells[front]] == OPPOSITE[b.facing[pid]], NAMES[space]


@settings(max_examples=40, deadline=None)
@given(seed=seeds, plies=st.integers(0, 40), r1=reserves, r2=reserves)
def test_random_games_keep_the_invariants_and_round_trip(seed, plies, r1, r2):
    game = random_game(seed, plies, r1, r2)
    check_invariants(game)
    doc = json.loads(json.dumps(game.to_json()))
    again = Bump.from_json(doc)
    assert again.to_json() == doc
    assert again.position() == game.position()
    if not game.is_over:
        assert (
            Bump.from_position(2, game.options, json.loads(json.dumps(game.position()))).position() == game.position()
        )
        assert again.legal_notations() == game.legal_notations()


@settings(max_examples=15, deadline=None)
@given(seed=seeds, plies=st.integers(0, 30))
def test_every_enumerated_turn_replays_from_its_notation(seed, plies):
    game = random_game(seed, plies, 1, 1)
    if game.is_over:
        return
    rng = random.Random(seed)
    actions = game.legal_actions()
    for action in rng.sample(actions, min(60, len(actions))):
        direct = game.copy()
        direct_events = direct.apply_action(action)
        direct.end_turn() if not direct.is_over else None
        notation = game.format_action(action)
        replayed = game.copy()
        events = replayed.play_turn(notation)
        assert replayed.position() == direct.position(), notation
        assert replayed.last_turn_notation == notation
        assert turn_notation(events) == notation  # pictures rebuild it from stored events
        assert isinstance(replayed.describe_turn(events), str)
        assert [e for e in events if e.kind not in ("guard", "end")] == direct_events
        check_invariants(replayed)
    assert len(set(game.legal_notations())) == len(actions)  # distinct notation per turn


def crowded_position(seed: int) -> dict:
    """A random stable board with many pieces (placed one by one, keeping it stable)."""
    rng = random.Random(seed)
    spaces = [s for s in range(len(NAMES)) if NAMES[s] not in ("C1", "C2")]
    rng.shuffle(spaces)
    pieces: dict[str, list[int]] = {}
    game = Bump.from_position(2, None, {"pieces": {}, "to_move": 1})
    counts = {1: 0, 2: 0}
    for space in spaces:
        if counts[1] == 12 and counts[2] == 12:
            break
        seat = rng.choice([s for s in (1, 2) if counts[s] < 12])
        for facing in rng.sample(range(6), 6):
            if not game._would_bump(-1, space, facing, seat):
                game.board.add(space, seat, facing)
                pieces[NAMES[space]] = [seat, facing]
                counts[seat] += 1
                break
    return {"pieces": pieces, "to_move": 1, "captured": [12 - counts[1], 12 - counts[2]]}


@settings(max_examples=12, deadline=None)
@given(seed=seeds)
def test_resolution_terminates_on_crowded_boards(seed):
    game = Bump.from_position(2, None, crowded_position(seed))
    if game.is_over:
        return
    for action in game.legal_actions():
        trial = game.copy()
        trial.apply_action(action)
        check_invariants(trial)


def test_pinned_turn_counts():
    """Distinct legal turns (pass, every move with each choice variant, reinforcements)."""
    for case in COUNTS:
        options = case.get("options")
        game = Bump.from_position(2, options, case["position"]) if "position" in case else Bump.new(options=options)
        actions = game.legal_actions()
        if len(actions) != case["turns"]:
            by_piece = Counter("pass" if a == PASS else NAMES[a[1]] for a in actions)
            detail = ", ".join(f"{k}: {v}" for k, v in sorted(by_piece.items()))
            raise AssertionError(f"{case['name']}: {len(actions)} turns, pinned {case['turns']} ({detail})")


def test_opening_reinforcement_spaces_are_the_set_up():
    game = Bump.new(options={"reserve1": 1})
    game.play_turn("01,03")
    game.play_turn("pass")
    notes = [n for n in game.legal_notations() if n.startswith("R,")]
    assert notes and {n.split(",")[1].split("-")[0] for n in notes} == {"01"}
    assert {NAMES[s] for s in START[1]} >= {"01"}


def test_golden_game_replays_to_the_stored_state():
    """A seeded 120-turn game (reserves, captures, a choice, 81 stasis records), pinned whole:
    any change to the rules' outcome shows up here first."""
    doc = json.loads((Path(__file__).parent / "data" / "bump_golden.json").read_text())
    game = Bump.new(options=doc["options"])
    for number, turn in enumerate(doc["turns"], start=1):
        game.play_turn(turn)
        assert game.last_turn_notation == turn, number
    assert game.to_json() == doc["final"]
