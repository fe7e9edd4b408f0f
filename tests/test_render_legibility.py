"""Labels a player types, measured as a phone shows them (issue 26): the bot posts pictures 1080 px
wide (Begird's standard board 1280) and Discord shows them about 400 px wide on a phone.

A label's glyphs are found by their ink inside its cell and split into letters at the blank columns
between them; a letter's height in pixels, scaled to a 400 px wide picture, is what is measured:
the x-height of a lowercase letter (Begird's ``e5``, ``m13``), the height of digits (Bump's ``431``).
docs/rendering.md ("Legibility on a phone") states the figures.
"""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

import render
from games.begird import Begird
from games.bump import COORDS, INDEX, NAMES, Bump
from games.playbai import PlayBai
from render import begird as rbg
from render import bump_board
from render import playbai as rpb

PHONE = 400


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def glyph_heights(im: Image.Image, centre, half_w: float, half_h: float, ink, tolerance: float = 60) -> list[int]:
    """Heights in pixels of the glyphs (column runs of ink) of the label around ``centre``, left to right."""
    x0, x1 = int(centre[0] - half_w), int(centre[0] + half_w)
    y0, y1 = int(centre[1] - half_h), int(centre[1] + half_h)
    inked = {(x, y) for x in range(x0, x1) for y in range(y0, y1) if math.dist(im.getpixel((x, y)), ink) < tolerance}
    heights: list[int] = []
    run: list[int] = []
    columns = 0
    for x in range(x0, x1 + 1):
        rows = [y for (xx, y) in inked if xx == x]
        if rows:
            run.extend(rows)
            columns += 1
        elif run:
            if columns >= 2 and max(run) - min(run) >= 3:  # a glyph, not a stray pixel of a line
                heights.append(max(run) - min(run) + 1)
            run, columns = [], 0
    return heights


def at_phone_width(pixels: float, picture_width: int) -> float:
    return pixels * PHONE / picture_width


@pytest.mark.parametrize("name", ["e5", "a5", "m13", "o4", "r3"])
def test_begird_cell_names_have_an_x_height_a_phone_reads(name):
    """Begird's standard board (243 cells): a lowercase letter of a cell's name is at least 5 px tall
    (x-height) at 400 px wide; it was 4.3 px (names 0.4 of a cell, regular weight)."""
    game = Begird.new(2, {"board": "standard"})
    im = decode(render.render_png(game))
    sp = rbg.cell_spacing(game)
    heights = glyph_heights(im, rbg.cell_centre(game, name), sp * 0.46, sp * 0.4, rbg.NAME_INK)
    assert len(heights) >= 2, (name, heights)  # a letter, then digits
    x_height = at_phone_width(heights[0], im.width)
    assert x_height >= 5.0, (name, x_height)


@pytest.mark.parametrize("space", ["431", "122", "44", "05"])
def test_bump_space_names_have_digits_a_phone_reads(space):
    """Bump's names are digits: at 400 px wide they stand at least 8 px tall (they were 7.8 px,
    and narrowed three-digit names about 5 px wide), on empty cells, gates and pieces alike."""
    g = Bump.from_position(2, None, {"pieces": {"122": [1, 3], "39": [2, 0]}, "to_move": 1})
    im = decode(render.render_png(g))
    lay = bump_board.geometry(bump_board.DEFAULT_WIDTH).layout
    sp = lay.spacing
    on_piece = space == "122"
    ink = (255, 255, 255) if on_piece else (bump_board.GATE_INK if space == "05" else bump_board.NAME_INK)
    heights = glyph_heights(im, lay.centre(COORDS[INDEX[space]][0]), sp * 0.45, sp * 0.36, ink, 40)
    assert heights, space
    digits = at_phone_width(min(heights), im.width)  # min: a wall beside the cell is not a digit
    assert digits >= 8.0, (space, digits)


@pytest.mark.parametrize("name", ["c3", "e4"])
def test_play_bai_cell_names_have_an_x_height_a_phone_reads(name):
    """Play Bai's cell names: at least 6 px x-height at 400 px wide (they were 4.4 px)."""
    game = PlayBai.new()
    im = decode(render.render_png(game))
    heights = glyph_heights(im, rpb.cell_centre(game, name), 30, 20, rpb.NAME_INK, 30)
    assert len(heights) >= 2, (name, heights)
    assert at_phone_width(heights[0], im.width) >= 6.0, (name, heights)


# -- zoomed views (issue 37): every name at least 7 px x-height at 400 px ---------------------------------

PHONE_X_HEIGHT = 7.0
X_HEIGHT_LETTERS = "acemnorsuvwxz"  # no ascender, no descender: the letter is the x-height


def glyph_boxes(im: Image.Image, centre, half_w: float, half_h: float, ink, tolerance: float = 40) -> list[tuple]:
    """(width, height) in pixels of the glyphs of the label around ``centre``, left to right."""
    x0, x1 = int(centre[0] - half_w), int(centre[0] + half_w)
    y0, y1 = int(centre[1] - half_h), int(centre[1] + half_h)
    boxes: list[tuple] = []
    run: list[int] = []
    columns = 0
    for x in range(x0, x1 + 1):
        rows = [y for y in range(y0, y1) if x < x1 and math.dist(im.getpixel((x, y)), ink) < tolerance]
        if rows:
            run.extend(rows)
            columns += 1
        elif run:
            if columns >= 2 and max(run) - min(run) >= 3:  # a glyph, not a stray pixel of a line
                boxes.append((columns, max(run) - min(run) + 1))
            run, columns = [], 0
    return boxes


def digits_x_height(digit_height: float) -> float:
    """The x-height of the font whose digits stand ``digit_height`` tall. Bump's names are digits (bold): a
    name is held to the x-height of the font it is written in, found from its digits' height."""
    from render import textdraw as td

    face = td.font(200, bold=True)
    x, zero = face.getbbox("x"), face.getbbox("0")
    return digit_height * (x[3] - x[1]) / (zero[3] - zero[1])


def bump_names_seen(im: Image.Image, game, layout, width: int) -> dict[str, tuple[float, float]]:
    """Per space name wholly in the picture (empty spaces, gates and blue pieces: their ink is the
    name's alone), (x-height, narrowest digit's width but a 1's) at 400 px wide."""
    from render.bump_board import PIECE_R

    sp = layout.spacing
    pieces = game.pieces()
    seen = {}
    for space, cells in zip(NAMES, COORDS, strict=True):
        for cell in cells[:1]:
            x, y = layout.centre(cell)
            if not sp * 0.5 <= x <= width - sp * 0.5:
                continue  # cut by the window's edge
            held = pieces.get(space)
            if held is not None and held[0] != 1:
                continue  # an orange piece's dark name meets its dark bumper bar
            if held is not None and len(cells) == 2:
                continue  # a gate piece: its twin is drawn in the other part
            ink = (
                (255, 255, 255)
                if held
                else (bump_board.GATE_INK if space.endswith("5") and len(space) == 2 else bump_board.NAME_INK)
            )
            half_h = sp * PIECE_R * 0.8
            boxes = glyph_boxes(im, (x, y), sp * 0.45, half_h, ink)
            if len(boxes) != len(space):
                continue  # a mark crosses it: the name is written again over it, but not measured here
            wide = [w for (w, _), digit in zip(boxes, space, strict=True) if digit != "1"] or [w for w, _ in boxes]
            seen[space] = (
                digits_x_height(at_phone_width(min(h for _, h in boxes), im.width)),
                at_phone_width(min(wide), im.width),
            )
    return seen


def bump_mid_game():
    import random

    from games import new_game
    from render.palettes import random_turn

    rng = random.Random(2)
    game = new_game("bump", 2, {})
    events: list = []
    for _ in range(30):
        events = game.play_turn(random_turn(game, rng))
    return game, events


def test_bump_whole_board_names_are_under_what_a_phone_reads():
    """The fault the zoom answers: on the whole board (400 px wide) the three-digit names (120 of the 128)
    stand 5.9-6.1 px (x-height of their font), their digits narrowed to 3.3-4.1 px wide."""
    game, events = bump_mid_game()
    im = decode(render.render_png(game, last_events=events))
    seen = bump_names_seen(im, game, bump_board.geometry(bump_board.DEFAULT_WIDTH).layout, im.width)
    three = [figures for name, figures in seen.items() if len(name) == 3]
    assert len(three) > 50
    assert max(x for x, _ in three) < PHONE_X_HEIGHT and max(w for _, w in three) < 5


@pytest.mark.parametrize("zoom", ["last", "C1", "C2", "05", "35", "45", "431", "122", "593", "36", "271"])
def test_bump_zoomed_names_have_an_x_height_a_phone_reads(zoom):
    """Issue 37: every name of a zoomed Bump picture stands at least 7 px (x-height) at 400 px wide (11.8
    measured), its digits at least 6.5 px wide (7.0; 1s aside), on empty spaces, gates and pieces, around any
    space and the last turn."""
    from render import bump_zoom

    game, events = bump_mid_game()
    im = decode(render.render_png(game, last_events=events, zoom=zoom))
    _, left = bump_zoom.zoom_window(game, zoom, events)
    layout = bump_zoom.zoom_geometry(bump_board.DEFAULT_WIDTH, left).layout
    seen = bump_names_seen(im, game, layout, im.width)
    assert len(seen) >= 40, seen  # about one area and its gates: 61 spaces and more
    narrow = {name: figures for name, figures in seen.items() if figures[0] < PHONE_X_HEIGHT or figures[1] < 6.5}
    assert not narrow, narrow


@pytest.mark.parametrize(
    ("variant", "zoom"),
    [("standard", "last"), ("standard", "a1"), ("standard", "m13"), ("standard", "i9"), ("small", "e5"), ("y", "a1")],
)
def test_begird_zoomed_names_have_an_x_height_a_phone_reads(variant, zoom):
    """Every zoomed Begird view: every cell name in it is written at least 7 px x-height at 400 px wide,
    measured on its lowercase letter where that letter is x-high (a, c, e, m…) and on its digits (of
    the same font) everywhere."""
    game = Begird.new(2, {"board": variant})
    events = game.play_turn("e5") if variant != "y" else game.play_turn("c2")
    im = decode(render.render_png(game, last_events=events, zoom=zoom))
    _, big, (left, top) = rbg.zoom_view(game, zoom, events)
    g = rbg.geometry(variant, im.width)
    sp = big.spacing
    measured = 0
    for name in game.board.names:
        x, y = big.layout.centre(game.board.cells[game.board.parse(name)])
        x, y = x - left, y - top + g.title_h
        inside = sp <= x <= im.width - sp and g.title_h + sp <= y <= g.board_bottom - sp
        if not inside or game.cells[game.board.parse(name)]:
            continue  # cut by the window's edge, or under a stone
        heights = glyph_heights(im, (x, y), sp * 0.46, sp * 0.4, rbg.NAME_INK)
        assert len(heights) >= len(name), (name, heights)
        letter, digits = heights[len(heights) - len(name)], heights[len(heights) - len(name) + 1 :]
        if name[0] in X_HEIGHT_LETTERS:
            assert at_phone_width(letter, im.width) >= PHONE_X_HEIGHT, (name, heights)
        assert digits_x_height(at_phone_width(min(digits), im.width)) >= PHONE_X_HEIGHT, (name, heights)
        measured += 1
    assert measured >= 10


def test_the_boards_a_phone_cannot_read_whole_are_the_ones_offered_the_zoom():
    """Bump and Begird's standard board write their names under 7 px (x-height) at 400 px: their posts offer
    the zoom. Begird's small and Y boards (9.6 and 7.4 px) read whole."""
    assert render.zoom_helps(Bump.new())
    assert render.zoom_helps(Begird.new(2, {"board": "standard"}))
    assert not render.zoom_helps(Begird.new(2, {"board": "small"}))
    assert not render.zoom_helps(Begird.new(2, {"board": "y"}))
    assert not render.zoom_helps(PlayBai.new())
