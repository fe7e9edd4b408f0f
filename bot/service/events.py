"""Who hears of a stored change: the computer player (is it to move?), the ratings (a game ended), and the
process's metrics (a move was stored).

The service publishes; the composition root (``bot/runtime.py``) subscribes the listeners, so the wiring
stands in one place. A listener's failure is logged, never turned into an error for a change already stored.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..domain.model import MatchRow, MoveRow

log = logging.getLogger(__name__)


class MatchEvents:
    def __init__(self) -> None:
        self._changed: list[Callable[[MatchRow], Any]] = []
        self._finished: list[Callable[[MatchRow], Awaitable[Any]]] = []
        self._moved: list[Callable[[MatchRow, MoveRow], Any]] = []

    def on_move(self, listener: Callable[[MatchRow, MoveRow], Any]) -> None:
        """Called (not awaited) after each move of the log is stored (a turn, a resignation, a draw, a takeback,
        a time-out), with the match as committed and the move."""
        self._moved.append(listener)

    def on_change(self, listener: Callable[[MatchRow], Any]) -> None:
        """Called (not awaited) after a stored change that starts or moves on a game."""
        self._changed.append(listener)

    def on_finish(self, listener: Callable[[MatchRow], Awaitable[Any]]) -> None:
        """Awaited after the move that ended a game is stored."""
        self._finished.append(listener)

    def moved(self, match: MatchRow, move: MoveRow) -> None:
        for listener in self._moved:
            try:
                listener(match, move)
            except Exception:  # the move is stored: counting it must not turn it into an error
                log.exception("match %s: a move listener failed", match.id)

    def changed(self, match: MatchRow) -> None:
        for listener in self._changed:
            try:
                listener(match)
            except Exception:  # the change is stored: a listener must not turn it into an error
                log.exception("match %s: a change listener failed", match.id)

    async def finished(self, match: MatchRow) -> None:
        for listener in self._finished:
            try:
                await listener(match)
            except Exception:  # the move is stored: a rating problem must not turn it into an error
                log.exception("match %s: a finish listener failed (it is retried at start-up)", match.id)
