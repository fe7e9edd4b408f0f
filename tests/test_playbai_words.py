"""Play Bai in words: notation and its errors, refusals, action hints, the turn told, the text board and the
suggestions' order."""

from __future__ import annotations

import pytest

from games import new_game
from games.hexgrid import distance
from games.playbaisearch import JUMP, PASS, STEP
from tests.playbai_helpers import FAR, pos, refused

# -- notation and errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    "turn,fragment",
    [
        ("b5-b4", "b5 is not yours"),
        ("c3-c4", "there is no playballer on c3"),
        ("z9-a1", "no row z"),
        ("b2", "is not an action"),
        ("b2^up", "unknown direction"),
        ("e5>b5", "your team does not have the ball"),
        ("b2-b2", "goes nowhere"),
    ],
)
def test_parse_errors_say_why(turn, fragment):
    refused(new_game("playbai"), turn, fragment)


def test_notation_is_case_insensitive_and_split_by_commas_or_spaces():
    a, b = new_game("playbai"), new_game("playbai")
    a.play_turn("E2-E3,  e3-E4")
    b.play_turn("e2-e3 e3-e4")
    assert a.position() == b.position() and a.last_turn_notation == "e2-e3,e3-e4"


def test_canonical_notation_of_each_action():
    g = pos({"e2": 1, "e3": 2, "c3": 1, "i3": 2}, "c3")
    assert g.format_action((STEP, g.board.parse("e2"), g.board.parse("d2"))) == "e2-d2"
    assert g.format_action((JUMP, g.board.parse("e2"), 0)) == "e2^e"
    assert g.format_action((PASS, g.board.parse("c3"), g.board.parse("e2"))) == "c3>e2"
    assert g.parse_action("e2-e4") == (JUMP, g.board.parse("e2"), 0)
    assert g.parse_action("e2^0") == (JUMP, g.board.parse("e2"), 0)


def test_describe_action_hints():
    g = pos({"e2": 1, "e3": 2, "e4": 2, "c3": 1, "i3": 2}, "e3")
    jump = g.parse_action("e2^e")
    assert g.describe_action(jump) == "e2^e — jump 2 to e5, takes the ball"
    assert g.describe_action(g.parse_action("c3-c4")) == "c3-c4 — step to c4"
    h = pos({"e5": 1, "b5": 1, **FAR}, "e5")
    assert h.describe_action(h.parse_action("e5>b5")) == "e5>b5 — pass to b5"


def test_describe_turn_in_words():
    g = pos({"b2": 1, "e6": 1, "c4": 1, "b4": 2, "a4": 2, "e8": 2}, "e6", goals=(1, 1), last_goal=2)
    events = g.play_turn("b2-c2, e6>c4, c4^ne")
    assert g.describe_turn(events, g.last_turn_notation) == "b2-c2, e6>c4, c4^ne (bounced)"
    h = pos({"e6": 1, "c3": 1, "e7": 2, "b4": 2}, "e7", goals=(1, 1), last_goal=2)
    events = h.play_turn("c3-c4, e6^e, e8-e9")
    words = h.describe_turn(events, h.last_turn_notation)
    assert words == "c3-c4, e6^e (took the ball), e8-e9 — GOAL! 2–1", words


# -- words: refusals, hints, the turn told, the text board ------------------------------------


@pytest.mark.parametrize(
    "pieces,ball,turn,message",
    [
        # a jump written by its landing cell that cannot land there
        (
            {"b2": 1, "b6": 1, "e2": 1, "b3": 2, "b4": 2, "b5": 2},
            "e5",
            "b2-b5",
            "b2 cannot reach b5: its jump e bounces back (write b2^e)",
        ),
        ({"e2": 1, "c3": 1, **FAR}, "e5", "e2-e3,e3-e2", "that turn leaves the position unchanged"),
        ({"e2": 1, "c3": 1, **FAR}, "e5", "e2>c3", "your team does not have the ball (it lies loose on e5)"),
        (
            {"e2": 1, "c3": 1, **FAR},
            "i3",
            "e2-e3 e2>c3",
            "your team does not have the ball (it is held by the opponent on i3)",
        ),
        (
            {"e2": 1, "c3": 1, **FAR},
            "e5",
            "e2-e3-e4",
            "'e3-e4' is not a cell name: write a row letter a–i then a number, like e5",
        ),
    ],
)
def test_refusals_say_exactly_why(pieces, ball, turn, message):
    assert refused(pos(pieces, ball), turn, message) == message


def test_hints_tell_a_bounce_a_goal_and_the_winning_goal():
    g = pos({"b3": 1, "e2": 1, "a3": 2, **FAR}, "a3")
    assert g.describe_action(g.parse_action("b3^ne")) == "b3^ne — jump 1, bounces back, takes the ball"
    g = pos({"e8": 1, "c3": 1, "e3": 2, "b4": 2}, "e8", goals=(1, 1), last_goal=2)
    assert g.describe_action(g.parse_action("e8-e9")) == "e8-e9 — step to e9, GOAL"
    g = pos({"e8": 1, "c3": 1, "e3": 2, "b4": 2}, "e8", goals=(2, 1), last_goal=1)
    assert g.describe_action(g.parse_action("e8-e9")) == "e8-e9 — step to e9, wins the game!"


def test_the_turn_told_notes_each_ball_taken_on_its_own_move():
    g = pos({"b3": 1, "e2": 1, "a3": 2, **FAR}, "a3")  # jumping over the carrier at the edge: a bounce
    events = g.play_turn("b3^ne e2-e3")
    assert g.describe_turn(events) == "b3^ne (bounced, took the ball), e2-e3"
    g = pos({"e2": 1, "c3": 1, "e3": 2, **FAR}, "e4")  # landing on the loose ball takes it
    events = g.play_turn("e2^e, c3-c4")
    assert g.describe_turn(events) == "e2^e (took the ball), c3-c4"


def test_text_board_of_the_opening():
    assert new_game("playbai").render_text() == "\n".join(
        [
            "a     : . . . :",
            "b    . x . . o .",
            "c   . . . . . . .",
            "d  . . . . . . . .",
            "e : x . . * . . o :",
            "f  . . . . . . . .",
            "g   . . . . . . .",
            "h    . x . . o .",
            "i     : . . . :",
            "",
            "Goals: Orange 0 – 0 Blue   (set 1)",
            "Orange to move (kick-off: at most 2 moves).",
        ]
    )


def test_suggestions_goals_first_then_taking_the_ball_then_moves_by_progress_then_passes():
    g = pos({"e8": 1, "e7": 1, "g3": 1, "e4": 2, "c6": 2, "h4": 2}, "e8", goals=(1, 1), last_goal=2)
    board = g.board
    targets = [board.cells[i] for i in g.field.zones[1]]  # Blue's end zones, where Orange scores

    def to_score(i):
        return min(distance(board.cells[i], t) for t in targets)

    def key(action):
        kind, src, x = action
        if kind == PASS:
            return (3, to_score(x))
        events = g.copy().apply_action(action)
        dst = board.parse(next(e.dst for e in events if e.kind in ("move", "jump")))
        group = 0 if any(e.kind == "goal" for e in events) else 1 if any(e.kind == "ball" for e in events) else 2
        return (group, to_score(dst) - to_score(src))

    ranked = g.rank_actions(g.legal_actions())
    keys = [key(a) for a in ranked]
    assert keys == sorted(keys)
    assert {k[0] for k in keys} == {0, 2, 3}  # goals, ordinary moves and passes all appear


def test_taking_a_loose_ball_is_suggested_before_moves_that_make_progress():
    g = pos({"e4": 1, "c3": 1, **FAR}, "e3")  # e4-e3 takes the ball, though it steps away from Blue's end
    ranked = [g.format_action(a) for a in g.rank_actions(g.legal_actions())]
    assert ranked[0] == "e4-e3" and ranked.index("e4-e5") > 0


def test_the_kick_off_note_only_at_a_kick_off():
    assert pos({"e4": 1, "c3": 1, **FAR}, "e3").render_text().splitlines()[-1] == "Orange to move."
    assert pos({"e4": 1, "c3": 1, **FAR}, "e3", kickoff=True).render_text().splitlines()[-1] == (
        "Orange to move (kick-off: at most 2 moves)."
    )
