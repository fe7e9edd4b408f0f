"""Play Bai properties (hypothesis) and pinned counts of distinct complete turns.

The reference here walks every action sequence with the engine's own
``apply_action`` (rule by rule, one action at a time) and collects the
distinct positions a turn can end in; the fast layered search in
``games.playbaisearch.search_turns`` shares none of that code and must agree.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import IllegalMove, load_state
from games.playbai import PlayBai
from games.playbaisearch import GOAL, KEY_SHIFT

COUNTS = json.loads((Path(__file__).parent / "data" / "playbai_turn_counts.json").read_text())


def result_key(game: PlayBai):
    """The search's key for the state a finished (or finishable) turn leaves."""
    if game.is_over:
        seat = game.winners[0]
        return ("win", game._mask(seat) | game.ball << KEY_SHIFT)
    if game._scored is not None:
        return GOAL
    return game._key(game.current)


def reference_results(game: PlayBai) -> set:
    """Distinct results of complete turns, by trying every rule-legal action in turn."""
    out: set = set()
    seen: set = set()

    def walk(state: PlayBai) -> None:
        mark = (state._key(state.current), state._moves, state._scored, state.is_over)
        if mark in seen:
            return
        seen.add(mark)
        if state.is_over or state._scored is not None:
            out.add(result_key(state))
            return
        if state.can_end_turn():
            out.add(result_key(state))
        for action in state._raw_actions():
            child = state.copy()
            child.apply_action(action)
            walk(child)

    walk(game.copy())
    return out


def play_random_turn(game: PlayBai, rng: random.Random) -> None:
    """Play a turn chosen uniformly among the distinct complete turns, through its notation."""
    results = game.turn_results()
    actions = results[list(results)[rng.randrange(len(results))]]
    game.play_turn(game.format_turn(actions))


def random_game(seed: int, turns: int, **options) -> PlayBai:
    rng = random.Random(seed)
    game = PlayBai.new(2, options)
    for _ in range(turns):
        if game.is_over:
            break
        play_random_turn(game, rng)
    return game


def check_invariants(game: PlayBai) -> None:
    position = game.position()
    pieces = position["pieces"]
    assert sorted(pieces.values()) == [1, 1, 1, 2, 2, 2]  # pieces conserved
    assert position["ball"] in game.board.names  # exactly one ball, somewhere on the field
    on_dots = [c for c in pieces if game.board.parse(c) in game.field.dots]
    if game.is_over and game.end_reason == "goals":
        # The winning goal ends the game at once: besides the scorer, only its
        # team-mates may stand on their own dots, where they were crossing.
        scorer = game.winners[0]
        zones = game.field.zones[scorer - 1]
        for cell in on_dots:
            i = game.board.parse(cell)
            assert cell == position["ball"] or (pieces[cell] == scorer and i in zones)
    else:
        assert on_dots == []
    if game.kickoff and not game.is_over:
        assert game.carrier() is None and position["ball"] == game.board.names[game.field.centre]


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, turns=st.integers(0, 40), side=st.sampled_from([5, 5, 6]))
def test_search_agrees_with_the_action_by_action_reference(seed, turns, side):
    game = random_game(seed, turns, side=side)
    if game.is_over:
        return
    assert set(game.turn_results()) == reference_results(game)


@settings(max_examples=20, deadline=None)
@given(seed=seeds, turns=st.integers(0, 40), expert=st.booleans())
def test_every_enumerated_turn_replays_through_play_turn(seed, turns, expert):
    game = random_game(seed, turns, expert=expert)
    if game.is_over:
        return
    results = game.turn_results()
    rng = random.Random(seed)
    sample = rng.sample(sorted(results.items(), key=str), min(30, len(results)))
    for key, actions in sample:
        trial = game.copy()
        notation = trial.format_turn(actions)
        before_ply = trial.ply
        if key == GOAL:
            events = trial.play_turn(notation)
            assert any(e.kind == "goal" for e in events) and not trial.is_over and trial.kickoff
        elif isinstance(key, tuple):
            trial.play_turn(notation)
            assert trial.is_over and result_key(trial) == key
        else:
            mover = trial.current
            trial.play_turn(notation)
            assert trial._key(mover) == key
        assert trial.ply == before_ply + 1 and trial.last_turn_notation == notation


@settings(max_examples=10, deadline=None)
@given(seed=seeds, expert=st.booleans(), first=st.sampled_from([1, 2]))
def test_random_games_keep_legal_positions_and_round_trip(seed, expert, first):
    rng = random.Random(seed)
    game = PlayBai.new(2, {"expert": expert, "first": first})
    for _ in range(40):
        if game.is_over:
            break
        play_random_turn(game, rng)
        check_invariants(game)
        again = load_state(json.loads(json.dumps(game.to_json())))
        assert again.position() == game.position() and again.ply == game.ply
        assert again.winners == game.winners and again.to_move == game.to_move
        from_position = PlayBai.from_position(2, game.options, game.position())
        assert from_position.position() == game.position()
    check_invariants(game)


@pytest.mark.parametrize("expert", [False, True])
def test_random_games_that_take_any_goal_on_offer_end_with_a_winner(expert):
    """Uniformly random turns almost never score (a goal is one resulting position
    among hundreds: see benchmarks/bench_playbai.py), so these players take a goal
    whenever one is on offer and otherwise play uniformly. Every game ends."""
    for seed in range(3):
        rng = random.Random(seed)
        game = PlayBai.new(2, {"expert": expert})
        for _ in range(500):
            if game.is_over:
                break
            results = game.turn_results()
            goals = [k for k in results if k == GOAL or isinstance(k, tuple)]
            key = goals[0] if goals else list(results)[rng.randrange(len(results))]
            game.play_turn(game.format_turn(results[key]))
            check_invariants(game)
        assert game.is_over and game.end_reason == "goals" and game.winners == (game.last_goal,)
        if not expert:
            assert max(game.goals) == 3


@settings(max_examples=30, deadline=None)
@given(seed=seeds, turns=st.integers(0, 30))
def test_walking_legal_actions_always_reaches_the_end_of_a_turn(seed, turns):
    game = random_game(seed, turns)
    if game.is_over:
        return
    rng = random.Random(seed)
    for _ in range(20):
        legal = game.legal_actions()
        if game.can_end_turn() and (not legal or rng.random() < 0.4):
            break
        assert legal, "legal_actions led into a turn that can neither go on nor end"
        game.apply_action(rng.choice(legal))
        if game.is_over:
            return
    if not game.can_end_turn():  # passes can go on for ever; a move or two more always finishes
        game.apply_action(game.legal_actions()[0])
    game.end_turn()
    check_invariants(game)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, turns=st.integers(0, 20), tail=st.text(alphabet="abcdehi12345-^>, esw", max_size=12))
def test_an_illegal_partial_turn_changes_nothing(seed, turns, tail):
    game = random_game(seed, turns)
    if game.is_over:
        return
    rng = random.Random(seed)
    notation = rng.choice(sorted(game.complete_turns()))
    before = game.to_json()
    for text in (notation + " " + tail, notation.split(",")[0] + ",zz9", tail):
        trial = game.copy()
        try:
            trial.play_turn(text)
        except IllegalMove as error:
            assert str(error)
            assert trial.to_json() == before and not trial.turn_in_progress()
    assert game.to_json() == before


def division(game: PlayBai) -> str:
    """The count under each first action (perft's "divide"), to find a disagreement fast."""
    lines = []
    for action in game._raw_actions():
        child = game.copy()
        child.apply_action(action)
        lines.append(f"{game.format_action(action)}: {len(child.turn_results())}")
    return "\n".join(lines)


@pytest.mark.parametrize("case", COUNTS, ids=[c["description"][:40] for c in COUNTS])
def test_pinned_counts_of_distinct_complete_turns(case):
    game = PlayBai.from_position(2, case["options"], case["position"])
    found = len(game.turn_results())
    assert found == case["turns"], f"{case['description']}: {found} != {case['turns']}\n{division(game)}"
    assert found == len(reference_results(game))


@settings(max_examples=25, deadline=None)
@given(seed=seeds, turns=st.integers(0, 30), cut=st.sampled_from([0, 1, 1, 2]))
def test_every_autocomplete_value_is_a_turn_the_engine_accepts(seed, turns, cut):
    from bot.chat.words.moves import move_choices
    from bot.service.suggestions import suggest_moves

    game = random_game(seed, turns)
    if game.is_over:
        return
    rng = random.Random(seed)
    results = game.turn_results()
    actions = results[list(results)[rng.randrange(len(results))]]
    prefix: list[str] = []
    trial = game.copy()
    for action in actions[:cut]:
        prefix.append(trial.format_action(action))
        trial.apply_action(action)
    typed = ",".join(prefix) + ("," if prefix else "")
    choices = move_choices(suggest_moves(game, typed))
    assert 1 <= len(choices) <= 25
    for label, value in choices:
        if label.startswith(("✗", "No legal move")):
            continue
        assert value.startswith(",".join(prefix))
        game.copy().play_turn(value)  # raises if the engine refuses the offered turn
    ends = [label for label, _ in choices if "end the turn here" in label]
    assert bool(ends) == (bool(prefix) and trial.can_end_turn())
