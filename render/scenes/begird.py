"""Begird as a scene: the named cells, the numbered islands around them, stones and the last stone's ring
(the picture: render/begird.py, whose colours, sizes and words these are)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.begird import winning_group
from games.begirdboard import layout as board_layout
from games.hexgrid import neighbours
from games.interface import Event
from i18n import t

from .. import begird as pic
from .base import UNIT, Panel, Scene, label, panel_row


def scene(game, names: Sequence[str], last_events: Sequence[Event]) -> Scene:
    variant = str(game.options["board"])
    board = board_layout(variant).board
    won_islands: frozenset[int] = frozenset()
    won_cells: list[str] = []
    if game.is_over and game.winners:
        won_cells, touched = winning_group(game)
        won_islands = frozenset(k - 1 for k in touched)
    drawn = _board(variant, won_islands).on_board()
    # Stones, the winning group's gold rings, the last stone's ring.
    for i, seat in enumerate(game.cells):
        if seat:
            drawn.piece(
                board.names[i],
                UNIT.centre(board.cells[i]),
                seat,
                "stone",
                pic.STONE_R,
                pic.stone_colour(seat),
                stroke=pic.STONE_OUTLINE[(seat - 1) % 2],
                width=0.035,
            )
    for name in won_cells:
        drawn.ring(
            UNIT.centre(board.cells[board.parse(name)]),
            pic.WIN_RING_R,
            pic.WIN_RING,
            0.085,
            pic.WIN_RING_HALO,
            0.015,
            kind="win",
        )
    for e in last_events:
        if e.kind == "place" and e.cell:
            try:
                i = board.parse(e.cell)
            except ValueError:
                continue
            if game.cells[i]:
                drawn.last_move_ring(UNIT.centre(board.cells[i]), pic.STONE_R)
    return drawn


@lru_cache(maxsize=32)
def _board(variant: str, won_islands: frozenset[int]) -> Scene:
    """The board without stones: sea, islands (gold where a winning group touches them), named cells."""
    lay = board_layout(variant)
    board = lay.board
    drawn = Scene(f"begird:{variant}")
    islands = lay.islands
    owner = {c: k for k, island in enumerate(islands) for c in island}
    # Sea under everything, then the land of each island (gold once a winning group touches it).
    # (only the cells on the rim: the sea under the others is covered, and would only weigh on the page)
    everything = set(board.cells) | set(owner)
    for c in list(board.cells) + list(owner):
        if any(n not in everything for n in neighbours(c)):
            drawn.area(UNIT.corners(c, 1.18), pic.SEA)
    for k, island in enumerate(islands):
        fill = pic.WIN_LAND if k in won_islands else pic.land_tone(k, len(islands))
        for c in island:
            drawn.area(UNIT.corners(c, 1.01), fill)
    coasts = [
        pic._edge(UNIT, c, d)
        for k, island in enumerate(islands)
        for c in island
        for d, n in enumerate(neighbours(c))
        if owner.get(n) != k
    ]
    drawn.segments(coasts, pic.COAST, pic.COAST_W)
    straits = [
        pic._edge(UNIT, c, d)
        for k, island in enumerate(islands)
        for c in island
        for d, n in enumerate(neighbours(c))
        if n in owner and owner[n] != k and n > c
    ]
    drawn.segments(straits, pic.COAST, pic.STRAIT_W + 2 * pic.COAST_W * 0.6)
    drawn.segments(straits, pic.SEA, pic.STRAIT_W)
    for i, c in enumerate(board.cells):
        name = board.names[i]
        text = label(name, pic.NAME_SIZE, pic.NAME_INK, bold=True, fit=pic.NAME_W)
        drawn.cell(
            name, UNIT.centre(c), UNIT.corners(c), fill=pic.CELL_FILL, stroke=pic.CELL_LINE, width=pic.LINE_W, text=text
        )
    for k, island in enumerate(islands):
        stroke = pic.WIN_NUMBER_STROKE if k in won_islands else pic.NUMBER_STROKE
        drawn.text(
            UNIT.centre(pic.label_cell(island)),
            str(k + 1),
            pic.NUMBER_SIZE,
            pic.NUMBER_INK,
            bold=True,
            halo=stroke,
            halo_width=0.045,
        )
    return drawn


def panel(game, names: Sequence[str], last_events: Sequence[Event], title: str | None) -> Panel:
    texts, lines = pic.panel_text(game, names, last_events)
    winners = set(game.winners)
    rows = [
        panel_row(
            seat, pic.stone_colour(seat), cells, to_move=game.to_move == seat, winner=game.is_over and seat in winners
        )
        for seat, cells in zip((1, 2), texts, strict=True)
    ]
    heading = title or t("Begird · {board}", board=pic._board_words(game))
    won = pic.win_line(game)
    return Panel(
        heading,
        pic.status_line(game, names),
        [t(c[0]) if c[0] else "" for c in pic.COLUMNS],
        rows,
        [lines[0], lines[1], won or pic.rule_line(game)],
    )
