"""Bump's turns and actions in words (the chain, choices, the guard call, a win), previews, and the
suggestions' order (autocomplete, the turn builder)."""

from __future__ import annotations

from games.bump import NAMES, PASS, Bump
from games.bumprules import _too_many_choices
from games.interface import Event
from tests.bump_helpers import choice_game, game, kinds

# -- words -----------------------------------------------------------------------------------


def test_too_many_choices_counts_in_words():
    """Each branch of the wording (one choice or many, one entry or many); here, with Bump's words, so that
    make mutation runs it on games/bumprules.py."""
    said = [str(_too_many_choices(count, extra)) for count, extra in ((1, 1), (1, 2), (0, 1), (2, 3))]
    assert said == [
        "this move has 1 choice; remove the last 1 entry",
        "this move has 1 choice; remove the last 2 entries",
        "this move has 0 choices; remove the last 1 entry",
        "this move has 2 choices; remove the last 3 entries",
    ]


def test_describe_turn_tells_the_chain_and_the_captures():
    g = game({"02": [1, 1], "03": [2, 0], "05": [2, 1], "06": [2, 0], "031": [2, 5], "39": [2, 0]})
    events = g.play_turn("02-0")
    assert g.describe_turn(events) == (
        "bumps 03 to 04, which bumps 05 (captured against a piece), then 031 bumps 04 (captured against the wall)"
    )
    # the stored log ties each capture to the bump that made it (same number)
    numbered = [(e.kind, e.src or e.cell, dict(e.data)["number"]) for e in events if e.kind in ("bump", "capture")]
    assert numbered == [
        ("bump", "03", 1),
        ("bump", "05", 2),
        ("capture", "05", 2),
        ("bump", "04", 3),
        ("capture", "04", 3),
    ]


def test_describe_turn_names_choices_and_the_guard_call():
    g = choice_game()
    events = g.play_turn("04,03 (513)")
    assert g.describe_turn(events) == "021 bumps 03 to 513 (chosen: 513, rather than 04)"


def test_describe_action_for_suggestions():
    g = choice_game()
    hints = {g.format_action(a): g.describe_action(a) for a in g.legal_actions()}
    assert hints["04,03 (04)"] == "04,03 (04) — bumps 1, choosing 03 to 04"
    assert hints["04,03 (513)"] == "04,03 (513) — bumps 1, choosing 03 to 513"
    quiet = [h for n, h in hints.items() if n.startswith("04,05")]
    assert quiet and all(h.endswith("no bumps") for h in quiet)
    capture = game({"02": [1, 1], "03": [2, 0], "05": [2, 1], "06": [2, 0], "031": [2, 5], "39": [2, 0]})
    hints = {capture.format_action(a): capture.describe_action(a) for a in capture.legal_actions()}
    assert hints["02-0"] == "02-0 — bumps 3, captures 2 of theirs"
    assert hints["pass"] == "pass — move nothing"


def test_the_turn_told_for_a_reinforcement_a_guard_call_a_win_and_a_centre_capture():
    g = Bump.new(options={"reserve1": 2})
    g.play_turn("01,03")
    g.play_turn("pass")
    events = g.play_turn("R,01")
    assert g.describe_turn(events, g.last_turn_notation) == "R,01-0 — brings on a reserve piece"
    g = game({"08": [1, 0], "39": [2, 0]})
    events = g.play_turn("08,C2")
    assert g.describe_turn(events, g.last_turn_notation) == "08,C2 — bumps 39 to 38. Guard your center!"
    after = g.copy()
    events = g.play_turn("pass")
    assert g.describe_turn(events, "pass") == "pass — Blue stands on C2 and wins."
    events = after.play_turn("38-1")  # a move that leaves the centre taken: its words, then the win, two sentences
    assert after.describe_turn(events, after.last_turn_notation) == "38-1 — no bumps. Blue stands on C2 and wins."
    g = game({"01": [1, 2], "02": [1, 5], "39": [2, 0]})
    assert g.describe_turn(g.play_turn("02-3")) == "bumps 01 (captured on centre C1)"


def test_the_turn_told_names_every_option_not_chosen():
    g = game({"02": [2, 0], "021": [2, 5], "031": [2, 4], "04": [1, 4], "39": [2, 0]})
    events = g.play_turn("04,03 (513)")
    assert g.describe_turn(events, g.last_turn_notation) == (
        "04,03 (513) — 021 bumps 03 to 513 (chosen: 513, rather than 04 or 512)"
    )


# -- previews and suggestions ------------------------------------------------------------------


def test_autocomplete_lists_a_pieces_moves_first_and_reads_loose_spacing():
    from bot.chat.words.moves import move_choices
    from bot.service.suggestions import suggest_moves

    g = game({"03": [1, 0], "031": [1, 0], "39": [2, 0]})
    values = [v for _, v in move_choices(suggest_moves(g, "03"))]
    assert len(values) == 25 and all(v[2] in ",-" for v in values)  # 03's own moves, not 031's
    assert any(v.startswith("031") for _, v in move_choices(suggest_moves(g, "031")))
    assert "03,04" in [v for _, v in move_choices(suggest_moves(g, "03 , 04"))]
    assert "there is no piece on 05" in move_choices(suggest_moves(g, "05"))[0][0]


def test_a_preview_shows_the_events_the_move_will_cause():
    g = choice_game()
    for action in g.legal_actions():
        played = g.copy().apply_action(action)
        assert g.outcome(action).events == played, g.format_action(action)
        assert g.outcome(action).events == played  # asked again: the same, from the cache
    assert g.outcome(PASS).events == [Event("pass", seat=1)]


def test_autocomplete_offers_real_moves_first_and_pass_last():
    """Issue 37: ``pass — move nothing`` came first, so Tab (the first choice) passed. Every choice offered
    before anything is typed is a real move (a piece always has more than 25: pass, ranked last, is not
    among them); typing "p" offers pass."""
    from bot.chat.words.moves import move_choices
    from bot.service.suggestions import suggest_moves

    for position in (Bump.new(), game({"44": [1, 4], "39": [2, 0]})):
        values = [v for _, v in move_choices(suggest_moves(position, ""))]
        assert len(values) == 25 and all(v.split(",")[0].split("-")[0] in NAMES for v in values), values
        assert position.rank_actions(position.legal_actions())[-1] == PASS
    assert [v for _, v in move_choices(suggest_moves(Bump.new(), "p"))] == ["pass"]


def test_suggestions_bumping_moves_by_centre_and_gain_then_quiet_moves_then_reinforcements_then_pass():
    g = game(
        {"02": [1, 1], "03": [2, 0], "05": [2, 1], "06": [2, 0], "031": [2, 5], "39": [2, 0]},
        options={"reserve1": 1},
        reserves=[1, 0],
    )
    bumping, quiet, reinforcements = [], [], []
    for action in g.legal_actions():
        if action == PASS:
            continue
        trial = g.copy()
        events = trial.apply_action(action)
        if action[0] == "reinforce":
            reinforcements.append(action)
        elif kinds(events, "bump"):
            gain = (trial.captured[1] - g.captured[1]) - (trial.captured[0] - g.captured[0])
            bumping.append(((-trial.occupies_opponent_centre(1), -gain, *action[1:]), action))
        else:
            quiet.append(action)
    assert {key[1] for key, _ in bumping} == {-2, -1, 0, 1}  # bumps that win, lose or trade material
    assert reinforcements
    expected = [a for _, a in sorted(bumping)] + sorted(quiet, key=lambda a: a[1:4]) + sorted(reinforcements) + [PASS]
    assert g.rank_actions(g.legal_actions()) == expected
