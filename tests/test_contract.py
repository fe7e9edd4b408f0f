"""The engine contract, checked the same way for every registered game.

Every game in ``games.registry.GAMES`` — present and future — must: play
random games to the end (or, for games that can go on for ever, keep legal
positions up to a cap); round-trip its state and position JSON; have a
``copy()`` independent of the original; leave the game untouched when
``play_turn`` refuses; accept every ``legal_notations()`` entry through
``parse_action``; and let ``apply_action`` alone refuse every action that
``parse_action`` refuses (a client that skips parsing cannot corrupt a game).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games import GameError, load_state
from games.interface import Game, GameInfo, IllegalMove
from games.registry import GAMES

ENDING_CAP = 250  # games that always end (Bide, Begird) must end within this many turns
ENDLESS_CAP = 60  # games that can go on for ever (GameInfo.max_turns set) keep legal positions this far
SEEDS = (1, 2)


def configurations() -> Iterator[tuple[str, int, dict[str, Any], int]]:
    """Each game at its fewest and most seats with default options (two seeds), and each non-default option value."""
    for game_id, info in sorted(GAMES.items()):
        seen: set[tuple[int, tuple]] = set()
        for players in sorted({info.min_players, info.max_players}):
            variants: list[dict[str, Any]] = [{}]
            for spec in info.options:
                variants += [{spec.key: value} for value in spec.allowed if value != spec.default]
            for options in variants:
                key = (players, tuple(sorted(options.items())))
                if key not in seen:
                    seen.add(key)
                    for seed in SEEDS if not options else SEEDS[:1]:
                        yield game_id, players, options, seed


CONFIGS = list(configurations())


def _config_id(config: tuple[str, int, dict[str, Any], int]) -> str:
    game_id, players, options, seed = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game_id}-{players}p" + (f"-{extra}" if extra else "") + f"-seed{seed}"


def random_turn(game: Game, rng: random.Random, tries: int = 40) -> tuple[list[str], Game, list[Any]]:
    """A random complete turn from ``game``: its notation, the game after it, and the actions tried.

    The turn is built action by action on a copy; a dead end (no action and
    the turn may not end) restarts the turn.
    """
    for _ in range(tries):
        trial = game.copy()
        notation: list[str] = []
        actions: list[Any] = []
        while True:
            legal = trial.legal_actions()
            if trial.is_over or (trial.can_end_turn() and (not legal or rng.random() < 0.35)):
                if not trial.is_over:
                    trial.end_turn()
                return notation, trial, actions
            if not legal:
                break  # dead end: start the turn again
            action = rng.choice(legal)
            notation.append(trial.format_action(action))
            actions.append(action)
            trial.apply_action(action)
    raise AssertionError(f"no complete turn found from {game.position()}")


def check_round_trips(game: Game) -> None:
    doc = game.to_json()
    again = load_state(doc)
    assert again.to_json() == doc
    assert again.to_move == game.to_move and again.winners == game.winners and again.ply == game.ply
    cls = type(game)
    repositioned = cls.from_position(game.players, game.options, game.position())
    assert repositioned.position() == game.position()


def check_apply_action_refuses_alone(game: Game, pool: list[Any]) -> None:
    """``apply_action`` accepts every listed action and refuses by itself whatever ``parse_action`` refuses.

    A client that skips the parser (a button, the AI, a replay) must not be
    able to play what a typed move could not.
    """
    listed = set(game.legal_actions())
    for action in pool:
        probe = game.copy()
        if action in listed:
            probe.apply_action(action)
            continue
        try:
            probe.parse_action(game.format_action(action))
        except GameError:
            before = probe.position()
            with pytest.raises(IllegalMove):
                probe.apply_action(action)
            assert probe.position() == before


def check_legal_notations_parse(game: Game) -> None:
    """Each listed action's notation parses back to a move with the same effect."""
    for action in game.legal_actions():
        notation = game.format_action(action)
        listed, typed = game.copy(), game.copy()
        listed.apply_action(action)
        typed.apply_action(typed.parse_action(notation))
        assert typed.position() == listed.position(), notation


@pytest.mark.parametrize("config", CONFIGS, ids=_config_id)
def test_random_games_keep_the_contract(config):
    game_id, players, options, seed = config
    info: GameInfo = GAMES[game_id]
    game = info.new(players, options)
    rng = random.Random(f"{game_id}-{players}-{options}-{seed}")
    pool: list[Any] = []
    endless = getattr(info, "max_turns", None) is not None
    for turn_number in range(ENDLESS_CAP if endless else ENDING_CAP):
        if game.is_over:
            break
        check_round_trips(game)
        notation, expected, actions = random_turn(game, rng)
        for action in actions:
            if action not in pool:
                pool.append(action)
        if turn_number % 5 == 0:
            # At the turn's start and after each of its actions (mid-turn states too).
            walker = game.copy()
            for action in [None, *actions]:
                if action is not None:
                    walker.apply_action(action)
                if walker.is_over:
                    break
                check_legal_notations_parse(walker)
                check_apply_action_refuses_alone(walker, pool[-80:])

        # copy() is independent: playing on the copy leaves the original alone.
        before = game.to_json()
        twin = game.copy()
        twin.play_turn(notation)
        assert game.to_json() == before

        # A refused turn changes nothing (the turn with an impossible extra action).
        refused = game.copy()
        with pytest.raises(GameError):
            refused.play_turn(notation + ["zz99"])
        assert refused.to_json() == before

        # The notation written while building the turn replays to the same game.
        game.play_turn(notation)
        if expected.is_over:
            assert game.is_over and game.winners == expected.winners
        else:
            assert game.to_json() == expected.to_json()
    if game.is_over:
        check_round_trips(game)
        assert game.to_move is None
        assert game.legal_actions() == []
        returns = game.returns()
        assert len(returns) == players
        assert abs(sum(returns) - 1.0) < 1e-9  # winners share 1; a draw gives each player 1/n
        with pytest.raises(GameError):
            game.play_turn(notation or ["a1"])
    else:
        # Only games that can go on for ever may reach the cap; the others always end.
        assert endless, f"{game_id} did not end in {ENDING_CAP} turns"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_resignation_contract(game_id):
    info = GAMES[game_id]
    game = info.new(info.min_players)
    with pytest.raises(GameError):
        game.copy().resign(info.max_players + 1)
    with pytest.raises(GameError):
        game.copy().resign(0)
    game.resign(1)
    assert game.is_over == (info.min_players == 2)
    with pytest.raises(GameError):
        game.resign(1)  # twice is refused, never an IndexError or a silent success


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seat", [1, 2])
def test_a_two_player_resignation_is_recorded_for_the_match_log_and_survives_a_reload(game_id, seat):
    """The events stored in the match log say who resigned and why the game ended (pictures and
    the history read them); the winner and the reason survive the state and position forms."""
    info = GAMES[game_id]
    game = info.new(2)
    events = [e.to_json() for e in game.resign(seat)]
    end = {"kind": "end", "data": {"reason": "resignation"}}
    if info.max_players == 2:
        end["seat"] = 3 - seat  # a two-seat game's end names the winner
    assert events == [{"kind": "resign", "seat": seat}, end]
    last_line = game.render_text().splitlines()[-1]  # the text board says how it ended
    assert last_line.endswith(" wins by resignation.") if info.max_players == 2 else "(resignation)" in last_line
    for again in (
        load_state(json.loads(json.dumps(game.to_json()))),
        type(game).from_position(2, game.options, game.position()),
    ):
        assert (again.winners, again.end_reason, again.to_move) == ((3 - seat,), "resignation", None)
        assert again.returns() == tuple(1.0 if s == 3 - seat else 0.0 for s in (1, 2))
        assert again.position() == game.position()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_agreed_draw_ends_the_game_without_a_winner_only_where_draws_exist(game_id):
    info = GAMES[game_id]
    game = info.new(2)
    if not info.allows_draws:
        with pytest.raises(IllegalMove, match="cannot be drawn"):
            game.agree_draw()
        assert not game.is_over
        return
    events = [e.to_json() for e in game.agree_draw()]
    assert events == [{"kind": "end", "data": {"reason": "draw by agreement"}}]
    assert (game.is_over, game.winners, game.to_move, game.end_reason) == (True, (), None, "draw by agreement")
    assert "draw" in game.render_text()
    assert game.legal_actions() == []
    with pytest.raises(IllegalMove, match="the game is over"):
        game.agree_draw()
    again = load_state(json.loads(json.dumps(game.to_json())))
    assert (again.is_over, again.winners, again.end_reason) == (True, (), "draw by agreement")


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize(
    "bad",
    [
        [],
        "board",
        {"board": [1, 2]},
        {"pieces": "x"},
        {"to_move": "x"},
        {"resigned": [9]},
        {"board": {"zz99": 1}},
        {"pieces": {"zz99": 1}},
    ],
)
def test_malformed_positions_raise_state_error_only(game_id, bad):
    cls = GAMES[game_id].game_class
    with contextlib.suppress(GameError):  # StateError (or its GameError base) is the contract; anything else a bug
        cls.from_position(GAMES[game_id].min_players, None, bad)


def test_the_registry_finds_a_game_by_its_name_as_typed_and_passes_options_on():
    from games.registry import get, new_game

    assert get(" Play Bai ") is get("play-bai") is get("PLAYBAI") is GAMES["playbai"]
    with pytest.raises(GameError) as unknown:
        get("chess")
    assert str(unknown.value) == f"unknown game 'chess': choose one of {', '.join(sorted(GAMES))}"
    assert new_game("playbai", 2, {"side": 6}).options["side"] == 6
    with pytest.raises(GameError, match="^unknown game '': choose one of "):
        load_state({"players": 2})  # a state document without its game


def test_an_event_round_trips_through_json_field_by_field():
    from games.interface import Event

    event = Event("bump", seat=2, cell="e5", src="e4", dst="e6", data=(("score", 3),))
    doc = json.loads(json.dumps(event.to_json()))
    assert doc == {"kind": "bump", "seat": 2, "cell": "e5", "src": "e4", "dst": "e6", "data": {"score": 3}}
    assert Event.from_json(doc) == event


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_in_the_middle_of_a_turn_is_not_serialized(game_id):
    game = GAMES[game_id].new(GAMES[game_id].min_players)
    for action in game.legal_actions():
        trial = game.copy()
        trial.apply_action(action)
        if trial.turn_in_progress():
            with pytest.raises(GameError, match="^cannot serialize a game in the middle of a turn$"):
                trial.to_json()
            return
    pytest.skip(f"{game_id}: every first action ends the turn")
