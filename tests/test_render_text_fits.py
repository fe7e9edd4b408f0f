"""Every word a picture writes fits where it is written: no ellipsis, nothing outside the picture,
no two texts on top of each other (issue 26: Begird's pie-rule footer read "…take Bl…", a computer's
name in the players table "⚙ AI hard (B…").

Each game is played through (seeded random turns, the engines' own interface) with the longest names
a player can have (32 characters, Discord's limit, of the widest letter; a spaced one; a computer
seat's picture name), plus the turns whose footers say most (Begird's swap offered and made, a
resignation, a draw), at the widths the bot draws (its PNGs and its GIF frames). Every call of
``textdraw.draw_text`` is recorded: texts, sizes, boxes.
"""

from __future__ import annotations

import random

import pytest

import render
from games import new_game
from i18n import speaking
from render import textdraw as td
from render.palettes import random_turn

LONGEST = "W" * 32
SPACED = "Wolfgang Wunderwald-Wittgenstein"  # 32 characters with spaces
COMPUTER = "⚙ AI 2 medium"
WIDTHS = (render.DEFAULT_WIDTH, render.GIF_WIDTH)


def names_for(players: int) -> list[str]:
    return [(LONGEST, COMPUTER, SPACED)[k % 3] for k in range(players)]


def positions(game_id: str, players: int, options: dict, seed: int, every: int, turns: int = 400):
    """(game, last turn's events) at every ``every``-th turn of a seeded random game (at most
    ``turns`` turns), and its end."""
    rng = random.Random(seed)
    game = new_game(game_id, players, options)
    events: list = []
    turn = 0
    yield game.copy(), events
    while not game.is_over and turn < turns:
        events = game.play_turn(random_turn(game, rng))
        turn += 1
        if turn % every == 0 or game.is_over:
            yield game.copy(), events


def special_positions(game_id: str):
    """Turns whose footers say most, beyond random play."""
    if game_id == "bump":
        bump = new_game("bump", 2, {"reserve1": 2, "reserve2": 2})
        yield bump.copy(), bump.agree_draw()
    if game_id != "begird":
        game = new_game(game_id, 6 if game_id == "bide" else 2, {})
        game.play_turn(random_turn(game, random.Random(1)))
        yield game.copy(), game.resign(game.to_move or 1)
        return
    for variant in ("standard",):
        begird = new_game("begird", 2, {"board": variant})
        first = begird.play_turn(begird.legal_notations()[7])
        yield begird.copy(), first  # White may swap: the pie rule is explained
        swap = begird.play_turn("swap")
        yield begird.copy(), swap  # the swap is announced
        later = begird.play_turn(begird.legal_notations()[3])
        yield begird.copy(), later  # the swap is remembered
        yield begird.copy(), begird.resign(1)


#: (game, players, options, seed, a picture every so many turns, at most so many turns). Random
#: positions are drawn at the GIF width only (the narrowest; a picture's text scales with its width),
#: the special ones at both widths.
CASES = [
    ("bide", 2, {"side": 5}, 11, 15, 400),
    ("bide", 6, {"side": 5}, 7, 25, 400),
    ("bide", 3, {"side": 4}, 5, 20, 400),
    ("begird", 2, {"board": "standard"}, 4, 35, 400),
    ("begird", 2, {"board": "y"}, 4, 30, 400),
    ("playbai", 2, {}, 2, 20, 60),
    ("playbai", 2, {"expert": True}, 3, 20, 60),
    ("bump", 2, {"reserve1": 1}, 5, 12, 48),
]


def every_picture(game_id: str):
    """(game, events, widths) of every picture the test draws of ``game_id``."""
    for gid, players, options, seed, every, turns in CASES:
        if gid == game_id:
            for game, events in positions(gid, players, options, seed, every, turns):
                yield game, events, (render.GIF_WIDTH,)
    for game, events in special_positions(game_id):
        yield game, events, WIDTHS


@pytest.fixture
def drawn_texts(monkeypatch):
    """Every text drawn through ``textdraw.draw_text`` while the fixture is active: (text, size, box)."""
    seen: list[tuple[str, int, tuple[int, int, int, int] | None]] = []
    real = td.draw_text

    def recording(im, xy, text, size, fill, **kw):
        box = real(im, xy, text, size, fill, **kw)
        seen.append((text, size, box))
        return box

    monkeypatch.setattr(td, "draw_text", recording)
    return seen


def overlapping(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game_id", ["bide", "begird", "playbai", "bump"])
def test_every_text_of_every_picture_fits_whole(game_id, language, drawn_texts):
    """In French (longer words) only the special positions, at both widths: they hold every kind of line."""
    pictures = 0
    chosen = every_picture(game_id) if language == "en" else ((g, e, WIDTHS) for g, e in special_positions(game_id))
    for game, events, widths in chosen:
        for width in widths:
            drawn_texts.clear()
            with speaking(language):
                im = render.render_image(game, player_names=names_for(game.players), last_events=events, width=width)
            pictures += 1
            assert_texts_fit(im, drawn_texts, f"{game_id} ply {game.ply} at {width} px")
    assert pictures >= (8 if language == "en" else 2)


def assert_texts_fit(im, drawn_texts, where: str) -> list:
    """Every text drawn whole, inside the picture, none on another; the texts drawn."""
    texts = [t for t in drawn_texts if t[2] is not None]
    assert texts, where
    for text, _size, box in texts:
        assert "…" not in text, (where, text)
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= im.width and box[3] <= im.height, (where, text, box)
    # Texts laid out word by word give the box of their whole line; a line's own runs are one entry.
    for i, (a_text, _, a) in enumerate(texts):
        for b_text, _, b in texts[i + 1 :]:
            assert not overlapping(a, b), (where, a_text, b_text)
    return texts


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("game_id", "options"), [("bump", {}), ("begird", {"board": "standard"})])
def test_every_text_of_a_zoomed_picture_fits_whole(game_id, options, language, drawn_texts):
    """A zoomed picture (issue 37) says more in its title bar ("· around 582, ×2") over a board drawn twice
    as large: every text whole, inside the picture, none on another."""
    pictures = 0
    for game, events in positions(game_id, 2, options, 5, 20, 60):
        drawn_texts.clear()
        with speaking(language):
            im = render.render_image(game, player_names=names_for(2), last_events=events, zoom="last")
        pictures += 1
        texts = assert_texts_fit(im, drawn_texts, f"{game_id} ply {game.ply} zoomed")
        assert any("×2" in text for text, _, _ in texts), game.ply
    assert pictures >= 3
