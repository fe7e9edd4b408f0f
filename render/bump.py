"""Bump's picture: two hexagonal areas side by side, walls, gates, pieces with bumpers, the last turn.

The board — its cached background, the pieces (solid where a gate piece's bumper
faces, a pale twin in the other part) and the names written on them — is drawn by
:mod:`render.bump_board`; this module puts a position on it: the pieces, the last
turn's marks, the title bar and the panel.

Every mark of the last turn that ends on a gate (the path, a bump, an arc, a
ghost) ends at the part where the piece that arrived there is drawn solid: when
that is not the part next to where the mark comes from, the mark runs under the
twin and out of its open side, and comes back in through the solid part's open
side (the two open sides are one edge: a gate is one space).

The last turn: the moving piece's path (a violet line through the spaces it
shifted through) and its rotation (an arc with a head), then every bump as a
numbered arrow in the order it happened, captured pieces as a ghost with a
cross where they fell, and at each choice the options not taken as thin
dotted arrows. The panel: pieces on the board, captured and in reserve per
side, the last move in notation and in words, "Guard your center!" when it
applies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from games.bump import (
    AREAS,
    COORDS,
    INDEX,
    NAMES,
    NEIGHBOURS,
    gate_part,
)
from games.bumpwords import SEAT_COLOURS, describe_events, turn_notation
from games.interface import Event
from i18n import N_, t

from . import hexdraw as hd
from . import panels, sprites
from . import textdraw as td
from .bump_board import (
    BUMP,
    CROSS,
    DEFAULT_WIDTH,
    OPTION,
    PATH,
    PIECE,
    PIECE_R,
    THEME,
    Geometry,
    board_background,
    gate_link_side,
    geometry,
    named_piece,
    piece_cell,
    piece_sprite,
    relabel,
    twin_piece,
)


def seat_names(player_names: Sequence[str] | None) -> list[str]:
    names = []
    for seat in (1, 2):
        colour = t(SEAT_COLOURS[seat - 1])
        given = player_names[seat - 1] if player_names and seat - 1 < len(player_names) else None
        names.append(td.displayable(str(given), colour) if given else colour)
    return names


def _label(names: Sequence[str], seat: int | None) -> str:
    if seat not in (1, 2):
        return "?"
    name, colour = names[seat - 1], t(SEAT_COLOURS[seat - 1])
    return name if name == colour else t("{name} ({colour})", name=name, colour=colour)


# -- where the marks go ---------------------------------------------------------------------------


def _step_point(lay: hd.HexLayout, frm: hd.Point, space: int, direction: int, other: int) -> hd.Point:
    """Centre of ``other`` as reached from ``space`` going ``direction`` (gates: the adjacent part)."""
    cells = COORDS[other]
    if len(cells) == 1:
        return lay.centre(cells[0])
    ux, uy = hd.SCREEN_DIRECTIONS[direction]
    target = (frm[0] + ux * lay.spacing, frm[1] + uy * lay.spacing)
    return min((lay.centre(c) for c in cells), key=lambda p: math.dist(p, target))


def _shorten(a: hd.Point, b: hd.Point, start: float, end: float) -> tuple[hd.Point, hd.Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


# -- the picture --------------------------------------------------------------------------------------


def render(
    game,
    *,
    player_names: Sequence[str] | None = None,
    last_events: Sequence[Event] = (),
    title: str | None = None,
    width: int = DEFAULT_WIDTH,
) -> Image.Image:
    """The picture of a Bump game as an RGB image, the whole board (render/bump_zoom.py: part of it, larger)."""
    g = geometry(width)
    im = hd.new_picture(board_background(g.width))  # records what is drawn: fast PNG (render/png.py)
    draw_position(im, g, game, seat_names(player_names), list(last_events), title)
    return im


def draw_position(
    im: Image.Image, g: Geometry, game, names: Sequence[str], events: list[Event], title: str | None, zoomed: str = ""
) -> None:
    """The title bar (``zoomed``: words said after the status), pieces, last turn and panel on ``im``, a
    picture of geometry ``g`` whose board is drawn already."""
    lay = g.layout
    sp = g.spacing
    heading = td.displayable(title, "Bump") if title else "Bump"
    panels.draw_title_bar(
        im,
        g.title_h,
        heading,
        status_line(game, names) + zoomed,
        THEME,
        accent_colour=PIECE[game.to_move - 1] if game.to_move else None,
    )
    ends = gate_end_facings(game, events)
    # The path, turn and bump marks are drawn straight on the board, some under sprites:
    # each records its area (_touch_around) so that no sprite there is taken for one on
    # untouched background (render/changes.py).
    _draw_path(im, lay, events, ends)
    _draw_bump_tails_through_gates(im, lay, events, ends)
    b = game.board
    for space, pid in enumerate(b.cells):
        if pid < 0:
            continue
        seat, facing = b.owner[pid], b.facing[pid]
        # A gate is one space drawn twice: the piece solid where its bumper faces, its twin in the other part.
        solid = piece_cell(space, facing)
        for cell in COORDS[space]:
            sprite = (
                named_piece(seat, facing, sp, NAMES[space])
                if cell == solid
                else twin_piece(seat, facing, sp, NAMES[space])
            )
            sprites.paste_centred(im, sprite, lay.centre(cell))
    _draw_rotation(im, lay, events, game)
    choices = _draw_bumps(im, lay, events, game, ends)
    relabel(im, lay, game, events)
    for badge, at in choices:  # a choice's words over the one name they cover, for this turn only
        sprites.paste_centred(im, badge, at)
    _draw_panel(im, game, g, names, events)


def gate_end_facings(game, events: Sequence[Event]) -> dict[int, int]:
    """For each last-turn mark that ends on a two-part gate (a shift's or a bump's destination, the
    piece a push was stopped by), by the event's index: the facing, after the turn, of the piece
    there — its solid part is where the mark must end. Found by undoing the events from the final
    board (only the mover turns, before any bump; a captured piece's facing is in its event)."""
    b = game.board
    where: dict[int, object] = {space: ("board", pid) for space, pid in enumerate(b.cells) if pid >= 0}
    facing_of: dict[object, int] = {("board", pid): b.facing[pid] for pid in set(b.cells) if pid >= 0}
    ends: dict[int, int] = {}

    def note(k: int, name: str | None) -> None:
        if name in INDEX and len(COORDS[INDEX[name]]) == 2:
            piece = where.get(INDEX[name])
            if piece is not None:
                ends[k] = facing_of[piece]

    for k in range(len(events) - 1, -1, -1):
        e = events[k]
        data = dict(e.data)
        if e.kind == "capture" and e.cell:
            key = ("captured", k)
            facing_of[key] = data.get("facing", 0)
            where[INDEX[e.cell]] = key
        elif e.kind in ("shift", "bump") and e.src:
            if e.dst:
                note(k, e.dst)
                piece = where.pop(INDEX[e.dst], None)
                if piece is not None:
                    where[INDEX[e.src]] = piece
            elif data.get("toward") not in (None, "x"):
                note(k, str(data["toward"]))
        elif e.kind == "reinforce" and e.cell:
            where.pop(INDEX[e.cell], None)
    return ends


def _through_gate(
    lay: hd.HexLayout, space: int, near: hd.Point, facing: int
) -> tuple[hd.Point, hd.Point, hd.Point] | None:
    """A mark reaching gate ``space`` at the part centred on ``near``, when the piece there is drawn
    solid in the other part: (beyond the near part's open side, beyond the solid part's open side,
    the solid part's centre); None when the near part is the solid one."""
    cells = COORDS[space]
    if len(cells) != 2:
        return None
    part = gate_part(space, facing)
    solid = lay.centre(cells[part])
    if math.dist(solid, near) < 1:
        return None
    sp = lay.spacing
    ux, uy = hd.SCREEN_DIRECTIONS[gate_link_side(space, 1 - part)]
    vx, vy = hd.SCREEN_DIRECTIONS[gate_link_side(space, part)]
    return (
        (near[0] + ux * sp * 0.62, near[1] + uy * sp * 0.62),
        (solid[0] + vx * sp * 0.95, solid[1] + vy * sp * 0.95),
        solid,
    )


def _touch_around(im: Image.Image, points: Sequence[hd.Point], pad: float) -> None:
    """Record that ImageDraw drew within ``pad`` pixels of ``points``."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    hd.touch(im, (min(xs) - pad - 1, min(ys) - pad - 1, max(xs) + pad + 2, max(ys) + pad + 2))


def _draw_path(im: Image.Image, lay: hd.HexLayout, events: Sequence[Event], ends: dict[int, int]) -> None:
    sp = lay.spacing
    shifts = [(k, e) for k, e in enumerate(events) if e.kind == "shift"]
    if not shifts:
        return
    d = ImageDraw.Draw(im)
    width = max(2, int(sp * 0.09))
    first = shifts[0][1].src
    assert first is not None  # a shift names where it starts and ends
    here = space_centre_on(lay, first, None)
    points = [here]
    for _k, e in shifts:
        src, dst = e.src, e.dst
        assert src is not None and dst is not None
        direction = _direction_between(src, dst)
        nxt = (
            _step_point(lay, here, INDEX[src], direction, INDEX[dst])
            if direction is not None
            else space_centre_on(lay, dst, here)
        )
        if direction is not None and AREAS[INDEX[src]] == 0 and len(COORDS[INDEX[src]]) == 2:
            # leaving a two-part gate: the line restarts at the part next to the destination
            nxt_cells = COORDS[INDEX[dst]]
            start = min(
                (lay.centre(c) for c in COORDS[INDEX[src]]), key=lambda p: math.dist(p, lay.centre(nxt_cells[0]))
            )
            if start != points[-1]:
                _touch_around(im, points, sp * 0.09)
                d.line(points, fill=PATH, width=width, joint="curve")
                points = [start]
            nxt = lay.centre(nxt_cells[0])
        points.append(nxt)
        here = nxt
    last, end = shifts[-1]
    assert end.dst is not None
    through = _through_gate(lay, INDEX[end.dst], points[-1], ends[last]) if last in ends else None
    if through is not None:
        # ending on a gate whose solid part is the other one: under the twin, out of its open side,
        # and in again through the solid part's
        out, back_in, solid = through
        points.append(out)
        _touch_around(im, points, sp * 0.09)
        d.line(points, fill=PATH, width=width, joint="curve")
        a, tip = _shorten(back_in, solid, 0, sp * PIECE_R)
        sprites.draw_arrow(im, a, tip, PATH, max(2.0, sp * 0.09), halo=None)
    elif len(points) >= 2:
        _touch_around(im, points, sp * 0.09)
        d.line(
            points[:-1] + [_shorten(points[-2], points[-1], 0, sp * PIECE_R)[1]],
            fill=PATH,
            width=width,
            joint="curve",
        )
        a, tip = _shorten(points[-2], points[-1], sp * 0.2, sp * PIECE_R)
        sprites.draw_arrow(im, a, tip, PATH, max(2.0, sp * 0.09), halo=None)
    r = max(2, int(sp * 0.1))
    start = space_centre_on(lay, first, None)
    _touch_around(im, [start], r)
    d.ellipse((start[0] - r, start[1] - r, start[0] + r, start[1] + r), fill=PATH)


def space_centre_on(lay: hd.HexLayout, name: str, near: hd.Point | None, facing: int | None = None) -> hd.Point:
    i = INDEX[name]
    cells = COORDS[i]
    if len(cells) == 1:
        return lay.centre(cells[0])
    if facing is not None:
        return lay.centre(cells[gate_part(i, facing)])
    if near is None:
        return lay.centre(cells[0])
    return min((lay.centre(c) for c in cells), key=lambda p: math.dist(p, near))


def _direction_between(a: str, b: str) -> int | None:
    row = NEIGHBOURS[INDEX[a]]
    j = INDEX[b]
    for d in range(6):
        if row[d] == j:
            return d
    return None


def _draw_rotation(im: Image.Image, lay: hd.HexLayout, events: Sequence[Event], game) -> None:
    sp = lay.spacing
    for e in events:
        if e.kind != "rotate" or not e.cell:
            continue
        data = dict(e.data)
        steps, old = data["steps"], data["from"]
        centre = space_centre_on(lay, e.cell, None, data["to"])
        r = sp * 0.62
        start = 60 * old
        end = start + 60 * steps
        lo, hi = (start, end) if end >= start else (end, start)
        d = ImageDraw.Draw(im)
        box = (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
        w = max(3, int(sp * 0.1))
        _touch_around(im, [centre], r + w + sp * 0.24)
        d.arc(box, lo + 8, hi - 8 if hi - lo > 16 else hi, fill=PATH, width=w)
        # arrow head at the end of the turn, pointing along it
        a = math.radians(end - 8 * (1 if steps > 0 else -1))
        tip = (centre[0] + r * math.cos(a), centre[1] + r * math.sin(a))
        tangent = (-math.sin(a), math.cos(a)) if steps > 0 else (math.sin(a), -math.cos(a))
        h = sp * 0.24
        base = (tip[0] - tangent[0] * h, tip[1] - tangent[1] * h)
        nx, ny = -tangent[1], tangent[0]
        d.polygon(
            [tip, (base[0] + nx * h * 0.6, base[1] + ny * h * 0.6), (base[0] - nx * h * 0.6, base[1] - ny * h * 0.6)],
            fill=PATH,
        )


def _bump_arrows(
    lay: hd.HexLayout, events: Sequence[Event], ends: dict[int, int]
) -> list[tuple[hd.Point, hd.Point, tuple[hd.Point, hd.Point, hd.Point] | None, int]]:
    """Each bump's arrow: (from, the part reached next, how it goes through a gate or None, number)."""
    sp = lay.spacing
    out = []
    for k, e in enumerate(events):
        if e.kind != "bump" or not e.src:
            continue
        data = dict(e.data)
        direction = data["direction"]
        bumper_at = space_centre_on(lay, e.cell, None) if e.cell else None
        src = space_centre_on(lay, e.src, bumper_at)
        toward = e.dst or data.get("toward")
        if toward and toward != "x":
            dst = _step_point(lay, src, INDEX[e.src], direction, INDEX[toward])
            through = _through_gate(lay, INDEX[toward], dst, ends[k]) if k in ends else None
        else:
            ux, uy = hd.SCREEN_DIRECTIONS[direction]
            dst = (src[0] + ux * sp * 0.9, src[1] + uy * sp * 0.9)
            through = None
        out.append((src, dst, through, data["number"]))
    return out


def _draw_bump_tails_through_gates(
    im: Image.Image, lay: hd.HexLayout, events: Sequence[Event], ends: dict[int, int]
) -> None:
    """Before the pieces: the tail of a bump arrow whose piece is drawn solid in the far part of a
    gate, from beside the name it left, under the twin, out of the twin's open side."""
    sp = lay.spacing
    d = ImageDraw.Draw(im)
    width = max(3, int(sp * 0.13))
    halo = width + 2 * max(1, round(sp * 0.035))
    for src, dst, through, _number in _bump_arrows(lay, events, ends):
        if through is None:
            continue
        points = [_shorten(src, dst, sp * 0.2, 0)[0], dst, through[0]]
        _touch_around(im, points, halo)
        d.line(points, fill=(255, 255, 255), width=halo, joint="curve")
        d.line(points, fill=BUMP, width=width, joint="curve")


def _draw_bumps(
    im: Image.Image, lay: hd.HexLayout, events: Sequence[Event], game, ends: dict[int, int]
) -> list[tuple[Image.Image, hd.Point]]:
    """The bumps, ghosts and options not taken; returns the "chose …" badges, to be pasted last
    (words themselves: the names written again over the marks must not hide them)."""
    sp = lay.spacing
    d = ImageDraw.Draw(im)
    choices: list[tuple[Image.Image, hd.Point]] = []
    # captured pieces first (a ghost with a cross where each fell), so the arrows stay on top
    for e in events:
        if e.kind != "capture" or not e.cell:
            continue
        data = dict(e.data)
        centre = space_centre_on(lay, e.cell, None, data.get("facing"))
        sprites.paste_centred(im, piece_sprite(e.seat or 1, data.get("facing", 0), sp, ghost=True), centre)
        r = sp * 0.3
        w = max(3, int(sp * 0.1))
        _touch_around(im, [centre], r + w)
        for s in (1, -1):
            d.line([(centre[0] - r, centre[1] - s * r), (centre[0] + r, centre[1] + s * r)], fill=CROSS, width=w)
    for e in events:
        if e.kind == "choice":
            data = dict(e.data)
            cell = e.cell
            assert cell is not None  # a choice names the bumped piece's space
            here = space_centre_on(lay, cell, None)
            for label in data["options"]:
                if label == data["chosen"] or label == "x":
                    continue
                there = space_centre_on(lay, label, here)
                here2 = space_centre_on(lay, cell, there)
                a, b = _shorten(here2, there, sp * 0.3, sp * 0.3)
                _touch_around(im, [a, b], sp * 0.05)
                _dotted(d, a, b, OPTION, max(2, int(sp * 0.05)), sp * 0.09)
            # the badge sits in the band between two rows of names (above the space, or below when the
            # chosen push goes up), so it covers no name and the arrow stays clear
            chosen_at = space_centre_on(lay, data["chosen"], here) if data["chosen"] != "x" else None
            up = chosen_at is not None and chosen_at[1] < here[1] - 1
            badge = sprites.badge_sprite(
                t("chose {option}", option=data["chosen"]), max(10, int(sp * 0.36)), (255, 255, 255), BUMP
            )
            # ... and a little away from the chosen side, clear of the bump's number on its corner
            away = (
                -1
                if chosen_at is not None and chosen_at[0] > here[0] + 1
                else (1 if chosen_at is not None and chosen_at[0] < here[0] - 1 else 0)
            )
            choices.append((badge, (here[0] + away * sp * 0.3, here[1] + (1 if up else -1) * sp * 0.43)))
    badges: list[tuple[str, hd.Point]] = []
    for src, dst, through, number in _bump_arrows(lay, events, ends):
        width = max(2.5, sp * 0.13)
        halo_width = max(1.0, sp * 0.035)
        if through is None:
            # Across the side crossed, from beside the name it left to the rim of the piece bumped
            # there: the names (written again over the marks, bump_board.relabel) never hide its head.
            a, b = _shorten(src, dst, sp * 0.2, sp * PIECE_R * 0.9)
            sprites.draw_arrow(im, a, b, BUMP, width, halo=(255, 255, 255), halo_width=halo_width)
        else:
            # its tail went under the twin and out of the gate (_draw_bump_tails_through_gates):
            # the head comes in through the solid part's open side
            _out, back_in, solid = through
            a, b = _shorten(back_in, solid, 0, sp * PIECE_R * 0.9)
            sprites.draw_arrow(im, a, b, BUMP, width, halo=(255, 255, 255), halo_width=halo_width)
        # The number sits on a corner of the side crossed, where three cells meet: off every name.
        ux, uy = _unit(src, dst)
        nx, ny = uy, -ux
        side = sp * 0.5 / math.sqrt(3)
        corner = ((src[0] + dst[0]) / 2 + nx * side, (src[1] + dst[1]) / 2 + ny * side)
        badges.append((str(number), corner))
    for text, at in badges:
        sprites.paste_centred(im, sprites.badge_sprite(text, max(10, int(sp * 0.36)), BUMP, (255, 255, 255)), at)
    return choices


def _unit(a: hd.Point, b: hd.Point) -> hd.Point:
    n = math.dist(a, b) or 1.0
    return (b[0] - a[0]) / n, (b[1] - a[1]) / n


def _dotted(d: ImageDraw.ImageDraw, a: hd.Point, b: hd.Point, colour, width: int, step: float) -> None:
    n = max(1, int(math.dist(a, b) / step))
    for k in range(0, n, 2):
        t0, t1 = k / n, min(1.0, (k + 1) / n)
        d.line(
            [
                (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
            ],
            fill=colour,
            width=width,
        )


# -- text -------------------------------------------------------------------------------------------------


def status_line(game, names: Sequence[str]) -> str:
    if game.is_over:
        if not game.winners:
            return t("Game over · drawn by agreement")
        seat = game.winners[0]
        if game.end_reason == "resignation":
            return t("Game over · {player} wins by resignation", player=_label(names, seat))
        return t("Game over · {player} wins on the centre", player=_label(names, seat))
    return t("Turn {number} · {player} to move", number=game.ply + 1, player=_label(names, game.to_move))


def guard_applies(game, events: Sequence[Event]) -> bool:
    """ "Guard your center!": the last turn ended with its mover on the opponent's centre."""
    return any(e.kind == "guard" for e in events) or (
        not game.is_over
        and game.to_move is not None
        and game.held[3 - game.to_move]
        and game.occupies_opponent_centre(3 - game.to_move)
    )


def last_move_line(game, events: Sequence[Event], names: Sequence[str]) -> str:
    if not events:
        return t("No move yet") if game.ply == 0 else ""
    mover = next((e.seat for e in events if e.kind in ("shift", "rotate", "pass", "reinforce")), None)
    if any(e.kind == "resign" for e in events):
        seat = next(e.seat for e in events if e.kind == "resign")
        return t("{player} resigned", player=_label(names, seat))
    if any(e.kind == "draw" for e in events):
        return t("Draw agreed")
    notation = turn_notation(events)
    words = describe_events([e for e in events if e.kind != "guard"], say=t)
    if mover and words:
        return t("Last: {player} {move}: {words}", player=_label(names, mover), move=notation, words=words)
    if words:
        return t("Last: {move}: {words}", move=notation, words=words)
    # a pass (the engine's words say "no bumps" for any move that bumped nothing)
    if mover:
        return t("Last: {player} {move}", player=_label(names, mover), move=notation)
    return t("Last: {move}", move=notation)


COLUMNS = (("", 3.0, "l"), (N_("on board"), 1.2, "c"), (N_("captured"), 1.2, "c"), (N_("reserves"), 1.2, "c"))


def panel_cells(game, names: Sequence[str]) -> list[list[str]]:
    """The panel's words per seat: player, pieces on the board, captured, in reserve."""
    return [
        [_label(names, seat), str(game.on_board(seat)), str(game.captured[seat - 1]), str(game.reserves[seat - 1])]
        for seat in (1, 2)
    ]


def legend_line() -> str:
    return t(
        "Move FROM,TO-F · choices in ( ) · pass · green gates are drawn twice: "
        "the piece solid where its bumper faces, pale on the other"
    )


def _draw_panel(im: Image.Image, game, g: Geometry, names: Sequence[str], events: Sequence[Event]) -> None:
    margin = int(g.width * 0.03)
    top = g.board_bottom
    rows = []
    winners = set(game.winners)
    for seat in (1, 2):
        background = THEME.winner if seat in winners else (THEME.highlight if game.to_move == seat else None)
        rows.append(
            panels.PanelRow(
                swatch=piece_sprite(seat, 0, g.row_h * 0.9),
                cells=panel_cells(game, names)[seat - 1],
                background=background,
                marker=game.to_move == seat,
                bold=(seat in winners,),
            )
        )
    panels.draw_panel(im, (margin, top, g.width - margin, 0), COLUMNS, rows, g.row_h, THEME, header=True)
    small = max(9, int(g.line_h * 0.62))
    text_top = top + 3 * g.row_h
    guard = t("Guard your center!") if guard_applies(game, events) else ""
    legend = legend_line()
    # Whole, wrapped (then smaller) when a long chain or a long name needs it: never cut short.
    block = td.fit_block(
        [last_move_line(game, events, names), (guard, 1.15), legend],
        small,
        g.width - 2 * margin,
        g.height - text_top - g.line_h * 0.1,
        line_step=1.29,
        gap=0.32,
    )
    inks = (THEME.ink, THEME.accent, THEME.muted)
    for k, line, y, size in block.lines(text_top):
        td.draw_text(
            im,
            (margin, y),
            line,
            size,
            inks[k],
            anchor="lm",
            stroke_width=1 if k == 1 and size >= 16 else 0,
            stroke_fill=inks[k],
            by_words=False,
        )


__all__ = ["render", "seat_names", "status_line"]
