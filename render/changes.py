"""What a picture changed on its cached background, so that encoding it is cheap.

A picture is a copy of a cached background with a few things drawn on it.
:func:`new_picture` makes that copy and remembers what the drawing functions of
:mod:`render.hexdraw`, :mod:`render.textdraw`, :mod:`render.sprites` and
:mod:`render.panels` change: rectangles (text, panels, sprites over other
drawing) and *tiles*. The PNG encoder (:mod:`render.png`) then converts only
those rectangles to the palette and pastes them on the background's own,
cached, palette image.

Tiles. Most of a board picture is sprites (discs, stones) pasted on untouched
background. The result of pasting sprite S at (x, y) on background B is always
the same, so it is cached once as a tile: B's pixels with S blended in, the same
tile in the palette, and the mask of S's visible pixels. Pasting the tile through
that mask gives exactly the pixels of the blend, without blending, and its
palette version needs no conversion. This holds only where nothing was drawn
before under S's visible pixels: each paste checks the earlier ones (through a
coarse grid) and falls back to an ordinary, recorded paste otherwise.

A renderer that draws with ImageDraw directly must call :func:`touch` with the
box it drew in, before it pastes anything more there (or else a sprite pasted
over that drawing would be taken for one on untouched background, and its
cached tile would hide the drawing); tests compare the result with converting
the whole picture.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from PIL import Image, ImageChops

if TYPE_CHECKING:  # Pillow's C objects, named for annotations only
    from PIL._imaging import ImagingCore, ImagingDraw

Box = tuple[int, int, int, int]

_ATTR = "_hexdraw_changes"
USE_TILES = True  # tests switch it off to check that tiles change no pixel
GRID = 128  # pixels per cell of the grid that finds earlier drawing near a paste
TILE_PIXELS = 8_000_000  # cached tiles, in pixels (about 6 bytes each)


@dataclass(eq=False)
class Tile:
    """Sprite ``sprite`` blended on ``background`` at ``box``: RGB, visible-pixel mask, palette versions."""

    background: Image.Image
    sprite: Image.Image
    box: Box
    rgb: ImagingCore  # RGB
    mask: ImagingCore  # "1": the sprite's pixels with alpha > 0
    in_palette: dict[int, tuple[Image.Image, ImagingCore]] = field(default_factory=dict)  # id(palette) -> "P"

    def palette_core(self, palette: Image.Image):
        hit = self.in_palette.get(id(palette))
        if hit is None or hit[0] is not palette:
            hit = (palette, self.rgb.convert("P", Image.Dither.NONE, palette.im))
            self.in_palette[id(palette)] = hit
        return hit[1]


class TileOp(NamedTuple):
    """A tile pasted on a picture: through its mask, or whole where nothing was drawn in its box."""

    tile: Tile
    masked: bool


@dataclass(frozen=True)
class Fill:
    """A rectangle filled with one opaque colour: one palette index, no conversion."""

    box: Box
    colour: tuple[int, int, int]


@dataclass
class Changes:
    """The background a picture was copied from and what was drawn on it since.

    ``ops``, in drawing order: boxes (x0, y0, x1, y1, end exclusive) to convert
    from the finished picture, :class:`Tile` pastes and :class:`Fill` rectangles.
    Replayed in order on the background's palette image they give the picture's
    palette image: a box is converted from the final pixels; a tile or fill was
    right when drawn, and anything drawn over it later comes later.
    """

    background: Image.Image
    ops: list = field(default_factory=list)
    draw: ImagingDraw | None = None  # Pillow's core drawing object for the picture, made on first use
    _grid: dict = field(default_factory=dict)  # (gx, gy) -> [box, or (sprite, box)] drawn over that cell

    @property
    def boxes(self) -> list[Box]:
        return [op for op in self.ops if type(op) is tuple]  # a TileOp is a tuple too

    @property
    def tiles(self) -> list[Tile]:
        return [op.tile for op in self.ops if isinstance(op, TileOp)]

    def add_box(self, box: Box) -> None:
        self.ops.append(box)
        self._register(box, box)

    def add_fill(self, box: Box, colour: tuple[int, int, int]) -> None:
        self.ops.append(Fill(box, colour))
        self._register(box, box)

    def _register(self, bounds: Box, entry) -> None:
        for gx in range(bounds[0] // GRID, (bounds[2] - 1) // GRID + 1):
            for gy in range(bounds[1] // GRID, (bounds[3] - 1) // GRID + 1):
                self._grid.setdefault((gx, gy), []).append(entry)

    def _untouched(self, sprite: Image.Image, box: Box, visible: Box) -> int:
        """0 if something drawn so far has a pixel under a visible pixel of ``sprite`` at ``box``;
        1 if not, though something reaches into ``box``; 2 if nothing drawn reaches ``box`` at all."""
        x0, y0, x1, y1 = box
        vx0, vy0, vx1, vy1 = visible
        grid = self._grid
        whole = True
        for gx in range(x0 // GRID, (x1 - 1) // GRID + 1):
            for gy in range(y0 // GRID, (y1 - 1) // GRID + 1):
                for entry in grid.get((gx, gy), ()):
                    if len(entry) == 2:  # (sprite, box): compare visible pixels
                        other, other_box = entry
                        ox0, oy0, ox1, oy1 = _sprite_info(other)[1]
                        ox, oy = other_box[0], other_box[1]
                        if not (ox + ox0 < x1 and x0 < ox + ox1 and oy + oy0 < y1 and y0 < oy + oy1):
                            continue
                        whole = False
                        key = (id(other), id(sprite), x0 - ox, y0 - oy)
                        hit = _OVERLAPS.get(key)
                        if hit is not None and hit[0] is other and hit[1] is sprite:
                            if hit[2]:
                                return 0
                        elif _overlap(other, other_box, sprite, box):
                            return 0
                    elif entry[0] < x1 and x0 < entry[2] and entry[1] < y1 and y0 < entry[3]:
                        whole = False
                        if entry[0] < vx1 and vx0 < entry[2] and entry[1] < vy1 and vy0 < entry[3]:
                            return 0
        return 2 if whole else 1


def new_picture(background: Image.Image) -> Image.Image:
    """A copy of ``background`` (which must stay unchanged) that records what is drawn on it."""
    im = background.copy()
    setattr(im, _ATTR, Changes(background))
    return im


def changes_of(im: Image.Image) -> Changes | None:
    """What was drawn on a :func:`new_picture` (None for any other image)."""
    return getattr(im, _ATTR, None)


def touch(im: Image.Image, box: Sequence[float]) -> None:
    """Record that the pixels in ``box`` (x0, y0, x1, y1, end exclusive) of ``im`` may have changed."""
    changes = getattr(im, _ATTR, None)
    if changes is not None:
        changes.add_box((math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])))


def fill_rect(im: Image.Image, box: Box, colour: tuple[int, int, int]) -> None:
    """Fill ``box`` (x0, y0, x1, y1, end exclusive) of ``im`` with an opaque colour, recorded as such."""
    x0, y0, x1, y1 = box
    if x1 <= x0 or y1 <= y0:
        return
    im.paste(tuple(colour[:3]), (x0, y0, x1, y1))
    changes = getattr(im, _ATTR, None)
    if changes is not None:
        if im.mode == "RGB" and x0 >= 0 and y0 >= 0 and x1 <= im.width and y1 <= im.height:
            changes.add_fill(box, tuple(colour[:3]))
        else:
            changes.add_box(box)


def paste_sprite(base: Image.Image, sprite: Image.Image, box: Box) -> None:
    """Paste an RGBA ``sprite`` through its alpha at ``box`` (its size), recording the change."""
    changes = getattr(base, _ATTR, None)
    if changes is None or base.mode != "RGB" or sprite.mode != "RGBA":
        base.paste(sprite, box[:2], sprite)
        touch(base, box)
        return
    x0, y0, x1, y1 = box
    if USE_TILES and x0 >= 0 and y0 >= 0 and x1 <= base.width and y1 <= base.height:
        vx0, vy0, vx1, vy1 = _sprite_info(sprite)[1]
        visible = (x0 + vx0, y0 + vy0, x0 + vx1, y0 + vy1)
        state = 2 if visible[2] <= visible[0] else changes._untouched(sprite, box, visible)
        if state:
            tile = _tile(changes.background, sprite, box)
            if state == 2:  # nothing drawn in the box: its transparent part is background too
                base.im.paste(tile.rgb, box)
                changes.ops.append(TileOp(tile, False))
            else:
                base.im.paste(tile.rgb, box, tile.mask)
                changes.ops.append(TileOp(tile, True))
            changes._register(visible, (sprite, box))
            return
    # A new_picture is a loaded, writable copy and sprites are loaded: skip
    # Image.paste's checks (a picture pastes hundreds of sprites).
    core = sprite.im
    base.im.paste(core, box, core)
    changes.ops.append(box)
    vx0, vy0, vx1, vy1 = _sprite_info(sprite)[1]
    if vx1 > vx0:  # later pastes compare with its visible pixels, not its whole box
        changes._register((x0 + vx0, y0 + vy0, x0 + vx1, y0 + vy1), (sprite, box))


# -- caches -----------------------------------------------------------------------------

_SPRITES: dict[int, tuple[Image.Image, Box, Image.Image]] = {}
_OVERLAPS: dict[tuple[int, int, int, int], tuple[Image.Image, Image.Image, bool]] = {}
_TILES: OrderedDict[tuple[int, int, Box], Tile] = OrderedDict()
_tile_pixels = 0
_TILES_LOCK = threading.Lock()  # pictures are drawn in worker threads


def _sprite_info(sprite: Image.Image) -> tuple[Image.Image, Box, Image.Image]:
    """(sprite, bounding box of its visible pixels, "1" mask of them), cached by sprite."""
    hit = _SPRITES.get(id(sprite))
    if hit is not None and hit[0] is sprite:
        return hit
    mask = sprite.getchannel("A").point(lambda a: 255 if a else 0, "1")
    info = (sprite, mask.getbbox() or (0, 0, 0, 0), mask)  # holding the sprite keeps its id unique
    if len(_SPRITES) > 4096:
        _SPRITES.clear()
    _SPRITES[id(sprite)] = info
    return info


def _overlap(a: Image.Image, box_a: Box, b: Image.Image, box_b: Box) -> bool:
    """Whether sprites ``a`` at ``box_a`` and ``b`` at ``box_b`` have a visible pixel in common
    (cached by the pair and their offset: stones on a grid repeat a few offsets)."""
    dx, dy = box_b[0] - box_a[0], box_b[1] - box_a[1]
    key = (id(a), id(b), dx, dy)
    hit = _OVERLAPS.get(key)
    if hit is not None and hit[0] is a and hit[1] is b:
        return hit[2]
    mask_a, mask_b = _sprite_info(a)[2], _sprite_info(b)[2]
    # The two boxes' intersection, in a's coordinates.
    ix0, iy0 = max(0, dx), max(0, dy)
    ix1, iy1 = min(a.width, dx + b.width), min(a.height, dy + b.height)
    common = False
    if ix1 > ix0 and iy1 > iy0:
        part_a = mask_a.crop((ix0, iy0, ix1, iy1))
        part_b = mask_b.crop((ix0 - dx, iy0 - dy, ix1 - dx, iy1 - dy))
        common = ImageChops.logical_and(part_a, part_b).getbbox() is not None
    if len(_OVERLAPS) > 65536:
        _OVERLAPS.clear()
    _OVERLAPS[key] = (a, b, common)
    return common


def _tile(background: Image.Image, sprite: Image.Image, box: Box) -> Tile:
    global _tile_pixels
    key = (id(background), id(sprite), box)
    with _TILES_LOCK:
        tile = _TILES.get(key)
        if tile is not None and tile.background is background and tile.sprite is sprite:
            _TILES.move_to_end(key)
            return tile
    rgb = background.crop(box)
    rgb.paste(sprite, (0, 0), sprite)
    tile = Tile(background, sprite, box, rgb.im, _sprite_info(sprite)[2].im)
    with _TILES_LOCK:
        stale = _TILES.pop(key, None)
        if stale is not None:
            _tile_pixels -= (stale.box[2] - stale.box[0]) * (stale.box[3] - stale.box[1])
        _TILES[key] = tile
        _tile_pixels += sprite.width * sprite.height
        while _tile_pixels > TILE_PIXELS and _TILES:
            _, old = _TILES.popitem(last=False)
            _tile_pixels -= (old.box[2] - old.box[0]) * (old.box[3] - old.box[1])
    return tile
