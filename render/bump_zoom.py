"""Bump's zoom: part of the board at twice the scale, so that a phone reads every name (issue 37).

The whole board is two areas side by side: 128 names in a picture a phone shows 400 px wide, a cell
18 px there and a three-digit name's digits narrowed to about 5 px. A zoomed picture shows the board
:data:`ZOOM` times larger: its whole height (both areas are 9 rows, their gates above and below) and as
much of its width as the picture holds, about one area with its gates, around the part where the play is
(``zoom="last"``) or a space a player names. The title bar says so ("· around 582, ×2"); the panel under it
is the same as the whole board's.

The zoomed board is the cached background of a picture :data:`ZOOM` times wider, cropped: nothing is
drawn twice, and every mark, piece and name is drawn by :func:`render.bump.draw_position` on a geometry
whose layout is that larger board's, moved to the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from games.bump import COORDS, INDEX, NAMES
from games.bumpboard import SpaceNameError, parse_space
from games.interface import Event
from i18n import t

from . import hexdraw as hd
from .bump import draw_position, seat_names
from .bump_board import DEFAULT_WIDTH, PAGE, Geometry, board_background, geometry, piece_cell

ZOOM = 2
MIDDLE = "05"  # gate 0, between the areas: where a zoom with no last turn to show looks
AREA_EDGE = 5  # gate 0's column, in cells from C1: area 1 (and its gates) left of it, area 2 right
MOVED = ("shift", "rotate", "reinforce")  # events of the mover's own piece: it ends where the last of them says


def render(
    game,
    *,
    player_names: Sequence[str] | None = None,
    last_events: Sequence[Event] = (),
    title: str | None = None,
    width: int = DEFAULT_WIDTH,
    zoom: str | None = None,
) -> Image.Image:
    """The picture of a Bump game; with ``zoom`` (``"last"`` or a space's name: ValueError if it names
    none) its board part shows the board :data:`ZOOM` times larger around that place."""
    events = list(last_events)
    if zoom is None:
        g = geometry(width)
        im = hd.new_picture(board_background(g.width))
        draw_position(im, g, game, seat_names(player_names), events, title)
        return im
    space, left = zoom_window(game, zoom, events, width)
    g = zoom_geometry(width, left)
    big = geometry(g.width * ZOOM)
    im = hd.new_picture(zoom_page(g.width))
    im.paste(board_background(big.width).crop((left, big.title_h, left + g.width, big.board_bottom)), (0, g.title_h))
    hd.touch(im, (0, g.title_h, g.width, g.board_bottom))
    zoomed = t(" · around {cell}, ×{zoom}", cell=space, zoom=ZOOM)
    draw_position(im, g, game, seat_names(player_names), events, title, zoomed)
    return im


def zoom_helps(game) -> bool:
    """Always: the whole board's names are too small for a phone (the module's docstring)."""
    return True


@lru_cache(maxsize=64)
def zoom_geometry(width: int, left: int) -> Geometry:
    """A zoomed picture's geometry: the title bar and panel of a ``width`` picture, the board :data:`ZOOM`
    times larger with its pixel column ``left`` at the picture's left edge (its whole height shown)."""
    g = geometry(width)
    big = geometry(g.width * ZOOM)
    origin = (big.layout.origin[0] - left, big.layout.origin[1] - big.title_h + g.title_h)
    board_bottom = g.title_h + big.board_bottom - big.title_h
    return Geometry(g.width, g.title_h, hd.HexLayout(big.layout.size, origin), board_bottom, g.row_h, g.line_h, g.lines)


@lru_cache(maxsize=4)
def zoom_page(width: int) -> Image.Image:
    """A zoomed picture before anything is drawn on it (it must stay unchanged: see hexdraw.new_picture)."""
    g = zoom_geometry(width, 0)
    return Image.new("RGB", (g.width, g.height), PAGE)


def zoom_window(game, zoom: str, last_events: Sequence[Event] = (), width: int = DEFAULT_WIDTH) -> tuple[str, int]:
    """(the space the zoom is said to be around, the pixel column of the larger board at the picture's left).

    ``"last"``: where the mover's piece ended and every space the last turn touched (bumps, captures);
    before any turn, or after a pass, the pieces of the player to move (the board's middle when none).
    A space's name: that space (a gate's part where its piece is drawn solid). When all of it lies in one
    area (its gates beside it included) the window shows that whole area; else it is centred on all of it,
    keeping the first space whole."""
    g = geometry(width)
    big = geometry(g.width * ZOOM)
    lay = big.layout
    space, cells = _focus(game, zoom, last_events)
    across = [q + r / 2 for q, r in cells]  # left to right, in cells: C1 at 0, gate 05 at 5, C2 at 10
    if max(across) < AREA_EDGE or min(across) > AREA_EDGE:
        middle = lay.centre((0, 0) if max(across) < AREA_EDGE else (2 * AREA_EDGE, 0))[0]
    else:
        middle = lay.centre(((min(across) + max(across)) / 2, 0))[0]
    keep, room = lay.centre(cells[0])[0], g.width / 2 - lay.spacing  # the first cell stays whole in the window
    middle = min(max(middle, keep - room), keep + room)
    return NAMES[space], round(min(max(middle - g.width / 2, 0), big.width - g.width))


def _focus(game, zoom: str, last_events: Sequence[Event]) -> tuple[int, list[tuple[int, int]]]:
    """(the space named, the drawn cells to show: the named space's first)."""
    if zoom.strip().lower() != "last":
        try:
            space = parse_space(zoom)
        except SpaceNameError as error:
            raise ValueError(f"no Bump space {zoom!r}") from error
        return space, [_drawn_cell(game, space)]
    touched = [
        INDEX[name]
        for e in last_events
        for name in (e.src, e.dst, e.cell)
        if name in INDEX and e.kind in (*MOVED, "bump", "capture")
    ]
    if not touched:  # nothing moved last (the start, a pass): the pieces of the player to move
        return _pieces_of(game, game.to_move)
    ends = [INDEX[end] for e in last_events if e.kind in MOVED and (end := e.dst or e.cell) in INDEX]
    space = ends[-1] if ends else touched[0]
    first = _drawn_cell(game, space)
    return space, [first] + [_drawn_cell(game, other, near=first) for other in touched]


def _pieces_of(game, seat: int | None) -> tuple[int, list[tuple[int, int]]]:
    """The pieces of ``seat`` (the one nearest their middle first), else the middle of the board."""
    b = game.board
    spaces = [space for space, pid in enumerate(b.cells) if pid >= 0 and b.owner[pid] == seat]
    if not spaces:
        return INDEX[MIDDLE], [_drawn_cell(game, INDEX[MIDDLE])]
    cells = [_drawn_cell(game, space) for space in spaces]
    mq = sum(q for q, _ in cells) / len(cells)
    mr = sum(r for _, r in cells) / len(cells)
    first = min(range(len(cells)), key=lambda k: (cells[k][0] - mq) ** 2 + (cells[k][1] - mr) ** 2)
    return spaces[first], [cells[first]] + cells


def _drawn_cell(game, space: int, near: tuple[int, int] | None = None) -> tuple[int, int]:
    """Where ``space`` is drawn: a gate's part where its piece is solid, else the part nearest ``near``."""
    cells = COORDS[space]
    pid = game.board.cells[space]
    if len(cells) == 1:
        return cells[0]
    if pid >= 0:
        return piece_cell(space, game.board.facing[pid])
    if near is None:
        return cells[0]
    return min(cells, key=lambda c: abs(c[0] - near[0]) + abs(c[1] - near[1]))
