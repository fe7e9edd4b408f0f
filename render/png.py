"""Palette PNGs, fast: convert only what changed, deflate with ISA-L when it is installed.

Two costs dominate a picture once it is drawn:

* converting RGB to the game's fixed palette (a nearest-colour lookup per
  pixel). A picture made with :func:`render.hexdraw.new_picture` knows which
  rectangles were drawn on its cached background, so only those are converted
  and pasted onto the background's own palette image (cached). The lookup is
  per pixel, so the result is exactly that of converting the whole picture.
* deflate. zlib at level 3 took about half of a picture's CPU time; ISA-L
  (the ``isal`` package) at its level 1 is about six times faster for the same
  size within a few percent, and bands of rows already deflated for an earlier
  picture are reused (:func:`_banded_zlib`). Without ``isal`` Pillow's own encoder
  is used, as before. The pixels are the same either way: only the compressed
  bytes differ.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

from . import changes as _changes
from . import hexdraw as hd

try:  # optional: a faster deflate, same format
    from isal import isal_zlib as _isal
except ImportError:  # pragma: no cover - exercised by forcing DEFLATE = "pillow" in the tests
    # Typed as the module: every use sits behind DEFLATE == "isal", which is set only when it imported.
    _isal = None  # type: ignore[assignment]

#: "isal" when the ISA-L binding is importable, else "pillow"; tests switch it to check both.
DEFLATE = "isal" if _isal is not None else "pillow"
ISAL_LEVEL = 1  # ISA-L's levels 0-3: 1 is as small as zlib's 3 on these pictures
PILLOW_LEVEL = 3  # palette PNGs: level 6 saves ~10% for twice the time

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_BACKGROUNDS: OrderedDict[tuple[int, int], tuple[Image.Image, Image.Image, Image.Image, bytes]] = OrderedDict()
_MAX_BACKGROUNDS = 48
_BACKGROUNDS_LOCK = threading.Lock()  # pictures are drawn in worker threads


def to_palette(im: Image.Image, palette: Image.Image) -> Image.Image:
    """``im`` mapped to ``palette`` (a "P" image) without dithering.

    For a :func:`~render.hexdraw.new_picture` only the changed rectangles are
    converted; any other image is converted whole. Same pixels either way.
    """
    padded = _to_padded_palette(im, palette)
    if padded is None:
        return im.quantize(palette=palette, dither=Image.Dither.NONE)
    return padded.crop((1, 0, padded.width, padded.height))


def encode_picture(im: Image.Image, palette: Image.Image) -> bytes:
    """:func:`to_palette` then :func:`encode`, sparing copies for a :func:`~render.hexdraw.new_picture`."""
    if _deflate() is not None:
        padded = _padded_palette_bytes(im, palette)
        if padded is not None:
            return _png_bytes(*padded, _deflate())
    return encode(to_palette(im, palette))


def _to_padded_palette(im: Image.Image, palette: Image.Image) -> Image.Image | None:
    """The picture in the palette, one column wider: column 0 is PNG's filter byte (0) of each
    row, so that the pixels of an unfiltered PNG are just its bytes. None if ``im`` is not a
    :func:`~render.hexdraw.new_picture` (it must then be converted whole)."""
    padded = _padded_palette_bytes(im, palette)
    return None if padded is None else padded[0]


def _padded_palette_bytes(im: Image.Image, palette: Image.Image) -> tuple[Image.Image, bytearray] | None:
    """:func:`_to_padded_palette` and the buffer its pixels live in (what PNG deflates, no copy)."""
    changes = hd.changes_of(im)
    if changes is None or changes.background.size != im.size or im.mode != "RGB":
        return None
    converted, converted_bytes = _background_in_palette(changes.background, palette)
    pixels = bytearray(converted_bytes)
    # An image over that buffer: the core-level pastes below write straight into it.
    out = Image.frombuffer("P", converted.size, pixels, "raw", "P", 0, 1)
    out.putpalette(palette.getpalette("RGB") or [])
    source, target, colours = im.im, out.im, palette.im
    # Tiles and fills were right when drawn, each over earlier ones; a box is
    # converted from the finished picture, so it is right whenever it comes: last.
    for op in changes.ops:
        if isinstance(op, _changes.TileOp):
            tile = op.tile
            x0, y0, x1, y1 = tile.box
            if op.masked:
                target.paste(tile.palette_core(palette), (x0 + 1, y0, x1 + 1, y1), tile.mask)
            else:
                target.paste(tile.palette_core(palette), (x0 + 1, y0, x1 + 1, y1))
        elif isinstance(op, _changes.Fill):
            x0, y0, x1, y1 = op.box
            target.paste(_index_of(op.colour, palette), (x0 + 1, y0, x1 + 1, y1))
    for x0, y0, x1, y1 in _covering(changes.boxes, im.size):
        # Image.crop/quantize/paste at the core: the same calls without their per-call checks.
        target.paste(source.crop((x0, y0, x1, y1)).convert("P", Image.Dither.NONE, colours), (x0 + 1, y0, x1 + 1, y1))
    return out, pixels


_INDEXES: dict[tuple[int, tuple[int, int, int]], tuple[Image.Image, int]] = {}


def _index_of(colour: tuple[int, int, int], palette: Image.Image) -> int:
    """The palette index a pixel of ``colour`` converts to."""
    key = (id(palette), colour)
    hit = _INDEXES.get(key)
    if hit is None or hit[0] is not palette:
        index = Image.new("RGB", (1, 1), colour).quantize(palette=palette, dither=Image.Dither.NONE).getpixel((0, 0))
        assert isinstance(index, int)  # a "P" image's pixel is its palette index
        hit = (palette, index)
        if len(_INDEXES) > 4096:
            _INDEXES.clear()
        _INDEXES[key] = hit
    return hit[1]


def _background_in_palette(background: Image.Image, palette: Image.Image) -> tuple[Image.Image, bytes]:
    """``background`` in ``palette``, one column wider (see :func:`_to_padded_palette`), and its
    bytes; cached."""
    key = (id(background), id(palette))
    with _BACKGROUNDS_LOCK:
        hit = _BACKGROUNDS.get(key)
        if hit is not None and hit[0] is background and hit[1] is palette:
            _BACKGROUNDS.move_to_end(key)
            return hit[2], hit[3]
    converted = Image.new("P", (background.width + 1, background.height), 0)
    converted.putpalette(palette.getpalette("RGB") or [])
    converted.paste(background.quantize(palette=palette, dither=Image.Dither.NONE), (1, 0))
    converted_bytes = converted.tobytes()
    with _BACKGROUNDS_LOCK:
        _BACKGROUNDS[key] = (background, palette, converted, converted_bytes)  # holding both keeps ids unique
        while len(_BACKGROUNDS) > _MAX_BACKGROUNDS:
            _BACKGROUNDS.popitem(last=False)
    return converted, converted_bytes


def _covering(boxes: list[tuple[int, int, int, int]], size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """``boxes`` clipped to the picture, without repeats and without those inside a large
    one (text inside the panel, swatches inside a row)."""
    w, h = size
    clipped = []
    for x0, y0, x1, y1 in dict.fromkeys(boxes):
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 > x0 and y1 > y0:
            clipped.append((x0, y0, x1, y1))
    large = [b for b in clipped if (b[2] - b[0]) * (b[3] - b[1]) >= 20_000]
    if not large:
        return clipped
    out = large[:]
    for b in clipped:
        for L in large:
            if L[0] <= b[0] and L[1] <= b[1] and b[2] <= L[2] and b[3] <= L[3]:
                break
        else:
            out.append(b)
    return list(dict.fromkeys(out))


def _isal_compress(data: bytes, level: int) -> bytes:
    return _isal.compress(data, level)


def _deflate():
    return _isal_compress if DEFLATE == "isal" and _isal is not None else None


def encode(im: Image.Image) -> bytes:
    """PNG bytes of an image, deflated with :data:`DEFLATE` when it is a plain "P" image."""
    deflate = _deflate()
    if deflate is not None and im.mode == "P" and "transparency" not in im.info:
        padded = Image.new("P", (im.width + 1, im.height), 0)
        padded.putpalette(im.getpalette("RGB") or [])
        padded.paste(im, (1, 0))
        return _png_bytes(padded, None, deflate)
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=PILLOW_LEVEL)
    return buf.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _png_bytes(padded: Image.Image, raw: bytes | bytearray | None, deflate) -> bytes:
    """A minimal PNG (IHDR, PLTE, IDAT, IEND) of an 8-bit palette image given with its
    filter column (see :func:`_to_padded_palette`): every row unfiltered. ``raw``: its
    pixels' bytes when they are at hand (else they are read from the image)."""
    w, h = padded.width - 1, padded.height
    colours = bytes(padded.getpalette("RGB") or b"")[: 3 * 256]
    if raw is None:
        raw = padded.tobytes()
    if BANDED and deflate is _isal_compress:
        data = _banded_zlib(raw, padded.width * BAND_ROWS)
    else:
        data = deflate(raw, ISAL_LEVEL)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", colours or b"\x00\x00\x00"),
            _chunk(b"IDAT", data),
            _chunk(b"IEND", b""),
        )
    )


# -- deflate by bands of rows, each band's stream cached ------------------------------------
#
# Consecutive pictures of a match differ in a few bands of rows (the new piece, the last-move
# mark, the title and the panel); the rest of the board is byte for byte the same. A zlib
# stream may be made of independently compressed raw-deflate pieces that each end on a byte
# boundary (a full flush, no back-reference across pieces), so each band of BAND_ROWS rows is
# compressed on its own and its piece kept, keyed by the band's CRC-32, Adler-32 and length
# (64 bits of checksum: an accidental match is out of reach). The stream's Adler-32 is
# combined from the bands'. Cost: about 2% bigger; a band seen before costs two checksums.

BANDED = True  # tests switch it off to compare
BAND_ROWS = 32
_PIECES: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()
_MAX_PIECES = 4096  # about 15 MB of compressed bands
_PIECES_LOCK = threading.Lock()
_ADLER_BASE = 65521


def _adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


def _banded_zlib(raw: bytes | bytearray, band: int) -> bytes:
    """A zlib stream of ``raw`` made of cached raw-deflate pieces, one per ``band`` bytes."""
    view = memoryview(raw)
    parts = [b"\x78\x01"]  # zlib header: deflate, 32 KB window, fastest
    adler = 1
    for start in range(0, len(raw), band):
        chunk = view[start : start + band]
        chunk_adler = _isal.adler32(chunk)
        key = (_isal.crc32(chunk), chunk_adler, len(chunk))
        with _PIECES_LOCK:
            piece = _PIECES.get(key)
            if piece is not None:
                _PIECES.move_to_end(key)
        if piece is None:
            compressor = _isal.compressobj(ISAL_LEVEL, _isal.DEFLATED, -15)
            piece = compressor.compress(chunk) + compressor.flush(_isal.Z_FULL_FLUSH)
            with _PIECES_LOCK:
                _PIECES[key] = piece
                while len(_PIECES) > _MAX_PIECES:
                    _PIECES.popitem(last=False)
        parts.append(piece)
        adler = _adler32_combine(adler, chunk_adler, len(chunk))
    parts.append(b"\x03\x00")  # a final, empty block
    parts.append(struct.pack(">I", adler))
    return b"".join(parts)
