"""Bump's picture: decode the PNG with Pillow and look at the pixels."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from games.bump import COORDS, INDEX, Bump, gate_part
from render import bump as rb
from render import bump_board
from render import hexdraw as hd

NAMES = ["alice", "bob"]


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def near(pixel, colour, tolerance: float = 40.0) -> bool:
    return math.dist(pixel[:3], colour[:3]) < tolerance


def game(pieces, to_move=1, **extra):
    return Bump.from_position(2, None, {"pieces": pieces, "to_move": to_move, **extra})


def centre_of(space: str, facing: int | None = None, width: int = bump_board.DEFAULT_WIDTH):
    lay = bump_board.geometry(width).layout
    i = INDEX[space]
    cells = COORDS[i]
    cell = cells[gate_part(i, facing)] if facing is not None and len(cells) == 2 else cells[0]
    return lay.centre(cell)


def at(im, point, dx=0.0, dy=0.0):
    return im.getpixel((round(point[0] + dx), round(point[1] + dy)))


def blind_side(im, centre, facing, sp, out=0.36):
    """A pixel of the disc opposite the bumper, off the space's name (written across the middle):
    of the points 0.36 spacing out towards the back, ±50° around it, the one farthest from the
    horizontal middle."""
    back = 60 * facing + 180
    angle = max((back - 50, back + 50), key=lambda a: abs(math.sin(math.radians(a))))
    return at(im, centre, math.cos(math.radians(angle)) * sp * out, math.sin(math.radians(angle)) * sp * out)


def share_near(im, centre, radius, colour, tolerance=60.0) -> float:
    """The share of the pixels within ``radius`` of ``centre`` that are near ``colour``."""
    cx, cy = centre
    r = int(radius)
    points = [(x, y) for x in range(-r, r + 1, 2) for y in range(-r, r + 1, 2) if x * x + y * y <= r * r]
    return sum(near(im.getpixel((round(cx + x), round(cy + y))), colour, tolerance) for x, y in points) / len(points)


def test_registered_and_small_enough():
    assert "bump" in render.registered()
    data = render.render_png(Bump.new(), player_names=NAMES)
    assert len(data) < 300_000
    im = decode(data)
    assert im.width == bump_board.DEFAULT_WIDTH and im.height == bump_board.geometry(bump_board.DEFAULT_WIDTH).height
    small = decode(render.render_png(Bump.new(), player_names=NAMES, width=400))
    assert small.width == 400


def test_pieces_in_two_colours_with_the_bumper_on_the_facing_edge():
    im = decode(render.render_png(Bump.new(), player_names=NAMES))
    sp = bump_board.geometry(bump_board.DEFAULT_WIDTH).spacing
    for space, seat, facing in (("01", 1, 0), ("11", 1, 1), ("09", 2, 3), ("091", 2, 4)):
        c = centre_of(space)
        ux, uy = math.cos(math.radians(60 * facing)), math.sin(math.radians(60 * facing))
        bumper = at(im, c, ux * sp * 0.36, uy * sp * 0.36)
        blind = blind_side(im, c, facing, sp)
        assert near(bumper, bump_board.BUMPER), (space, bumper)
        assert near(blind, bump_board.PIECE[seat - 1]), (space, blind)
    assert math.dist(bump_board.PIECE[0], bump_board.PIECE[1]) > 150


def test_centres_are_marked_with_their_owners_colour():
    im = decode(render.render_png(game({"02": [1, 0], "08": [2, 3]}), player_names=NAMES))
    sp = bump_board.geometry(bump_board.DEFAULT_WIDTH).spacing
    for space, seat in (("C1", 0), ("C2", 1)):
        ring = at(im, centre_of(space), sp * 0.37, 0)
        assert near(ring, bump_board.PIECE[seat], 60), (space, ring)


@pytest.mark.parametrize("facing", range(6))
def test_a_gate_piece_is_drawn_in_the_part_its_bumper_faces(facing):
    """The rules: a piece on a gate is drawn solid in the part its bumper faces (facings f, f ± 1
    beside area 2 for gate f), and only there; the other part holds its pale twin."""
    im = decode(render.render_png(game({"15": [1, facing], "39": [2, 0]}), player_names=NAMES))
    sp = bump_board.geometry(bump_board.DEFAULT_WIDTH).spacing
    drawn = COORDS[INDEX["15"]][gate_part(INDEX["15"], facing)]
    other = next(c for c in COORDS[INDEX["15"]] if c != drawn)
    lay = bump_board.geometry(bump_board.DEFAULT_WIDTH).layout
    assert near(blind_side(im, lay.centre(drawn), facing, sp), bump_board.PIECE[0])
    # solid: mostly blue inside the rim; the other part: a pale twin, next to no blue
    assert share_near(im, lay.centre(drawn), sp * 0.36, bump_board.PIECE[0]) > 0.4
    assert share_near(im, lay.centre(other), sp * 0.36, bump_board.PIECE[0]) < 0.05
    # facings 1, 0 and 2 face area 2: the part beside area 2 (x > the middle)
    assert (lay.centre(drawn)[0] > lay.centre(COORDS[INDEX["05"]][0])[0]) == (facing in (0, 1, 2))


@pytest.mark.parametrize("facing", [0, 3])
def test_the_other_part_of_an_occupied_gate_shows_the_pieces_twin(facing):
    """Issue 26: the copy of a gate without the piece looked empty. It holds a pale twin: a tinted
    disc ringed in the seat's colour, its bumper darker on the same edge, its name written on it."""
    g = game({"25": [2, facing], "02": [1, 0]})
    im = decode(render.render_png(g, player_names=NAMES))
    empty = decode(render.render_png(game({"02": [1, 0], "39": [2, 0]}), player_names=NAMES))
    sp = bump_board.geometry(bump_board.DEFAULT_WIDTH).spacing
    lay = bump_board.geometry(bump_board.DEFAULT_WIDTH).layout
    cells = COORDS[INDEX["25"]]
    twin = lay.centre(cells[1 - gate_part(INDEX["25"], facing)])
    ux, uy = hd.SCREEN_DIRECTIONS[facing]
    blind = blind_side(im, twin, facing, sp, 0.33)
    assert near(blind, bump_board.twin_fill(2), 20) and not near(blind, bump_board.PIECE[1], 60), blind
    assert not near(blind_side(empty, twin, facing, sp, 0.33), bump_board.twin_fill(2), 20)  # an empty gate has none
    rim = blind_side(im, twin, facing, sp, 0.415)  # the rim, opposite the bumper
    assert near(rim, bump_board.PIECE[1], 60), rim
    bumper = at(im, twin, ux * sp * 0.36, uy * sp * 0.36)
    assert sum(bumper) < sum(blind) - 150, (bumper, blind)  # the bumper, darker, where it faces
    name = [at(im, twin, dx * sp, 0) for dx in (-0.2, -0.15, -0.1, -0.05, 0.0, 0.05, 0.1, 0.15, 0.2)]
    assert any(near(p, bump_board.twin_ink(2), 40) for p in name), name


def test_a_piece_bumped_onto_a_gate_gets_its_arrow_where_it_is_drawn_solid():
    """Issue 26: the chain 28→27, 26→25 put an Orange piece facing 0 on gate 25, drawn (as the rules
    say) on the copy beside area 1, while the bump arrow pointed at the empty copy beside area 2.
    The arrow now goes under the twin, out of its open side and back in through the solid copy's
    open side: its head is at the solid piece's rim, none at the twin's."""
    g = game({"29": [1, 0], "28": [2, 5], "26": [2, 0], "02": [1, 0], "08": [2, 3]})
    events = g.play_turn("29-5")
    assert [(e.src, e.dst) for e in events if e.kind == "bump"] == [("28", "27"), ("26", "25")]
    im = decode(render.render_png(g, player_names=NAMES, last_events=events))
    sp = bump_board.geometry(bump_board.DEFAULT_WIDTH).spacing
    lay = bump_board.geometry(bump_board.DEFAULT_WIDTH).layout
    cells = COORDS[INDEX["25"]]
    solid, twin = lay.centre(cells[0]), lay.centre(cells[1])
    assert gate_part(INDEX["25"], 0) == 0 and near(blind_side(im, solid, 0, sp), bump_board.PIECE[1])
    # the head comes in from below left of the solid copy (its open side), up to its rim
    ux, uy = hd.SCREEN_DIRECTIONS[bump_board.gate_link_side(INDEX["25"], 0)]
    assert any(near(at(im, solid, ux * sp * t, uy * sp * t), rb.BUMP, 50) for t in (0.5, 0.55, 0.6)), "no head"
    # ... and none sits on the twin's rim facing 26, where the arrow came in
    (ax, ay), (bx, by) = centre_of("26"), twin
    n = math.dist((ax, ay), (bx, by))
    entry = at(im, twin, (ax - bx) / n * sp * 0.38, (ay - by) / n * sp * 0.38)
    assert not near(entry, rb.BUMP, 60), entry


def test_the_chain_is_drawn_numbered_with_ghosts_and_crosses():
    g = game({"02": [1, 1], "03": [2, 0], "05": [2, 1], "06": [2, 0], "031": [2, 5], "39": [2, 0]})
    events = g.play_turn("02-0")
    im = decode(render.render_png(g, player_names=NAMES, last_events=events))
    sp = bump_board.geometry(bump_board.DEFAULT_WIDTH).spacing
    # bump 1 pushes 03 east to 04: its badge sits on the upper corner of the side between them,
    # where three cells meet, off every name
    a, b = centre_of("03"), centre_of("04")
    c = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - sp * 0.5 / math.sqrt(3))
    assert any(near(at(im, c, dx * sp, dy * sp), rb.BUMP, 40) for dx in (-0.1, 0.1) for dy in (-0.06, 0.06))
    # a red cross over the ghosts on 05 and 04 (its arms reach out beyond the name written over it)
    for space in ("05", "04"):
        c = centre_of(space)
        crossed = [at(im, c, s * sp * 0.27, t * sp * 0.27) for s in (-1, 1) for t in (-1, 1)]
        assert any(near(p, rb.CROSS, 60) for p in crossed), (space, crossed)
    # no ghost without a capture: the same position without last events has no cross
    plain = decode(render.render_png(g, player_names=NAMES))
    c = centre_of("05")
    assert not any(near(at(plain, c, s * sp * 0.27, t * sp * 0.27), rb.CROSS, 60) for s in (-1, 1) for t in (-1, 1))


def test_path_and_rotation_are_drawn_in_violet():
    g = game({"02": [1, 0], "39": [2, 0]})
    events = g.play_turn("02,04-1")
    im = decode(render.render_png(g, player_names=NAMES, last_events=events))
    # the path runs straight 02 → 03 → 04: seen between the names (written over it) of 02, 03 and 04
    for a, b in (("02", "03"), ("03", "04")):
        (ax, ay), (bx, by) = centre_of(a), centre_of(b)
        assert near(at(im, ((ax + bx) / 2, (ay + by) / 2)), rb.PATH, 60), (a, b)


def test_panel_words_and_guard_call():
    g = game({"08": [1, 0], "39": [2, 0], "29": [2, 4]})
    events = g.play_turn("08,C2")
    names = rb.seat_names(NAMES)
    assert rb.guard_applies(g, events)
    assert rb.last_move_line(g, events, names) == "Last: alice (Blue) 08,C2: bumps 39 to 38"
    g.play_turn("pass")
    assert g.is_over and rb.status_line(g, names) == "Game over · alice (Blue) wins on the centre"
    quiet = game({"02": [1, 0], "39": [2, 0]})
    events = quiet.play_turn("02,03")
    assert not rb.guard_applies(quiet, events)
    assert rb.last_move_line(quiet, events, names) == "Last: alice (Blue) 02,03: no bumps"


def test_every_random_position_renders_under_the_size_limit():
    import random

    rng = random.Random(5)
    g = Bump.new(options={"reserve1": 1})
    events = []
    for _ in range(60):
        if g.is_over:
            break
        events = g.play_turn(g.format_action(g.random_action(rng)))
    data = render.render_png(g, player_names=["a" * 40, "Zoë 🎲"], last_events=events)
    assert len(data) < 300_000
    decode(data)


def test_a_gif_replay_of_a_bump_game():
    import random

    rng = random.Random(2)
    g = Bump.new()
    frames = [(g.copy(), [])]
    for _ in range(4):
        events = g.play_turn(g.format_action(g.random_action(rng)))
        frames.append((g.copy(), events))
    data = render.render_gif(frames, player_names=NAMES)
    im = Image.open(io.BytesIO(data))
    assert data[:3] == b"GIF" and im.n_frames == 5


def test_the_winning_pass_says_who_won():
    g = game({"08": [1, 0], "39": [2, 0], "29": [2, 4]})
    g.play_turn("08,C2")
    events = g.play_turn("pass")
    line = rb.last_move_line(g, events, rb.seat_names(NAMES))
    assert line == "Last: bob (Orange) pass: Blue stands on C2 and wins."


@pytest.mark.parametrize("space", ["44", "431", "23", "02", "122"])
def test_space_names_are_large_enough_for_a_phone(space):
    """Players type space names: scaled to 400 px wide (a phone), a name's digits stay at least
    7 px tall (they were 5.6 px), on empty cells and on pieces (white on blue) alike."""
    im = decode(render.render_png(game({"02": [1, 3], "122": [1, 3]}), player_names=NAMES))
    sp = bump_board.geometry(bump_board.DEFAULT_WIDTH).spacing
    x, y = centre_of(space)
    on_piece = space in ("02", "122")
    colour = (255, 255, 255) if on_piece else bump_board.NAME_INK
    w, h = sp * (0.3 if on_piece else 0.4), sp * (0.3 if on_piece else 0.36)  # inside the disc / the cell
    rows = [
        yy
        for yy in range(int(y - h), int(y + h))
        if any(near(im.getpixel((xx, yy)), colour, 30) for xx in range(int(x - w), int(x + w)))
    ]
    assert rows, space
    height = rows[-1] - rows[0] + 1
    assert height * 400 / bump_board.DEFAULT_WIDTH >= 7.0, (space, height)


@pytest.mark.parametrize(
    ("pieces", "turn"),
    [
        ({"29": [1, 0], "28": [2, 5], "26": [2, 0], "02": [1, 0], "08": [2, 3]}, "29-5"),
        ({"02": [1, 1], "03": [2, 0], "05": [2, 1], "06": [2, 0], "031": [2, 5], "39": [2, 0]}, "02-0"),
        ({"02": [2, 0], "021": [2, 5], "04": [1, 4], "39": [2, 0]}, "04,03-4"),  # a choice and its badge
    ],
)
def test_the_last_turns_marks_leave_every_name_whole(pieces, turn):
    """Issue 26: bump arrows and their numbers covered the names of the spaces they cross. Every
    letter of every name (its ink in the picture without the last turn's marks) is unchanged by
    the arrows, numbers, arcs and crossed ghosts."""
    g = game(pieces)
    events = g.play_turn(turn)
    marked = decode(render.render_png(g, player_names=NAMES, last_events=events))
    plain = decode(render.render_png(g, player_names=NAMES))
    sp = bump_board.geometry(bump_board.DEFAULT_WIDTH).spacing
    lay = bump_board.geometry(bump_board.DEFAULT_WIDTH).layout
    inks = (
        bump_board.NAME_INK,
        bump_board.GATE_INK,
    )  # the names of empty spaces (a piece's name is written after the marks)

    def within(im, colour, tolerance=12):  # "1" where every channel of ``im`` is within ``tolerance``
        diff = ImageChops.difference(im, Image.new("RGB", im.size, colour)).split()
        return ImageChops.lighter(ImageChops.lighter(diff[0], diff[1]), diff[2]).point(lambda v: 255 * (v < tolerance))

    windows = Image.new("L", plain.size, 0)
    draw = ImageDraw.Draw(windows)
    for cells in COORDS:
        for cell in cells:
            cx, cy = lay.centre(cell)
            draw.rectangle((cx - sp * 0.42, cy - sp * 0.2, cx + sp * 0.42, cy + sp * 0.2), fill=255)
    letters = ImageChops.multiply(ImageChops.lighter(*(within(plain, ink) for ink in inks)), windows)
    changed = ImageChops.difference(plain, marked).split()
    changed = ImageChops.lighter(ImageChops.lighter(changed[0], changed[1]), changed[2]).point(
        lambda v: 255 * (v >= 12)
    )
    hidden = ImageChops.multiply(letters, changed)
    checked = letters.histogram()[255]
    assert hidden.getbbox() is None, (hidden.getbbox(), hidden.histogram()[255])
    assert checked > 20000
