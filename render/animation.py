"""Animated GIF of a whole game: one frame per turn.

Frames are drawn small (about 600 px wide) and share one adaptive palette,
built from the last frame (which holds every disc colour), so that Pillow's GIF
writer can store most frames as the small rectangle that changed.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence

from PIL import Image

from games.interface import Event, Game

FRAME_MS = 900
LAST_FRAME_MS = 4000
PALETTE_COLOURS = 128


def replay(game: Game, turns: Iterable[str]) -> list[tuple[Game, list[Event]]]:
    """Frames for :func:`render_gif`: the start, then the state after each turn with its events.

    ``game`` (left untouched) is the starting position; ``turns`` are turns in
    notation (``"e5"``, ``"e5,d4"``, ``"bide"``).
    """
    state = game.copy()
    frames: list[tuple[Game, list[Event]]] = [(state.copy(), [])]
    for turn in turns:
        events = state.play_turn(turn)
        frames.append((state.copy(), events))
    return frames


def render_gif(
    frames: Sequence[tuple[Game, Sequence[Event]]],
    *,
    render: Callable[..., Image.Image],
    quantize: Callable[[Image.Image], Image.Image] | None = None,
    player_names: Sequence[str] | None = None,
    title: str | None = None,
    width: int = 600,
    duration: int = FRAME_MS,
    last_duration: int = LAST_FRAME_MS,
) -> bytes:
    """Encode ``frames`` (state, that turn's events) as an animated GIF.

    ``render`` draws one state (the registry's ``render_image``); ``quantize``
    maps a frame to a palette image with at most 255 colours (default: one
    adaptive palette from the last frame, which holds the most discs).
    """
    if not frames:
        raise ValueError("an animation needs at least one frame")
    images = [
        render(state, player_names=player_names, last_events=tuple(events), title=title, width=width)
        for state, events in frames
    ]
    if quantize is None:
        # One palette for every frame, taken from the busiest (last) picture.
        palette = images[-1].quantize(PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT)

        def quantize(im: Image.Image) -> Image.Image:
            return im.quantize(palette=palette, dither=Image.Dither.NONE)

    paletted = [quantize(im) for im in images]
    durations = [duration] * len(paletted)
    durations[-1] = max(duration, last_duration)
    buf = io.BytesIO()
    paletted[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=paletted[1:],
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return buf.getvalue()
