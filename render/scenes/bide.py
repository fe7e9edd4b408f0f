"""Bide as a scene: value bands, the points with their names and values, discs, the last turn's rings and
push arrows (the picture: render/bide.py, whose colours, sizes and words these are)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.bide import SEAT_COLOURS, board_for_side
from games.interface import Event
from i18n import t

from .. import bide as pic
from .. import hexdraw as hd
from .. import sprites
from .base import UNIT, Panel, Scene, colour, label, panel_row, unit_vector


def scene(game, names: Sequence[str], last_events: Sequence[Event]) -> Scene:
    side = int(game.options["side"])
    board = board_for_side(side)
    drawn = _board(side).on_board()
    values = board.edge_distance
    for i, owner in enumerate(game.cells):
        if owner:
            fill = pic.seat_colour(owner)
            drawn.piece(
                board.names[i],
                UNIT.centre(board.cells[i]),
                owner,
                "disc",
                pic.DISC_R,
                fill,
                stroke=pic.DISC_OUTLINE,
                width=0.028,
                marker=pic.seat_marker(owner),
                ink=hd.contrast_ink(fill),
                label=label(str(values[i]), 0.2, hd.contrast_ink(fill)),
            )
    if game.is_over:  # each seat's best group, outlined in its colour
        for seat in range(1, game.players + 1):
            for i in pic.best_group(game, seat):
                drawn.ring(
                    UNIT.centre(board.cells[i]),
                    pic.DISC_R + 0.045,
                    pic.seat_colour(seat),
                    0.07,
                    sprites.LAST_MOVE_HALO,
                    0.018,
                    kind="group",
                )
    last = pic.trace_last_turn(last_events)
    index = {name: i for i, name in enumerate(board.names)}
    for name, order in last.placed.items():
        if name in index:
            drawn.last_move_ring(UNIT.centre(board.cells[index[name]]), pic.DISC_R)
            if len(last.placed) > 1:
                drawn.marks[-1]["badge"] = str(order)  # the order of a release's placements
    pushes = list(dict.fromkeys(last.pushes))
    both_ways = set(pushes)
    for src, dst in pushes:
        if src not in index or dst not in index:
            continue
        a, b = UNIT.centre(board.cells[index[src]]), UNIT.centre(board.cells[index[dst]])
        ux, uy = unit_vector(a, b)
        sx, sy, tx, ty = a[0] + ux * 0.3, a[1] + uy * 0.3, b[0] - ux * 0.2, b[1] - uy * 0.2
        if (dst, src) in both_ways:  # pushed there and back: the two arrows apart
            sx, sy, tx, ty = sx - uy * 0.075, sy + ux * 0.075, tx - uy * 0.075, ty + ux * 0.075
        drawn.arrow([(sx, sy), (tx, ty)], pic.ARROW_INK, 0.06, head=0.2, halo=pic.ARROW_HALO, halo_width=0.018)
    return drawn


@lru_cache(maxsize=16)
def _board(side: int) -> Scene:
    """The board without discs: value bands, lines, the points with their names and values, row letters."""
    board = board_for_side(side)
    drawn = Scene(f"bide:{side}")
    n = side - 1
    cx, cy = UNIT.centre((0, 0))
    top_value = max(board.edge_distance)
    for value in range(top_value + 1):  # nested hexagons, the outer ring lightest
        radius = n - value + 0.5
        corners = [(cx + radius * dx, cy + radius * dy) for dx, dy in hd.SCREEN_DIRECTIONS]
        share = value / max(1, top_value)
        stroke = hd.mix(pic.BAND_LIGHT, pic.BAND_DARK, min(1.0, share + 0.35)) if value == 0 else None
        drawn.area(corners, hd.mix(pic.BAND_LIGHT, pic.BAND_DARK, share), stroke, 0.02)
    drawn.segments(
        [
            (UNIT.centre(cell), UNIT.centre(board.cells[j]))
            for i, cell in enumerate(board.cells)
            for j in board.neighbour_indices[i]
            if j > i
        ],
        pic.GRID_LINE,
        pic.LINE_W,
    )
    for i, cell in enumerate(board.cells):
        # A point's tap area is its share of the board (a hexagon); what is drawn is the point itself.
        drawn.cell(
            board.names[i],
            UNIT.centre(cell),
            UNIT.corners(cell),
            fill=None,
            stroke=None,
            width=0.0,
            text=label(board.names[i], pic.NAME_SIZE, pic.NAME_INK, dy=-0.095),
            sublabel=label(str(board.edge_distance[i]), pic.VALUE_SIZE, pic.VALUE_INK, dy=0.195, bold=True),
            dot={
                "r": pic.POINT_R,
                "fill": colour(pic.POINT_FILL),
                "stroke": colour(pic.POINT_OUTLINE),
                "width": 0.02,
            },
        )
    for row_number, row in enumerate(board.rows):
        x, y = UNIT.centre(board.cells[row[0]])
        drawn.text((x - 0.92, y), chr(ord("a") + row_number), 0.3, pic.LETTER_INK, bold=True)
    return drawn


def panel(game, names: Sequence[str], last_events: Sequence[Event], title: str | None) -> Panel:
    players = game.players
    colour_names = [t(SEAT_COLOURS[s]) for s in range(players)]
    custom = [names[s] != colour_names[s] for s in range(players)]
    winners = set(game.winners)
    rows = [
        panel_row(
            seat,
            pic.seat_colour(seat),
            cells,
            to_move=game.to_move == seat,
            winner=game.is_over and seat in winners,
            marker=pic.seat_marker(seat),
            resigned=bool(game.resigned[seat - 1]),
        )
        for seat, cells in zip(range(1, players + 1), pic.panel_cells(game, names, custom, colour_names), strict=True)
    ]
    columns = pic.OVER_COLUMNS if game.is_over else pic.COLUMNS
    heading = title or t("Bide · {players} players · {points} points", players=players, points=len(game.board))
    last = pic.describe_last_turn(last_events, names)
    lines = [
        t("Last turn: {turn}", turn=last) if last else "",
        t("outlined: each seat's best group") if game.is_over else "",
    ]
    top_value = max(game.board.edge_distance)
    lines.append(f"{t('Point value = distance from the edge:')} 0–{top_value}")  # the bands show each value
    lines.append(t("  ·  a seat scores its best group").strip(" ·"))
    return Panel(heading, pic.status_line(game, names), [t(c[0]) if c[0] else "" for c in columns], rows, lines)
