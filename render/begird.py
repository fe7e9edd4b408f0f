"""Begird's picture: the board of named cells, the numbered islands around it, stones, a panel.

The static part (the board's cells with every cell's name, the islands as land
with their numbers) depends only on the board variant and the
picture width, so it is drawn once, supersampled, and cached. A stone covers
its cell's name completely, so each picture simply pastes cached stone sprites
onto a copy of that background: empty cells keep their names, occupied ones
show the stone. A won game pastes the touched islands from a second cached
layer (the same board with golden, outlined land), clipped by each island's
mask, and rings the winning stones in gold.

Width. Players type cell names, so the names must stay legible on a phone:
a still picture (``width >= STILL_MIN``, which includes the registry's default
1080) of the 243-cell standard board is drawn :data:`READABLE_WIDTH` pixels
wide (1280) instead; narrower requests (GIF frames, 600 px) are honoured as
given. :func:`picture_width` says which width a request gets.

Layout of a picture (:func:`cell_centre` and :func:`land_centres` give exact
pixels):

* a title bar (title, and whose turn it is or the result);
* the board, fitted to the width, islands around it (no row letters: every
  cell carries its whole name), or with ``zoom`` the part of the board around
  one cell at twice the scale;
* a panel: one row per colour (stone, player, stones on the board, status),
  the swap (stated once), the last turn in words, and the win rule as an
  example (or, once won, how).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.begird import SEAT_COLOURS, rule_words, winning_group
from games.begirdboard import island_cells
from games.begirdboard import layout as board_layout
from games.hexgrid import neighbours
from games.interface import Event
from i18n import N_, t, tn

from . import hexdraw as hd
from . import panels, sprites
from . import textdraw as td

DEFAULT_WIDTH = 1080
MIN_WIDTH = 320
STILL_MIN = 1000  # requests at least this wide are still pictures, drawn at a readable width
READABLE_WIDTH = {"standard": 1280, "small": 1080, "y": 1080}

THEME = panels.Theme()
PAGE = THEME.background
SEA = (214, 232, 240)  # around the board, between the islands
CELL_FILL = (238, 216, 172)  # an empty cell: light wood
CELL_LINE = (160, 124, 78)
NAME_INK = (92, 58, 22)  # dark brown: never mistaken for a black stone
LETTER_INK = (95, 78, 55)
LAND = ((112, 168, 80), (184, 212, 132), (96, 154, 140))  # alternating tones, a third for an odd count
COAST = (74, 112, 58)
NUMBER_INK = (255, 255, 255)
NUMBER_STROKE = (40, 64, 32)
WIN_LAND = (250, 204, 70)
WIN_COAST = (150, 92, 0)
WIN_NUMBER_STROKE = (120, 70, 0)

BLACK_STONE = (28, 28, 30)
WHITE_STONE = (246, 246, 242)
STONE_COLOURS = (BLACK_STONE, WHITE_STONE)
STONE_OUTLINE = ((0, 0, 0), (52, 52, 56))
LAST_MARK = sprites.LAST_MOVE_RING  # the last stone placed is ringed as in every game
WIN_RING = (236, 168, 0)
WIN_RING_HALO = (90, 56, 0)

# Proportions, in units of the distance between neighbouring cell centres.
STONE_R = 0.45  # a cell's inner radius is 0.5: the stones as large as the cells allow
NAME_SIZE = 0.52
NAME_W = 0.86  # the widest a name may be (a cell is 1 across): "m13" is narrowed to fit
NAME_SQUEEZE = 0.66
WIN_RING_R = STONE_R - 0.05  # inside the stone: the last-move ring goes around it
TEXT_LINES = 4  # the panel's room for text under the table, in lines of ``Geometry.line_h``
ZOOM = 2  # a zoomed picture shows part of the board at this scale
NUMBER_SIZE = 0.62
LINE_W = 0.035
COAST_W = 0.06
STRAIT_W = 0.13


def stone_colour(seat: int) -> tuple[int, int, int]:
    return STONE_COLOURS[(seat - 1) % 2]


# -- geometry ------------------------------------------------------------------------


def picture_width(variant: str, width: int = DEFAULT_WIDTH) -> int:
    """The width a picture of ``variant`` asked to be ``width`` pixels wide is actually drawn at."""
    if width < MIN_WIDTH:
        raise ValueError(f"a Begird picture is at least {MIN_WIDTH} pixels wide, not {width}")
    if width >= STILL_MIN:
        return max(width, READABLE_WIDTH.get(variant, width))
    return width


@dataclass(frozen=True)
class Geometry:
    variant: str
    width: int
    layout: hd.HexLayout
    title_h: int
    board_top: int
    board_bottom: int
    spacing: float
    row_h: int

    @property
    def line_h(self) -> int:
        return round(self.row_h * 0.78)

    @property
    def panel_height(self) -> int:
        # two player rows, room for four text lines (the swap, the last turn, the rule on two), margins
        return int(self.row_h * 0.3) + 2 * self.row_h + TEXT_LINES * self.line_h + int(self.row_h * 0.3)

    @property
    def height(self) -> int:
        return self.board_bottom + self.panel_height


@lru_cache(maxsize=32)
def geometry(variant: str, width: int) -> Geometry:
    """Geometry of a picture exactly ``width`` pixels wide (already through :func:`picture_width`)."""
    lay = board_layout(variant)
    board = lay.board
    ring = [c for island in lay.islands for c in island]
    # No row letters: every cell carries its full name, so the board gets their width.
    title_h = round(width * 0.10)
    top = title_h + int(width * 0.012)
    margin = width * 0.012
    hex_layout, bottom = hd.HexLayout.fit(list(board.cells) + ring, width, left=margin, right=margin, top=top, halo=1.0)
    return Geometry(
        variant=variant,
        width=width,
        layout=hex_layout,
        title_h=title_h,
        board_top=top,
        board_bottom=math.ceil(bottom + width * 0.008),
        spacing=hex_layout.spacing,
        row_h=max(22, round(width * 0.066)),  # panel text ~12 px on a 400 px phone
    )


def _variant_of(game_or_variant) -> str:
    if isinstance(game_or_variant, str):
        return game_or_variant
    return str(game_or_variant.options["board"])


def _geometry_for(game_or_variant, width: int) -> Geometry:
    variant = _variant_of(game_or_variant)
    return geometry(variant, picture_width(variant, width))


def cell_centre(game_or_variant, name: str, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """Pixel (x, y) of the centre of cell ``name`` on a picture requested ``width`` wide.

    ``game_or_variant`` is a Begird game or a board name (``standard``, ``small``, ``y``).
    """
    variant = _variant_of(game_or_variant)
    board = board_layout(variant).board
    x, y = _geometry_for(variant, width).layout.centre(board.cells[board.parse(name)])
    return round(x), round(y)


def land_centres(game_or_variant, width: int = DEFAULT_WIDTH) -> list[list[tuple[int, int]]]:
    """Per island (island 1 first), the pixel centres of its land (ring) cells."""
    g = _geometry_for(game_or_variant, width)
    return [
        [(round(x), round(y)) for x, y in map(g.layout.centre, island)]
        for island in island_cells(_variant_of(game_or_variant))
    ]


def cell_spacing(game_or_variant, width: int = DEFAULT_WIDTH) -> float:
    """Pixels between neighbouring cell centres; a stone's radius is ``STONE_R`` times this."""
    return _geometry_for(game_or_variant, width).spacing


def label_cell(island: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """Where an island's number goes, in axial coordinates: its middle cell, or the
    middle of its two middle cells (always on the island's land)."""
    n = len(island)
    if n % 2:
        return island[n // 2]
    a, b = island[n // 2 - 1], island[n // 2]
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def land_tone(k: int, count: int) -> tuple[int, int, int]:
    """Land colour of island ``k`` (0-based) of ``count``: neighbours always differ."""
    if count % 2 and k == count - 1:
        return LAND[2]
    return LAND[k % 2]


# -- the static board -----------------------------------------------------------------


def _edge(lay: hd.HexLayout, cell, direction: int) -> tuple[hd.Point, hd.Point]:
    """The side of ``cell``'s hexagon facing neighbour ``direction`` (0 E … 5 NE)."""
    corners = lay.corners(cell)  # corner k at angle 60k - 30 (y down): the E side joins corners 0 and 1
    return corners[direction], corners[(direction + 1) % 6]


def _draw_board(variant: str, width: int, won: bool) -> Image.Image:
    """The board strip: sea, islands (golden when ``won``), cells with names, row letters."""
    g = geometry(variant, width)
    lay = board_layout(variant)
    board = lay.board
    hl = g.layout
    sp = g.spacing
    cv = hd.Canvas(width, g.board_bottom, PAGE)
    on_board = set(board.cells)
    islands = lay.islands
    owner = {c: k for k, island in enumerate(islands) for c in island}

    # Sea: every board and ring cell, slightly enlarged, under everything.
    for c in list(board.cells) + list(owner):
        cv.polygon(hl.corners(c, 1.18), fill=SEA)

    # Land.
    for k, island in enumerate(islands):
        fill = WIN_LAND if won else land_tone(k, len(islands))
        for c in island:
            cv.polygon(hl.corners(c, 1.01), fill=fill)
    # Coasts: island sides not shared with the same island (this also parts neighbouring islands).
    coast_w = max(1.5, sp * (COAST_W * 1.6 if won else COAST_W))
    coast = WIN_COAST if won else COAST
    segments = []
    for k, island in enumerate(islands):
        for c in island:
            for d, n in enumerate(neighbours(c)):
                if owner.get(n) != k:
                    segments.append(_edge(hl, c, d))
    cv.lines(segments, coast, width=coast_w)
    # A strait of sea between neighbouring islands.
    straits = []
    for k, island in enumerate(islands):
        for c in island:
            for d, n in enumerate(neighbours(c)):
                if n in owner and owner[n] != k and n > c:
                    straits.append(_edge(hl, c, d))
    cv.lines(straits, coast, width=max(3.0, sp * STRAIT_W) + 2 * coast_w * 0.6)
    cv.lines(straits, SEA, width=max(3.0, sp * STRAIT_W))

    # Board cells: wood hexagons with thin lines, each with its name.
    for c in board.cells:
        cv.polygon(hl.corners(c, 1.0), fill=CELL_FILL)
    segments = []
    for c in board.cells:
        for d, n in enumerate(neighbours(c)):
            if n not in on_board or n > c:
                segments.append(_edge(hl, c, d))
    cv.lines(segments, CELL_LINE, width=max(1.0, sp * LINE_W))

    # Island numbers, large, on the land.
    number_size = max(10, round(sp * NUMBER_SIZE))
    stroke = WIN_NUMBER_STROKE if won else NUMBER_STROKE
    for k, island in enumerate(islands):
        x, y = hl.centre(label_cell(island))
        cv.text((x, y), str(k + 1), number_size, NUMBER_INK, stroke=max(1.0, sp * 0.045), stroke_fill=stroke)

    im = cv.image()
    # Every cell's name, as large as the cell allows (bold, three-letter names narrowed): players
    # type them, and read them on a phone about 400 px wide (docs/rendering.md, "Legibility").
    name_size = max(8, round(sp * NAME_SIZE))
    for i, c in enumerate(board.cells):
        td.draw_label(im, hl.centre(c), board.names[i], name_size, NAME_INK, sp * NAME_W, NAME_SQUEEZE, bold=True)
    return im


@lru_cache(maxsize=16)
def board_background(variant: str, width: int) -> Image.Image:
    """The board without stones (every cell named). Callers must copy it."""
    return _draw_board(variant, width, won=False)


@lru_cache(maxsize=8)
def island_tiles(variant: str, width: int) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """Per island: (golden land as an RGBA sprite, its top-left corner) to paste when a winning
    group touches it."""
    g = geometry(variant, width)
    hl = g.layout
    golden = _draw_board(variant, width, won=True)
    tiles = []
    k = hd.SUPERSAMPLE
    for island in island_cells(variant):
        polygons = [hl.corners(c, 1.02) for c in island]
        xs = [x for p in polygons for x, _ in p]
        ys = [y for p in polygons for _, y in p]
        x0, y0 = max(0, int(min(xs)) - 2), max(0, int(min(ys)) - 2)
        x1, y1 = min(width, int(max(xs)) + 3), min(g.board_bottom, int(max(ys)) + 3)
        mask = Image.new("L", ((x1 - x0) * k, (y1 - y0) * k), 0)
        d = ImageDraw.Draw(mask)
        for p in polygons:
            d.polygon([((x - x0) * k, (y - y0) * k) for x, y in p], fill=255)
        mask = mask.resize((x1 - x0, y1 - y0), Image.Resampling.LANCZOS)
        sprite = golden.crop((x0, y0, x1, y1)).convert("RGBA")
        sprite.putalpha(mask)
        tiles.append((sprite, (x0, y0)))
    return tuple(tiles)


def golden_islands(game) -> None:
    """Build the golden islands a won game's picture pastes (:func:`island_tiles`), for ``render.draw_ahead``."""
    variant = _variant_of(game)
    island_tiles(variant, picture_width(variant, DEFAULT_WIDTH))


# -- sprites sized for a geometry -----------------------------------------------------------


def stone(seat: int, spacing: float) -> Image.Image:
    # No shadow: at this size a shadow would reach the next cell (and a stone's outline
    # already sets it off the wood), and stones that keep to their cells are pasted as
    # cached tiles (render/changes.py).
    return sprites.disc_sprite(
        round(spacing * STONE_R, 1),
        stone_colour(seat),
        STONE_OUTLINE[(seat - 1) % 2],
        round(max(1.5, spacing * 0.035), 1),
        shadow=False,
    )


def swatch(seat: int, size: float) -> Image.Image:
    """A stone for the panel, ``size`` pixels across."""
    return sprites.disc_sprite(
        round(size / 2, 1), stone_colour(seat), STONE_OUTLINE[(seat - 1) % 2], round(max(1.5, size * 0.06), 1)
    )


def last_mark(spacing: float) -> Image.Image:
    """The last stone's mark: the ring every game puts around its last move."""
    return sprites.last_move_ring(spacing * STONE_R, spacing)


def win_ring(spacing: float) -> Image.Image:
    return sprites.ring_sprite(
        round(spacing * WIN_RING_R, 1),
        WIN_RING,
        round(max(2.5, spacing * 0.085), 1),
        WIN_RING_HALO,
        round(max(1.0, spacing * 0.015), 1),
    )


# -- words -------------------------------------------------------------------------------------


def seat_names(player_names: Sequence[str] | None) -> list[str]:
    """Display name per colour seat: the given name (drawable characters only) or the colour."""
    names = []
    for seat in (1, 2):
        colour = t(SEAT_COLOURS[seat - 1])
        given = player_names[seat - 1] if player_names and seat - 1 < len(player_names) else None
        names.append(td.displayable(str(given), colour) if given else colour)
    return names


def _label(names: Sequence[str], seat: int | None) -> str:
    if seat not in (1, 2):
        return "?"
    name = names[seat - 1]
    colour = t(SEAT_COLOURS[seat - 1])
    return name if name == colour else t("{name} ({colour})", name=name, colour=colour)


def describe_last_turn(game, events: Sequence[Event], names: Sequence[str]) -> str:
    """The last turn in a few words: "Alice (Black) placed e5 — touches island 3"."""
    parts = []
    for e in events:
        if e.kind == "place" and e.cell:
            text = t("{player} placed {cell}", player=_label(names, e.seat), cell=e.cell.lower())
            try:
                i = game.board.parse(e.cell)
            except ValueError:
                i = None
            if i is not None:
                touched = game.layout.islands_of(game.layout.cell_masks[i])
                if touched:
                    listed = functools.reduce(_joined, map(str, touched))
                    text = tn(
                        "{placed}, touching island {islands}",
                        "{placed}, touching islands {islands}",
                        len(touched),
                        placed=text,
                        islands=listed,
                    )
            parts.append(text)
        elif e.kind == "swap":
            # After the swap the seat that answered is White no more: the same player now plays Black.
            parts.append(
                t(
                    "{first} swapped (pie rule): {first} now plays Black with the first stone, {second} plays White",
                    first=names[0],
                    second=names[1],
                )
            )
        elif e.kind == "resign":
            parts.append(t("{player} resigned", player=_label(names, e.seat)))
    return " · ".join(parts)


def _joined(first: str, last: str) -> str:
    return t("{first} and {last}", first=first, last=last)


def status_line(game, names: Sequence[str]) -> str:
    if game.is_over:
        if not game.winners:
            return t("Game over")
        seat = game.winners[0]
        if game.end_reason == "resignation":
            return t("Game over · {player} wins by resignation", player=_label(names, seat))
        return t("Game over · {player} wins", player=_label(names, seat))  # how: the panel's last line (win_line)
    seat = game.to_move
    return t("Turn {number} · {player} to move", number=game.ply + 1, player=_label(names, seat))


def _and(numbers: Sequence[int]) -> str:
    words = [str(n) for n in numbers]
    if len(words) == 1:
        return words[0]
    # TRANSLATORS: a list of island numbers: "1, 2 and 3".
    return t("{first} and {last}", first=", ".join(words[:-1]), last=words[-1])


def win_line(game) -> str:
    """How the game was won, in the words of the rule ("" unless won by a group)."""
    if not (game.is_over and game.winners) or game.end_reason == "resignation":
        return ""
    _, islands = winning_group(game)
    if not islands:
        return ""
    lay = game.layout
    if lay.island_count <= 3:
        return t("Gold: the winning group, touching islands {islands}", islands=_and(islands))
    # The rule's own measure: the longest run of islands the group leaves untouched.
    untouched = lay.island_count - lay.covering_run(sum(1 << (k - 1) for k in islands))
    return t(
        "Gold: the winning group, touching islands {islands} "
        "(it leaves no more than {untouched} islands in a row untouched)",
        islands=_and(islands),
        untouched=untouched,
    )


def rule_line(game) -> str:
    """The win rule as a player can check it on the picture, with an example that wins: in the words the
    autocomplete says it (``games.begird.rule_words``), so the rule reads the same wherever it is said. Then
    why the last island has a colour of its own (:func:`land_tone`), lest a player look for a rule in it."""
    lay = game.layout
    rule = rule_words(lay, t)
    if lay.island_count == 3:
        line = t("{rule} (islands 1, 2 and 3).", rule=rule)
    else:
        # RULES.md: a group wins when n minus the longest run of islands it does not touch is at least `need`.
        example = [1, (1 + lay.need + 1) // 2, lay.need]
        assert lay.covering_run(sum(1 << (k - 1) for k in example)) == lay.need
        line = t("{rule} (islands {islands} do it).", rule=rule, islands=_and(example))
    return f"{line} {last_island_colour(lay.island_count)}" if lay.island_count % 2 else line


def last_island_colour(count: int) -> str:
    """Why island ``count`` (an odd count: the last) has a colour of its own: two colours alternate round the
    ring, and an odd ring would end on island 1's."""
    return t("Island {last}'s own colour only sets it apart from island 1.", last=count)


# -- the picture ---------------------------------------------------------------------------------


def render(
    game,
    *,
    player_names: Sequence[str] | None = None,
    last_events: Sequence[Event] = (),
    title: str | None = None,
    width: int = DEFAULT_WIDTH,
    zoom: str | None = None,
) -> Image.Image:
    """The picture of a Begird game as an RGB image (see :func:`picture_width` for its width).

    ``zoom``: ``"last"`` (the last stone placed) or a cell name: the board part of the
    picture then shows the cells around it at :data:`ZOOM` times the scale, so that a
    phone can read them; the title bar and panel stay as they are.
    """
    variant = _variant_of(game)
    width = picture_width(variant, width)
    g = geometry(variant, width)
    names = seat_names(player_names)

    im = hd.new_picture(page_background(variant, width))
    zoom_words = ""
    if zoom is None:
        _draw_position(im, game, g, last_events, (0.0, 0.0))
    else:
        centre, big, (x0, y0) = zoom_view(game, zoom, last_events, width)
        view_w, view_h = width, g.board_bottom - g.title_h
        view = board_background(variant, big.width).crop((x0, y0, x0 + view_w, y0 + view_h))
        _draw_position(view, game, big, last_events, (x0, y0))
        im.paste(view, (0, g.title_h))
        hd.touch(im, (0, g.title_h, view_w, g.title_h + view_h))
        zoom_words = t(" · around {cell}, ×{zoom}", cell=centre, zoom=ZOOM)

    heading = t("Begird · {board}", board=_board_words(game))
    if title:
        heading = td.displayable(title, heading)
    panels.draw_title_bar(im, g.title_h, heading, status_line(game, names) + zoom_words, THEME)
    _draw_panel(im, game, g, names, last_events)
    return im


def zoom_view(
    game, zoom: str, last_events: Sequence[Event] = (), width: int = DEFAULT_WIDTH
) -> tuple[str, Geometry, tuple[int, int]]:
    """A zoomed picture's board: (the cell it centres on, the geometry of the board :data:`ZOOM` times
    larger, the pixel of that larger board shown at the top-left corner of the picture's board part)."""
    variant = _variant_of(game)
    width = picture_width(variant, width)
    g = geometry(variant, width)
    centre = zoom_cell(game, zoom, last_events)
    big = geometry(variant, width * ZOOM)
    cx, cy = big.layout.centre(game.board.cells[game.board.parse(centre)])
    view_w, view_h = width, g.board_bottom - g.title_h
    x0 = round(min(max(cx - view_w / 2, 0), big.width - view_w))
    y0 = round(min(max(cy - view_h / 2, big.title_h), big.board_bottom - view_h))
    return centre, big, (x0, y0)


def zoom_helps(game) -> bool:
    """Whether a phone needs the zoom: the standard board's names stand 5.6 px (x-height) in a picture
    shown 400 px wide, the small and Y boards' 9.6 and 7.4 px (docs/rendering.md)."""
    return _variant_of(game) == "standard"


def zoom_cell(game, zoom: str, last_events: Sequence[Event] = ()) -> str:
    """The cell a zoomed picture centres on: ``"last"`` is the last stone placed (the board's
    middle cell before any), anything else a cell name (ValueError if there is no such cell)."""
    board = game.board
    if zoom.strip().lower() == "last":
        placed = [e.cell for e in last_events if e.kind == "place" and e.cell]
        if placed:
            return placed[-1].lower()
        # No stone placed last turn: the middle of the board.
        points = [(q + r / 2, r * 0.866) for q, r in board.cells]
        mx = sum(p[0] for p in points) / len(points)
        my = sum(p[1] for p in points) / len(points)
        return board.names[min(range(len(points)), key=lambda i: (points[i][0] - mx) ** 2 + (points[i][1] - my) ** 2)]
    return board.names[board.parse(zoom)]


def _draw_position(
    im: Image.Image, game, g: Geometry, last_events: Sequence[Event], origin: tuple[float, float]
) -> None:
    """Golden islands, stones, winning rings and the last stone's ring on the board of ``im``,
    whose top-left pixel is ``origin`` of a picture with geometry ``g``."""
    board = game.board
    sp = g.spacing
    ox, oy = origin

    def at(cell) -> tuple[float, float]:
        x, y = g.layout.centre(cell)
        return x - ox, y - oy

    # The islands a winning group touches: golden, outlined.
    won_cells: list[str] = []
    if game.is_over and game.winners:
        won_cells, islands = winning_group(game)
        tiles = island_tiles(g.variant, g.width)
        for k in islands:
            sprite, corner = tiles[k - 1]
            sprites.paste_at(im, sprite, (corner[0] - ox, corner[1] - oy))

    # Stones (each covers its cell's name).
    cells = game.cells
    stones = {1: stone(1, sp), 2: stone(2, sp)}
    for i, owner in enumerate(cells):
        if owner:
            sprites.paste_centred(im, stones[owner], at(board.cells[i]))

    # The winning group: a gold ring on each stone.
    if won_cells:
        ring = win_ring(sp)
        for name in won_cells:
            sprites.paste_centred(im, ring, at(board.cells[board.parse(name)]))

    # The last stone placed: ringed, as the last move is in every game.
    for e in last_events:
        if e.kind == "place" and e.cell:
            try:
                i = board.parse(e.cell)
            except ValueError:
                continue
            if cells[i]:
                sprites.paste_centred(im, last_mark(sp), at(board.cells[i]))


def _board_words(game) -> str:
    lay = game.layout
    if lay.island_count == 3:
        return t("Y board · {cells} cells", cells=len(game.board))
    label = t("standard") if game.options["board"] == "standard" else game.options["board"]
    return t(
        "{board} board · {cells} cells · {islands} islands",
        board=label,
        cells=len(game.board),
        islands=lay.island_count,
    )


COLUMNS = ((N_("Player"), 3.4, "l"), (N_("Stones"), 1.9, "l"), ("", 2.3, "l"))


def _panel_frame(g: Geometry) -> tuple[int, int, int]:
    """(margin, top of the table, size of the small text) of the panel."""
    return int(g.width * 0.03), g.board_bottom + int(g.row_h * 0.3), int(g.row_h * 0.44)


@lru_cache(maxsize=32)
def page_background(variant: str, width: int) -> Image.Image:
    """Everything that does not depend on the position: the board and the panel's rule."""
    g = geometry(variant, width)
    im = Image.new("RGB", (width, g.height), PAGE)
    im.paste(board_background(variant, width), (0, 0))
    margin = _panel_frame(g)[0]
    d = ImageDraw.Draw(im)
    d.line((margin, g.board_bottom, width - margin, g.board_bottom), fill=THEME.rule, width=2)
    return im


def panel_text(game, names: Sequence[str], last_events: Sequence[Event]) -> tuple[list[list[str]], list[str]]:
    """The panel's words: per colour (Black, White) ``[player, stones, status]``, then the
    swap line ("" when there is nothing to say) and the last-turn line.

    A swap is stated once per picture: by the last-turn line on the turn it happens,
    by the swap line on every later turn."""
    winners = set(game.winners)
    counts = [0, 0, 0]
    for v in game.cells:
        counts[v] += 1
    rows = []
    for seat in (1, 2):
        status = []
        if game.is_over and seat in winners:
            status.append(t("winner"))
        if getattr(game, "_resigned", None) == seat:
            status.append(t("resigned"))
        if game.to_move == seat:
            status.append(t("to move"))
        rows.append([_label(names, seat), tn("{count} stone", "{count} stones", counts[seat]), ", ".join(status)])
    swapped_now = any(e.kind == "swap" for e in last_events)
    if game.swapped and not swapped_now:
        swap = t("{player} plays Black by the swap (pie rule)", player=names[0])
    elif game.swap_allowed():
        swap = t("Pie rule: instead of placing, White may answer swap and take Black's stone")
    else:
        swap = ""
    last = describe_last_turn(game, last_events, names)
    return rows, [swap, t("Last turn: {turn}", turn=last or "—")]


def _draw_panel(im, game, g: Geometry, names, last_events) -> None:
    row_h = g.row_h
    width = g.width
    margin, table_top, small = _panel_frame(g)
    winners = set(game.winners)
    texts, lines = panel_text(game, names, last_events)
    rows = []
    for seat, cells in zip((1, 2), texts, strict=True):
        background = None
        if game.is_over and seat in winners:
            background = THEME.winner
        elif game.to_move == seat:
            background = THEME.highlight
        rows.append(
            panels.PanelRow(
                swatch=swatch(seat, row_h * 0.74),
                cells=cells,
                background=background,
                marker=game.to_move == seat,
                bold=(seat in winners,),
            )
        )
    panels.draw_panel(im, (margin, table_top, width - margin, 0), COLUMNS, rows, row_h, THEME, header=False)
    # Under the table: the swap, the last turn, and last how the game was won or else the win
    # rule in grey; wrapped (then smaller) rather than cut short.
    won = win_line(game)
    paragraphs = [lines[0], lines[1], won or rule_line(game)]
    inks = (THEME.ink, THEME.ink, THEME.ink if won else THEME.muted)
    top = table_top + 2 * row_h + int(row_h * 0.1)
    block = td.fit_block(paragraphs, small, width - 2 * margin, g.height - top - int(row_h * 0.15))
    for k, line, y, size in block.lines(top):
        td.draw_text(im, (margin, y), line, size, inks[k], anchor="lm")


# -- one palette for every picture -------------------------------------------------------------------


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """A 255-colour palette ("P" image) for every Begird picture, built once and fitted
    (:func:`render.palettes.fitted`: this module's colours exact) to samples holding both
    stones, the last-stone ring, golden islands and winning rings, every land tone and both
    panel highlights."""
    import random

    from games.begird import Begird

    samples = []
    for variant, seed in (("small", 3), ("y", 5)):
        rng = random.Random(seed)
        game = Begird.new(2, {"board": variant})
        events: list[Event] = []
        while not game.is_over:
            events = game.play_turn(rng.choice(game.legal_notations()))
        samples.append(render(game, player_names=["Ann", "Bob"], last_events=events, width=720))
        mid = Begird.new(2, {"board": variant})
        for _ in range(6):
            events = mid.play_turn(rng.choice([n for n in mid.legal_notations() if n != "swap"]))
        samples.append(render(mid, player_names=["Ann", "Bob"], last_events=events, width=720))
    # Small marks (the last-stone ring) are too rare for median cut: add them and their blends.
    exact = [
        hd.mix(ink, ground, t)
        for ink in (LAST_MARK, WIN_RING, WIN_RING_HALO)
        for ground in (BLACK_STONE, WHITE_STONE, CELL_FILL)
        for t in (0.0, 0.3, 0.6)
    ]
    from .palettes import fitted, module_colours

    return fitted(samples, module_colours(render) + exact)


__all__ = [
    "DEFAULT_WIDTH",
    "READABLE_WIDTH",
    "cell_centre",
    "cell_spacing",
    "geometry",
    "land_centres",
    "palette",
    "picture_width",
    "render",
]
