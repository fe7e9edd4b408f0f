"""A small hex-drawing layer shared by every game's picture.

Everything here is plain Pillow and knows nothing of any game's rules:

* :class:`HexLayout` maps axial cells ``(q, r)`` (pointy-top, ``y`` down, as in
  :mod:`games.hexgrid`) to pixels, fitted to a target width.
* :class:`Canvas` draws geometry (cell polygons, grid lines, discs, arrows,
  text) supersampled, then downscales with LANCZOS for smooth edges. It is
  meant for the *static* parts of a picture, drawn once and cached.
* Colours blended and inked (:func:`mix`, :func:`contrast_ink`), and the shapes
  both the canvas and the sprites draw (:func:`arrow_polygon`, the :data:`MARKERS`).

Beside it: :mod:`render.textdraw` (fonts, text fitted and drawn through caches),
:mod:`render.sprites` (small cached images pasted onto a copy of the cached
background: what keeps a picture of a position fast), :mod:`render.panels` (the
title bar and the legend panel, at final resolution) and :mod:`render.changes`
(what a picture changed on its background, re-exported here).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import changes as _changes
from .textdraw import font

Point = tuple[float, float]
Colour = tuple[int, int, int] | tuple[int, int, int, int]

SQRT3 = math.sqrt(3.0)

#: Unit vectors of the six axial directions on screen (E, SE, SW, W, NW, NE),
#: for a pointy-top layout whose neighbouring centres are 1 apart.
SCREEN_DIRECTIONS: tuple[Point, ...] = tuple(
    (math.cos(math.radians(a)), math.sin(math.radians(a))) for a in (0, 60, 120, 180, 240, 300)
)

#: Shapes a disc can hold (:meth:`Canvas.disc`, :func:`render.sprites.disc_sprite`), so that colour is
#: never the only cue.
MARKERS = ("dot", "square", "triangle", "diamond", "cross", "star", "ring", "bar")

SUPERSAMPLE = 2  # Canvas drawing scale


# What a picture changed on its background (for fast encoding): see render/changes.py.
Changes = _changes.Changes
new_picture = _changes.new_picture
touch = _changes.touch
fill_rect = _changes.fill_rect
changes_of = _changes.changes_of


# -- colours --------------------------------------------------------------------


def mix(a: Sequence[int], b: Sequence[int], t: float) -> tuple[int, int, int]:
    """``a`` blended towards ``b`` by ``t`` (0 = a, 1 = b)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def luminance(c: Sequence[int]) -> float:
    return (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255.0


def contrast_ink(c: Sequence[int], dark=(20, 20, 20), light=(255, 255, 255)) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``c``."""
    return dark if luminance(c) > 0.6 else light


# -- layout -----------------------------------------------------------------------


@dataclass(frozen=True)
class HexLayout:
    """Pixel positions of axial cells: pointy-top, ``y`` down.

    ``size`` is a cell's centre-to-corner radius; neighbouring centres are
    :attr:`spacing` = ``size·√3`` apart. ``origin`` is the pixel of ``(0, 0)``.
    """

    size: float
    origin: Point

    @property
    def spacing(self) -> float:
        return self.size * SQRT3

    def centre(self, cell: tuple[float, float]) -> Point:
        """The pixel centre of axial ``cell`` (a fractional one lies between cells)."""
        q, r = cell
        return (
            self.origin[0] + self.size * SQRT3 * (q + r / 2.0),
            self.origin[1] + self.size * 1.5 * r,
        )

    def corners(self, cell: tuple[int, int], scale: float = 1.0) -> list[Point]:
        """The six corners of a cell's hexagon (pointy-top), optionally shrunk."""
        cx, cy = self.centre(cell)
        s = self.size * scale
        return [
            (cx + s * math.cos(math.radians(60 * k - 30)), cy + s * math.sin(math.radians(60 * k - 30)))
            for k in range(6)
        ]

    def scaled(self, k: float) -> HexLayout:
        """The same layout on a picture ``k`` times larger (for supersampling)."""
        return HexLayout(self.size * k, (self.origin[0] * k, self.origin[1] * k))

    @staticmethod
    def extents(cells: Iterable[tuple[int, int]]) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the centres for ``size`` = 1, origin (0, 0)."""
        xs, ys = [], []
        for q, r in cells:
            xs.append(SQRT3 * (q + r / 2.0))
            ys.append(1.5 * r)
        return min(xs), min(ys), max(xs), max(ys)

    @classmethod
    def fit(
        cls,
        cells: Iterable[tuple[int, int]],
        width: float,
        *,
        left: float = 0.0,
        right: float = 0.0,
        top: float = 0.0,
        halo: float = 1.0,
    ) -> tuple[HexLayout, float]:
        """Fit ``cells`` into ``width`` pixels.

        ``left``/``right`` reserve pixels on each side (for labels), ``top`` is
        the pixel row where the drawing starts, ``halo`` how many cell radii
        around each centre must stay inside (1.0 keeps whole pointy-top hexagons
        vertically; for points of a triangular grid pass the disc radius in
        cell radii). Returns the layout and the bottom pixel row it uses.
        """
        x0, y0, x1, y1 = cls.extents(cells)
        span_w = (x1 - x0) + 2 * halo
        span_h = (y1 - y0) + 2 * halo
        size = (width - left - right) / span_w
        origin = (left + (halo - x0) * size, top + (halo - y0) * size)
        return cls(size, origin), top + span_h * size


# -- supersampled canvas ---------------------------------------------------------------


class Canvas:
    """An RGB picture drawn at ``scale``× and downscaled with LANCZOS on :meth:`image`.

    Every method takes coordinates and lengths in final pixels.
    """

    def __init__(self, width: int, height: int, background: Colour, scale: int = SUPERSAMPLE) -> None:
        self.width = width
        self.height = height
        self.scale = scale
        self._im = Image.new("RGB", (width * scale, height * scale), background[:3])
        self.draw = ImageDraw.Draw(self._im)

    def _p(self, pts: Iterable[Point]) -> list[Point]:
        k = self.scale
        return [(x * k, y * k) for x, y in pts]

    def _w(self, w: float) -> int:
        return max(1, round(w * self.scale))

    def rect(
        self, box: tuple[float, float, float, float], fill=None, outline=None, width: float = 1, radius: float = 0
    ) -> None:
        k = self.scale
        b = (box[0] * k, box[1] * k, box[2] * k - 1, box[3] * k - 1)
        if radius:
            self.draw.rounded_rectangle(
                b, radius=radius * k, fill=fill, outline=outline, width=self._w(width) if outline else 0
            )
        else:
            self.draw.rectangle(b, fill=fill, outline=outline, width=self._w(width) if outline else 0)

    def polygon(self, points: Sequence[Point], fill=None, outline=None, width: float = 1) -> None:
        pts = self._p(points)
        if fill is not None:
            self.draw.polygon(pts, fill=fill)
        if outline is not None:
            self.draw.line(pts + pts[:1], fill=outline, width=self._w(width), joint="curve")

    def line(self, points: Sequence[Point], fill, width: float = 1, round_caps: bool = False) -> None:
        pts = self._p(points)
        w = self._w(width)
        self.draw.line(pts, fill=fill, width=w, joint="curve")
        if round_caps:
            for x, y in (pts[0], pts[-1]):
                self.draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=fill)

    def lines(self, segments: Iterable[tuple[Point, Point]], fill, width: float = 1) -> None:
        """Many straight segments (grid lines) in one colour."""
        w = self._w(width)
        k = self.scale
        for (ax, ay), (bx, by) in segments:
            self.draw.line([(ax * k, ay * k), (bx * k, by * k)], fill=fill, width=w)

    def circle(self, centre: Point, radius: float, fill=None, outline=None, width: float = 1) -> None:
        k = self.scale
        x, y = centre[0] * k, centre[1] * k
        r = radius * k
        self.draw.ellipse(
            (x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=self._w(width) if outline else 0
        )

    def disc(
        self,
        centre: Point,
        radius: float,
        fill,
        outline=(30, 30, 30),
        width: float = 2,
        marker: str | None = None,
        marker_colour=None,
    ) -> None:
        """A stone: filled circle, outline, optional marker shape inside."""
        self.circle(centre, radius, fill=outline if outline else fill)
        self.circle(centre, radius - (width if outline else 0), fill=fill)
        if marker:
            k = self.scale
            _draw_marker(
                self.draw,
                marker,
                (centre[0] * k, centre[1] * k),
                radius * k * 0.42,
                marker_colour or contrast_ink(fill),
            )

    def text(
        self,
        xy: Point,
        text: str,
        size: int,
        fill,
        anchor: str = "mm",
        stroke: float = 0,
        stroke_fill=None,
        bold: bool = False,
    ) -> None:
        """Text at ``xy`` (anchor ``mm`` centres it), in the bundled font."""
        k = self.scale
        self.draw.text(
            (xy[0] * k, xy[1] * k),
            text,
            font=font(size * k, bold),
            fill=fill,
            anchor=anchor,
            stroke_width=round(stroke * k),
            stroke_fill=stroke_fill,
        )

    def arrow(
        self, src: Point, dst: Point, fill, width: float, head: float | None = None, halo=None, halo_width: float = 0
    ) -> None:
        pts = arrow_polygon(src, dst, width, head)
        if not pts:
            return
        if halo is not None and halo_width > 0:
            self.polygon(pts, fill=halo, outline=halo, width=2 * halo_width)
        self.polygon(pts, fill=fill)

    def image(self) -> Image.Image:
        if self.scale == 1:
            return self._im
        return self._im.resize((self.width, self.height), Image.Resampling.LANCZOS)


# -- shapes ------------------------------------------------------------------------------


def arrow_polygon(src: Point, dst: Point, width: float, head: float | None = None) -> list[Point]:
    """Outline of an arrow from ``src`` to its tip at ``dst`` (shaft ``width``)."""
    dx, dy = dst[0] - src[0], dst[1] - src[1]
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return []
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    head = head if head is not None else width * 3.2
    head = min(head, length * 0.75)
    half_head = head * 0.62
    w = width / 2
    bx, by = dst[0] - ux * head, dst[1] - uy * head
    return [
        (src[0] + nx * w, src[1] + ny * w),
        (bx + nx * w, by + ny * w),
        (bx + nx * half_head, by + ny * half_head),
        dst,
        (bx - nx * half_head, by - ny * half_head),
        (bx - nx * w, by - ny * w),
        (src[0] - nx * w, src[1] - ny * w),
    ]


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[Point]:
    out = []
    for k in range(points * 2):
        a = math.radians(-90 + k * 180 / points)
        rr = r if k % 2 == 0 else r * inner
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def _draw_marker(draw: ImageDraw.ImageDraw, marker: str, centre: Point, r: float, colour) -> None:
    """One of :data:`MARKERS`, of radius ``r`` around ``centre`` (already in drawing pixels)."""
    cx, cy = centre
    if marker == "dot":
        rr = r * 0.62
        draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=colour)
    elif marker == "square":
        s = r * 0.66
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=colour)
    elif marker == "triangle":
        draw.polygon([(cx, cy - r), (cx + r * 0.92, cy + r * 0.62), (cx - r * 0.92, cy + r * 0.62)], fill=colour)
    elif marker == "diamond":
        draw.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=colour)
    elif marker == "cross":
        t = r * 0.3
        draw.rectangle((cx - r * 0.85, cy - t, cx + r * 0.85, cy + t), fill=colour)
        draw.rectangle((cx - t, cy - r * 0.85, cx + t, cy + r * 0.85), fill=colour)
    elif marker == "star":
        draw.polygon(_star(cx, cy + r * 0.08, r * 1.08), fill=colour)
    elif marker == "ring":
        t = max(1.0, r * 0.28)
        draw.ellipse((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), outline=colour, width=int(t))
    elif marker == "bar":
        t = r * 0.3
        draw.rectangle((cx - r * 0.85, cy - t, cx + r * 0.85, cy + t), fill=colour)
    elif marker:
        raise ValueError(f"unknown marker {marker!r}: choose one of {', '.join(MARKERS)}")
