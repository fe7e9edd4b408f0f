"""A small hex-drawing layer shared by every game's picture.

Everything here is plain Pillow and knows nothing of any game's rules:

* :class:`HexLayout` maps axial cells ``(q, r)`` (pointy-top, ``y`` down, as in
  :mod:`games.hexgrid`) to pixels, fitted to a target width.
* :class:`Canvas` draws geometry (cell polygons, grid lines, discs, arrows,
  text) supersampled, then downscales with LANCZOS for smooth edges. It is
  meant for the *static* parts of a picture, drawn once and cached.
* Sprites (:func:`disc_sprite`, :func:`ring_sprite`, :func:`arrow_sprite`,
  :func:`badge_sprite`) are small anti-aliased RGBA images, cached, and pasted
  onto a copy of the cached background with :func:`paste_centred`: this is what
  keeps a picture of a position fast.
* :func:`draw_title_bar` and :func:`draw_panel` draw the text parts at final
  resolution (FreeType text is anti-aliased already).

Fonts are DejaVu Sans and DejaVu Sans Bold, bundled in ``render/fonts`` (:func:`font`),
cached by size; :func:`draw_text` caches rendered labels.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from i18n import t as _t

from . import changes as _changes

Point = tuple[float, float]
Colour = tuple[int, int, int] | tuple[int, int, int, int]

SQRT3 = math.sqrt(3.0)

#: Unit vectors of the six axial directions on screen (E, SE, SW, W, NW, NE),
#: for a pointy-top layout whose neighbouring centres are 1 apart.
SCREEN_DIRECTIONS: tuple[Point, ...] = tuple(
    (math.cos(math.radians(a)), math.sin(math.radians(a))) for a in (0, 60, 120, 180, 240, 300)
)

#: Shapes :func:`disc_sprite` can draw inside a disc, so that colour is never the only cue.
MARKERS = ("dot", "square", "triangle", "diamond", "cross", "star", "ring", "bar")

SUPERSAMPLE = 2  # Canvas drawing scale
SPRITE_SUPERSAMPLE = 4  # sprites are tiny and cached: afford a finer scale


# -- fonts ----------------------------------------------------------------------


FONT_DIR = Path(__file__).resolve().parent / "fonts"
#: DejaVu Sans (Bitstream Vera licence, see fonts/LICENSE-DejaVu.txt): Latin, Greek,
#: Cyrillic, Armenian, Georgian, Hebrew, Arabic and more, so players' names in those
#: scripts are drawn rather than dropped; a real bold face for titles and winners.
FONT_FILES = {False: FONT_DIR / "DejaVuSans.ttf", True: FONT_DIR / "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=128)
def font(size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font (DejaVu Sans, or its bold face) at ``size`` pixels (cached)."""
    return ImageFont.truetype(str(FONT_FILES[bool(bold)]), max(6, round(size)))


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the bundled font draws ``ch`` (Latin, Greek, Cyrillic, Arabic, Hebrew…; not CJK or emoji)."""
    if ch.isspace():
        return True
    return _glyph_pixels(ch) != _glyph_pixels("\ufffe")


@lru_cache(maxsize=4096)
def _glyph_pixels(ch: str) -> bytes:
    im = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(im).text((4, 4), ch, font=font(24), fill=255)
    return im.tobytes()


def displayable(text: str, fallback: str = "") -> str:
    """``text`` without the characters the bundled font cannot draw (shown as boxes otherwise).

    Accented letters lose their accents ("Zoë" → "Zoe"); returns ``fallback``
    when nothing readable is left.
    """
    kept = ""
    for ch in text:
        if has_glyph(ch):
            kept += ch
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            kept += "".join(c for c in base if has_glyph(c))
    kept = " ".join(kept.split())
    return kept if any(ch.isalnum() for ch in kept) else fallback


def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in pixels, as :func:`draw_text` lays it out (cached)."""
    if _by_words(text, "la"):
        return sum(_word_width(w, size, bold) for w in text.split(" ")) + _word_width(" ", size, bold) * text.count(" ")
    return _word_width(text, size, bold)


@lru_cache(maxsize=8192)
def _word_width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def _by_words(text: str, anchor: str) -> bool:
    """Whether :func:`draw_text` lays ``text`` out word by word (each word's mask cached).

    Lines such as "Turn 31 · Alice to move" change every picture but their words
    repeat. Only Latin text and common punctuation (no right-to-left or shaped
    scripts, whose words must be laid out together) with a font-wide vertical anchor
    (not t/b, which depend on the text) is split; kerning across a space is nil here.
    """
    return (
        " " in text
        and len(text) > 8
        and anchor[1] in "amsd"
        and anchor[0] in "lmr"
        and all(c < "\u0250" or c in _SPLIT_PUNCTUATION for c in text)
    )


_SPLIT_PUNCTUATION = frozenset("–—…‘’“”•")


# -- cached text drawing ----------------------------------------------------------
#
# FreeType rendering is the costliest part of a picture's text, and most labels
# (names, numbers, column headers) repeat picture after picture. Pillow's
# ``ImageDraw.text`` renders a mask with ``font.getmask2`` (which depends on the
# fractional part of the position) and blends it with ``draw_bitmap``; the cache
# keeps the mask, so the pixels are exactly those ``ImageDraw.text`` draws.


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, anchor: str, stroke_width: int, fx: float, fy: float, bold: bool = False):
    return font(size, bold).getmask2(text, "L", None, None, None, stroke_width, anchor, 0, (fx, fy), stroke_filled=True)


def draw_text(
    im: Image.Image,
    xy: Point,
    text: str,
    size: int,
    fill,
    *,
    anchor: str = "la",
    stroke_width: int = 0,
    stroke_fill=None,
    bold: bool = False,
    by_words: bool = True,
) -> tuple[int, int, int, int] | None:
    """``ImageDraw.Draw(im).text(xy, text, font=font(size, bold), ...)`` through a mask cache.

    A fraction of the time for repeated labels: single words and non-ASCII text are
    exactly ImageDraw's pixels; longer ASCII lines are laid out word by word (see
    :func:`_by_words`) unless ``by_words`` is false (then exactly ImageDraw's too). The
    changed area is recorded (see :func:`new_picture`).
    Returns that area, or None for empty text.
    """
    if not text:
        return None
    changes = changes_of(im)
    if changes is not None and im.mode == "RGB" and not isinstance(fill, str) and not isinstance(stroke_fill, str):
        # A new_picture (a writable RGB copy): ImageDraw.Draw's set-up and _getink
        # come down to these two core calls for a colour given as numbers.
        if changes.draw is None:
            changes.draw = Image.core.draw(im.im, 0)
        core = changes.draw
        ink = core.draw_ink(fill)
        stroke_ink = core.draw_ink(stroke_fill) if stroke_width and stroke_fill is not None else ink
    else:
        draw = ImageDraw.Draw(im)
        core = draw.draw
        ink = draw._getink(fill)[0]
        stroke_ink = draw._getink(stroke_fill)[0] if stroke_width and stroke_fill is not None else ink
    passes = [(stroke_ink, int(stroke_width))] if stroke_width else []
    if not stroke_width or ink != stroke_ink:
        passes.append((ink, 0))
    x, y = xy
    if stroke_width or not by_words or not _by_words(text, anchor):
        runs = [(text, x, anchor)]
    else:
        words = text.split(" ")
        space = _word_width(" ", size, bold)
        widths = [_word_width(w, size, bold) for w in words]
        total = sum(widths) + space * (len(words) - 1)
        left = x - {"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
        runs = []
        for word, width in zip(words, widths, strict=True):
            if word:
                runs.append((word, float(round(left)), "l" + anchor[1]))  # whole pixels: masks repeat
            left += width + space
    box = None
    for run, rx, run_anchor in runs:
        ix, iy = int(rx), int(y)
        fx, fy = math.modf(rx)[0], math.modf(y)[0]
        for pass_ink, width in passes:
            mask, (ox, oy) = _text_mask(run, size, run_anchor, width, fx, fy, bold)
            core.draw_bitmap((ix + ox, iy + oy), mask, pass_ink)
            w, h = mask.size
            b = (ix + ox, iy + oy, ix + ox + w, iy + oy + h)
            box = b if box is None else (min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3]))
    if box is not None:
        touch(im, box)
    return box


@lru_cache(maxsize=2048)
def _condensed_mask(text: str, size: int, squeeze: float, bold: bool) -> Image.Image:
    """``text``'s coverage ("L") at ``size`` px, narrowed to ``squeeze`` of its width."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text, anchor="mm")
    pad = 2
    # A FreeType font's box is whole pixels at run time; Pillow's stubs type it as floats.
    im = Image.new("L", (int(right - left) + 2 * pad, int(bottom - top) + 2 * pad), 0)
    ImageDraw.Draw(im).text((pad - left, pad - top), text, font=f, fill=255, anchor="mm")
    if squeeze < 1.0:
        im = im.resize((max(1, round(im.width * squeeze)), im.height), Image.Resampling.LANCZOS)
    return im


@lru_cache(maxsize=1024)
def _halo_mask(text: str, size: int, squeeze: float, bold: bool, width: int) -> Image.Image:
    """The coverage of :func:`_condensed_mask` grown by ``width`` pixels all round."""
    mask = _condensed_mask(text, size, squeeze, bold)
    grown = Image.new("L", (mask.width + 2 * width, mask.height + 2 * width), 0)
    grown.paste(mask, (width, width))
    return grown.filter(ImageFilter.MaxFilter(2 * width + 1))


def draw_label(
    im: Image.Image,
    centre: Point,
    text: str,
    size: int,
    fill,
    max_width: float,
    min_squeeze: float = 0.72,
    bold: bool = False,
    halo=None,
    halo_width: int = 1,
) -> tuple[int, int, int, int]:
    """A short label (a space's name) centred on ``centre``, as large as ``size`` allows within
    ``max_width``: narrowed down to ``min_squeeze`` of its width first, then smaller. Narrow digits
    stay legible on a phone where a smaller size would not. ``halo``, a colour, outlines the
    letters ``halo_width`` pixels wide (a name written over a mark stays whole). Recorded like
    :func:`draw_text`; returns the box of the letters."""
    natural = text_width(text, size, bold)
    while size > 6 and natural * min_squeeze > max_width:
        size -= 1
        natural = text_width(text, size, bold)
    squeeze = round(min(1.0, max_width / natural), 2) if natural else 1.0
    mask = _condensed_mask(text, size, squeeze, bold)
    x = round(centre[0] - mask.width / 2)
    y = round(centre[1] - mask.height / 2)
    box = (x, y, x + mask.width, y + mask.height)
    if halo is not None:
        grown = _halo_mask(text, size, squeeze, bold, halo_width)
        outer = (x - halo_width, y - halo_width, x + mask.width + halo_width, y + mask.height + halo_width)
        im.paste(tuple(halo[:3]), outer, grown)
        touch(im, outer)
    im.paste(tuple(fill[:3]), box, mask)
    touch(im, box)
    return box


# What a picture changed on its background (for fast encoding): see render/changes.py.
Changes = _changes.Changes
new_picture = _changes.new_picture
touch = _changes.touch
fill_rect = _changes.fill_rect
changes_of = _changes.changes_of


def fit_lines(
    text: str,
    size: int,
    max_width: float,
    *,
    max_lines: int = 1,
    min_size: int | None = None,
    wrapped_size: int | None = None,
    bold: bool = False,
) -> tuple[list[str], int]:
    """``text`` whole, as lines no wider than ``max_width`` and the font size to draw them at.

    Never an ellipsis (a cut name or rule teaches nothing): first ``size`` on one line, then
    smaller down to ``min_size`` (default 0.85 of ``size``), then wrapped onto up to
    ``max_lines`` lines from ``wrapped_size`` (default ``size``: less where lines must share a
    row's height) down, and only when even that fails smaller still (never below 6 px). A word
    wider than a line is broken where it must be.
    """
    floor = min(size, min_size if min_size is not None else max(6, round(size * 0.85)))
    for s in range(size, floor - 1, -1):
        if text_width(text, s, bold) <= max_width:
            return [text], s
    start = min(size, wrapped_size) if wrapped_size is not None else size
    floor = min(floor, start)
    for lines in range(2, max_lines + 1):
        for s in range(start, floor - 1, -1):
            wrapped = wrap(text, s, max_width, bold)
            if len(wrapped) <= lines:
                return wrapped, s
    s = floor
    while s > 6:
        s -= 1
        wrapped = wrap(text, s, max_width, bold)
        if len(wrapped) <= max_lines:
            return wrapped, s
    return wrap(text, 6, max_width, bold), 6


@dataclass(frozen=True)
class TextBlock:
    """Paragraphs wrapped to a width at one font size (see :func:`fit_block`)."""

    paragraphs: tuple[tuple[str, ...], ...]  # per paragraph given, its lines (empty for an empty one)
    scales: tuple[float, ...]  # per paragraph, its font size as a multiple of ``size``
    size: int  # the font size of a paragraph of scale 1
    line_step: float  # from one line's middle to the next's, as a multiple of its size
    gap: float  # more between paragraphs, as a multiple of ``size``

    def lines(self, top: float) -> list[tuple[int, str, float, int]]:
        """(paragraph index, line, y of its middle, its font size), the first line's top at ``top``."""
        out: list[tuple[int, str, float, int]] = []
        y = top
        for k, (lines, scale) in enumerate(zip(self.paragraphs, self.scales, strict=True)):
            if not lines:
                continue
            if out:
                y += self.gap * self.size
            size = max(6, round(self.size * scale))
            for line in lines:
                out.append((k, line, y + size * self.line_step / 2, size))
                y += size * self.line_step
        return out

    @property
    def height(self) -> float:
        laid = self.lines(0.0)
        if not laid:
            return 0.0
        return laid[-1][2] + laid[-1][3] * self.line_step / 2


def fit_block(
    paragraphs: Sequence[str | tuple[str, float]],
    size: int,
    max_width: float,
    max_height: float,
    *,
    line_step: float = 1.3,
    gap: float = 0.4,
    bold: bool = False,
) -> TextBlock:
    """Paragraphs (a text, or a text and its size as a multiple of ``size``) wrapped to
    ``max_width``, at the largest size ≤ ``size`` at which they fit ``max_height`` together.
    Never an ellipsis: a footer that says more gets another line, then smaller letters."""
    texts = [p if isinstance(p, tuple) else (p, 1.0) for p in paragraphs]
    block = None
    for s in range(size, 5, -1):
        wrapped = tuple(
            tuple(wrap(text, max(6, round(s * scale)), max_width, bold)) if text else () for text, scale in texts
        )
        block = TextBlock(wrapped, tuple(scale for _, scale in texts), s, line_step, gap)
        if block.height <= max_height:
            return block
    assert block is not None
    return block


def wrap(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``max_width`` at ``size``: between words or after a
    hyphen, and inside a word only when the word alone is too wide."""
    lines: list[str] = []
    current = ""
    for token in _BREAKS.findall(text):
        if token.isspace():
            if current:
                current += " "
            continue
        trial = current + token
        if text_width(trial.rstrip(), size, bold) <= max_width:
            current = trial
            continue
        if current.strip():
            lines.append(current.rstrip())
        current = token
        while text_width(current, size, bold) > max_width and len(current) > 1:
            cut = len(current) - 1
            while cut > 1 and text_width(current[:cut], size, bold) > max_width:
                cut -= 1
            lines.append(current[:cut])
            current = current[cut:]
    if current.strip():
        lines.append(current.rstrip())
    return lines or [""]


_BREAKS = re.compile(r"[^\s-]*-|[^\s-]+|\s+")  # words, hyphenated parts (a line may end after "-"), spaces


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


@dataclass
class Theme:
    """Colours of the text parts of a picture."""

    background: tuple[int, int, int] = (247, 243, 234)
    title_bg: tuple[int, int, int] = (44, 48, 58)
    title_ink: tuple[int, int, int] = (255, 255, 255)
    subtitle_ink: tuple[int, int, int] = (214, 219, 228)
    ink: tuple[int, int, int] = (33, 33, 38)
    muted: tuple[int, int, int] = (110, 110, 118)
    rule: tuple[int, int, int] = (214, 206, 190)
    highlight: tuple[int, int, int] = (255, 236, 170)
    winner: tuple[int, int, int] = (200, 240, 190)
    accent: tuple[int, int, int] = (210, 90, 20)


DEFAULT_THEME = Theme()

TITLE_SIZE = 0.34  # of the title bar's height
SUBTITLE_SIZE = 0.28


def draw_title_bar(
    im: Image.Image,
    height: int,
    title: str,
    subtitle: str = "",
    theme: Theme = DEFAULT_THEME,
    accent_colour: tuple[int, int, int] | None = None,
) -> None:
    """A dark bar across the top: a big title and a smaller status line under it."""
    w = im.width
    fill_rect(im, (0, 0, w, height), theme.title_bg)
    pad = int(height * 0.22)
    if accent_colour is not None:
        fill_rect(im, (0, 0, max(6, int(height * 0.09)), height), accent_colour)
    big = int(height * TITLE_SIZE)
    small = int(height * SUBTITLE_SIZE)
    avail = w - 2 * pad
    # Whole words, a little smaller when a long name needs it (a cut name tells nobody anything).
    title_size = _shrunk(title, big, avail, bold=True)
    if subtitle:
        draw_text(im, (pad, int(height * 0.31)), title, title_size, theme.title_ink, anchor="lm", bold=True)
        draw_text(
            im, (pad, int(height * 0.73)), subtitle, _shrunk(subtitle, small, avail), theme.subtitle_ink, anchor="lm"
        )
    else:
        draw_text(im, (pad, height // 2), title, title_size, theme.title_ink, anchor="lm", bold=True)


def _shrunk(text: str, size: int, max_width: float, bold: bool = False) -> int:
    """The largest size ≤ ``size`` at which ``text`` fits ``max_width`` on one line (at least 6 px)."""
    while size > 6 and text_width(text, size, bold) > max_width:
        size -= 1
    return size


@dataclass
class PanelRow:
    """One line of a legend table: a swatch sprite, one text per column, a style."""

    swatch: Image.Image | None
    cells: Sequence[str]
    background: tuple[int, int, int] | None = None
    ink: tuple[int, int, int] | None = None
    marker: bool = False  # draw a "to move" pointer left of the swatch
    strike: bool = False  # strike the name through (resigned)
    bold: Sequence[bool] = field(default_factory=tuple)


def panel_height(rows: int, row_height: int, header: bool = True) -> int:
    return row_height * (rows + (1 if header else 0))


def draw_panel(
    im: Image.Image,
    box: tuple[int, int, int, int],
    columns: Sequence[tuple[str, float, str]],
    rows: Sequence[PanelRow],
    row_height: int,
    theme: Theme = DEFAULT_THEME,
    header: bool = True,
) -> None:
    """A legend table in ``box``: columns are (header, relative width, align ``l``/``c``/``r``).

    The first column also holds the row's swatch (a disc sprite) at its left.
    """
    d = ImageDraw.Draw(im)
    x0, y0, x1, _ = box
    total = sum(c[1] for c in columns)
    widths = [(x1 - x0) * c[1] / total for c in columns]
    lefts = [x0 + sum(widths[:i]) for i in range(len(columns))]
    text_size = int(row_height * 0.46)
    head_size = int(row_height * 0.36)
    pad = row_height * 0.25
    swatch_w = row_height * 0.95
    y = y0
    if header:
        for (name, _, align), left, width in zip(columns, lefts, widths, strict=True):
            _aligned_text(
                im, _t(name) if name else "", head_size, theme.muted, left, width, y + row_height * 0.55, align, pad
            )
        d.line((x0, y + row_height - 2, x1, y + row_height - 2), fill=theme.rule, width=2)
        touch(im, (x0 - 1, y + row_height - 4, x1 + 2, y + row_height + 1))
        y += row_height
    for row in rows:
        if row.background is not None:
            _rounded_band(im, d, (x0, y + 3, x1, y + row_height - 3), row_height * 0.2, row.background)
        ink = row.ink or theme.ink
        cy = y + row_height / 2
        for i, text in enumerate(row.cells):
            left, width = lefts[i], widths[i]
            if i == 0:
                if row.marker:
                    t = row_height * 0.16
                    mx = left + pad * 0.35
                    d.polygon([(mx, cy - t), (mx + t * 1.4, cy), (mx, cy + t)], fill=theme.accent)
                    touch(im, (mx - 1, cy - t - 1, mx + t * 1.4 + 2, cy + t + 2))
                sx = left + pad + swatch_w / 2
                if row.swatch is not None:
                    paste_centred(im, row.swatch, (sx, cy))
                left += pad + swatch_w
                width -= pad + swatch_w
            bold = i < len(row.bold) and row.bold[i]
            drawn = _aligned_text(
                im, text, text_size, ink, left, width, cy, columns[i][2], pad, bold=bold, row_height=row_height
            )
            if i == 0 and row.strike:
                lw = max(2, row_height // 22)
                for tx0, tx1, ty in drawn:
                    d.line((tx0, ty + 1, tx1, ty + 1), fill=ink, width=lw)
                    touch(im, (tx0 - 1, ty - lw, tx1 + 2, ty + lw + 2))
        y += row_height


def _rounded_band(
    im: Image.Image, d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: float, fill
) -> None:
    """A rounded rectangle, recorded as a flat middle and two converted ends."""
    d.rounded_rectangle(box, radius=radius, fill=fill)
    x0, y0, x1, y1 = box
    end = math.ceil(radius) + 2
    ix0, iy0, ix1, iy1 = math.floor(x0), math.floor(y0), math.ceil(x1) + 1, math.ceil(y1) + 1
    touch(im, (ix0 - 1, iy0 - 1, ix0 + end, iy1 + 1))
    touch(im, (ix1 - end, iy0 - 1, ix1 + 1, iy1 + 1))
    changes = changes_of(im)
    if changes is not None and ix0 + end < ix1 - end:
        # Between the rounded ends every row is filled from its top to its bottom pixel:
        # the fill is recorded only there, and its edge rows are converted.
        changes.add_fill((ix0 + end, iy0 + 1, ix1 - end, iy1 - 2), tuple(fill[:3]))
        touch(im, (ix0 + end, iy0 - 1, ix1 - end, iy0 + 2))
        touch(im, (ix0 + end, iy1 - 3, ix1 - end, iy1 + 1))


def _aligned_text(
    im: Image.Image,
    text: str,
    size: int,
    ink,
    left: float,
    width: float,
    cy: float,
    align: str,
    pad: float,
    bold: bool = False,
    row_height: float | None = None,
) -> list[tuple[float, float, float]]:
    """``text`` in its column, whole: smaller, or on two lines when the row has room for them.
    Returns each line's (left, right, middle y)."""
    if not text:
        return []
    avail = width - 2 * pad
    two = row_height is not None and row_height >= 2.2 * 6
    lines, size = fit_lines(
        text,
        size,
        avail,
        max_lines=2 if two else 1,
        wrapped_size=int(row_height * 0.38) if row_height is not None else None,
        bold=bold,
    )
    step = size * 1.2
    spans = []
    for k, line in enumerate(lines):
        tw = text_width(line, size, bold)
        if align == "l":
            x = left + pad
        elif align == "r":
            x = left + width - pad - tw
        else:
            x = left + (width - tw) / 2
        y = cy + (k - (len(lines) - 1) / 2) * step
        draw_text(im, (x, y), line, size, ink, anchor="lm", bold=bold)
        spans.append((x, x + tw, y))
    return spans
