"""Pictures of games: PNG for a position, animated GIF for a whole game.

``render/`` knows nothing of Discord: it uses Pillow and the engines in
``games/``. Each game registers a renderer, a callable::

    renderer(game, *, player_names, last_events, title, width) -> PIL.Image.Image

looked up by ``game.info.id``. Every game's is registered at the end of this
module, with a fixed palette (see :mod:`render.palettes`); a new game adds one line
or calls :func:`register` itself.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Protocol

from PIL import Image

from games.interface import Event, Game

from . import animation as _animation
from . import begird as _begird
from . import bide as _bide
from . import bump as _bump
from . import bump_board as _bump_board
from . import bump_zoom as _bump_zoom
from . import palettes as _palettes
from . import playbai as _playbai
from . import png as _png

__all__ = [
    "DEFAULT_WIDTH",
    "GIF_WIDTH",
    "Renderer",
    "UnknownGame",
    "can_zoom",
    "draw_ahead",
    "quantize",
    "register",
    "registered",
    "render_gif",
    "render_image",
    "render_png",
    "warm_up",
    "zoom_helps",
]

DEFAULT_WIDTH = 1080
GIF_WIDTH = 600
PNG_COMPRESS_LEVEL = _png.PILLOW_LEVEL  # zlib's level when ISA-L is not installed


class Renderer(Protocol):
    def __call__(
        self,
        game: Game,
        *,
        player_names: Sequence[str] | None,
        last_events: Sequence[Event],
        title: str | None,
        width: int,
    ) -> Image.Image: ...


class UnknownGame(LookupError):
    """No renderer is registered for a game."""


_RENDERERS: dict[str, Callable[..., Image.Image]] = {}
_PALETTES: dict[str, Callable[[], Image.Image | None]] = {}
_ZOOM_HELPS: dict[str, Callable[[Game], bool]] = {}
_AHEAD: dict[str, Callable[[Game], object]] = {}


def register(
    game_id: str,
    renderer: Renderer | Callable[..., Image.Image],
    *,
    palette: Callable[[], Image.Image | None] | None = None,
    zoom_helps: Callable[[Game], bool] | None = None,
    ahead: Callable[[Game], object] | None = None,
) -> None:
    """Make ``renderer`` draw every game whose ``info.id`` is ``game_id`` (replaces any earlier one).

    ``palette``, optional, returns a "P" image whose palette (at most 255
    colours) suits every picture of the game, or None when it cannot make one: PNGs and GIF frames are then
    quantized to it (fast and small), converting only what each picture drew on
    its background. Without it each picture gets its own adaptive palette (about
    13 ms more per picture at 1080 px); :func:`render.palettes.sampled` makes one
    from the game's own pictures.

    ``zoom_helps``, for a renderer that takes a ``zoom``: whether a game's whole picture is too small for a
    phone to read its names (see :func:`zoom_helps`).

    ``ahead``, optional: builds what a later picture of the game's board draws that this position's does not
    (see :func:`draw_ahead`).
    """
    key = game_id.strip().lower()
    _RENDERERS[key] = renderer
    if palette is not None:
        _PALETTES[key] = palette
    else:
        _PALETTES.pop(key, None)
    if zoom_helps is not None:
        _ZOOM_HELPS[key] = zoom_helps
    else:
        _ZOOM_HELPS.pop(key, None)
    if ahead is not None:
        _AHEAD[key] = ahead
    else:
        _AHEAD.pop(key, None)


def registered() -> tuple[str, ...]:
    return tuple(sorted(_RENDERERS))


def registered_palettes() -> dict[str, Callable[[], Image.Image | None]]:
    """Each game's registered palette function (a copy): game id -> the function :func:`register` was given,
    a :func:`render.palettes.shipped` one keeping its fitting as ``.fit`` (``tools/palettes.py`` fits them
    again to rewrite ``render/palettes.json``)."""
    return dict(_PALETTES)


def warm_up() -> None:
    """Load the palettes now rather than on the first picture (a few ms: they are shipped as
    data; fitting one the file lacks takes a few hundred ms)."""
    for palette in _PALETTES.values():
        palette()


def _renderer_for(game: Game) -> Callable[..., Image.Image]:
    game_id = game.info.id
    try:
        return _RENDERERS[game_id]
    except KeyError:
        known = ", ".join(registered()) or "none"
        raise UnknownGame(f"no picture for {game_id!r} yet (pictures exist for: {known})") from None


def render_image(
    game: Game,
    *,
    player_names: Sequence[str] | None = None,
    last_events: Sequence[Event] = (),
    title: str | None = None,
    width: int = DEFAULT_WIDTH,
    zoom: str | None = None,
) -> Image.Image:
    """The picture of ``game`` as an RGB :class:`PIL.Image.Image`.

    ``player_names[k - 1]`` is the display name of the k-th player to sit down
    (default: the seats' colours); the picture names each seat after the player
    who holds it now (``game.player_of_seat``, which Begird's swap changes).
    ``last_events`` are the events of the last turn (placements are ringed,
    pushes drawn as arrows); ``title`` replaces the default heading. ``zoom`` (``"last"``
    or a cell name), for games whose renderer takes it (:func:`can_zoom`), shows the board
    around that cell at a larger scale.
    """
    renderer = _renderer_for(game)
    extra = {}
    if zoom is not None:
        if not can_zoom(game.info.id):
            raise ValueError(f"{game.info.name} pictures have no zoom")
        extra["zoom"] = zoom
    return renderer(
        game,
        player_names=names_by_seat(game, player_names),
        last_events=tuple(last_events),
        title=title,
        width=width,
        **extra,
    )


def can_zoom(game_id: str) -> bool:
    """Whether the game's renderer takes a ``zoom`` (a picture of part of the board, enlarged)."""
    renderer = _RENDERERS.get(game_id.strip().lower())
    if renderer is None:
        return False
    try:
        return "zoom" in inspect.signature(renderer).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin or C callable
        return False


def zoom_helps(game: Game) -> bool:
    """Whether a phone needs the zoom to read ``game``'s names: its whole picture, shown 400 px wide, writes
    them under 7 px x-height (Bump, Begird's standard board), so its board posts offer the zoom."""
    helps = _ZOOM_HELPS.get(game.info.id)
    return helps is not None and can_zoom(game.info.id) and helps(game)


def names_by_seat(game: Game, player_names: Sequence[str] | None) -> list[str] | None:
    """Players' names (in sitting order) rearranged by the seat each holds now."""
    if not player_names:
        return None
    seats = range(1, game.players + 1)
    return [
        player_names[game.player_of_seat(s) - 1] if game.player_of_seat(s) <= len(player_names) else "" for s in seats
    ]


def render_png(
    game: Game,
    *,
    player_names: Sequence[str] | None = None,
    last_events: Sequence[Event] = (),
    title: str | None = None,
    width: int = DEFAULT_WIDTH,
    zoom: str | None = None,
) -> bytes:
    """:func:`render_image` encoded as a palette PNG (see :mod:`render.png` for how it is kept fast)."""
    im = render_image(game, player_names=player_names, last_events=last_events, title=title, width=width, zoom=zoom)
    palette = _palette_of(game.info.id)
    if palette is not None:
        return _png.encode_picture(im, palette)
    return _png.encode(quantize(im, game.info.id))


def quantize(im: Image.Image, game_id: str) -> Image.Image:
    """``im`` in palette mode: the game's fixed palette if it has one, else an adaptive one."""
    palette = _palette_of(game_id)
    if palette is not None:
        return _png.to_palette(im, palette)
    return im.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def draw_ahead(game: Game) -> None:
    """Build now, for the pictures of ``game``'s board to come, what the first of them would build: the board
    drawn once (its background, kept), and what its game registered as ``ahead`` (Begird: the golden islands of a
    won game). Each is tens of ms the first time in a process (Begird's standard board: 130 ms and 110 ms), a few
    ms after: a picture worker does it when a board is first drawn, so that neither the first turn it draws nor
    the winning one waits for it (docs/activity.md, the figures)."""
    render_image(game)
    extra = _AHEAD.get(game.info.id)
    if extra is not None:
        extra(game)


def _palette_of(game_id: str) -> Image.Image | None:
    make = _PALETTES.get(game_id)
    return make() if make is not None else None


def render_gif(
    frames: Sequence[tuple[Game, Sequence[Event]]],
    *,
    player_names: Sequence[str] | None = None,
    title: str | None = None,
    width: int = GIF_WIDTH,
    duration: int = _animation.FRAME_MS,
    last_duration: int = _animation.LAST_FRAME_MS,
) -> bytes:
    """An animated GIF, one frame per ``(game state, events of that turn)``."""
    return _animation.render_gif(
        frames,
        render=render_image,
        quantize=lambda im: quantize(im, frames[0][0].info.id) if frames else im,
        player_names=player_names,
        title=title,
        width=width,
        duration=duration,
        last_duration=last_duration,
    )


# Palettes are loaded from render/palettes.json (fitting them costs ~1.7 s of CPU per process);
# the fitting functions stay, to check and rewrite that file (python tools/palettes.py).
register("bide", _bide.render, palette=_palettes.shipped("bide", _bide.palette))
register(
    "begird",
    _begird.render,
    palette=_palettes.shipped("begird", _begird.palette),
    zoom_helps=_begird.zoom_helps,
    ahead=_begird.golden_islands,
)
register(
    "playbai", _playbai.render, palette=_palettes.shipped("playbai", _palettes.sampled("playbai", _playbai.render))
)
register(
    "bump",
    _bump_zoom.render,  # the whole board (render.bump), or part of it larger
    palette=_palettes.shipped("bump", _palettes.sampled("bump", _bump.render, colours_in=_bump_board)),
    zoom_helps=_bump_zoom.zoom_helps,
)
