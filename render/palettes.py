"""Fixed palettes fitted to a game's own pictures: fast conversion, the renderer's colours exact.

``register(game_id, render, palette=palettes.sampled(game_id, render))`` (Play Bai and
Bump do; Bide and Begird call :func:`fitted` on their own sample pictures).

Converting a picture to a fixed palette is a fast nearest-colour lookup (and lets
:mod:`render.png` convert only what changed), where an adaptive palette costs a
full colour analysis per picture (about 13 ms at 1080 px). :func:`fitted` keeps
every colour the renderer names (module-level RGB constants such as
``PATH = (125, 60, 152)``, its theme) and every flat colour frequent in the
samples (tints, shadows) exactly, and fits the remaining entries to the samples'
anti-aliased blends, so pictures are closer to what was drawn than with the
former median-cut or per-picture adaptive palettes (mean error per pixel
0.3-0.9 instead of 0.6-3.5 of 255; see docs/rendering.md). Sample positions
come from seeded random play (the start, a mid-game, a late game), so the
palette is the same on every run.
"""

from __future__ import annotations

import json
import logging
import random
import sys
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, cast

from PIL import Image

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

log = logging.getLogger(__name__)

SAMPLE_WIDTH = 1080  # the pictures players get
SAMPLE_TURNS = (0, 30, 100)  # the start, a mid-game, and a late one (the end if it comes sooner)


MAX_EXACT = 64


def module_colours(
    renderer: Callable[..., Image.Image], named_in: ModuleType | None = None
) -> list[tuple[int, int, int]]:
    """The RGB constants of the renderer's module, or of ``named_in`` where a renderer's colours are named in
    another module (Bump's, in render/bump_board.py): tuples of three 0-255 ints, alone or in tuples."""
    module = named_in or sys.modules.get(getattr(renderer, "__module__", ""), None)
    found: list[tuple[int, int, int]] = []

    def take(value) -> None:
        if (
            isinstance(value, tuple)
            and len(value) in (3, 4)
            and all(isinstance(v, int) and 0 <= v <= 255 for v in value)
        ):
            found.append(tuple(value[:3]))
        elif isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
            for v in value:
                take(v)

    from dataclasses import astuple, is_dataclass

    from .panels import Theme
    from .sprites import LAST_MOVE_HALO, LAST_MOVE_RING

    themes: list[DataclassInstance] = [Theme()]
    for name, value in vars(module).items() if module is not None else ():
        if name.isupper():
            if is_dataclass(value) and not isinstance(value, type):
                themes.append(value)  # the module's THEME: page, title bar, panel colours
            else:
                take(value)
    for theme in themes:
        take(astuple(theme))
    take((LAST_MOVE_RING, LAST_MOVE_HALO))
    return list(dict.fromkeys(found))[:MAX_EXACT]


# -- palettes shipped as data -----------------------------------------------------------------------
#
# Fitting the four games' palettes costs about 1.7 s of CPU, in every process that draws
# (the bot, each picture worker, each test process). The fitting is deterministic (seeded
# sample positions, sorted colours, a fixed number of iterations), so its results are
# committed in SHIPPED_FILE and loaded instead; ``python tools/palettes.py`` fits them
# again and rewrites the file (after a change of a renderer's colours or look), and a test
# checks that fitting again gives exactly the committed palettes.

SHIPPED_FILE = Path(__file__).with_name("palettes.json")


@lru_cache(maxsize=1)
def _shipped_data() -> dict[str, list[list[int]]]:
    try:
        return json.loads(SHIPPED_FILE.read_text())["palettes"]
    except (OSError, ValueError, KeyError):  # missing or unreadable: every palette is fitted
        log.warning("no shipped palettes in %s: fitting them", SHIPPED_FILE)
        return {}


def shipped(game_id: str, fit: Callable[[], Image.Image | None]) -> Callable[[], Image.Image | None]:
    """A function returning the game's palette image: the one committed in :data:`SHIPPED_FILE`,
    or, if the file lacks it, ``fit()`` (built on first call, then cached). ``fit`` stays
    reachable as the result's ``fit`` attribute (what :func:`regenerate` calls)."""

    @lru_cache(maxsize=1)
    def load() -> Image.Image | None:
        colours = _shipped_data().get(game_id)
        if colours is None:
            return fit()
        return palette_image([(c[0], c[1], c[2]) for c in colours])  # the file holds RGB triples

    # A function attribute, so the result stays a plain cached function; mypy does not model those.
    load.fit = fit  # type: ignore[attr-defined]
    return load


def colours_of(palette: Image.Image) -> list[list[int]]:
    values = palette.getpalette("RGB") or []
    return [values[i : i + 3] for i in range(0, len(values), 3)]


def regenerate(makers: dict[str, Callable[[], Image.Image | None]]) -> dict:
    """The shipped-palettes document, every palette fitted afresh (``makers``: game id -> a
    :func:`shipped` function, as :func:`render.registered_palettes` gives them)."""
    from PIL import features

    fitted_ = {}
    for game_id, make in sorted(makers.items()):
        fit = getattr(make, "fit", None)
        palette = fit() if fit is not None else None
        if palette is not None:
            fitted_[game_id] = colours_of(palette)
    return {
        "about": "Fitted palettes (render/palettes.py); rewrite with: python tools/palettes.py",
        "pillow": Image.__version__,
        "freetype": features.version("freetype2"),
        "palettes": fitted_,
    }


def dump(document: dict) -> str:
    """The file's text: one palette entry per line-chunk, small and diffable."""
    lines = ["{"]
    lines.extend(f" {json.dumps(key)}: {json.dumps(document[key])}," for key in ("about", "pillow", "freetype"))
    lines.append(' "palettes": {')
    games = list(document["palettes"].items())
    for n, (game_id, colours) in enumerate(games):
        rows = [", ".join(json.dumps(c) for c in colours[i : i + 8]) for i in range(0, len(colours), 8)]
        body = ",\n   ".join(rows)
        lines.append(f"  {json.dumps(game_id)}: [\n   {body}\n  ]" + ("," if n < len(games) - 1 else ""))
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def sampled(
    game_id: str, renderer: Callable[..., Image.Image], colours_in: ModuleType | None = None
) -> Callable[[], Image.Image | None]:
    """A function returning the game's palette image ("P", 255 colours), built on first call
    (:func:`fitted` to the game's pictures of seeded sample positions, the renderer's colour
    constants exact: those of its module, or of ``colours_in``); None if the samples cannot be
    drawn (then pictures get an adaptive palette)."""

    @lru_cache(maxsize=1)
    def build() -> Image.Image | None:
        try:
            samples = [
                renderer(game, player_names=None, last_events=tuple(events), title=None, width=SAMPLE_WIDTH).convert(
                    "RGB"
                )
                for game, events in _positions(game_id)
            ]
        except Exception:  # an unknown or test game: fall back to adaptive palettes
            log.debug("no sample pictures for %r", game_id, exc_info=True)
            return None
        return fitted(samples, module_colours(renderer, colours_in))

    return build


# -- a palette fitted to a game's pictures -------------------------------------------------------
#
# Pillow maps a pixel to a fixed palette through a cache of 64×64×64 cells: every colour
# in a cell (its channels' low two bits dropped) gets the entry nearest the cell's corner.
# A palette entry is therefore not always chosen for its own exact colour: a neighbour
# nearer the corner "steals" it. Exact colours are kept safe from that (:func:`_steals`).

Colour = tuple[int, int, int]
FREQUENT = 0.0004  # a colour covering this share of the samples (a flat tint, a shadow) is kept exact
ITERATIONS = 10


def _corner(c: Colour) -> Colour:
    return (c[0] & ~3, c[1] & ~3, c[2] & ~3)


def _d2(a: Colour, b: Colour) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def _steals(entry: Colour, exact: Colour) -> bool:
    """Whether Pillow's lookup would map pixels of colour ``exact`` to ``entry`` rather than to itself."""
    corner = _corner(exact)
    return entry != exact and _d2(corner, entry) <= _d2(corner, exact)


def palette_image(colours: Sequence[Colour]) -> Image.Image:
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in colours for v in c])
    return palette


def lookup(colours: Sequence[Colour], palette: Image.Image) -> list[int]:
    """The palette index Pillow gives each colour (the conversion pictures go through)."""
    row = Image.new("RGB", (len(colours), 1))
    row.frombytes(bytes(v for c in colours for v in c))
    return list(row.quantize(palette=palette, dither=Image.Dither.NONE).tobytes())


def fitted(samples: Sequence[Image.Image], exact: Sequence[Colour], size: int = 255) -> Image.Image:
    """A palette of ``size`` colours for pictures like ``samples``: every colour of ``exact``
    (the renderer's own; in order, any that would take an earlier one's
    pixels in Pillow's lookup left out) and every frequent flat colour of the samples exactly, the rest fitted
    to the samples' anti-aliased blends.

    The free entries start from a median cut and are refined by k-means (Lloyd) on the
    samples' colours, assigning each colour as Pillow's conversion will, weighted by the
    square root of its pixel count so that thin marks (edges, arrows) count, not just large
    areas. No entry may steal an exact colour's lookup: its pixels convert to themselves.
    """
    counts: dict[Colour, int] = {}
    for sample in samples:
        rgb = sample.convert("RGB")
        # A small table is much faster; 2**24 entries hold every RGB colour, so the second never fails.
        # An RGB image's colours are 3-tuples (Pillow's stubs allow any mode's).
        table = cast("list[tuple[int, Colour]]", rgb.getcolors(1 << 18) or rgb.getcolors(1 << 24))
        for n, c in table:
            counts[c] = counts.get(c, 0) + n
    total = sum(counts.values())
    kept: list[Colour] = []
    for colour in exact:  # in order: one that would take an earlier one's pixels is left out
        c = (colour[0], colour[1], colour[2])
        if all(not _steals(c, k) and not _steals(k, c) and c != k for k in kept):
            kept.append(c)
    for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if n < total * FREQUENT or len(kept) >= size // 3:
            break
        if all(max(abs(c[i] - k[i]) for i in range(3)) > 3 and not _steals(c, k) and not _steals(k, c) for k in kept):
            kept.append(c)
    fixed = len(kept)
    seen = sorted(counts)
    # Start from a median cut of the distinct colours (each once: blends count, not just areas).
    row = Image.new("RGB", (len(seen), 1))
    row.frombytes(bytes(v for c in seen for v in c))
    start = row.quantize(size - fixed, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    values = (start.getpalette("RGB") or [])[: 3 * (size - fixed)]
    colours = kept + [(values[i], values[i + 1], values[i + 2]) for i in range(0, len(values), 3)]
    colours += [kept[0]] * (size - len(colours))
    guarded = [(_corner(k), _d2(_corner(k), k), k) for k in kept]
    weights = [counts[c] ** 0.5 for c in seen]
    for _ in range(ITERATIONS):
        sums: dict[int, list[float]] = {}
        for c, w, i in zip(seen, weights, lookup(seen, palette_image(colours)), strict=True):
            if i >= fixed:
                s = sums.setdefault(i, [0.0, 0.0, 0.0, 0.0])
                s[0] += w * c[0]
                s[1] += w * c[1]
                s[2] += w * c[2]
                s[3] += w
        for i, s in sums.items():
            colours[i] = (round(s[0] / s[3]), round(s[1] / s[3]), round(s[2] / s[3]))
        for i in range(fixed, size):  # an entry that would steal an exact colour's pixels becomes that colour
            c = colours[i]
            for corner, reach, k in guarded:
                if (c[0] - corner[0]) ** 2 + (c[1] - corner[1]) ** 2 + (c[2] - corner[2]) ** 2 <= reach:
                    colours[i] = k
                    break
    return palette_image(colours)


def _positions(game_id: str):
    """The start and one seeded random game after each of :data:`SAMPLE_TURNS` turns (or its end)."""
    from games import new_game

    rng = random.Random(1)
    game = new_game(game_id)
    events: list = []
    played = 0
    for turns in SAMPLE_TURNS:
        while played < turns and not game.is_over:
            events = game.play_turn(random_turn(game, rng))
            played += 1
        yield game.copy(), events


def random_turn(game, rng: random.Random) -> list[str]:
    """A random complete turn, in notation tokens, through the generic engine interface."""
    trial = game.copy()
    tokens: list[str] = []
    while True:
        actions = trial.legal_actions()
        if not actions:
            return tokens
        action = rng.choice(actions)
        tokens.append(trial.format_action(action))
        trial.apply_action(action)
        if trial.is_over or not trial.turn_in_progress() or (trial.can_end_turn() and rng.random() < 0.6):
            return tokens
