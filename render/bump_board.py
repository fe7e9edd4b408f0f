"""Bump's board on a picture: where each space and piece is drawn, and how.

The static part (the spaces with their names, the walls drawn thick, the six
gates — gate 0 once between the areas, the others twice, once beside each
area, each part open on the side that leads to the other part and marked with
a stub arrow and the same tint —, the centres ringed in their owner's colour)
depends only on the width: it is drawn once, supersampled, and cached
(:func:`board_background`).

A piece is a disc in its seat's colour (Okabe–Ito blue and orange, safe for
colour-blind players) with a thick dark bar across the edge its bumper faces;
the space's name is written on it, since players type the names of the pieces
they move. A piece on a gate is drawn solid in the part of the gate its bumper
faces (:func:`games.bump.gate_part`), and as a pale twin — a tinted disc with
a rim in its colour, the same bumper, its name — in the other part, so that
both copies show the gate taken. The names a last turn's marks cross are
written again over them (:func:`relabel`). The colours, sizes and sprites here are also
those of Bump's scene (render/scenes/bump.py); the picture of a position is
render/bump.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.bump import (
    AREAS,
    C1,
    C2,
    COORDS,
    INDEX,
    NAMES,
    NEIGHBOURS,
    gate_part,
)
from games.interface import Event

from . import hexdraw as hd
from . import panels, sprites
from . import textdraw as td

DEFAULT_WIDTH = 1080
MIN_WIDTH = 320

THEME = panels.Theme()
PAGE = THEME.background
CELL_FILL = (236, 229, 212)
CELL_LINE = (186, 172, 146)
GATE_FILL = (208, 226, 206)
WALL = (58, 46, 36)
NAME_INK = (96, 78, 52)
GATE_INK = (50, 90, 50)
PIECE = ((0, 114, 178), (230, 159, 0))  # Okabe–Ito blue and orange
CENTRE_TINT = tuple(hd.mix(c, CELL_FILL, 0.55) for c in PIECE)
PIECE_OUTLINE = (30, 30, 34)
BUMPER = (22, 22, 26)
PATH = (125, 60, 152)  # violet: the mover's path and rotation
BUMP = (204, 0, 102)  # reddish purple: bumps
CROSS = (200, 20, 20)
OPTION = (120, 120, 126)
# a gate piece's twin (in the part its bumper does not face): a pale disc, a dark name
TWIN_FILL = tuple(hd.mix(c, GATE_FILL, 0.72) for c in PIECE)
TWIN_INK = tuple(hd.mix(c, (0, 0, 0), 0.45) for c in PIECE)

PIECE_R = 0.44  # of the spacing between neighbouring centres
BUMPER_SPREAD = 50  # degrees either side of the facing: the bar covers the facing edge and more
BUMPER_DEPTH = 0.56  # the bar's inner edge, of the piece's radius
NAME_SIZE = 0.64  # players type these names: as large as a cell allows, for phones
CELL_NAME_W = 0.86  # widest name, of the spacing: narrowed to fit (textdraw.draw_label)
PIECE_NAME_W = 0.78
NAME_SQUEEZE = 0.6  # three-digit names are narrowed to this much of their width before they shrink
WALL_W = 0.10
LINE_W = 0.03


def _drawn_cells() -> list[tuple[int, int, tuple[int, int]]]:
    """(space, part, cell) for every drawn cell; a gate has one or two parts."""
    out = []
    for i, cells in enumerate(COORDS):
        for part, cell in enumerate(cells):
            out.append((i, part, cell))
    return out


DRAWN = _drawn_cells()


@dataclass(frozen=True)
class Geometry:
    width: int
    title_h: int
    layout: hd.HexLayout
    board_bottom: int
    row_h: int
    line_h: int
    lines: int

    @property
    def spacing(self) -> float:
        return self.layout.spacing

    @property
    def height(self) -> int:
        return int(self.board_bottom + self.row_h * 3 + self.line_h * (self.lines * 0.8 + 0.6))


@lru_cache(maxsize=8)
def geometry(width: int) -> Geometry:
    width = max(MIN_WIDTH, int(width))
    title_h = int(width * 0.085)
    pad = width * 0.015
    lay, bottom = hd.HexLayout.fit([c for _, _, c in DRAWN], width, left=pad, right=pad, top=title_h + pad, halo=1.05)
    row_h = max(18, int(width * 0.05))
    return Geometry(width, title_h, lay, int(bottom + pad), row_h, int(row_h * 0.82), 4)


def _edge(lay: hd.HexLayout, cell, direction: int) -> tuple[hd.Point, hd.Point]:
    """The two corners of ``cell``'s side facing ``direction`` (pointy-top corners at 60k − 30°)."""
    corners = lay.corners(cell)
    return corners[direction], corners[(direction + 1) % 6]


def gate_link_side(space: int, part: int) -> int:
    """The side of a gate part that leads to the other part (no wall, no drawn neighbour)."""
    f = int(NAMES[space][0])
    return f if part == 0 else (f + 3) % 6


@lru_cache(maxsize=4)
def board_background(width: int) -> Image.Image:
    g = geometry(width)
    canvas = hd.Canvas(g.width, g.height, PAGE)
    lay = g.layout
    sp = g.spacing
    for i, _part, cell in DRAWN:
        fill = CELL_FILL
        if AREAS[i] == 0:
            fill = GATE_FILL
        elif i == C1:
            fill = CENTRE_TINT[0]
        elif i == C2:
            fill = CENTRE_TINT[1]
        canvas.polygon(lay.corners(cell), fill=fill, outline=CELL_LINE, width=max(1.0, sp * LINE_W))
    for i, seat in ((C1, 0), (C2, 1)):
        centre = lay.centre(COORDS[i][0])
        canvas.circle(centre, sp * 0.40, outline=PIECE[seat], width=max(2.0, sp * 0.07))
    # Walls: every side with no neighbour, except the side of a gate part leading to its twin.
    for i, part, cell in DRAWN:
        for d in range(6):
            if NEIGHBOURS[i][d] >= 0:
                continue
            if AREAS[i] == 0 and len(COORDS[i]) == 2 and d == gate_link_side(i, part):
                continue
            canvas.line(list(_edge(lay, cell, d)), fill=WALL, width=max(2.0, sp * WALL_W), round_caps=True)
    # Gate parts: a stub arrow out of the open side, towards the twin part.
    for i, part, cell in DRAWN:
        if AREAS[i] == 0 and len(COORDS[i]) == 2:
            d = gate_link_side(i, part)
            a, b = _edge(lay, cell, d)
            canvas.line([a, b], fill=(96, 140, 96), width=max(1.5, sp * 0.05))
            cx, cy = lay.centre(cell)
            ux, uy = hd.SCREEN_DIRECTIONS[d]
            canvas.arrow(
                (cx + ux * sp * 0.5, cy + uy * sp * 0.5),
                (cx + ux * sp * 0.78, cy + uy * sp * 0.78),
                fill=(96, 140, 96),
                width=max(1.5, sp * 0.06),
                head=sp * 0.16,
            )
    im = canvas.image()
    for i, _part, cell in DRAWN:
        td.draw_label(
            im, lay.centre(cell), NAMES[i], name_size(sp), cell_name_ink(i), sp * CELL_NAME_W, NAME_SQUEEZE, bold=True
        )
    return im


@lru_cache(maxsize=64)
def piece_sprite(seat: int, facing: int, spacing: float, ghost: bool = False) -> Image.Image:
    """A piece: a disc in the seat's colour, a thick dark bar across the edge its bumper faces."""
    k = sprites.SPRITE_SUPERSAMPLE
    r = spacing * PIECE_R
    size = math.ceil(2 * r + 4)
    big = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * k / 2
    rr = r * k
    alpha = 110 if ghost else 255
    colour = PIECE[seat - 1] + (alpha,)
    d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=PIECE_OUTLINE + (alpha,))
    inner = rr - max(1.5, spacing * 0.035) * k
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=colour)
    # the bumper: a thick bar along the rim, over the edge it faces (an annular sector), set off
    # from the disc by a light line so that it reads on a phone, on blue as on orange
    theta = math.radians(60 * facing)
    spread = math.radians(BUMPER_SPREAD)
    steps = [theta - spread + 2 * spread * t / 16 for t in range(17)]

    def sector(depth: float) -> list[tuple[float, float]]:
        outer = [(c + rr * math.cos(a), c + rr * math.sin(a)) for a in steps]
        return outer + [(c + rr * depth * math.cos(a), c + rr * depth * math.sin(a)) for a in reversed(steps)]

    d.polygon(sector(BUMPER_DEPTH - 0.1), fill=(255, 255, 255, alpha))
    d.polygon(sector(BUMPER_DEPTH), fill=BUMPER + (alpha,))
    return big.resize((size, size), Image.Resampling.LANCZOS)


def twin_fill(seat: int) -> tuple[int, int, int]:
    return TWIN_FILL[seat - 1]


def twin_ink(seat: int) -> tuple[int, int, int]:
    return TWIN_INK[seat - 1]


@lru_cache(maxsize=64)
def twin_sprite(seat: int, facing: int, spacing: float) -> Image.Image:
    """A gate piece's twin, in the part its bumper does not face: a pale disc ringed in the seat's
    colour, its bumper a lighter bar on the same edge — the gate is taken, the piece is elsewhere."""
    k = sprites.SPRITE_SUPERSAMPLE
    r = spacing * PIECE_R
    size = math.ceil(2 * r + 4)
    big = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * k / 2
    rr = r * k
    d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=PIECE[seat - 1] + (255,))
    inner = rr - max(2.0, spacing * 0.07) * k
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=twin_fill(seat) + (255,))
    theta = math.radians(60 * facing)
    spread = math.radians(BUMPER_SPREAD)
    steps = [theta - spread + 2 * spread * t / 16 for t in range(17)]
    depth = BUMPER_DEPTH + 0.14
    outer = [(c + rr * math.cos(a), c + rr * math.sin(a)) for a in steps]
    d.polygon(
        outer + [(c + rr * depth * math.cos(a), c + rr * depth * math.sin(a)) for a in reversed(steps)],
        fill=hd.mix(BUMPER, twin_fill(seat), 0.35) + (255,),
    )
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def twin_piece(seat: int, facing: int, spacing: float, name: str) -> Image.Image:
    """A twin with its space's name (players may look for the piece on either copy)."""
    sprite = twin_sprite(seat, facing, spacing).copy()
    _piece_label(sprite, (sprite.width / 2, sprite.height / 2), seat, facing, spacing, name, twin=True)
    return sprite


def name_ink(seat: int) -> tuple[int, int, int]:
    return (255, 255, 255) if seat == 1 else (20, 20, 20)


# -- where things are drawn ---------------------------------------------------------------------------


def piece_cell(space: int, facing: int) -> tuple[int, int]:
    """The drawn cell of a piece: on a gate, the part its bumper faces (its twin goes in the other)."""
    cells = COORDS[space]
    return cells[gate_part(space, facing)] if len(cells) == 2 else cells[0]


def space_centre(name: str, width: int = DEFAULT_WIDTH, near: hd.Point | None = None) -> hd.Point:
    """Pixel centre of a space; for a two-part gate, the part nearest ``near`` (else the first)."""
    lay = geometry(width).layout
    cells = COORDS[INDEX[name]]
    if near is None or len(cells) == 1:
        return lay.centre(cells[0])
    return min((lay.centre(c) for c in cells), key=lambda p: math.dist(p, near))


def name_size(spacing: float) -> int:
    """The font size of a space's name (players type these: as large as a cell allows)."""
    return max(7, int(spacing * NAME_SIZE))


@lru_cache(maxsize=1024)
def named_piece(seat: int, facing: int, spacing: float, name: str) -> Image.Image:
    """A piece with its space's name written on it (cached: one sprite to paste, as fast as a bare
    piece)."""
    sprite = piece_sprite(seat, facing, spacing).copy()
    _piece_label(sprite, (sprite.width / 2, sprite.height / 2), seat, facing, spacing, name)
    return sprite


def _piece_label(
    im: Image.Image, centre: hd.Point, seat: int, facing: int, spacing: float, name: str, twin: bool = False
) -> None:
    """A piece's name, nudged away from its bumper and outlined in the piece's colour, so that it
    reads where it crosses the bumper bar or a mark (a twin's: dark on its pale disc)."""
    ux, uy = hd.SCREEN_DIRECTIONS[facing]
    td.draw_label(
        im,
        (centre[0] - ux * spacing * 0.07, centre[1] - uy * spacing * 0.07),
        name,
        name_size(spacing),
        twin_ink(seat) if twin else name_ink(seat),
        spacing * PIECE_NAME_W,
        min_squeeze=NAME_SQUEEZE,
        bold=True,
        halo=twin_fill(seat) if twin else PIECE[seat - 1],
        halo_width=max(1, round(spacing * 0.04)),
    )


def cell_fill(space: int) -> tuple[int, int, int]:
    if AREAS[space] == 0:
        return GATE_FILL
    if space == C1:
        return CENTRE_TINT[0]
    if space == C2:
        return CENTRE_TINT[1]
    return CELL_FILL


def cell_name_ink(space: int) -> tuple[int, int, int]:
    return NAME_INK if AREAS[space] else GATE_INK


def relabel(im: Image.Image, lay: hd.HexLayout, game, events: Sequence[Event]) -> None:
    """The names of the spaces the last turn's marks cross, written again over them (outlined in
    the space's or piece's colour): arrows, arcs and ghosts never hide a name a player types."""
    near = set()
    for e in events:
        named = [INDEX[n] for n in (e.src, e.dst, e.cell, *(str(v) for v in dict(e.data).values())) if n in INDEX]
        near.update(named)
        if e.kind in ("rotate", "bump"):  # the arc reaches the neighbours; a number sits on a corner of three cells
            near.update(j for i in named for j in NEIGHBOURS[i] if j >= 0)
    if not near:
        return
    sp = lay.spacing
    b = game.board
    for space in sorted(near):
        pid = b.cells[space]
        solid = piece_cell(space, b.facing[pid]) if pid >= 0 else None
        for cell in COORDS[space]:
            centre = lay.centre(cell)
            if pid >= 0:
                _piece_label(im, centre, b.owner[pid], b.facing[pid], sp, NAMES[space], twin=cell != solid)
            else:
                td.draw_label(
                    im,
                    centre,
                    NAMES[space],
                    name_size(sp),
                    cell_name_ink(space),
                    sp * CELL_NAME_W,
                    min_squeeze=NAME_SQUEEZE,
                    bold=True,
                    halo=cell_fill(space),
                    halo_width=max(1, round(sp * 0.04)),
                )


__all__ = ["DEFAULT_WIDTH", "geometry", "piece_cell", "piece_sprite", "space_centre"]
