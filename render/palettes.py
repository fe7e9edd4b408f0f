"""A fixed palette for a game whose renderer does not bring its own.

Converting a picture to a fixed palette is a fast nearest-colour lookup (and
lets :mod:`render.png` convert only what changed), where an adaptive palette
costs a full colour analysis per picture. A game registered without a palette
gets one made from its own pictures of a few positions reached by seeded
random play (the start, a mid-game and a finished game), so it is the same on
every run. Colours that never appear in those samples map to their nearest
palette colour; a renderer with rare, exact colours should bring its own
palette (see ``render.bide.palette``).
"""

from __future__ import annotations

import logging
import random
from functools import lru_cache
from typing import Callable

from PIL import Image

log = logging.getLogger(__name__)

SAMPLE_WIDTH = 720
SAMPLE_TURNS = (0, 30, 400)  # the start, a mid-game, and (at most this many turns) the end


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
        return sheet.quantize(255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)

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
