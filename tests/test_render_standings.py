"""The standings picture: a row per player, names that fit their column, no glyph the font lacks."""

from __future__ import annotations

import io

from PIL import Image

from render.standings import WIDTH, _fit, _wrap, render_standings


def picture(rows, subtitle="Round 1 of 3 · ties: Buchholz, then Sonneborn-Berger"):
    png = render_standings("Bump Swiss tournament #1", subtitle, ["#", "Player", "Pts", "BH", "SB"], rows)
    return Image.open(io.BytesIO(png))


def test_the_table_grows_a_row_per_player_at_a_phones_scale():
    three = picture([[str(i), f"p{i}", "1", "0", "0"] for i in range(1, 4)])
    nine = picture([[str(i), f"p{i}", "1", "0", "0"] for i in range(1, 10)])
    assert three.width == nine.width == WIDTH
    assert nine.height - three.height == 6 * 46


def test_long_names_are_cut_and_letters_the_font_lacks_are_dropped():
    cut = _fit("Alexandra Konstantinopoulou the Magnificent", 300, 26)
    assert cut.endswith("…") and len(cut) < 40
    assert _fit("李小龍 dragon", 600, 26) == "dragon"  # CJK is not in DejaVu Sans: dropped, never boxes
    assert _fit("李小龍", 600, 26) == "?"


def test_a_long_subtitle_wraps_instead_of_being_cut():
    words = "10 games in play · ties: Sonneborn-Berger, then head-to-head, then wins"
    lines = _wrap(words, WIDTH - 40, 24)
    assert len(lines) == 2 and " ".join(lines) == words
    assert picture([["1", "a", "1", "0", "0"]], words).height > picture([["1", "a", "1", "0", "0"]]).height
