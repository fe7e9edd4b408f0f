"""Bump as a scene: the spaces (a gate drawn twice, one name), walls, pieces with their bumpers and names, the
last turn's path, turn, bumps and captures (the picture: render/bump.py and render/bump_board.py, whose colours,
sizes and words these are)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from games.bump import AREAS, C1, C2, COORDS, NAMES, NEIGHBOURS
from games.interface import Event
from i18n import t

from .. import bump as pic
from .. import bump_board
from .base import UNIT, Panel, Scene, colour, label, panel_row


def scene(game, names: Sequence[str], last_events: Sequence[Event]) -> Scene:
    drawn = _board().on_board()
    for i, seat in ((C1, 0), (C2, 1)):  # each seat's centre, ringed in its colour
        drawn.ring(UNIT.centre(COORDS[i][0]), 0.40, bump_board.PIECE[seat], 0.07, kind="centre")
    board = game.board
    for space, pid in enumerate(board.cells):
        if pid < 0:
            continue
        seat, facing = board.owner[pid], board.facing[pid]
        solid = bump_board.piece_cell(space, facing)
        for cell in COORDS[space]:
            twin = cell != solid  # a gate's piece is solid where its bumper faces, pale in the other part
            drawn.piece(
                NAMES[space],
                UNIT.centre(cell),
                seat,
                "piece",
                bump_board.PIECE_R,
                bump_board.twin_fill(seat) if twin else bump_board.PIECE[seat - 1],
                stroke=bump_board.PIECE[seat - 1] if twin else bump_board.PIECE_OUTLINE,
                width=0.07 if twin else 0.035,
                facing=60 * facing,
                bumper=colour(bump_board.BUMPER),
                twin=twin,
                label=label(
                    NAMES[space],
                    bump_board.NAME_SIZE,
                    bump_board.twin_ink(seat) if twin else bump_board.name_ink(seat),
                    bold=True,
                    fit=bump_board.PIECE_NAME_W,
                ),
            )
    _last_turn(drawn, game, list(last_events))
    return drawn


def _last_turn(drawn: Scene, game, events: list[Event]) -> None:
    """The mover's path (violet), its turn (an arc), the bumps (numbered, purple) and captures (a cross)."""
    shifts = [e for e in events if e.kind == "shift" and e.src and e.dst]
    if shifts:
        here = pic.space_centre_on(UNIT, shifts[0].src or "", None)
        path = [here]
        for e in shifts:
            here = pic.space_centre_on(UNIT, e.dst or "", here)
            path.append(here)
        drawn.arrow(path, pic.PATH, 0.09, head=0.24)
    for e in events:
        if e.kind == "rotate" and e.cell:
            data = dict(e.data)
            centre = pic.space_centre_on(UNIT, e.cell, None, data["to"])
            start, steps = 60 * data["from"], data["steps"]
            arc = [
                (centre[0] + 0.62 * math.cos(math.radians(a)), centre[1] + 0.62 * math.sin(math.radians(a)))
                for a in (start + 60 * steps * k / 12 for k in range(13))
            ]
            drawn.arrow(arc, pic.PATH, 0.1, head=0.24)
        elif e.kind == "capture" and e.cell:
            centre = pic.space_centre_on(UNIT, e.cell, None, dict(e.data).get("facing"))
            drawn.marks.append(
                {
                    "kind": "cross",
                    "at": [round(centre[0], 3), round(centre[1], 3)],
                    "r": 0.3,
                    "stroke": colour(pic.CROSS),
                    "width": 0.1,
                }
            )
    ends = pic.gate_end_facings(game, events)
    for src, dst, through, number in pic._bump_arrows(UNIT, events, ends):
        if through is not None:
            src, dst = through[1], through[2]
        dx, dy = dst[0] - src[0], dst[1] - src[1]
        length = math.hypot(dx, dy) or 1.0
        a = (src[0] + dx / length * 0.2, src[1] + dy / length * 0.2)
        b = (dst[0] - dx / length * bump_board.PIECE_R * 0.9, dst[1] - dy / length * bump_board.PIECE_R * 0.9)
        drawn.arrow([a, b], pic.BUMP, 0.13, head=0.4, halo=(255, 255, 255), halo_width=0.035, badge=str(number))


@lru_cache(maxsize=1)
def _board() -> Scene:
    """The spaces (a gate drawn twice, one name) and the walls."""
    drawn = Scene("bump")
    for i, part, cell in bump_board.DRAWN:
        gate = AREAS[i] == 0 and len(COORDS[i]) == 2
        drawn.cell(
            NAMES[i],
            UNIT.centre(cell),
            UNIT.corners(cell),
            fill=bump_board.cell_fill(i),
            stroke=bump_board.CELL_LINE,
            width=bump_board.LINE_W,
            text=label(
                NAMES[i], bump_board.NAME_SIZE, bump_board.cell_name_ink(i), bold=True, fit=bump_board.CELL_NAME_W
            ),
            gate_part=part if gate else None,
        )
    walls = []
    for i, part, cell in bump_board.DRAWN:
        for d in range(6):
            if NEIGHBOURS[i][d] >= 0 or (
                AREAS[i] == 0 and len(COORDS[i]) == 2 and d == bump_board.gate_link_side(i, part)
            ):
                continue
            walls.append(bump_board._edge(UNIT, cell, d))
    drawn.segments(walls, bump_board.WALL, bump_board.WALL_W, caps="round")
    return drawn


def panel(game, names: Sequence[str], last_events: Sequence[Event], title: str | None) -> Panel:
    events = list(last_events)
    winners = set(game.winners)
    rows = [
        panel_row(seat, bump_board.PIECE[seat - 1], cells, to_move=game.to_move == seat, winner=seat in winners)
        for seat, cells in zip((1, 2), pic.panel_cells(game, names), strict=True)
    ]
    guard = t("Guard your center!") if pic.guard_applies(game, events) else ""
    return Panel(
        title or "Bump",
        pic.status_line(game, names),
        [t(c[0]) if c[0] else "" for c in pic.COLUMNS],
        rows,
        [pic.last_move_line(game, events, names), guard, pic.legend_line()],
    )
