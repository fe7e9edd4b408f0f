"""A tournament's standings as a table picture, drawn to be read on a phone.

Discord shows a picture about 330–400 px wide on a phone; the table is drawn 720 px wide and scaled down
there, so its 26 px text reads as about 13 px: the size of Discord's own text. Names are shortened to fit
their column (never wrapped), and letters the bundled font lacks are dropped rather than drawn as boxes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from .textdraw import displayable, font

WIDTH = 720
MARGIN = 20
ROW = 46
TEXT = 26
TITLE = 30
SMALL = 24  # the subtitle: what stage, which tie-breaks
INK, FAINT, PAPER, STRIPE, RULE = (32, 33, 36), (96, 99, 106), (255, 255, 255), (242, 244, 247), (200, 204, 210)
GOLD, SILVER, BRONZE = (212, 167, 44), (160, 166, 173), (184, 115, 51)
NAME_COLUMN = 1  # the column that takes the room the numbers leave


def render_standings(
    title: str, subtitle: str, headers: Sequence[str], rows: Sequence[Sequence[str]], withdrawn: Sequence[bool] = ()
) -> bytes:
    """PNG of a table: ``rows`` of cells under ``headers`` (the first column a place, the second a name).
    A withdrawn player's row is drawn faint; the first three places get a medal's colour."""
    body = [[headers[0], *headers[1:]], *rows]
    number_widths = [
        max(font(TEXT, bold=True).getlength(str(r[i])) for r in body) + 22
        for i in range(len(headers))
        if i != NAME_COLUMN
    ]
    name_width = WIDTH - 2 * MARGIN - sum(number_widths)
    widths = [number_widths[0], name_width, *number_widths[1:]]
    notes = _wrap(subtitle, WIDTH - 2 * MARGIN, SMALL)
    height = MARGIN + TITLE + 12 + (SMALL + 8) * len(notes) + 8 + ROW * len(body) + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), _fit(title, WIDTH - 2 * MARGIN, TITLE, True), font=font(TITLE, bold=True), fill=INK)
    y: float = MARGIN + TITLE + 12
    for note in notes:
        draw.text((MARGIN, y), note, font=font(SMALL), fill=FAINT)
        y += SMALL + 8
    y += 8
    for index, cells in enumerate(body):
        header = index == 0
        faint = not header and index - 1 < len(withdrawn) and withdrawn[index - 1]
        if not header and index % 2 == 0:
            draw.rectangle((MARGIN - 8, y, WIDTH - MARGIN + 8, y + ROW), fill=STRIPE)
        x: float = MARGIN
        for column, (cell, width) in enumerate(zip(cells, widths, strict=True)):
            text = str(cell)
            bold = header or column == 0
            colour = FAINT if faint or header else INK
            if not header and column == 0:
                place = text.rstrip(".")
                medal = {"1": GOLD, "2": SILVER, "3": BRONZE}.get(place)
                if medal is not None and not faint:
                    draw.ellipse((x - 2, y + 7, x + 32, y + ROW - 7), fill=medal)
                    colour = PAPER
            shown = _fit(text, width - 12, TEXT, bold) if column == NAME_COLUMN else text
            size = font(TEXT, bold=bold)
            if column == NAME_COLUMN:
                draw.text((x + 6, y + ROW / 2), shown, font=size, fill=colour, anchor="lm")
            elif column == 0:
                draw.text((x + 15, y + ROW / 2), shown, font=size, fill=colour, anchor="mm")
            else:
                draw.text((x + width - 6, y + ROW / 2), shown, font=size, fill=colour, anchor="rm")
            x += width
        if header:
            draw.line((MARGIN - 8, y + ROW - 1, WIDTH - MARGIN + 8, y + ROW - 1), fill=RULE, width=2)
        y += ROW
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _wrap(text: str, width: float, size: int, most: int = 3) -> list[str]:
    """``text`` in lines of whole words no wider than ``width`` (at most ``most``, the last cut to fit)."""
    face = font(size)
    lines: list[str] = []
    for word in displayable(text, fallback="").split(" "):
        if lines and face.getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[: most - 1], _fit(" ".join(lines[most - 1 :]), width, size)]
    return [_fit(line, width, size) for line in lines]


def _fit(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` drawable by the bundled font, cut with an ellipsis to ``width`` pixels."""
    text = displayable(text, fallback="?")
    face = font(size, bold=bold)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
