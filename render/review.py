"""Pictures of a post-game review (docs/review.md): the evaluation graph, and a turn drawn over its board.

- :func:`evaluation_graph`: the winning chances (0–100 %) after every turn, the turning points marked by
  how bad they were. Two players: one line, the chance of the player whose side it is drawn from (the
  other's is the rest: a second line would mirror it); more: each player's own chance. Drawn wide and with
  large type: a phone shows it about 360 px wide.
- :func:`turn_overlay`: the board before a turn (the game's own renderer), the turn played drawn in one
  colour and the computer's preferred turn in another (rings on the cells they place on, arrows for what
  they move), with a legend below naming both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from games.interface import Event, Game
from i18n import pt, t

from . import begird as _begird
from . import bide as _bide
from . import bump_board as _bump_board
from . import playbai as _playbai
from . import png as _png
from . import render_image, sprites
from . import textdraw as td

GRAPH_WIDTH, GRAPH_HEIGHT = 720, 480
OVERLAY_WIDTH = 720  # a board drawn for a phone: the overlay's marks stay visible when scaled down

# One colour per player, told apart by colour-blind readers too (Okabe and Ito's palette).
LINE_COLOURS = ((0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167), (86, 180, 233), (213, 94, 0))
LABEL_COLOURS = {"blunder": (200, 30, 30), "mistake": (230, 120, 0), "inaccuracy": (200, 170, 0)}
PLAYED_COLOUR = (215, 40, 40)
BEST_COLOUR = (20, 150, 60)
INK, GRID, PAPER = (30, 30, 30), (215, 215, 215), (255, 255, 255)


def evaluation_graph(
    chances: Sequence[Sequence[float]],
    names: Sequence[str],
    marks: Sequence[tuple[int, str]] = (),
    title: str = "",
    width: int = GRAPH_WIDTH,
    height: int = GRAPH_HEIGHT,
    side: int = 0,
) -> bytes:
    """The graph as PNG: ``chances[k]`` are the players' chances (0..1) after ``k`` turns (0: the start);
    ``marks`` are (position, label) of the turning points: a line across and a dot on each curve, coloured
    by the label (blunder, mistake, inaccuracy). With two players one curve is drawn, player ``side``'s
    (0 or 1); with more, one per player."""
    im = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(im)
    scale = width / GRAPH_WIDTH
    text = round(26 * scale)
    small = round(24 * scale)
    top = round(14 * scale)
    if title:
        [line], fitted = td.fit_lines(title, text, width - 20, bold=True)  # shrunk, never cut
        td.draw_text(im, (width / 2, top), line, fitted, INK, anchor="ma", bold=True)
        top += text + round(10 * scale)
    drawn = _curves(names, side)
    rows = (len(drawn) + 1) // 2
    legend = rows * (small + round(8 * scale)) + round(6 * scale)
    left, right = round(88 * scale), round(20 * scale)
    axis = small + round(6 * scale)  # the turn axis's name, under its numbers
    bottom = round(40 * scale) + axis + legend
    x0, x1, y0, y1 = left, width - right, top + round(8 * scale), height - bottom
    positions = max(1, len(chances) - 1)

    def x_of(k: float) -> float:
        return x0 + (x1 - x0) * k / positions

    def y_of(chance: float) -> float:
        return y1 - (y1 - y0) * chance

    for percent in (0, 25, 50, 75, 100):
        y = y_of(percent / 100)
        draw.line(
            [(x0, y), (x1, y)],
            fill=GRID if percent not in (0, 100) else (160, 160, 160),
            width=max(1, round(scale * (2 if percent == 50 else 1))),
        )
        td.draw_text(im, (x0 - 8 * scale, y), t("{percent}%", percent=percent), small, INK, anchor="rm")
    step = _tick_step(positions)
    for k in range(0, positions + 1, step):
        td.draw_text(im, (x_of(k), y1 + 6 * scale), str(k), small, INK, anchor="ma")
    # TRANSLATORS: the name of the review graph's horizontal axis: the turns played, 0 at the start.
    td.draw_text(im, ((x0 + x1) / 2, y1 + 6 * scale + axis), pt("review graph axis", "Turn"), small, INK, anchor="ma")
    for player, _ in drawn:
        colour = LINE_COLOURS[player % len(LINE_COLOURS)]
        points = [(x_of(k), y_of(c[player])) for k, c in enumerate(chances) if player < len(c)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=max(2, round(4 * scale)), joint="curve")
    radius = 9 * scale
    for position, label in marks:
        if not 0 <= position < len(chances):
            continue
        x = x_of(position)
        draw.line([(x, y0), (x, y1)], fill=LABEL_COLOURS.get(label, INK), width=max(1, round(2 * scale)))
        for player, _ in drawn:
            if player < len(chances[position]):
                y = y_of(chances[position][player])
                draw.ellipse(
                    [x - radius, y - radius, x + radius, y + radius],
                    fill=LABEL_COLOURS.get(label, INK),
                    outline=PAPER,
                    width=max(1, round(2 * scale)),
                )
    # the legend: a swatch and whose chance each curve is, two to a row
    ly = height - legend + round(2 * scale)
    column = (width - 2 * left // 2) / 2
    for row, (player, words) in enumerate(drawn):
        cx = left // 2 + column * (row % 2)
        cy = ly + (row // 2) * (small + round(8 * scale))
        colour = LINE_COLOURS[player % len(LINE_COLOURS)]
        draw.rectangle([cx, cy + small * 0.35, cx + 28 * scale, cy + small * 0.65], fill=colour)
        [label], fitted = td.fit_lines(
            words, small, (width - left) - 40 * scale if len(drawn) == 1 else column - 40 * scale
        )
        td.draw_text(im, (cx + 36 * scale, cy), label, fitted, INK)
    return _png.encode(im.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def _curves(names: Sequence[str], side: int) -> list[tuple[int, str]]:
    """(player index, legend words) of each curve drawn: two players' chances add up to 100 %, so one
    curve says it all (player ``side``'s); with more, each player's own."""
    shown = [td.displayable(name, t("Player {number}", number=k + 1)) for k, name in enumerate(names)]
    if len(names) == 2:
        side = side if side in (0, 1) else 0
        # TRANSLATORS: the review graph's one line in a two-player game: whose winning chance it is.
        return [(side, t("{name}: winning chance", name=shown[side]))]
    return list(enumerate(shown))


def _tick_step(positions: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if positions / step <= 8:
            return step
    return max(1, positions // 8)


def _centre_finder(game: Game, width: int) -> Callable[[str], tuple[float, float]]:
    """Where a cell named in an event is drawn on the game's picture ``width`` wide."""
    game_id = game.info.id
    if game_id == "bide":
        return lambda name: _bide.point_centre(game, name, width)
    if game_id == "begird":
        return lambda name: _begird.cell_centre(game, name, width)
    if game_id == "playbai":
        return lambda name: _playbai.cell_centre(game, name, width)  # type: ignore[arg-type]
    if game_id == "bump":
        return lambda name: _bump_board.space_centre(name, width)
    raise LookupError(f"no overlay for {game_id!r}")


def _mark_turn(
    im: Image.Image, events: Sequence[Event], centre: Callable[[str], tuple[float, float]], colour, r: float
) -> None:
    draw = ImageDraw.Draw(im)
    for event in events:
        try:
            if event.src and event.dst and event.src != event.dst:
                sprites.draw_arrow(im, centre(event.src), centre(event.dst), colour, max(3.0, r * 0.35))
            elif event.cell:
                x, y = centre(event.cell)
                draw.ellipse([x - r, y - r, x + r, y + r], outline=PAPER, width=max(5, round(r * 0.5)))
                draw.ellipse([x - r, y - r, x + r, y + r], outline=colour, width=max(4, round(r * 0.35)))
        except (KeyError, ValueError, IndexError):  # an event off the board (a reserve, a goal line): not drawn
            continue


def turn_overlay(
    before: Game,
    played: Sequence[Event],
    best: Sequence[Event],
    *,
    legend: tuple[str, str],
    player_names: Sequence[str] | None = None,
    title: str | None = None,
    width: int = OVERLAY_WIDTH,
    last_events: Sequence[Event] = (),
) -> bytes:
    """The board ``before`` a turn with the turn ``played`` (red) and the preferred turn ``best`` (green)
    drawn over it, and ``legend`` (what each colour is, in words) below. ``last_events``: the turn that led
    to ``before``, drawn and said as on the board the mover saw."""
    board = render_image(before, player_names=player_names, title=title, width=width, last_events=last_events)
    centre = _centre_finder(before, board.width)
    r = board.width / 30
    _mark_turn(board, best, centre, BEST_COLOUR, r * 1.2)
    _mark_turn(board, played, centre, PLAYED_COLOUR, r)
    size = round(board.width / 24)
    band = 2 * (size + round(size * 0.6)) + round(size * 0.4)
    out = Image.new("RGB", (board.width, board.height + band), PAPER)
    out.paste(board, (0, 0))
    for row, (colour, words) in enumerate(((PLAYED_COLOUR, legend[0]), (BEST_COLOUR, legend[1]))):
        y = board.height + round(size * 0.4) + row * (size + round(size * 0.6))
        ImageDraw.Draw(out).ellipse(
            [size * 0.5, y + size * 0.1, size * 1.3, y + size * 0.9], outline=colour, width=max(3, size // 5)
        )
        [text], fitted = td.fit_lines(td.displayable(words, "?"), size, board.width - size * 2.2)
        td.draw_text(out, (size * 1.7, y), text, fitted, INK)
    return _png.encode(out.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))
