"""The text parts of a picture: its :class:`Theme`, the title bar and the legend panel.

Drawn at final resolution (FreeType text is anti-aliased already) with
:mod:`render.textdraw`, straight on a copy of the cached background, each change
recorded (render/changes.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from i18n import t as _t

# td.draw_text, not an imported draw_text: a patched textdraw.draw_text (the tests' recorder of every
# text drawn) then sees the title bar's and the panel's text too.
from . import textdraw as td
from .changes import changes_of, fill_rect, touch
from .sprites import paste_centred


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
        td.draw_text(im, (pad, int(height * 0.31)), title, title_size, theme.title_ink, anchor="lm", bold=True)
        td.draw_text(
            im, (pad, int(height * 0.73)), subtitle, _shrunk(subtitle, small, avail), theme.subtitle_ink, anchor="lm"
        )
    else:
        td.draw_text(im, (pad, height // 2), title, title_size, theme.title_ink, anchor="lm", bold=True)


def _shrunk(text: str, size: int, max_width: float, bold: bool = False) -> int:
    """The largest size ≤ ``size`` at which ``text`` fits ``max_width`` on one line (at least 6 px)."""
    while size > 6 and td.text_width(text, size, bold) > max_width:
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
    lines, size = td.fit_lines(
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
        tw = td.text_width(line, size, bold)
        if align == "l":
            x = left + pad
        elif align == "r":
            x = left + width - pad - tw
        else:
            x = left + (width - tw) / 2
        y = cy + (k - (len(lines) - 1) / 2) * step
        td.draw_text(im, (x, y), line, size, ink, anchor="lm", bold=bold)
        spans.append((x, x + tw, y))
    return spans
