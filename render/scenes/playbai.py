"""Play Bai as a scene: the pitch with its end zones and dots, the playballers, the ball, the last turn's
steps, jumps and passes (the picture: render/playbai.py, whose colours, sizes and words these are)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.interface import Event
from games.playbaifield import field
from i18n import t

from .. import playbai as pic
from .base import UNIT, Panel, Scene, colour, label, panel_row, unit_vector

SIZE = 1 / 3**0.5  # a cell's centre-to-corner radius, in board units (the picture's Geometry.size)


def scene(game, names: Sequence[str], last_events: Sequence[Event]) -> Scene:
    side = int(game.options["side"])
    board = field(side).board
    drawn = _board(side).on_board()
    goal = next((e for e in last_events if e.kind == "goal"), None)
    if goal is not None and goal.cell:
        drawn.marks.append(
            {
                "kind": "star",
                "at": _at(board, goal.cell),
                "r": round(SIZE * 0.95, 3),
                "fill": colour(pic.GOAL_STAR),
            }
        )
    for seat in (1, 2):
        for i in game.pieces(seat):
            drawn.piece(
                board.names[i],
                UNIT.centre(board.cells[i]),
                seat,
                "disc" if pic.SHAPES[seat] == "round" else "square",
                SIZE * 0.62,
                pic.TEAM[seat],
                stroke=pic.TEAM_DARK[seat],
                width=SIZE * 0.074,
            )
    if not any(e.kind == "set" for e in last_events):  # after a goal the field is set up again: words only
        for number, e in enumerate(pic.trace_actions(last_events), start=1):
            if e.src is None or e.dst is None:
                continue  # (steps, jumps and passes name both their cells)
            a, b = UNIT.centre(board.cells[board.parse(e.src)]), UNIT.centre(board.cells[board.parse(e.dst)])
            ux, uy = unit_vector(a, b)
            start, end = (0.15, 0.6) if e.kind == "move" else (0.6, 0.6)
            path = [
                (a[0] + ux * SIZE * start, a[1] + uy * SIZE * start),
                (b[0] - ux * SIZE * end, b[1] - uy * SIZE * end),
            ]
            if e.kind == "jump":  # an arc, as the picture's: bowed to the left of the jump
                mid = ((a[0] + b[0]) / 2 - uy * 0.45, (a[1] + b[1]) / 2 + ux * 0.45)
                path.insert(1, mid)
            width = SIZE * 0.13 * (0.8 if e.kind == "pass" else 1.0)
            drawn.arrow(
                path,
                pic.TRACE,
                width,
                head=SIZE * 0.42,
                halo=pic.TRACE_HALO,
                halo_width=width * 0.6,
                dashed=e.kind == "pass",
                badge=str(number),
            )
    ball = board.cells[game.ball]
    cx, cy = UNIT.centre(ball)
    held = bool(game.seat_of[game.ball])
    at = (cx + SIZE * 0.36, cy - SIZE * 0.36) if held else (cx, cy)
    drawn.piece(
        board.names[game.ball],
        at,
        0,
        "ball",
        SIZE * (0.3 if held else 0.42),
        pic.BALL,
        stroke=pic.BALL_INK,
        width=SIZE * 0.05,
        halo=pic.BALL_HALO,
    )
    return drawn


def _at(board, name: str) -> list[float]:
    x, y = UNIT.centre(board.cells[board.parse(name)])
    return [round(x, 3), round(y, 3)]


@lru_cache(maxsize=16)
def _board(side: int) -> Scene:
    """The pitch: cells with their names, the end zones and their dots, row letters."""
    fld = field(side)
    board = fld.board
    drawn = Scene(f"playbai:{side}")
    for i, cell in enumerate(board.cells):
        owner = fld.zone_owner[i]
        fill = pic.TEAM_TINT[owner] if owner else (pic.PITCH if cell[1] % 2 == 0 else pic.PITCH_ALT)
        dy = SIZE * 0.5 if i in fld.dots else 0.0
        extra = {}
        if i in fld.dots:  # a dot: its team's outline and a dark spot (the name moves under it)
            extra["dot"] = {
                "r": SIZE * 0.17,
                "fill": colour(pic.TEAM_DARK[owner]),
                "ring": [[round(x, 3), round(y, 3)] for x, y in UNIT.corners(cell, 0.86)],
                "stroke": colour(pic.TEAM[owner]),
                "width": round(SIZE * 0.12, 3),
            }
        drawn.cell(
            board.names[i],
            UNIT.centre(cell),
            UNIT.corners(cell, 0.985),
            fill=fill,
            stroke=pic.GRID,
            width=SIZE * 0.04,
            text=label(board.names[i], SIZE * pic.NAME_SIZE, pic.NAME_INK, dy=dy),
            **extra,
        )
    for k, row in enumerate(board.rows):
        x, y = UNIT.centre(board.cells[row[0]])
        drawn.text((x - 0.78, y), chr(ord("a") + k), SIZE * 0.5, pic.LETTER_INK)
    return drawn


def panel(game, names: Sequence[str], last_events: Sequence[Event], title: str | None) -> Panel:
    goal = next((e for e in last_events if e.kind == "goal"), None)
    rows = [
        panel_row(
            seat,
            pic.TEAM[seat],
            cells,
            to_move=not game.is_over and game.to_move == seat,
            winner=game.is_over and seat in game.winners,
            shape=pic.SHAPES[seat],
        )
        for seat, cells in zip((1, 2), pic.panel_cells(game, names), strict=True)
    ]
    heading = title or t("Play Bai: {first} vs {second}", first=names[0], second=names[1])
    line = pic.goal_line(game, names, goal, last_events) if goal is not None else pic.rule_line(game)
    last = game.describe_turn(last_events, say=t) if last_events else ""
    return Panel(
        heading,
        pic.status_line(game, names, goal),
        [t(c[0]) if c[0] else "" for c in pic.COLUMNS],
        rows,
        [line, t("Last turn: {turn}", turn=last) if last and goal is None else ""],
    )
