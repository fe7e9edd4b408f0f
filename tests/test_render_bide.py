"""Bide's pictures: decode the PNG/GIF with Pillow and look at the pixels."""

from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image

import render
from games.bide import Bide, board_for_side
from games.interface import Event
from render import bide as rb
from render import hexdraw as hd
from render import panels, sprites
from render import textdraw as td
from render.animation import replay

WIDTH = rb.DEFAULT_WIDTH
SIDES = (4, 5, 6)


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def distance(a, b) -> float:
    return math.dist(a[:3], b[:3])


def samples(game, name: str, width: int = WIDTH) -> list[tuple[int, int]]:
    """Pixels inside a disc on ``name``, off its marker, its value and any arrow or badge.

    Arrows run along the six grid directions, order badges sit up-right, the
    marker above the centre and the value below it: look down-right and
    down-left, between grid directions, at 0.28 point spacing from the centre.
    """
    x, y = rb.point_centre(game, name, width)
    r = rb.point_spacing(game, width) * 0.28
    return [(round(x + r * math.cos(math.radians(a))), round(y + r * math.sin(math.radians(a)))) for a in (30, 150)]


def seat_of_pixel(pixel) -> int | None:
    """The seat whose disc colour ``pixel`` is, or None when it is no disc colour."""
    best = min(range(len(rb.DISC_COLOURS)), key=lambda i: distance(pixel, rb.DISC_COLOURS[i]))
    return best + 1 if distance(pixel, rb.DISC_COLOURS[best]) < 30 else None


def random_position(players: int, side: int, seed: int, fill: float = 0.5) -> dict:
    rng = random.Random(seed)
    board = board_for_side(side)
    cells = {name: rng.randint(1, players) for name in board.names if rng.random() < fill}
    return {"board": cells, "to_move": 1}


def check_discs(game, im: Image.Image, width: int = WIDTH) -> None:
    board = game.board
    for i, name in enumerate(board.names):
        owner = game.cells[i]
        for xy in samples(game, name, width):
            found = seat_of_pixel(im.getpixel(xy))
            if owner:
                assert found == owner, f"{name}: expected a {rb.SEAT_COLOURS[owner - 1]} disc, pixel {im.getpixel(xy)}"
            else:
                assert found is None, f"{name} is empty but shows {im.getpixel(xy)}"


# -- discs where they belong ---------------------------------------------------------------------


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("players", range(2, 7))
def test_discs_at_occupied_points_only(side, players):
    game = Bide.from_position(players, {"side": side}, random_position(players, side, seed=side * 10 + players))
    data = render.render_png(game)
    im = decode(data)
    assert im.width >= 1000
    assert len(data) < 300_000
    check_discs(game, im)


@pytest.mark.parametrize("side", SIDES)
def test_full_board_is_a_finished_game(side):
    board = board_for_side(side)
    position = {"board": {name: 1 + (i * 7 // 3) % 3 for i, name in enumerate(board.names)}}
    game = Bide.from_position(3, {"side": side}, position)
    assert game.is_over
    im = decode(render.render_png(game))
    check_discs(game, im)


def test_every_seat_colour_is_distinct_from_the_rest():
    colours = rb.DISC_COLOURS
    for i in range(len(colours)):
        for j in range(i + 1, len(colours)):
            assert distance(colours[i], colours[j]) > 70
        assert distance(colours[i], rb.POINT_FILL) > 60
    assert len(set(rb.DISC_MARKERS)) == len(rb.DISC_MARKERS) == len(colours)


def test_a_played_game_matches_its_engine_state():
    game = Bide.new(2)
    events = []
    for turn in ("e5", "a1", "bide", "i5", "c3,c4", "g2", "e4"):
        events = game.play_turn(turn)
    im = render.render_image(game, last_events=events)
    check_discs(game, im)


def test_narrower_pictures_keep_their_geometry():
    game = Bide.from_position(4, {"side": 5}, random_position(4, 5, seed=3))
    im = render.render_image(game, width=640)
    assert im.width == 640
    check_discs(game, im, width=640)
    with pytest.raises(ValueError):
        render.render_image(game, width=100)


def test_point_centres_follow_the_rows():
    side = 5
    board = board_for_side(side)
    # Rows are horizontal, numbered left to right; rows go down the picture.
    for row in board.rows:
        ys = {rb.point_centre(side, board.names[i])[1] for i in row}
        assert len(ys) == 1
        xs = [rb.point_centre(side, board.names[i])[0] for i in row]
        assert xs == sorted(xs)
    assert rb.point_centre(side, "a1")[1] < rb.point_centre(side, "i1")[1]
    # Neighbours are one spacing apart.
    sp = rb.point_spacing(side)
    assert math.dist(rb.point_centre(side, "e5"), rb.point_centre(side, "e6")) == pytest.approx(sp, abs=1.5)
    assert math.dist(rb.point_centre(side, "e5"), rb.point_centre(side, "d5")) == pytest.approx(sp, abs=1.5)
    # Everything is inside the picture, under the title bar.
    game = Bide.new(2, {"side": side})
    im = render.render_image(game)
    g = rb.geometry(side, WIDTH)
    for name in board.names:
        x, y = rb.point_centre(side, name)
        assert sp * 0.5 < x < im.width - sp * 0.5
        assert g.title_h + sp * 0.5 < y < g.board_bottom - sp * 0.4


# -- the last turn ---------------------------------------------------------------------------------


def test_push_arrow_and_placement_ring():
    position = {"board": {"e6": 2}, "to_move": 1}
    game = Bide.from_position(2, {"side": 5}, position)
    events = game.play_turn("e5")
    assert any(e.kind == "push" and (e.src, e.dst) == ("e6", "e7") for e in events)
    plain = render.render_image(game)
    marked = render.render_image(game, last_events=events)
    ax, ay = rb.point_centre(game, "e6")
    bx, by = rb.point_centre(game, "e7")
    mid = ((ax + bx) // 2, (ay + by) // 2)
    assert hd.luminance(marked.getpixel(mid)) < 0.2, "the push arrow crosses the gap between e6 and e7"
    assert hd.luminance(plain.getpixel(mid)) > 0.3
    # The placed disc on e5 wears a white ring just outside its edge.
    x, y = rb.point_centre(game, "e5")
    r = rb.point_spacing(game) * (rb.DISC_R + 0.03)  # the ring's middle
    ring = (round(x + r * math.cos(math.radians(90))), round(y + r * math.sin(math.radians(90))))
    assert hd.luminance(marked.getpixel(ring)) > 0.9
    assert hd.luminance(plain.getpixel(ring)) < 0.9
    check_discs(game, marked)


def test_highlight_follows_a_disc_pushed_later_in_the_release():
    events = [
        Event("place", seat=1, cell="e5"),
        Event("place", seat=1, cell="e4"),
        Event("push", seat=1, src="e5", dst="e6"),
    ]
    last = rb.trace_last_turn(events)
    assert last.placed == {"e6": 1, "e4": 2}
    assert last.pushes == [("e5", "e6")]


def test_release_with_pushes_in_words():
    game = Bide.from_position(2, {"side": 5}, {"board": {"e6": 2, "d5": 2}, "hands": [2, 0], "to_move": 1})
    events = game.play_turn("e5,c3")
    text = rb.describe_last_turn(events, ["Ann", "Bob"])
    assert text.startswith("Ann released e5, c3")
    assert "pushed" in text
    assert "Bob owes a release" in text
    im = render.render_image(game, player_names=["Ann", "Bob"], last_events=events)
    check_discs(game, im)


# -- the panel and the states of a game --------------------------------------------------------------


def colour_count(im: Image.Image, colour, box) -> int:
    region = im.crop(box)
    return sum(n for n, c in region.getcolors(region.width * region.height) if distance(c, colour) < 6)


def panel_box(game, width: int = WIDTH) -> tuple[int, int, int, int]:
    g = rb.geometry(game.options["side"], width)
    return (0, g.board_bottom, width, g.height(game.players))


def test_finished_game_highlights_the_winner():
    board = board_for_side(5)
    cells = {name: (1 if i < 40 else 2) for i, name in enumerate(board.names)}
    game = Bide.from_position(2, {"side": 5}, {"board": cells})
    assert game.is_over and game.winners == (1,)
    im = decode(render.render_png(game, player_names=["Winner", "Loser"]))
    assert colour_count(im, panels.Theme().winner, panel_box(game)) > 1000
    assert colour_count(im, panels.Theme().highlight, panel_box(game)) == 0
    assert "Winner wins" in rb.status_line(game, ["Winner", "Loser"])
    check_discs(game, im)


def test_game_in_progress_highlights_the_seat_to_move():
    game = Bide.from_position(3, {"side": 5}, random_position(3, 5, seed=1) | {"to_move": 2})
    im = render.render_image(game)
    assert colour_count(im, panels.Theme().highlight, panel_box(game)) > 1000
    assert colour_count(im, panels.Theme().winner, panel_box(game)) == 0
    assert "Blue to move" in rb.status_line(game, rb.seat_names(3, None))


def test_resigned_seats_and_owed_releases():
    position = random_position(4, 5, seed=2) | {"to_move": 2, "owed": [2, 3], "resigned": [4], "hands": [1, 2, 3, 0]}
    game = Bide.from_position(4, {"side": 5}, position)
    names = ["Ann", "Bob", "Cy", "Dee"]
    assert "must release" in rb.status_line(game, names)
    im = decode(render.render_png(game, player_names=names))
    check_discs(game, im)  # a resigned seat's discs stay on the board


def test_resignation_ends_a_two_player_game():
    game = Bide.from_position(2, {"side": 5}, random_position(2, 5, seed=4))
    events = game.resign(1)
    assert game.is_over
    assert "by resignation" in rb.status_line(game, ["Ann", "Bob"])
    assert "Ann resigned" in rb.describe_last_turn(events, ["Ann", "Bob"])
    im = decode(render.render_png(game, player_names=["Ann", "Bob"], last_events=events))
    check_discs(game, im)


def test_names_the_font_cannot_draw_fall_back():
    # The bundled DejaVu Sans draws Latin, Greek and Cyrillic; emoji and CJK fall back.
    assert rb.seat_names(3, ["Zoë", "🎲🎲", ""]) == ["Zoë", "Blue", "Yellow"]
    assert rb.seat_names(3, ["Иван", "Κώστας", "李雷"]) == ["Иван", "Κώστας", "Yellow"]
    game = Bide.new(3)
    data = render.render_png(game, player_names=["Zoë", "🎲🎲", "x" * 200], title="Game 🎲 #12")
    assert decode(data).width >= 1000


# -- registry and animation ---------------------------------------------------------------------------------


def test_registry_dispatches_by_game_id():
    assert "bide" in render.registered()

    class Other:
        class info:
            id = "nosuchgame"

    with pytest.raises(render.UnknownGame):
        render.render_png(Other())
    calls = []

    def fake(game, **kw):
        calls.append(kw)
        return Image.new("RGB", (10, 10), (1, 2, 3))

    render.register("nosuchgame", fake)
    try:
        data = render.render_png(Other(), title="t")
        assert decode(data).size == (10, 10)
        assert calls[0]["title"] == "t" and calls[0]["width"] == render.DEFAULT_WIDTH
    finally:
        render._RENDERERS.pop("nosuchgame", None)


def test_gif_has_one_frame_per_turn():
    turns = ["e5", "a1", "bide", "i5", "c3,c4", "g2", "e4", "bide"]
    frames = replay(Bide.new(2), turns)
    assert len(frames) == len(turns) + 1
    data = render.render_gif(frames, player_names=["Ann", "Bob"])
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    assert gif.n_frames == len(frames)
    durations = []
    for k in range(gif.n_frames):
        gif.seek(k)
        durations.append(gif.info["duration"])
    assert durations[-1] > durations[0]
    # The last frame shows the final position.
    last = gif.convert("RGB")
    state = frames[-1][0]
    check_discs(state, last, width=render.GIF_WIDTH)


def test_gif_of_a_whole_game_stays_small():
    rng = random.Random(5)
    game = Bide.new(2, {"side": 4})
    turns = []
    while not game.is_over:
        points = [a for a in game.legal_actions() if a >= 0]
        i = game.to_move - 1
        if game.owed[i]:
            trial = game.copy()
            placed = []
            while not trial.is_over and trial.hands[i]:
                p = rng.choice([a for a in trial.legal_actions() if a >= 0])
                placed.append(trial.format_action(p))
                trial.apply_action(p)
            turn = ",".join(placed)
        else:
            turn = game.format_action(rng.choice(points))
        game.play_turn(turn)
        turns.append(turn)
    frames = replay(Bide.new(2, {"side": 4}), turns)
    data = render.render_gif(frames)
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == len(frames)
    assert len(data) < 40_000 * len(frames)


# -- read on a phone: values, group outlines, bold title ------------------------------------------


def ink_count(im, box, ink, tolerance=60) -> int:
    crop = im.crop(tuple(round(v) for v in box))
    flat = getattr(crop, "get_flattened_data", None)
    return sum(1 for p in (flat() if flat else crop.getdata()) if distance(p, ink) < tolerance)


def test_point_values_printed_on_discs():
    """A full board hides the values printed on the points: each disc prints its own."""
    game = Bide.from_position(2, {"side": 5}, {"board": {"a1": 2, "e5": 2}, "to_move": 1})
    im = render.render_image(game)
    sp = rb.point_spacing(game)
    boxes = {}
    for name in ("a1", "e5"):  # values 0 and 4, the same Blue disc
        x, y = rb.point_centre(game, name)
        boxes[name] = (x - sp * 0.12, y + sp * 0.06, x + sp * 0.12, y + sp * 0.32)
        assert ink_count(im, boxes[name], (255, 255, 255)) > 30, f"no value under the marker on {name}"
    a, e = (im.crop(tuple(round(v) for v in boxes[n])).tobytes() for n in ("a1", "e5"))
    assert a != e, "the two discs print different values"


def test_finished_game_outlines_each_seats_best_group():
    board = board_for_side(4)
    position = {"board": {name: 1 + (i * 7 // 3) % 3 for i, name in enumerate(board.names)}}
    game = Bide.from_position(3, {"side": 4}, position)
    assert game.is_over
    im = render.render_image(game)
    sp = rb.point_spacing(game)
    ring = sp * (rb.DISC_R + 0.045)  # the outline's middle
    best = {seat: set(rb.best_group(game, seat)) for seat in (1, 2, 3)}
    in_best = set().union(*best.values())

    def outlined(i, seat):
        x, y = rb.point_centre(game, board.names[i])
        points = [
            (round(x + ring * math.cos(math.radians(a))), round(y + ring * math.sin(math.radians(a))))
            for a in range(0, 360, 30)
        ]
        return sum(1 for xy in points if distance(im.getpixel(xy), rb.seat_colour(seat)) < 40)

    for seat, group in best.items():
        assert group
        for i in group:
            assert outlined(i, seat) >= 5, f"{board.names[i]} of seat {seat}'s best group is not outlined"
    for i in range(len(board)):
        near_best = i in in_best or any(j in in_best for j in board.neighbour_indices[i])
        if not near_best:
            assert outlined(i, game.cells[i]) == 0, f"{board.names[i]} is outlined but in no best group"
    # The panel prints each group's values, which add up to its score.
    names = rb.seat_names(3, None)
    cells = rb.panel_cells(game, names, [False] * 3, names)
    for seat in (1, 2, 3):
        values = rb.group_values(game, seat)
        assert cells[seat - 1][1] == "+".join(map(str, values))
        assert int(cells[seat - 1][2]) == sum(values) == int(game.scores()[seat - 1])
    assert "winner" in cells[game.winners[0] - 1][3]


def test_title_is_a_real_bold_face_with_the_dot_on_the_i():
    """The old faux-bold (a stroke) filled the gap under the dot: "Bide" read "Blde"."""
    assert td.font(30, bold=True).getname() == ("DejaVu Sans", "Bold")
    im = Image.new("RGB", (240, 120), (0, 0, 0))
    panels.draw_title_bar(im, 120, "i", "subtitle")
    ink = [[hd.luminance(im.getpixel((x, y))) > 0.8 for x in range(im.width)] for y in range(int(120 * 0.55))]
    columns = [x for x in range(im.width) if any(row[x] for row in ink)]
    middle = (columns[0] + columns[-1]) // 2
    runs, inside = 0, False
    for row in ink:
        if row[middle] and not inside:
            runs += 1
        inside = row[middle]
    assert runs == 2, "the dot and the stem of the i are apart"


def test_turn_counter_and_last_move_ring_are_shared():
    game = Bide.new(2)
    events = game.play_turn("e5")
    assert rb.status_line(game, ["A", "B"]).startswith("Turn 2 ·")
    assert rb.LAST_RING == sprites.LAST_MOVE_RING and rb.LAST_RING_HALO == sprites.LAST_MOVE_HALO
    assert render.render_image(game, last_events=events).width == rb.DEFAULT_WIDTH
