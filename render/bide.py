"""Bide's picture: the triangular grid of points, discs, last turn, and a legend.

The static part (value bands, grid lines, every point's name and value, row
letters) depends only on the board side and the picture width, so it is drawn
once, supersampled, and cached; each picture pastes cached disc, ring and arrow
sprites onto a copy of it and draws the title bar and the panel.

Layout of a picture ``width`` pixels wide (:func:`point_centre` gives the exact
pixel of any point):

* a title bar (title, and whose turn it is or the result);
* the board, fitted to the width, row letters along its left edge;
* a panel: one row per seat (disc, player, hand, pool, score, status), the last
  turn in words and the key to point values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.bide import SEAT_COLOURS, board_for_side
from games.interface import Event
from i18n import N_, current, t, tn

from . import hexdraw as hd
from . import panels, sprites
from . import textdraw as td

DEFAULT_WIDTH = 1080
MIN_WIDTH = 320

#: Disc fill per seat: the equipment's colour names, in shades chosen to stay
#: apart for the common colour-vision deficiencies (checked with Machado 2009
#: simulations); every disc also carries a seat-specific marker shape.
DISC_COLOURS: tuple[tuple[int, int, int], ...] = (
    (220, 60, 40),  # Red
    (30, 90, 190),  # Blue
    (245, 212, 50),  # Yellow
    (0, 120, 90),  # Green
    (190, 130, 230),  # Purple
    (200, 200, 200),  # Grey
)
DISC_MARKERS: tuple[str, ...] = ("dot", "square", "triangle", "diamond", "cross", "star")

THEME = panels.Theme()
PAGE = THEME.background
BAND_LIGHT = (238, 226, 200)  # value 0 (outer ring)
BAND_DARK = (205, 178, 134)  # the centre
GRID_LINE = (150, 126, 92)
POINT_FILL = (253, 251, 245)
POINT_OUTLINE = (150, 126, 92)
NAME_INK = (40, 36, 30)
VALUE_INK = (120, 84, 40)
LETTER_INK = (95, 78, 55)
DISC_OUTLINE = (35, 32, 30)
ARROW_INK = (20, 20, 20)
ARROW_HALO = (255, 255, 255)
LAST_RING = sprites.LAST_MOVE_RING
LAST_RING_HALO = sprites.LAST_MOVE_HALO

# Proportions, in units of the distance between neighbouring points.
DISC_R = 0.445
POINT_R = 0.4
NAME_SIZE = 0.29
VALUE_SIZE = 0.25  # bold: a player adds these up, on a phone too
LINE_W = 0.035


def seat_colour(seat: int) -> tuple[int, int, int]:
    return DISC_COLOURS[(seat - 1) % len(DISC_COLOURS)]


def seat_marker(seat: int) -> str:
    return DISC_MARKERS[(seat - 1) % len(DISC_MARKERS)]


# -- geometry ------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    width: int
    side: int
    layout: hd.HexLayout
    title_h: int
    board_top: int
    board_bottom: int
    spacing: float
    row_h: int

    def panel_height(self, players: int) -> int:
        # header + one row per seat + two footer lines + margins
        return self.row_h * (players + 1) + int(self.row_h * 2.3) + int(self.row_h * 0.6)

    def height(self, players: int) -> int:
        return self.board_bottom + self.panel_height(players)


@lru_cache(maxsize=32)
def geometry(side: int, width: int = DEFAULT_WIDTH) -> Geometry:
    if width < MIN_WIDTH:
        raise ValueError(f"a Bide picture is at least {MIN_WIDTH} pixels wide, not {width}")
    board = board_for_side(side)
    title_h = round(width * 0.10)
    top = title_h + int(width * 0.015)
    right = width * 0.015
    # Row letters sit 0.92 spacing left of each row's first point: reserve room
    # in proportion to the spacing, which itself depends on the reserve.
    left = width * 0.05
    for _ in range(3):
        layout, bottom = hd.HexLayout.fit(board.cells, width, left=left, right=right, top=top, halo=1.0)
        left = max(width * 0.02, layout.spacing * (0.92 + 0.3) - layout.size)
    return Geometry(
        width=width,
        side=side,
        layout=layout,
        title_h=title_h,
        board_top=top,
        board_bottom=math.ceil(bottom + width * 0.01),
        spacing=layout.spacing,
        row_h=max(24, round(width * 0.066)),  # panel text ~12 px on a 400 px phone
    )


def _side_of(game_or_side) -> int:
    if isinstance(game_or_side, int):
        return game_or_side
    return int(game_or_side.options["side"])


def point_centre(game_or_side, cell_name: str, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """Pixel (x, y) of the centre of the point named ``cell_name`` on a picture ``width`` wide.

    ``game_or_side`` is a Bide game or a board side (4, 5 or 6).
    """
    side = _side_of(game_or_side)
    board = board_for_side(side)
    x, y = geometry(side, width).layout.centre(board.cells[board.parse(cell_name)])
    return round(x), round(y)


def point_spacing(game_or_side, width: int = DEFAULT_WIDTH) -> float:
    """Pixels between neighbouring points; a disc's radius is ``DISC_R`` times this."""
    return geometry(_side_of(game_or_side), width).spacing


# -- the static board ---------------------------------------------------------------------


@lru_cache(maxsize=16)
def board_background(side: int, width: int = DEFAULT_WIDTH) -> Image.Image:
    """The board without discs: value bands, lines, every point's name and value, row letters.

    Only the board strip (from the top of the picture to the end of the board)
    is drawn; the title bar area is left blank. Callers must copy it.
    """
    g = geometry(side, width)
    board = board_for_side(side)
    layout = g.layout
    sp = g.spacing
    cv = hd.Canvas(width, g.board_bottom, PAGE)
    n = side - 1
    cx, cy = layout.centre((0, 0))
    top_value = max(board.edge_distance)

    # Value bands: nested hexagons, the outer ring lightest.
    for value in range(top_value + 1):
        radius = (n - value + 0.5) * sp
        corners = [(cx + radius * dx, cy + radius * dy) for dx, dy in hd.SCREEN_DIRECTIONS]
        t = value / max(1, top_value)
        cv.polygon(
            corners,
            fill=hd.mix(BAND_LIGHT, BAND_DARK, t),
            outline=hd.mix(BAND_LIGHT, BAND_DARK, min(1.0, t + 0.35)) if value == 0 else None,
            width=max(1.0, sp * 0.02),
        )

    # Lines between neighbouring points (each pair once).
    segments = [
        (layout.centre(cell), layout.centre(board.cells[j]))
        for i, cell in enumerate(board.cells)
        for j in board.neighbour_indices[i]
        if j > i
    ]
    cv.lines(segments, GRID_LINE, width=sp * LINE_W)

    # Every point with its name and value; discs will cover the occupied ones.
    name_size = max(9, round(sp * NAME_SIZE))
    value_size = max(8, round(sp * VALUE_SIZE))
    for i, cell in enumerate(board.cells):
        c = layout.centre(cell)
        cv.circle(c, sp * POINT_R, fill=POINT_OUTLINE)
        cv.circle(c, sp * POINT_R - max(1.0, sp * 0.02), fill=POINT_FILL)
        cv.text((c[0], c[1] - sp * 0.095), board.names[i], name_size, NAME_INK)
        cv.text((c[0], c[1] + sp * 0.195), str(board.edge_distance[i]), value_size, VALUE_INK, bold=True)

    # Row letters along the left edge, just outside the outer band.
    letter_size = max(10, round(sp * 0.3))
    for row_number, row in enumerate(board.rows):
        x, y = layout.centre(board.cells[row[0]])
        cv.text((x - sp * 0.92, y), chr(ord("a") + row_number), letter_size, LETTER_INK, bold=True)
    return cv.image()


# -- sprites sized for a geometry -----------------------------------------------------------


def disc(seat: int, spacing: float, value: int | None = None) -> Image.Image:
    """A seat's disc; with ``value``, the point's value is printed under the marker (a full
    board hides the values printed on the points)."""
    radius, outline = round(spacing * DISC_R, 1), round(max(1.5, spacing * 0.028), 1)
    if value is None:
        return sprites.disc_sprite(radius, seat_colour(seat), DISC_OUTLINE, outline, seat_marker(seat))
    return _valued_disc(seat, radius, outline, value)


@lru_cache(maxsize=256)
def _valued_disc(seat: int, radius: float, outline: float, value: int) -> Image.Image:
    base = sprites.disc_sprite(radius, seat_colour(seat), DISC_OUTLINE, outline, None)
    k = sprites.SPRITE_SUPERSAMPLE
    side = base.width
    over = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(over)
    c = side * k / 2
    inner = (radius - outline) * k
    ink = hd.contrast_ink(seat_colour(seat)) + (255,)
    hd._draw_marker(d, seat_marker(seat), (c, c - inner * 0.3), inner * 0.34, ink)
    d.text((c, c + inner * 0.47), str(value), font=td.font(int(inner * 0.56), bold=True), fill=ink, anchor="mm")
    over = over.resize((side, side), Image.Resampling.LANCZOS)
    return Image.alpha_composite(base, over)


def swatch(seat: int, size: float) -> Image.Image:
    """A disc for the legend, ``size`` pixels across."""
    return sprites.disc_sprite(
        round(size / 2, 1), seat_colour(seat), DISC_OUTLINE, round(max(1.5, size * 0.05), 1), seat_marker(seat)
    )


def group_values(game, seat: int) -> list[int]:
    """Point values of ``seat``'s best group, largest first (they add up to its score)."""
    values = game.board.edge_distance
    return sorted((values[i] for i in best_group(game, seat)), reverse=True)


def best_group(game, seat: int) -> list[int]:
    """Point indices of ``seat``'s highest-scoring group (the one that counts)."""
    cells = game.cells
    values = game.board.edge_distance
    nbrs = game.board.neighbour_indices
    seen = [False] * len(cells)
    best: list[int] = []
    best_score = -1
    for start, owner in enumerate(cells):
        if owner != seat or seen[start]:
            continue
        seen[start] = True
        group, stack = [], [start]
        while stack:
            p = stack.pop()
            group.append(p)
            for q in nbrs[p]:
                if not seen[q] and cells[q] == seat:
                    seen[q] = True
                    stack.append(q)
        score = sum(values[p] for p in group)
        if score > best_score:
            best, best_score = group, score
    return best


# -- what the last turn did ------------------------------------------------------------------


@dataclass
class LastTurn:
    placed: dict[str, int]  # where each placed disc is now -> order placed (1-based)
    pushes: list[tuple[str, str]]


def trace_last_turn(events: Sequence[Event]) -> LastTurn:
    """Where the last turn's placed discs ended up, and every push.

    A disc placed early in a release may be pushed by a later placement's
    wave: the highlight follows it.
    """
    placed: dict[str, int] = {}
    pushes: list[tuple[str, str]] = []
    order = 0
    for ev in events:
        if ev.kind == "place" and ev.cell:
            order += 1
            placed[ev.cell.lower()] = order
        elif ev.kind == "push" and ev.src and ev.dst:
            src, dst = ev.src.lower(), ev.dst.lower()
            pushes.append((src, dst))
            if src in placed:
                placed[dst] = placed.pop(src)
    return LastTurn(placed, pushes)


def describe_last_turn(events: Sequence[Event], names: Sequence[str]) -> str:
    """The last turn in a few words: "Red released e5, d4 · 6 discs pushed · Blue owes a release"."""

    def who(seat: int | None) -> str:
        if seat is None or not 1 <= seat <= len(names):
            return "?"
        return names[seat - 1]

    parts: list[str] = []
    places: list[Event] = [e for e in events if e.kind == "place"]
    pushes = sum(1 for e in events if e.kind == "push")
    if places:
        seat = places[0].seat
        cells = ", ".join(e.cell or "?" for e in places)
        if len(places) > 1:
            text = t("{player} released {cells}", player=who(seat), cells=cells)
        else:
            text = t("{player} played {cells}", player=who(seat), cells=cells)
        if pushes:
            text = tn("{turn} · {count} disc pushed", "{turn} · {count} discs pushed", pushes, turn=text)
        parts.append(text)
    for e in events:
        if e.kind == "bide":
            hand = dict(e.data).get("hand")
            if hand is not None:
                parts.append(t("{player} bided (hand {hand})", player=who(e.seat), hand=hand))
            else:
                parts.append(t("{player} bided", player=who(e.seat)))
        elif e.kind == "pass":
            parts.append(t("{player} passed (no discs)", player=who(e.seat)))
        elif e.kind == "resign":
            parts.append(t("{player} resigned", player=who(e.seat)))
    owing = [who(e.seat) for e in events if e.kind == "owe"]
    if owing:
        if len(owing) == 1:
            parts.append(t("{player} owes a release", player=owing[0]))
        else:
            parts.append(t("{players} owe a release", players=_join(owing)))
    return " · ".join(parts)


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return t("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


# -- the picture -----------------------------------------------------------------------------------


def seat_names(players: int, player_names: Sequence[str] | None) -> list[str]:
    """Display name per seat: the given name (drawable characters only) or the seat's colour."""
    names = []
    for seat in range(1, players + 1):
        colour = t(SEAT_COLOURS[seat - 1])
        given = player_names[seat - 1] if player_names and seat - 1 < len(player_names) else None
        names.append(td.displayable(str(given), colour) if given else colour)
    return names


#: How a Bide game can end (games/bide.py), as the title says it.
END_REASONS = {"no discs left": N_("no discs left"), "board full": N_("board full"), "over": N_("over")}


def status_line(game, names: Sequence[str]) -> str:
    if game.is_over:
        winners = list(game.winners)
        reason = getattr(game, "end_reason", None)
        scores = game.scores()
        if not winners:
            return t("Game over")
        one = len(winners) == 1
        who = names[winners[0] - 1] if one else _join([names[s - 1] for s in winners])
        if reason == "resignation":
            if one:
                return t("Game over · {player} wins by resignation", player=who)
            return t("Game over · {players} share the win by resignation", players=who)
        best = max(int(scores[s - 1]) for s in winners)
        # TRANSLATORS: the reason the game ended, in brackets after "Game over" ("" when none).
        tail = t(" ({reason})", reason=t(END_REASONS.get(reason, reason))) if reason else ""
        tied = sum(1 for s in scores if int(s) == best) > len(winners)
        if one and tied:
            text = tn(
                "Game over{reason} · {player} wins on tie-break with {count} point",
                "Game over{reason} · {player} wins on tie-break with {count} points",
                best,
                reason=tail,
                player=who,
            )
        elif one:
            text = tn(
                "Game over{reason} · {player} wins with {count} point",
                "Game over{reason} · {player} wins with {count} points",
                best,
                reason=tail,
                player=who,
            )
        elif tied:
            text = tn(
                "Game over{reason} · {players} share the win on tie-break with {count} point",
                "Game over{reason} · {players} share the win on tie-break with {count} points",
                best,
                reason=tail,
                players=who,
            )
        else:
            text = tn(
                "Game over{reason} · {players} share the win with {count} point",
                "Game over{reason} · {players} share the win with {count} points",
                best,
                reason=tail,
                players=who,
            )
        return text
    seat = game.to_move
    if not seat:
        return t("Turn {number}", number=game.ply + 1)
    if game.owed[seat - 1]:
        return t("Turn {number} · {player} to move, must release", number=game.ply + 1, player=names[seat - 1])
    return t("Turn {number} · {player} to move", number=game.ply + 1, player=names[seat - 1])


def render(
    game,
    *,
    player_names: Sequence[str] | None = None,
    last_events: Sequence[Event] = (),
    title: str | None = None,
    width: int = DEFAULT_WIDTH,
) -> Image.Image:
    """The picture of a Bide game as an RGB image ``width`` pixels wide."""
    side = _side_of(game)
    g = geometry(side, width)
    board = game.board
    players = game.players
    names = seat_names(players, player_names)
    colour_names = [t(SEAT_COLOURS[s]) for s in range(players)]
    custom = [names[s] != colour_names[s] for s in range(players)]
    sp = g.spacing
    layout = g.layout

    im = hd.new_picture(page_background(side, width, players, game.is_over, current()))

    # Title bar.
    accent = seat_colour(game.to_move) if game.to_move else None
    heading = t("Bide · {players} players · {points} points", players=players, points=len(board))
    if title:
        heading = td.displayable(title, heading)
    panels.draw_title_bar(im, g.title_h, heading, status_line(game, names), THEME, accent_colour=accent)

    # Discs, each with its point's value.
    cells = game.cells
    values = board.edge_distance
    for i, owner in enumerate(cells):
        if owner:
            sprites.paste_centred(im, disc(owner, sp, values[i]), layout.centre(board.cells[i]))

    # Game over: each seat's best group (the one that scores) outlined in its colour.
    if game.is_over:
        for seat in range(1, players + 1):
            outline = sprites.group_outline(sp * DISC_R, sp, seat_colour(seat))
            for i in best_group(game, seat):
                sprites.paste_centred(im, outline, layout.centre(board.cells[i]))

    # Last turn: rings around the placed discs, arrows for every push.
    last = trace_last_turn(last_events)
    index = {name: i for i, name in enumerate(board.names)}
    ring = sprites.last_move_ring(sp * DISC_R, sp)
    for name in last.placed:
        if name in index:
            sprites.paste_centred(im, ring, layout.centre(board.cells[index[name]]))
    arrow_w = round(max(2.0, sp * 0.06), 1)
    halo_w = round(max(1.0, sp * 0.018), 1)
    head = round(sp * 0.2, 1)
    pushes = list(dict.fromkeys(last.pushes))  # a push repeated in a release: one arrow
    both_ways = set(pushes)
    for src, dst in pushes:
        if src not in index or dst not in index:
            continue
        a = layout.centre(board.cells[index[src]])
        b = layout.centre(board.cells[index[dst]])
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        # Start past the name of an emptied point; end inside the pushed disc.
        sx, sy = a[0] + ux * sp * 0.3, a[1] + uy * sp * 0.3
        tx, ty = b[0] - ux * sp * 0.2, b[1] - uy * sp * 0.2
        if (dst, src) in both_ways:  # pushed there and back: keep the two arrows apart
            off = sp * 0.075
            sx, sy, tx, ty = sx - uy * off, sy + ux * off, tx - uy * off, ty + ux * off
        sprites.draw_arrow(im, (sx, sy), (tx, ty), ARROW_INK, arrow_w, ARROW_HALO, halo_w, head)
    if len(last.placed) > 1:
        badge_size = round(sp * 0.26)
        for name, order in last.placed.items():
            if name in index:
                x, y = layout.centre(board.cells[index[name]])
                badge = sprites.badge_sprite(str(order), badge_size, (20, 20, 20), (255, 255, 255), (255, 255, 255))
                sprites.paste_centred(im, badge, (x + sp * 0.3, y - sp * 0.3))

    _draw_panel(im, game, g, names, custom, colour_names, last_events)
    return im


COLUMNS = (
    (N_("Player"), 3.0, "l"),
    (N_("Hand"), 1.0, "c"),
    (N_("Pool"), 1.0, "c"),
    (N_("Score"), 1.1, "c"),
    ("", 2.4, "l"),
)
#: Once over, hands and pools no longer count: the best group's point values replace them.
OVER_COLUMNS = ((N_("Player"), 3.0, "l"), (N_("Best group"), 2.9, "l"), (N_("Score"), 1.1, "c"), ("", 1.5, "l"))


def _panel_frame(g: Geometry) -> tuple[int, int, int]:
    """(margin, top of the table, size of the small text) of the panel."""
    return int(g.width * 0.03), g.board_bottom + int(g.row_h * 0.2), int(g.row_h * 0.44)


@lru_cache(maxsize=64)
def page_background(side: int, width: int, players: int, over: bool = False, language: str = "en") -> Image.Image:
    """Everything that does not depend on the position: the board, the panel's header and value key."""
    g = geometry(side, width)
    im = Image.new("RGB", (width, g.height(players)), PAGE)
    im.paste(board_background(side, width), (0, 0))
    row_h = g.row_h
    margin, table_top, small = _panel_frame(g)
    d = ImageDraw.Draw(im)
    d.line((margin, g.board_bottom, width - margin, g.board_bottom), fill=THEME.rule, width=2)
    panels.draw_panel(
        im, (margin, table_top, width - margin, 0), OVER_COLUMNS if over else COLUMNS, [], row_h, THEME, header=True
    )

    # The key to point values, under the table and the last-turn line.
    y = table_top + row_h * (players + 1) + int(row_h * 0.15) + int(row_h * 1.05)
    top_value = max(board_for_side(side).edge_distance)
    key = t("Point value = distance from the edge:")
    cy = y + row_h * 0.5
    d.text((margin, cy), key, font=td.font(small), fill=THEME.muted, anchor="lm")
    x = margin + td.text_width(key, small) + row_h * 0.3
    box = int(row_h * 0.62)
    for value in range(top_value + 1):
        colour = hd.mix(BAND_LIGHT, BAND_DARK, value / max(1, top_value))
        d.rounded_rectangle(
            (x, cy - box / 2, x + box, cy + box / 2), radius=box * 0.2, fill=colour, outline=GRID_LINE, width=1
        )
        d.text((x + box / 2, cy), str(value), font=td.font(int(box * 0.6)), fill=NAME_INK, anchor="mm")
        x += box + row_h * 0.15
    scoring = t("  ·  a seat scores its best group")
    if x + td.text_width(scoring, small) < width - margin:
        d.text((x, cy), scoring, font=td.font(small), fill=THEME.muted, anchor="lm")
    return im


def panel_cells(game, names, custom, colour_names) -> list[list[str]]:
    """The panel's words per seat: player, hand, pool, score, status; once over, player,
    the best group's point values ("3+2+2+1", adding up to the score), score, status."""
    scores = game.scores()
    winners = set(game.winners)
    out = []
    for seat in range(1, game.players + 1):
        i = seat - 1
        status = []
        if game.is_over and seat in winners:
            status.append(t("winner") if len(winners) == 1 else t("shares the win"))
        if game.resigned[i]:
            status.append(t("resigned"))
        if game.to_move == seat:
            status.append(t("must release now") if game.owed[i] else t("to move"))
        elif game.owed[i] and not game.is_over:
            status.append(t("owes a release"))
        label = t("{name} ({colour})", name=names[i], colour=colour_names[i]) if custom[i] else names[i]
        if game.is_over:
            group = "+".join(map(str, group_values(game, seat))) or "–"
            out.append([label, group, str(int(scores[i])), ", ".join(status)])
        else:
            out.append([label, str(game.hands[i]), str(game.pools[i]), str(int(scores[i])), ", ".join(status)])
    return out


def _draw_panel(im, game, g: Geometry, names, custom, colour_names, last_events) -> None:
    players = game.players
    row_h = g.row_h
    width = g.width
    margin, table_top, small = _panel_frame(g)
    winners = set(game.winners)
    rows = []
    for seat, cells in zip(range(1, players + 1), panel_cells(game, names, custom, colour_names), strict=True):
        i = seat - 1
        background = None
        if game.is_over and seat in winners:
            background = THEME.winner
        elif game.to_move == seat:
            background = THEME.highlight
        score_column = 2 if game.is_over else 3
        rows.append(
            panels.PanelRow(
                swatch=swatch(seat, row_h * 0.78),
                cells=cells,
                background=background,
                ink=THEME.muted if game.resigned[i] else None,
                marker=game.to_move == seat,
                strike=game.resigned[i],
                bold=tuple(k == score_column and seat in winners for k in range(len(cells))),
            )
        )
    columns = OVER_COLUMNS if game.is_over else COLUMNS
    panels.draw_panel(im, (margin, table_top + row_h, width - margin, 0), columns, rows, row_h, THEME, header=False)

    # The last turn in words (and, once over, what the outlines mean).
    y = table_top + row_h * (players + 1) + int(row_h * 0.15)
    parts = []
    last = describe_last_turn(last_events, names)
    if last:
        parts.append(t("Last turn: {turn}", turn=last))
    if game.is_over:
        parts.append(t("outlined: each seat's best group"))
    if parts:
        # Whole, on two lines (then smaller) when long names need it, in the line's slot.
        block = td.fit_block([" · ".join(parts)], small, width - 2 * margin, row_h * 1.02, line_step=1.2)
        for _, line, ly, size in block.lines(y + (row_h - block.height) / 2):
            td.draw_text(im, (margin, ly), line, size, THEME.ink, anchor="lm")


# -- one palette for every picture -------------------------------------------------------------------


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """A 255-colour palette ("P" image) for every Bide picture, built once.

    Quantizing to a fixed palette is a fast nearest-colour lookup, and
    palette PNGs are about a third of the size of RGB ones; the free 256th
    index lets GIF frames use transparency for unchanged pixels. The palette is
    fitted (:func:`render.palettes.fitted`: this module's colours exact) to sample
    pictures holding every seat colour, highlight, arrow and panel state, so nothing
    drawn later lacks a close colour.
    """
    from games.bide import Bide

    side = 5
    board = board_for_side(side)
    n = len(board)
    cells = {board.names[i]: (i * 5 % 6) + 1 for i in range(n) if i % 4 != 1}
    position = {
        "board": cells,
        "hands": [2, 1, 0, 3, 1, 0],
        "pools": [9, 8, 7, 6, 5, 4],
        "to_move": 2,
        "owed": [3, 5],
        "resigned": [4],
    }
    mid = Bide.from_position(6, {"side": side}, position)
    events: list[Event] = [Event("place", seat=1, cell=board.names[30]), Event("place", seat=1, cell=board.names[31])]
    events.extend(
        Event("push", seat=1, src=board.names[i], dst=board.names[board.neighbour_indices[i][0]])
        for i in range(0, n - 1, 3)
    )
    full = Bide.from_position(6, {"side": side}, {"board": {board.names[i]: (i % 6) + 1 for i in range(n)}})
    samples = [
        render(mid, last_events=events, width=720),
        render(full, last_events=events[:2], width=720),
        render(Bide.from_position(2, {"side": side}, {"board": {}}), width=720),
    ]
    from .palettes import fitted, module_colours

    return fitted(samples, module_colours(render))
