"""Boards in words: a picture's description (alt text) and /board text, for each game.

Known positions say what a reader hears; random positions (hypothesis) across the four games
hold the limits: a description is never over Discord's 1,024 characters, a /board text message
never over 2,000, every piece is named, and nothing raises.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.chat.words import boards
from bot.chat.words.markup import fit_words
from bot.domain.model import MatchRow, SeatRow
from bot.service.describe import last_turn, material, position_groups
from games import AnyGame, Event, new_game
from games.bumpboard import DIRECTION_WORDS
from i18n import speaking

SETUPS = [
    ("bide", 2, {}),
    ("bide", 6, {"side": 6}),
    ("begird", 2, {}),
    ("begird", 2, {"board": "y"}),
    ("playbai", 2, {}),
    ("playbai", 2, {"side": 6, "expert": True}),
    ("bump", 2, {}),
    ("bump", 2, {"reserve1": 2}),
]
LONG_NAME = "W" * 32  # Discord's longest display name, in its widest letter


def match_of(game: AnyGame, name: str = "player") -> MatchRow:
    seats = [SeatRow(s, 100 + s, f"{name}{s}" if name != LONG_NAME else name) for s in range(1, game.players + 1)]
    state = game.to_json()
    return MatchRow(
        1,
        game.info.id,
        game.options,
        game.players,
        1,
        1,
        None,
        None,
        None,
        None,
        1,
        "active",
        state,
        0,
        0.0,
        0.0,
        0.0,
        None,
        seats=seats,
    )


def play(game: AnyGame, rng: random.Random, turns: int) -> tuple[list[Event], str]:
    """Random complete turns; the last one's events and notation, as a board is drawn with them."""
    events: list[Event] = []
    for _ in range(turns):
        if game.is_over:
            break
        turn, trial = [], game.copy()
        while not trial.is_over:
            legal = trial.legal_actions()
            if trial.can_end_turn() and (not legal or rng.random() < 0.5):
                break
            action = rng.choice(legal)
            turn.append(trial.format_action(action))
            trial.apply_action(action)
        events = game.play_turn(turn)
    return events, game.last_turn_notation


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SETUPS), st.integers(0, 10**6), st.integers(0, 60), st.sampled_from(["player", LONG_NAME]))
def test_any_position_is_described_within_discords_limits(setup, seed, turns, name):
    game = new_game(*setup)
    events, notation = play(game, random.Random(seed), turns)
    match = match_of(game, name)
    turn = last_turn(events, notation)
    description = boards.board_description(match, game, turn)
    assert 0 < len(description) <= boards.DESCRIPTION_LIMIT
    if not game.is_over and len(description) < boards.DESCRIPTION_LIMIT:
        assert "to move" in description
    assert ("Last move" in description) == bool(events) or len(description) == boards.DESCRIPTION_LIMIT
    messages = boards.board_text(match, game, turn)
    assert messages and all(0 < len(m) <= 2000 for m in messages)
    spoken = "\n".join(messages)
    for group in position_groups(game):
        for cell in group.cells:  # every piece is named: split over messages, never summarised away
            assert cell in spoken
    for preview in (boards.preview_description(match, game, turn), boards.preview_description(match, game, turn, "a1")):
        assert 0 < len(preview) <= boards.DESCRIPTION_LIMIT


def test_a_bide_board_names_the_mover_the_scores_and_the_last_move():
    game = new_game("bide", 2, {})
    events = []
    for notation in ("a5", "b4", "f3"):
        events = game.play_turn(notation)
    match = match_of(game)
    description = boards.board_description(match, game, last_turn(events, game.last_turn_notation))
    assert description.startswith("Bide #1 board, player1 (")
    assert "player2 (" in description and "to move" in description
    assert "Last move, by player1 " in description and "f3" in description
    assert "score" in description and "in hand" in description and "in the pool" in description
    text = "\n".join(boards.board_text(match, game, last_turn(events, game.last_turn_notation)))
    assert "2 discs: a5, f3" in text and "1 disc: b4" in text


def test_a_begird_board_groups_stones_by_the_islands_they_touch():
    game = new_game("begird", 2, {})
    shore = game.layout.shore_names(1)[0]
    events = game.play_turn(shore)
    match = match_of(game)
    turn = last_turn(events, game.last_turn_notation)
    description = boards.board_description(match, game, turn)
    assert f"Last move, by player1 (Black): {shore}" in description and "1 stone" in description
    text = "\n".join(boards.board_text(match, game, turn))
    assert "1 stone touching island" in text and shore in text
    stones = [g for g in position_groups(game) if g.seat == 1]
    assert [g.cells for g in stones] == [(shore,)] and 1 in stones[0].where


def test_a_play_bai_board_says_the_goals_the_playballers_and_the_ball():
    game = new_game("playbai", 2, {})
    match = match_of(game)
    description = boards.board_description(match, game, None)
    assert "No move yet." in description and "0 goals" in description and "kicks" not in description
    text = "\n".join(boards.board_text(match, game, None))
    assert "The ball:" in text and "playballers:" in text
    counts = dict(material(game)[0].counts)
    assert counts["goals"] == 0 and counts["playballers"] == len(game.pieces(1))


def test_a_bump_board_lists_pieces_with_their_facing_and_the_reserves():
    game = new_game("bump", 2, {"reserve1": 2})
    events, notation = play(game, random.Random(7), 3)
    match = match_of(game)
    turn = last_turn(events, notation)
    description = boards.board_description(match, game, turn)
    assert "in reserve" in description and "captured" in description and "on the board" in description
    text = "\n".join(boards.board_text(match, game, turn))
    assert " facing " in text
    for cell, (_, facing) in game.pieces().items():  # every piece, with the way it faces
        assert f"{cell} facing {DIRECTION_WORDS[facing]} ({facing})" in text


def test_a_bump_move_of_three_steps_that_bumps_nothing_reads_the_same_in_the_caption_and_the_description():
    """Issue 37: the picture said "06,031: no bumps" while its description listed three moves ("moved 06 to 05,
    moved 05 to 04, moved 04 to 031"): one move, said in the engine's words in both."""
    from render.bump import last_move_line

    game = new_game("bump", 2, {})
    rng = random.Random(1)
    while not any(n.startswith("06,031") for n in game.legal_notations()):  # a seeded game reaching such a move
        game.play_turn(rng.choice(game.legal_notations()))
    notation = next(n for n in game.legal_notations() if n.startswith("06,031"))
    events = game.play_turn(notation)
    assert sum(e.kind == "shift" for e in events) == 3 and not any(e.kind == "bump" for e in events)
    caption = last_move_line(game, events, ["player1", "player2"])
    description = boards.board_description(match_of(game), game, last_turn(events, notation))
    assert caption.endswith(f"{notation}: no bumps"), caption
    assert f"{notation} — no bumps." in description and "moved" not in description, description


def test_a_finished_game_is_described_by_its_result():
    game = new_game("bide", 2, {})
    events = game.play_turn("a5")
    events = game.resign(2)
    description = boards.board_description(match_of(game), game, last_turn(events))
    assert "Game over: player1 (" in description and "wins" in description and "to move" not in description


def test_a_long_text_is_cut_at_a_word_with_an_ellipsis():
    text = "word " * 400
    cut = fit_words(text, 1024)
    assert len(cut) <= 1024 and cut.endswith("word…")
    assert fit_words("short", 1024) == "short"


def test_markdown_and_pings_do_not_reach_alt_text():
    assert boards.plain("**alice** (Red) <@123> played `e5` <t:1700000000:R>") == "alice (Red) a player played e5"


def test_a_full_begird_board_goes_on_over_several_messages_naming_every_stone():
    empty = new_game("begird", 2, {})
    names = empty.cell_names()
    board = {name: 1 if i % 3 else 2 for i, name in enumerate(names)}
    game = type(empty).from_position(2, empty.options, {"board": board, "to_move": 1, "swapped": False})
    match = match_of(game, LONG_NAME)
    messages = boards.board_text(match, game, None)
    assert len(messages) > 1 and all(len(m) <= 2000 for m in messages)
    spoken = "\n".join(messages)
    assert all(f" {name}," in spoken or f" {name}." in spoken for name in names)
    assert len(boards.board_description(match, game, None)) <= boards.DESCRIPTION_LIMIT


def test_a_description_is_bounded_in_the_language_it_is_said_in():
    """French runs ~15% longer than English: the 1,024 characters are counted on the words said."""
    game = new_game("bide", 6, {"side": 6})
    events, notation = play(game, random.Random(7), 60)
    match = match_of(game, LONG_NAME)
    for language in ("en", "fr"):
        with speaking(language):
            described = boards.board_description(match, game, last_turn(events, notation))
            preview = boards.preview_description(match, game, last_turn(events, notation), "a1")
            messages = boards.board_text(match, game, last_turn(events, notation))
        assert 0 < len(described) <= boards.DESCRIPTION_LIMIT and 0 < len(preview) <= boards.DESCRIPTION_LIMIT
        assert all(0 < len(m) <= 2000 for m in messages)
