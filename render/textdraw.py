"""Text on a picture: the bundled fonts, text measured, laid out to fit, and drawn through caches.

Fonts are DejaVu Sans and DejaVu Sans Bold, bundled in ``render/fonts`` (:func:`font`),
cached by size. :func:`draw_text` draws exactly ImageDraw's pixels through a cache of
glyph masks (word by word for long Latin lines); :func:`draw_label` writes a short
name narrowed to fit a cell; :func:`fit_lines`, :func:`fit_block` and :func:`wrap`
find the lines and the size at which a text fits a width whole (never an ellipsis).
:func:`displayable` drops what the fonts cannot draw. What is drawn is recorded on a
:func:`render.changes.new_picture` (fast encoding).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from .changes import changes_of, touch

Point = tuple[float, float]  # a pixel position, as render.hexdraw.Point


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
