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
from games.bump import COORDS, INDEX, Bump
from games.playbai import PlayBai
from render import begird as rbg
from render import bump as rbu
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
    lay = rbu.geometry(rbu.DEFAULT_WIDTH).layout
    sp = lay.spacing
    on_piece = space == "122"
    ink = (255, 255, 255) if on_piece else (rbu.GATE_INK if space == "05" else rbu.NAME_INK)
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
