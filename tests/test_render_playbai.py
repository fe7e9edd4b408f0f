"""Play Bai's picture: decode the PNG with Pillow and look at the pixels."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

import render
from games.playbai import PlayBai
from render import playbai as rp

NAMES = ["alice", "bob"]


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def pixels(im: Image.Image):
    """Every pixel of ``im`` (``get_flattened_data`` on Pillow >= 12.1, ``getdata`` before)."""
    flat = getattr(im, "get_flattened_data", None)
    return flat() if flat is not None else im.getdata()


def near(pixel, colour, tolerance: float = 40.0) -> bool:
    return math.dist(pixel[:3], colour[:3]) < tolerance


def pos(pieces, ball, **extra):
    doc = {"pieces": pieces, "ball": ball, "goals": [1, 1], "to_move": 1, "kickoff": False, "last_goal": 2}
    doc.update(extra)
    return PlayBai.from_position(2, {}, doc)


def test_registered_and_png_small_at_both_widths():
    assert "playbai" in render.registered()
    game = PlayBai.new()
    events = game.play_turn("e2-e3 e3-e4")
    for width in (1080, 400):
        data = render.render_png(game, player_names=NAMES, last_events=events, width=width)
        im = decode(data)
        assert im.width == width and len(data) < 300_000


def test_teams_are_drawn_in_their_colours_where_they_stand():
    game = PlayBai.new()
    im = render.render_image(game, player_names=NAMES)
    for cell, seat in game.position()["pieces"].items():
        x, y = rp.cell_centre(game, cell)
        # a little off centre (the round piece's centre is plain colour; the square's too)
        assert near(im.getpixel((x - 4, y + 6)), rp.TEAM[seat]), cell
    x, y = rp.cell_centre(game, "e5")
    assert not near(im.getpixel((x, y)), rp.PITCH)  # the loose ball covers its cell


def test_shapes_differ_round_orange_square_blue():
    game = PlayBai.new()
    im = render.render_image(game, player_names=NAMES)
    size = rp.geometry(5, 1080).size
    for cell, seat, expect_corner in (("e2", 1, False), ("e8", 2, True)):
        x, y = rp.cell_centre(game, cell)
        corner = im.getpixel((int(x + size * 0.5), int(y + size * 0.5)))
        # the square's corner is team-coloured (or its outline), the disc's corner is pitch
        is_piece = near(corner, rp.TEAM[seat], 60) or near(corner, rp.TEAM_DARK[seat], 60)
        assert is_piece == expect_corner, (cell, corner)


def test_end_zones_are_tinted_and_dotted_in_their_team_colour():
    game = PlayBai.new()
    im = render.render_image(game)
    for cell, seat in (("a1", 1), ("e1", 1), ("i1", 1), ("a5", 2), ("e9", 2), ("i5", 2)):
        x, y = rp.cell_centre(game, cell)
        assert near(im.getpixel((x, y)), rp.TEAM_DARK[seat]), cell  # the dot
        size = rp.geometry(5, 1080).size
        assert near(im.getpixel((x - int(size * 0.45), y)), rp.TEAM_TINT[seat], 30), cell


def test_ball_on_its_carrier_is_the_brightest_yellow_on_the_field():
    game = pos({"e4": 1, "c3": 1, "i3": 2, "h4": 2}, "e4")
    im = render.render_image(game)
    x, y = rp.cell_centre(game, "e4")
    size = rp.geometry(5, 1080).size
    ring = [
        im.getpixel((int(x + size * 0.36 + dx), int(y - size * 0.36 + dy)))
        for dx, dy in ((size * 0.38, 0), (-size * 0.38, 0), (0, size * 0.38))
    ]
    assert any(near(p, rp.BALL_HALO, 50) for p in ring)


def test_last_turn_is_numbered_and_drawn():
    game = pos({"b2": 1, "e6": 1, "c4": 1, "b4": 2, "a4": 2, "e8": 2}, "e6")
    events = game.play_turn("b2-c2, e6>c4, c4^ne")
    plain = render.render_image(game, player_names=NAMES)
    traced = render.render_image(game, player_names=NAMES, last_events=events)
    # the step's badge sits on b2, the cell the playballer left
    x, y = rp.cell_centre(game, "b2")
    assert plain.getpixel((x, y)) != traced.getpixel((x, y))
    assert len(rp.trace_actions(events)) == 3
    differing = sum(1 for a, b in zip(pixels(plain), pixels(traced), strict=False) if a != b)
    assert differing > 2000


def test_a_goal_is_celebrated_and_the_reset_field_has_no_stale_arrows():
    game = pos({"e6": 1, "c3": 1, "g4": 1, "e7": 2, "b4": 2, "h5": 2}, "e7")
    events = game.play_turn("c3-c4, e6^e, e8-e9")
    im = render.render_image(game, player_names=NAMES, last_events=events)
    g = rp.geometry(5, 1080)
    band = im.crop((0, g.field_bottom + g.row_h * 3, im.width, g.height))
    assert any(near(p, render.playbai.THEME.highlight, 12) for p in pixels(band))
    x, y = rp.cell_centre(game, "e9")
    assert near(im.getpixel((x + int(g.size * 0.75), y)), rp.GOAL_STAR, 60) or near(
        im.getpixel((x, y - int(g.size * 0.7))), rp.GOAL_STAR, 60
    )
    # c3-c4 is not drawn on the new set-up
    plain = render.render_image(game, player_names=NAMES)
    cx, cy = rp.cell_centre(game, "c3")
    assert plain.getpixel((cx, cy)) == im.getpixel((cx, cy))


@pytest.mark.parametrize("width", [320, 400, 1080])
def test_side_6_and_narrow_widths_render(width):
    game = PlayBai.new(2, {"side": 6})
    events = game.play_turn("f2-f3")
    data = render.render_png(game, player_names=["a" * 40, "Zoë"], last_events=events, width=width)
    assert decode(data).width == max(width, rp.MIN_WIDTH) and len(data) < 300_000


def test_gif_replay_of_a_short_game():
    game = PlayBai.new()
    frames = [(game.copy(), [])]
    for turn in ("e2-e3 e3-e4", "e8-e7 e7-e6 e6-e5", "b2-c3"):
        events = game.play_turn(turn)
        frames.append((game.copy(), events))
    data = render.render_gif(frames, player_names=NAMES)
    im = Image.open(io.BytesIO(data))
    assert data[:3] == b"GIF" and im.n_frames == len(frames)


@pytest.mark.parametrize("ending", ["draw", "resign"])
def test_games_ended_off_the_field_render(ending):
    game = PlayBai.new()
    game.play_turn("e2-e3")
    events = game.agree_draw() if ending == "draw" else game.resign(2)
    im = render.render_image(game, player_names=NAMES, last_events=events)
    assert im.width == 1080
    assert (
        rp.status_line(game, NAMES, None).startswith("Game over")
        if ending == "draw"
        else "wins by resignation" in rp.status_line(game, NAMES, None)
    )
