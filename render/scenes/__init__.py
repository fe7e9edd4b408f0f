"""Boards as data for a vector drawing (the Activity's SVG), one module per game beside its picture.

``view(game, player_names=…, last_events=…)`` is what the Activity draws: :class:`~render.scenes.base.Scene`
(the board in board units) and :class:`~render.scenes.base.Panel` (the title bar's and the panel's words),
in the language being spoken (``i18n``). docs/activity.md describes the JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.interface import Event, Game

from .. import names_by_seat
from . import begird, bide, bump, playbai
from .base import Panel, Scene

__all__ = ["Panel", "Scene", "UnknownScene", "view"]

SceneOf = Callable[[Any, Sequence[str], Sequence[Event]], Scene]
PanelOf = Callable[[Any, Sequence[str], Sequence[Event], str | None], Panel]

_SCENES: dict[str, tuple[SceneOf, PanelOf, Callable[[Sequence[str] | None], list[str]]]] = {
    "bide": (bide.scene, bide.panel, lambda names: []),  # Bide's seat names depend on its seat count
    "begird": (begird.scene, begird.panel, begird.pic.seat_names),
    "playbai": (playbai.scene, playbai.panel, playbai.pic.seat_names),
    "bump": (bump.scene, bump.panel, bump.pic.seat_names),
}


class UnknownScene(LookupError):
    """No scene is written for a game."""


def view(
    game: Game[Any],
    *,
    player_names: Sequence[str] | None = None,
    last_events: Sequence[Event] = (),
    title: str | None = None,
) -> tuple[Scene, Panel]:
    """The board and the panel of ``game``, as its picture draws them. ``player_names[k - 1]`` is the k-th
    player to sit down (as :func:`render.render_image` takes them); ``last_events`` are the last turn's."""
    try:
        make_scene, make_panel, seat_names = _SCENES[game.info.id]
    except KeyError:
        raise UnknownScene(f"no scene for {game.info.id!r}") from None
    by_seat = names_by_seat(game, player_names)
    names = bide.pic.seat_names(game.players, by_seat) if game.info.id == "bide" else seat_names(by_seat)
    return make_scene(game, names, last_events), make_panel(game, names, last_events, title)
