"""MatchService: every feature of a match over one core, as the chat layer and the other services see it."""

from __future__ import annotations

from .history import HistoryFlow
from .lobby import LobbyFlow
from .play import PlayFlow
from .preferences import PreferenceFlow
from .premoves import PremoveFlow
from .reminders import ReminderFlow
from .verify import VerifyFlow


class MatchService(LobbyFlow, PlayFlow, HistoryFlow, ReminderFlow, PreferenceFlow, PremoveFlow, VerifyFlow):
    """A match's rules: the lobby, play, looking at it, its reminders, its players' preferences, their conditional
    moves and private analysis, its integrity.

    Each feature is a module of its own (``lobby.py``, ``play.py`` …) over ``core.MatchCore``; offers, time
    limits, ratings and servers are separate services that call its public ``commit_move``.
    """
