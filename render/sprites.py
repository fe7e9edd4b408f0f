"""Sprites: small anti-aliased RGBA images, cached, pasted onto a copy of a cached background.

:func:`disc_sprite`, :func:`ring_sprite`, :func:`arrow_sprite`, :func:`badge_sprite`,
the last move's ring and a group's outline are drawn at :data:`SPRITE_SUPERSAMPLE` times
their size and downscaled with LANCZOS; :func:`paste_centred` and :func:`paste_at` paste
them and record the pasted area (render/changes.py): this is what keeps a picture of a
position fast.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from . import changes as _changes
from .hexdraw import Point, _draw_marker, arrow_polygon, contrast_ink
from .textdraw import font

SPRITE_SUPERSAMPLE = 4  # sprites are tiny and cached: afford a finer scale


# -- sprites -------------------------------------------------------------------------------


def _downsample(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    return im.resize(size, Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def disc_sprite(
    radius: float,
    fill: tuple[int, int, int],
    outline: tuple[int, int, int] | None = (30, 30, 30),
    outline_width: float = 2.0,
    marker: str | None = None,
    marker_colour: tuple[int, int, int] | None = None,
    shadow: bool = True,
) -> Image.Image:
    """An anti-aliased RGBA disc (a stone) with outline, optional marker and soft shadow."""
    k = SPRITE_SUPERSAMPLE
    pad = 3
    side = math.ceil(radius * 2 + pad * 2)
    im = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = side * k / 2
    r = radius * k
    if shadow:
        off = max(1.0, radius * 0.06) * k
        d.ellipse((c - r + off, c - r + off, c + r + off, c + r + off), fill=(0, 0, 0, 70))
    if outline is not None:
        d.ellipse((c - r, c - r, c + r, c + r), fill=outline + (255,))
        ri = r - outline_width * k
    else:
        ri = r
    d.ellipse((c - ri, c - ri, c + ri, c + ri), fill=tuple(fill) + (255,))
    if marker:
        _draw_marker(d, marker, (c, c), ri * 0.42, (marker_colour or contrast_ink(fill)) + (255,))
    return _downsample(im, (side, side))


@lru_cache(maxsize=64)
def ring_sprite(
    radius: float,
    colour: tuple[int, int, int],
    width: float,
    halo: tuple[int, int, int] | None = None,
    halo_width: float = 0.0,
) -> Image.Image:
    """An anti-aliased circle outline (highlights), optionally with a contrasting halo."""
    k = SPRITE_SUPERSAMPLE
    outer = radius + width / 2 + halo_width
    side = math.ceil(outer * 2 + 4)
    im = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = side * k / 2
    if halo is not None and halo_width > 0:
        ro = (radius + width / 2 + halo_width) * k
        d.ellipse((c - ro, c - ro, c + ro, c + ro), outline=halo + (255,), width=round((width + 2 * halo_width) * k))
    ro = (radius + width / 2) * k
    d.ellipse((c - ro, c - ro, c + ro, c + ro), outline=colour + (255,), width=round(width * k))
    return _downsample(im, (side, side))


@lru_cache(maxsize=512)
def arrow_sprite(
    dx: int,
    dy: int,
    colour: tuple[int, int, int],
    width: float,
    halo: tuple[int, int, int] | None = (255, 255, 255),
    halo_width: float = 2.0,
    head: float | None = None,
    start_gap: float = 0.0,
) -> tuple[Image.Image, Point]:
    """An anti-aliased arrow whose tip is ``(dx, dy)`` pixels from its tail.

    Returns the sprite and the position of the tail inside it, so that
    ``paste_at(base, sprite, (tail_x - ox, tail_y - oy))`` puts the tail where wanted.
    """
    k = SPRITE_SUPERSAMPLE
    margin = (head or width * 3.2) * 0.7 + halo_width + 3
    x0, x1 = min(0, dx) - margin, max(0, dx) + margin
    y0, y1 = min(0, dy) - margin, max(0, dy) + margin
    w, h = math.ceil(x1 - x0), math.ceil(y1 - y0)
    ox, oy = -x0, -y0
    im = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    length = math.hypot(dx, dy)
    sx = sy = 0.0
    if start_gap and length:
        sx, sy = dx / length * start_gap, dy / length * start_gap
    pts = arrow_polygon(
        ((ox + sx) * k, (oy + sy) * k), ((ox + dx) * k, (oy + dy) * k), width * k, head * k if head else None
    )
    if pts:
        if halo is not None and halo_width > 0:
            d.polygon(pts, fill=halo + (255,))
            d.line(pts + pts[:1], fill=halo + (255,), width=round(2 * halo_width * k), joint="curve")
        d.polygon(pts, fill=colour + (255,))
    return _downsample(im, (w, h)), (ox, oy)


@lru_cache(maxsize=128)
def badge_sprite(
    text: str,
    size: int,
    fill: tuple[int, int, int],
    ink: tuple[int, int, int],
    outline: tuple[int, int, int] | None = None,
) -> Image.Image:
    """A small round badge with a short text (order numbers, counts)."""
    k = SPRITE_SUPERSAMPLE
    f = font(int(size * 0.62 * k))
    tw = f.getlength(text)
    r = size / 2
    w = max(size, tw / k + size * 0.5)
    W, H = math.ceil(w + 2), math.ceil(size + 2)
    im = Image.new("RGBA", (W * k, H * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    box = (k, k, (W - 1) * k, (H - 1) * k)
    if outline is not None:
        d.rounded_rectangle(box, radius=r * k, fill=outline + (255,))
        inset = max(1, int(size * 0.08 * k))
        box = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
        d.rounded_rectangle(box, radius=r * k - inset, fill=fill + (255,))
    else:
        d.rounded_rectangle(box, radius=r * k, fill=fill + (255,))
    d.text((W * k / 2, H * k / 2), text, font=f, fill=ink + (255,), anchor="mm")
    return _downsample(im, (W, H))


#: The last move, in every game: a white ring with a dark edge just outside the piece placed.
LAST_MOVE_RING = (255, 255, 255)
LAST_MOVE_HALO = (20, 20, 20)


def last_move_ring(piece_radius: float, spacing: float) -> Image.Image:
    """The sprite marking the last move on a piece of ``piece_radius`` pixels (cells ``spacing`` apart).

    Every game marks its last move with this, so players learn one sign.
    """
    return ring_sprite(
        round(piece_radius + spacing * 0.03, 1),
        LAST_MOVE_RING,
        round(max(3.0, spacing * 0.045), 1),
        LAST_MOVE_HALO,
        round(max(1.2, spacing * 0.014), 1),
    )


def group_outline(piece_radius: float, spacing: float, colour: tuple[int, int, int]) -> Image.Image:
    """A bold ring in ``colour`` with dark edges around a piece: pasted on each piece of a group,
    neighbouring rings merge into one outline (a seat's scoring group at the end)."""
    return ring_sprite(
        round(piece_radius + spacing * 0.045, 1),
        colour,
        round(max(3.0, spacing * 0.07), 1),
        LAST_MOVE_HALO,
        round(max(1.5, spacing * 0.018), 1),
    )


def paste_centred(base: Image.Image, sprite: Image.Image, centre: Point) -> None:
    """Paste an RGBA sprite so that its centre lands on ``centre``."""
    w, h = sprite.size
    x = round(centre[0] - w / 2)
    y = round(centre[1] - h / 2)
    _paste_sprite(base, sprite, (x, y, x + w, y + h))


def paste_at(base: Image.Image, sprite: Image.Image, corner: Point) -> None:
    w, h = sprite.size
    x, y = round(corner[0]), round(corner[1])
    _paste_sprite(base, sprite, (x, y, x + w, y + h))


def _paste_sprite(base: Image.Image, sprite: Image.Image, box: tuple[int, int, int, int]) -> None:
    _changes.paste_sprite(base, sprite, box)


def draw_arrow(
    base: Image.Image,
    src: Point,
    dst: Point,
    colour: tuple[int, int, int],
    width: float,
    halo: tuple[int, int, int] | None = (255, 255, 255),
    halo_width: float = 2.0,
    head: float | None = None,
) -> None:
    """An anti-aliased arrow from ``src`` to ``dst`` on ``base`` (through a cached sprite)."""
    dx = round(dst[0] - src[0])
    dy = round(dst[1] - src[1])
    sprite, (ox, oy) = arrow_sprite(dx, dy, colour, width, halo, halo_width, head)
    paste_at(base, sprite, (src[0] - ox, src[1] - oy))


# -- title bar and panel -------------------------------------------------------------------------
