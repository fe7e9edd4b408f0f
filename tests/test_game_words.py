"""The games' words for players: the engines' reasons as templates, turns worded through ``say``, and every
string of the games' data collected for the catalogs (tools/translations.py, said by bot/chat/game_words.py)."""

from __future__ import annotations

import copy
import pickle

import pytest

from bot.chat.words.shared import engine_words
from games import Event, IllegalMove, new_game
from games.bump import Bump
from games.registry import GAMES
from tools import translations

COLLECTED = translations.collected()


@pytest.mark.parametrize("info", list(GAMES.values()), ids=lambda info: info.id)
def test_every_string_of_a_games_info_is_collected_for_the_catalogs(info):
    said = [*info.seat_names, info.summary, *(spec.description for spec in info.options)]
    said += [quick.label for quick in info.quick_actions]
    collected = {message.id for message in COLLECTED}
    assert [text[:60] for text in said if text not in collected] == []


def test_an_illegal_move_keeps_its_template_and_fields():
    game = new_game("begird")
    game.play_turn("e5")
    with pytest.raises(IllegalMove) as caught:
        game.play_turn("E5")
    error = caught.value
    assert error.template == "{cell} is occupied by a {colour} stone"
    assert error.fields == {"cell": "e5", "colour": "Black"}
    assert str(error) == "e5 is occupied by a Black stone"
    for twin in (copy.deepcopy(error), pickle.loads(pickle.dumps(error))):  # process pools, copies
        assert (type(twin), twin.template, twin.fields, str(twin)) == (
            IllegalMove,
            error.template,
            error.fields,
            str(error),
        )
    braces = IllegalMove("not a Bump action: {action!r}", action={"a": 1})
    assert str(braces) == "not a Bump action: {'a': 1}" and pickle.loads(pickle.dumps(braces)).fields == {
        "action": {"a": 1}
    }
    assert engine_words(error) == str(error)  # a refusal carries the error; the one function that words it


def shouting(template, /, **fields):
    return "<" + template.upper() + ">" + repr(sorted(fields.items()))


def test_turns_and_actions_are_worded_by_the_say_they_are_handed():
    playbai = new_game("playbai")
    goal = [Event("move", seat=1, src="b2", dst="c2"), Event("goal", seat=1, data=(("score", (1, 0)), ("wins", False)))]
    assert playbai.describe_turn(goal, "b2-c2") == "b2-c2 — GOAL! 1–0"
    assert (
        playbai.describe_turn(goal, "b2-c2", say=shouting)
        == "<{TURN} — GOAL! {SCORE}>[('score', '1–0'), ('turn', 'b2-c2')]"
    )
    bump = new_game("bump")
    guard = [Event("guard", seat=1, cell="C2")]
    assert bump.describe_turn(guard, "03,05") == "03,05 — Guard your center!"
    assert bump.describe_turn(guard, "03,05", say=shouting) == "03,05 — <GUARD YOUR CENTER!>[]"
    assert bump.describe_action(("pass",), say=shouting) == "<{ACTION} — MOVE NOTHING>[('action', 'pass')]"
    bide = new_game("bide", 2)
    assert bide.describe_action(-1) == "bide — keep your 1 disc in hand"
    assert bide.describe_action(-1, say=shouting) == "<BIDE — KEEP YOUR {COUNT} DISC IN HAND>[('count', 1)]"


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("03,04-3", "03,04-3 needs 1 shift and 3 points of turning (from 0 to 3): 4 is more than 3"),
        ("03,06-1", "03,06-1 needs 3 shifts and 1 point of turning (from 0 to 1): 4 is more than 3"),
        ("03,05-2", "03,05-2 needs 2 shifts and 2 points of turning (from 0 to 2): 4 is more than 3"),
    ],
)
def test_a_bump_move_too_long_counts_its_shifts_and_points_in_words(move, reason):
    bump = Bump.from_position(2, None, {"pieces": {"03": [1, 0], "39": [2, 0]}, "to_move": 1})
    with pytest.raises(IllegalMove) as caught:
        bump.play_turn(move)
    assert str(caught.value) == reason


def extracted_from_games() -> set[str]:
    """The sentences the catalog tool reads in games/ (tools/translations.py's keywords)."""
    from babel.messages.extract import extract_from_dir

    from tools.translations import KEYWORDS, ROOT

    found = extract_from_dir(ROOT / "games", method_map=[("**.py", "python")], keywords=KEYWORDS)
    return {message for _, _, message, _, _ in found if isinstance(message, str)}


def test_every_reason_an_engine_gives_is_a_sentence_the_catalogs_collect():
    """A reason built at run time (an f-string, a variable) would reach French players in English."""
    collected = extracted_from_games()
    tried = {
        "bide": ["e5", "e5", "z9", "e55", "", "bide", "e5,d4", "pass,e5", "x1"],
        "begird": ["e5", "e5", "swap", "q1", "a99", "e6,e7", "pie"],
        "playbai": ["e2-e1", "b2-c9", "e5>b5", "hello", "e2^north", "e2-e2", "e2-h2", "a1-a2", "e2-e3,e3-e4,e4-e5"],
        "bump": [
            "99",
            "03,05-4",
            "R",
            "c3",
            "R,01",
            "R,01-9",
            "03,04 (06)",
            "pass (04)",
            "0",
            "0123",
            "035",
            "(",
            "09,39-1",
        ],
    }
    reasons = set()
    for game_id, turns in tried.items():
        game = new_game(game_id)
        for turn in turns:
            try:
                game.play_turn(turn)
            except IllegalMove as error:
                reasons.add(error.template)
    assert len(reasons) >= 20
    assert reasons <= collected, sorted(reasons - collected)
