"""Play Bai's picture: the field, both teams, the ball, the last turn and the score.

* The field is a hex-hex of named cells with the row letters on the left.
  Each end zone is tinted in its team's colour, edged in it and carries the
  rules' dot.
* Orange (seat 1) playballers are round, Blue (seat 2) ones are square
  (Okabe–Ito colours, safe for colour-blind players; shape tells them apart
  in grey too).
* The ball is white with a black outline inside a yellow halo: on its
  carrier it sits on the playballer's shoulder, loose it fills its cell.
* The last turn is drawn in order with numbered badges: steps as arrows,
  jumps as arcs over the line they cross (a bounce as a loop that comes
  back), passes as dashed lines; the goal cell gets a star.
* The panel gives each team's goals, the set number, who kicks off, and
  celebrates a goal.

The static field is drawn once per (side, width) and cached; a picture pastes
sprites and an overlay (drawn supersampled) on a copy of it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from PIL import Image, ImageDraw

from games.interface import Event
from games.playbai import SEAT_COLOURS, PlayBai
from games.playbaifield import field
from i18n import N_, t

from . import hexdraw as hd
from . import panels, sprites
from . import textdraw as td

DEFAULT_WIDTH = 1080
MIN_WIDTH = 320
THEME = panels.Theme()
PAGE = THEME.background
TEAM = {1: (230, 159, 0), 2: (0, 114, 178)}  # Okabe–Ito orange and blue
TEAM_DARK = {1: (120, 72, 0), 2: (0, 56, 96)}
TEAM_TINT = {1: (250, 222, 170), 2: (178, 212, 236)}
SHAPES = {1: "round", 2: "square"}
PITCH = (222, 236, 210)
PITCH_ALT = (210, 228, 196)
GRID = (150, 172, 140)
NAME_INK = (92, 110, 88)
NAME_SIZE = 0.5  # of a cell's radius: players type these names, on phones (docs/rendering.md)
LETTER_INK = (70, 84, 66)
BALL = (255, 255, 255)
BALL_INK = (20, 20, 20)
BALL_HALO = (255, 214, 0)
TRACE = (28, 28, 34)
TRACE_HALO = (255, 255, 255)
GOAL_STAR = (255, 196, 0)
SUPER = 2


class Geometry:
    """Pixel sizes of one picture, all derived from the width."""

    def __init__(self, side: int, width: int) -> None:
        self.width = width
        self.side = side
        self.title_h = int(width * 0.095)
        self.label_w = width * 0.045
        fld = field(side)
        self.layout, bottom = hd.HexLayout.fit(
            fld.board.cells, width, left=self.label_w, right=width * 0.02, top=self.title_h + width * 0.01, halo=1.0
        )
        self.field_bottom = int(bottom + width * 0.01)
        self.row_h = max(22, int(width * 0.062))
        self.panel_h = self.row_h * 4 + int(width * 0.02)
        self.height = self.field_bottom + self.panel_h
        self.size = self.layout.size

    def centre(self, game_or_side, name: str) -> tuple[float, float]:
        side = game_or_side if isinstance(game_or_side, int) else game_or_side.options["side"]
        board = field(side).board
        return self.layout.centre(board.cells[board.parse(name)])


@lru_cache(maxsize=8)
def geometry(side: int, width: int = DEFAULT_WIDTH) -> Geometry:
    return Geometry(side, max(MIN_WIDTH, int(width)))


def cell_centre(game: PlayBai, name: str, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """Pixel centre of cell ``name`` in a picture of ``game`` at ``width``."""
    x, y = geometry(game.options["side"], width).centre(game, name)
    return round(x), round(y)


@lru_cache(maxsize=8)
def background(side: int, width: int = DEFAULT_WIDTH) -> Image.Image:
    """The page with the field, end zones, dots, cell names and row letters (no pieces)."""
    g = geometry(side, width)
    fld = field(side)
    board = fld.board
    canvas = hd.Canvas(g.width, g.height, PAGE)
    lay = g.layout
    for i, cell in enumerate(board.cells):
        owner = fld.zone_owner[i]
        r = cell[1]
        fill = TEAM_TINT[owner] if owner else (PITCH if r % 2 == 0 else PITCH_ALT)
        canvas.polygon(lay.corners(cell, 0.985), fill=fill, outline=GRID, width=max(1.0, g.size * 0.04))
    for i in fld.dots:
        cell = board.cells[i]
        owner = fld.zone_owner[i]
        canvas.polygon(lay.corners(cell, 0.86), outline=TEAM[owner], width=max(2.0, g.size * 0.12))
        canvas.circle(lay.centre(cell), g.size * 0.17, fill=TEAM_DARK[owner])
    name_size = max(8, int(g.size * NAME_SIZE))
    for i, cell in enumerate(board.cells):
        cx, cy = lay.centre(cell)
        dy = g.size * 0.5 if i in fld.dots else 0.0
        canvas.text((cx, cy + dy), board.names[i], name_size, NAME_INK)
    letter_size = max(9, int(g.size * 0.5))
    for k, row in enumerate(board.rows):
        x, y = lay.centre(board.cells[row[0]])
        canvas.text((x - g.layout.spacing * 0.78, y), chr(ord("a") + k), letter_size, LETTER_INK)
    return canvas.image()


# -- sprites --------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def piece_sprite(seat: int, radius: float) -> Image.Image:
    """A playballer: round for Orange, square for Blue, with outline and shadow."""
    k = sprites.SPRITE_SUPERSAMPLE
    side = math.ceil(radius * 2 + 8)
    im = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = side * k / 2
    r = radius * k
    off = max(1.0, radius * 0.08) * k
    outline = TEAM_DARK[seat] + (255,)
    fill = TEAM[seat] + (255,)
    ring = max(2.0, radius * 0.12) * k
    if SHAPES[seat] == "round":
        d.ellipse((c - r + off, c - r + off, c + r + off, c + r + off), fill=(0, 0, 0, 70))
        d.ellipse((c - r, c - r, c + r, c + r), fill=outline)
        d.ellipse((c - r + ring, c - r + ring, c + r - ring, c + r - ring), fill=fill)
    else:
        s = r * 0.9
        d.rounded_rectangle((c - s + off, c - s + off, c + s + off, c + s + off), radius=s * 0.25, fill=(0, 0, 0, 70))
        d.rounded_rectangle((c - s, c - s, c + s, c + s), radius=s * 0.25, fill=outline)
        d.rounded_rectangle(
            (c - s + ring, c - s + ring, c + s - ring, c + s - ring), radius=max(1.0, s * 0.25 - ring), fill=fill
        )
    return im.resize((side, side), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def ball_sprite(radius: float) -> Image.Image:
    """The ball: white, black outline and seams, in a thick yellow halo."""
    k = sprites.SPRITE_SUPERSAMPLE
    halo = radius * 0.55
    side = math.ceil((radius + halo) * 2 + 4)
    im = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = side * k / 2
    r = radius * k
    h = (radius + halo) * k
    d.ellipse((c - h, c - h, c + h, c + h), fill=BALL_HALO + (235,))
    d.ellipse((c - r, c - r, c + r, c + r), fill=BALL_INK + (255,))
    ri = r - max(1.5, radius * 0.16) * k
    d.ellipse((c - ri, c - ri, c + ri, c + ri), fill=BALL + (255,))
    # a pentagon patch and seams, so it reads as a ball
    p = ri * 0.42
    pts = [
        (c + p * math.cos(math.radians(-90 + 72 * j)), c + p * math.sin(math.radians(-90 + 72 * j))) for j in range(5)
    ]
    d.polygon(pts, fill=BALL_INK + (255,))
    for x, y in pts:
        d.line([(x, y), (c + (x - c) * 2.2, c + (y - c) * 2.2)], fill=BALL_INK + (255,), width=max(1, int(ri * 0.09)))
    d.ellipse((c - ri, c - ri, c + ri, c + ri), outline=BALL_INK + (255,), width=max(1, int(ri * 0.08)))
    return im.resize((side, side), Image.Resampling.LANCZOS)


def swatch(seat: int, size: float) -> Image.Image:
    return piece_sprite(seat, size * 0.36)


# -- the last turn ------------------------------------------------------------------------------


def trace_actions(events: Sequence[Event]) -> list[Event]:
    """The step, jump and pass events of a turn, in order (what the picture numbers)."""
    return [e for e in events if e.kind in ("move", "jump") or (e.kind == "pass" and e.src)]


def _bezier(a, control, b, steps: int = 24) -> list[tuple[float, float]]:
    out = []
    for j in range(steps + 1):
        t = j / steps
        u = 1 - t
        out.append(
            (u * u * a[0] + 2 * u * t * control[0] + t * t * b[0], u * u * a[1] + 2 * u * t * control[1] + t * t * b[1])
        )
    return out


def _head(d: ImageDraw.ImageDraw, tip, back, size: float, fill) -> None:
    dx, dy = tip[0] - back[0], tip[1] - back[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    nx, ny = -uy * size * 0.6, ux * size * 0.6
    d.polygon([tip, (bx + nx, by + ny), (bx - nx, by - ny)], fill=fill)


def _stroke(d: ImageDraw.ImageDraw, pts, width: float, dashed: bool, head: float) -> None:
    """A path with a white halo and an arrow head at its end (drawing pixels)."""
    for colour, w, grow in ((TRACE_HALO + (255,), width * 2.2, 1.35), (TRACE + (255,), width, 1.0)):
        if dashed:
            for a, b in _dashes(pts, width * 3.2, width * 2.4):
                d.line([a, b], fill=colour, width=int(w))
        else:
            d.line(pts, fill=colour, width=int(w), joint="curve")
        _head(d, pts[-1], pts[-3] if len(pts) > 2 else pts[0], head * grow, colour)


def _dashes(pts, on: float, off: float):
    """Split a polyline into dash segments."""
    out = []
    drawing, left = True, on
    for a, b in pairwise(pts):
        seg = math.dist(a, b)
        pos = 0.0
        while seg - pos > 1e-6:
            take = min(left, seg - pos)
            t0, t1 = pos / seg, (pos + take) / seg
            p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            if drawing:
                out.append((p0, p1))
            pos += take
            left -= take
            if left <= 1e-6:
                drawing = not drawing
                left = on if drawing else off
    return out


def _shorten(a, b, by: float):
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length <= 2 * by:
        return a, b
    ux, uy = dx / length, dy / length
    return (a[0] + ux * by, a[1] + uy * by), (b[0] - ux * by, b[1] - uy * by)


def draw_last_turn(im: Image.Image, game: PlayBai, g: Geometry, events: Sequence[Event]) -> None:
    actions = trace_actions(events)
    if not actions:
        return
    k = SUPER
    strokes: list[tuple[list, float, bool, float]] = []  # (points, width, dashed, head), at k×
    size = g.size * k
    width = max(2.0, g.size * 0.13) * k
    head = size * 0.42
    badges = []

    def at(name: str | None) -> tuple[float, float]:
        assert name is not None  # moves, jumps and passes name both their cells
        x, y = g.centre(game, name)
        return x * k, y * k

    for number, e in enumerate(actions, start=1):
        a, b = at(e.src), at(e.dst)
        data = dict(e.data)
        if e.kind == "move":
            # from beside the old cell's centre to the edge of the playballer now there
            dx, dy = b[0] - a[0], b[1] - a[1]
            length = math.hypot(dx, dy) or 1.0
            p = (a[0] + dx / length * size * 0.15, a[1] + dy / length * size * 0.15)
            q = (b[0] - dx / length * size * 0.6, b[1] - dy / length * size * 0.6)
            strokes.append(([p, q], width, False, head))
            mid = a  # the badge on the cell it left, clear of the short arrow
        elif e.kind == "jump":
            if data.get("bounced"):
                over = data.get("over") or ()
                far = at(over[-1]) if over else a
                # out over the line to beyond its last playballer, and back
                dx, dy = far[0] - a[0], far[1] - a[1]
                length = math.hypot(dx, dy) or 1.0
                nx, ny = -dy / length, dx / length
                tip = (far[0] + dx / length * size * 0.9, far[1] + dy / length * size * 0.9)
                lift = size * 0.9
                out = _bezier(
                    (a[0] + nx * size * 0.35, a[1] + ny * size * 0.35),
                    ((a[0] + tip[0]) / 2 + nx * lift, (a[1] + tip[1]) / 2 + ny * lift),
                    tip,
                )
                back = _bezier(
                    tip,
                    ((a[0] + tip[0]) / 2 - nx * lift, (a[1] + tip[1]) / 2 - ny * lift),
                    (a[0] - nx * size * 0.45, a[1] - ny * size * 0.45),
                )
                strokes.append((out + back[1:], width, False, head))
                mid = tip
            else:
                dx, dy = b[0] - a[0], b[1] - a[1]
                length = math.hypot(dx, dy) or 1.0
                nx, ny = -dy / length, dx / length
                lift = min(length * 0.35, size * 1.3)
                control = ((a[0] + b[0]) / 2 + nx * lift * 2, (a[1] + b[1]) / 2 + ny * lift * 2)
                pts = _bezier(a, control, b)
                pts = [p for p in pts if math.dist(p, a) > size * 0.5 and math.dist(p, b) > size * 0.55]
                if len(pts) < 3:
                    pts = [a, b]
                strokes.append((pts, width, False, head))
                mid = _bezier(a, control, b, 2)[1]
        else:  # a pass
            p, q = _shorten(a, b, size * 0.6)
            strokes.append(([p, q], width * 0.8, True, head * 0.85))
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        badges.append((number, mid))
    # Each stroke is drawn supersampled over its own bounding box (on the picture's pixel
    # grid), downscaled once and cached: a turn's strokes together span much of the field.
    margin = head * 2 + width * 3
    for pts, w, dashed, h in strokes:
        xs = [x for x, _ in pts]
        ys = [y for _, y in pts]
        x0 = max(0, int((min(xs) - margin) // k) * k)
        y0 = max(0, int((min(ys) - margin) // k) * k)
        x1 = min(im.width * k, int((max(xs) + margin) // k + 1) * k)
        y1 = min(im.height * k, int((max(ys) + margin) // k + 1) * k)
        sprite, (dx, dy) = _stroke_sprite(tuple((x - x0, y - y0) for x, y in pts), w, dashed, h, x1 - x0, y1 - y0)
        sprites.paste_at(im, sprite, (x0 // k + dx, y0 // k + dy))
    badge = max(14, int(g.size * 0.62))
    for number, (x, y) in badges:
        sprite = sprites.badge_sprite(str(number), badge, (255, 255, 255), TRACE, outline=TRACE)
        sprites.paste_centred(im, sprite, (x / k, y / k))


@lru_cache(maxsize=2048)
def _stroke_sprite(
    pts: tuple, width: float, dashed: bool, head: float, w: int, h: int
) -> tuple[Image.Image, tuple[int, int]]:
    """One stroke of the last turn (points in drawing pixels, ``SUPER``× the picture's, in a
    ``w``×``h`` box), downscaled: the sprite and its offset in the box, in picture pixels."""
    overlay = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    _stroke(ImageDraw.Draw(overlay), list(pts), width, dashed, head)
    # Downscale only the drawn part and the filter's reach around it (LANCZOS reads 3 output
    # pixels each side), cut on the output grid: the same pixels, a fraction of the work.
    x0, y0, x1, y1 = overlay.getbbox() or (0, 0, SUPER, SUPER)
    reach = 8 * SUPER
    x0, y0 = max(0, (x0 - reach) // SUPER * SUPER), max(0, (y0 - reach) // SUPER * SUPER)
    x1 = min(w // SUPER * SUPER, -(-(x1 + reach) // SUPER) * SUPER)
    y1 = min(h // SUPER * SUPER, -(-(y1 + reach) // SUPER) * SUPER)
    small = overlay.crop((x0, y0, x1, y1)).resize(((x1 - x0) // SUPER, (y1 - y0) // SUPER), Image.Resampling.LANCZOS)
    return small, (x0 // SUPER, y0 // SUPER)


@lru_cache(maxsize=16)
def _star_sprite(radius: float) -> Image.Image:
    k = sprites.SPRITE_SUPERSAMPLE
    side = math.ceil(radius * 2 + 6)
    im = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = side * k / 2
    pts = hd._star(c, c, radius * k, points=8, inner=0.55)
    d.polygon(pts, fill=GOAL_STAR + (255,), outline=TRACE + (255,), width=max(1, int(radius * 0.08 * k)))
    return im.resize((side, side), Image.Resampling.LANCZOS)


# -- text ---------------------------------------------------------------------------------------


def seat_names(player_names: Sequence[str] | None) -> list[str]:
    names = []
    for seat in (1, 2):
        given = player_names[seat - 1] if player_names and len(player_names) >= seat else ""
        colour = t(SEAT_COLOURS[seat - 1])
        names.append(td.displayable(given, colour) or colour)
    return names


#: How a Play Bai game can end (games/playbai.py), as the title says it.
END_REASONS = {
    "goals": N_("goals"),
    "no legal turn": N_("no legal turn"),
    "draw by agreement": N_("draw by agreement"),
    "resignation": N_("resignation"),
}


def status_line(game: PlayBai, names: Sequence[str], goal: Event | None) -> str:
    score = f"{game.goals[0]}-{game.goals[1]}"
    if game.is_over:
        if game.winners:
            seat = game.winners[0]
            who = _team(names, seat)
            if game.end_reason == "resignation":
                return t("{team} wins by resignation", team=who)
            return t("{team} wins {score}", team=who, score=score)
        return t(
            "Game over ({reason}) {score}",
            reason=_reason_words(game.end_reason),
            score=score,
        )
    seat = game.to_move or 1
    who = _team(names, seat)
    if game.kickoff:
        return t("Set {number}: {team} kicks off (at most 2 moves)", number=game.set_number, team=who)
    return t("Set {number}: {team} to move (1 to 3 moves)", number=game.set_number, team=who)


def _reason_words(reason: str | None) -> str:
    return t(END_REASONS.get(reason, reason)) if reason else ""


def _team(names: Sequence[str], seat: int) -> str:
    return t("{name} ({colour})", name=names[seat - 1], colour=t(SEAT_COLOURS[seat - 1]))


def render(
    game: PlayBai,
    *,
    player_names: Sequence[str] | None = None,
    last_events: Sequence[Event] = (),
    title: str | None = None,
    width: int = DEFAULT_WIDTH,
) -> Image.Image:
    side = game.options["side"]
    g = geometry(side, width)
    im = hd.new_picture(background(side, g.width))  # records what is drawn: fast PNG (render/png.py)
    names = seat_names(player_names)
    fld = game.field
    board = fld.board
    radius = g.size * 0.62
    goal = next((e for e in last_events if e.kind == "goal"), None)
    if goal is not None and goal.cell:
        sprites.paste_centred(im, _star_sprite(g.size * 0.95), g.centre(game, goal.cell))
    for seat in (1, 2):
        sprite = piece_sprite(seat, round(radius, 2))
        for i in game.pieces(seat):
            sprites.paste_centred(im, sprite, g.layout.centre(board.cells[i]))
    reset = any(e.kind == "set" for e in last_events)
    if not reset:
        # After a goal that starts a new set the field is the set-up again: arrows
        # would point at the wrong playballers, so the panel tells the turn in words.
        draw_last_turn(im, game, g, last_events)
    # The ball last, on top of everything: the first thing the eye finds.
    ball_cell = board.cells[game.ball]
    cx, cy = g.layout.centre(ball_cell)
    if game.seat_of[game.ball]:
        sprites.paste_centred(im, ball_sprite(round(g.size * 0.3, 2)), (cx + g.size * 0.36, cy - g.size * 0.36))
    else:
        sprites.paste_centred(im, ball_sprite(round(g.size * 0.42, 2)), (cx, cy))
    heading = td.displayable(title or t("Play Bai: {first} vs {second}", first=names[0], second=names[1]), "Play Bai")
    turn_seat = game.winners[0] if game.is_over and game.winners else (game.to_move or 1)
    panels.draw_title_bar(im, g.title_h, heading, status_line(game, names, goal), THEME, accent_colour=TEAM[turn_seat])
    _draw_panel(im, game, g, names, goal, last_events)
    return im


COLUMNS = ((N_("Team"), 3.0, "l"), ("", 1.2, "l"), (N_("Goals"), 1.0, "c"), ("", 2.8, "l"))


def panel_cells(game: PlayBai, names: Sequence[str]) -> list[list[str]]:
    """The panel's words per team: player, colour, goals, what is special about them now."""
    rows = []
    for seat in (1, 2):
        flags = []
        if game.is_over and seat in game.winners:
            flags.append(t("wins!"))
        elif not game.is_over and game.to_move == seat:
            flags.append(t("kicks off") if game.kickoff else t("to move"))
        if game.options["expert"] and game.last_goal == seat and not game.is_over:
            flags.append(t("one more in a row wins"))
        rows.append([names[seat - 1], t(SEAT_COLOURS[seat - 1]), str(game.goals[seat - 1]), ", ".join(flags)])
    return rows


def goal_line(game: PlayBai, names: Sequence[str], goal: Event, last_events: Sequence[Event]) -> str:
    """The line that celebrates a goal scored by the last turn."""
    seat = goal.seat or 1
    data = dict(goal.data)
    score = "-".join(str(v) for v in data.get("score", game.goals))
    if data.get("wins"):
        return t(
            "GOAL! {player} scores on {cell}: {score}, and wins the game!",
            player=names[seat - 1],
            cell=goal.cell,
            score=score,
        )
    return t(
        "GOAL! {player} scores on {cell}: {score} ({turn})",
        player=names[seat - 1],
        cell=goal.cell,
        score=score,
        turn=game.describe_turn(last_events, say=t).split(" — ")[0],
    )


def rule_line(game: PlayBai) -> str:
    """The set, the rule, and how the last turn is drawn (when no goal is celebrated)."""
    rule = t("First to 3 goals") if not game.options["expert"] else t("Expert: two goals in a row")
    return t(
        "Set {number} · {rule} · last turn: steps arrows, jumps arcs, passes dashed",
        number=game.set_number,
        rule=rule,
    )


def _draw_panel(
    im: Image.Image, game: PlayBai, g: Geometry, names: Sequence[str], goal: Event | None, last_events: Sequence[Event]
) -> None:
    d = ImageDraw.Draw(im)
    pad = int(g.width * 0.03)
    top = g.field_bottom
    row_h = g.row_h
    rows = []
    for seat, cells in zip((1, 2), panel_cells(game, names), strict=True):
        background = THEME.winner if game.is_over and seat in game.winners else None
        rows.append(
            panels.PanelRow(
                swatch=swatch(seat, row_h),
                cells=cells,
                background=background,
                marker=not game.is_over and game.to_move == seat,
                bold=(True, False, True, False),
            )
        )
    panels.draw_panel(im, (pad, top, g.width - pad, top + row_h * 3), COLUMNS, rows, row_h, THEME)
    # A goal is celebrated on the line under the table.
    y = top + row_h * 4
    size = int(row_h * 0.46)
    if goal is not None:
        seat = goal.seat or 1
        text = goal_line(game, names, goal, last_events)
        box = (pad, int(y - row_h * 0.92), g.width - pad, int(y - row_h * 0.08))
        d.rounded_rectangle(
            box, radius=row_h * 0.25, fill=THEME.highlight, outline=TEAM[seat], width=max(2, row_h // 12)
        )
        hd.touch(im, (box[0] - 2, box[1] - 2, box[2] + 3, box[3] + 3))
        # Whole, on two lines (then smaller) when long names need it, inside the banner.
        block = td.fit_block([text], size, box[2] - box[0] - pad, (box[3] - box[1]) * 0.92, line_step=1.15)
        for _, line, ly, line_size in block.lines((box[1] + box[3] - block.height) / 2):
            td.draw_text(
                im,
                ((box[0] + box[2]) / 2, ly),
                line,
                line_size,
                THEME.ink,
                anchor="mm",
                stroke_width=1 if line_size >= 20 else 0,
                stroke_fill=THEME.ink,
                by_words=False,
            )
    else:
        text = td.displayable(rule_line(game))
        block = td.fit_block([text], int(size * 0.8), g.width - 2 * pad, row_h * 0.95, line_step=1.2)
        for _, line, ly, line_size in block.lines(y - row_h * 0.5 - block.height / 2):
            td.draw_text(im, (g.width / 2, ly), line, line_size, THEME.muted, anchor="mm", by_words=False)
