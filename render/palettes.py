"""A fixed palette made from a game's own pictures, for a renderer without a hand-made one.

Opt-in: ``register(game_id, render, palette=palettes.sampled(game_id, render))``.

Converting a picture to a fixed palette is a fast nearest-colour lookup (and
lets :mod:`render.png` convert only what changed), where an adaptive palette
costs a full colour analysis per picture. A game registered without a palette
gets one made from its own pictures of a few positions reached by seeded
random play (the start, a mid-game and a finished game), so it is the same on
every run. The renderer module's own colour constants (module-level RGB
tuples such as ``PATH = (125, 60, 152)``) are kept exactly, so that marks too
rare in the samples (a path, a cross) keep their colour; blends of them map to
their nearest palette colour. A renderer can still bring its own palette (see
``render.bide.palette``).
"""

from __future__ import annotations

import logging
import random
import sys
from functools import lru_cache
from typing import Callable

from PIL import Image

log = logging.getLogger(__name__)

SAMPLE_WIDTH = 720
SAMPLE_TURNS = (0, 30, 400)  # the start, a mid-game, and (at most this many turns) the end


MAX_EXACT = 64


def module_colours(renderer: Callable[..., Image.Image]) -> list[tuple[int, int, int]]:
    """The RGB constants of the renderer's module (tuples of three 0-255 ints, alone or in tuples)."""
    module = sys.modules.get(getattr(renderer, "__module__", ""), None)
    found: list[tuple[int, int, int]] = []

    def take(value) -> None:
        if isinstance(value, tuple) and len(value) in (3, 4) and all(isinstance(v, int) and 0 <= v <= 255
                                                                     for v in value):
            found.append(tuple(value[:3]))  # type: ignore[arg-type]
        elif isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
            for v in value:
                take(v)

    from dataclasses import astuple, is_dataclass

    from .hexdraw import LAST_MOVE_HALO, LAST_MOVE_RING, Theme

    themes = [Theme()]
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


def sampled(game_id: str, renderer: Callable[..., Image.Image]) -> Callable[[], Image.Image | None]:
    """A function returning the game's palette image ("P", 255 colours), built on first call;
    None if the samples cannot be drawn (then pictures get an adaptive palette)."""

    @lru_cache(maxsize=1)
    def build() -> Image.Image | None:
        try:
            samples = [renderer(game, player_names=None, last_events=tuple(events), title=None,
                                width=SAMPLE_WIDTH).convert("RGB")
                       for game, events in _positions(game_id)]
        except Exception:  # an unknown or test game: fall back to adaptive palettes
            log.debug("no sample pictures for %r", game_id, exc_info=True)
            return None
        sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
        y = 0
        for s in samples:
            sheet.paste(s, (0, y))
            y += s.height
        exact = module_colours(renderer)
        base = sheet.quantize(255 - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        colours = (base.getpalette("RGB") or [])[: 3 * (255 - len(exact))]
        for colour in exact:
            colours.extend(colour)
        palette = Image.new("P", (1, 1))
        palette.putpalette(colours)
        return palette

    return build


def _positions(game_id: str):
    from games import new_game

    for turns in SAMPLE_TURNS:
        rng = random.Random(turns + 1)
        game = new_game(game_id)
        events: list = []
        for _ in range(turns):
            if game.is_over:
                break
            events = game.play_turn(_random_turn(game, rng))
        yield game, events


def _random_turn(game, rng: random.Random) -> list[str]:
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
