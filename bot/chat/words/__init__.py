"""Every sentence the bot says, by feature: ``words/offers.py`` says what ``features/offers.py`` does.

The service decides and returns data (refusals with their facts, outcomes with their changes, jobs); these
modules word it for Discord: markdown, mentions (``<@id>``), channel links and Discord's relative times
(``<t:…:R>``), the one place they are written. Names people chose are escaped (``markup.escape``), and every
message is bounded by the caller (2,000 characters). Each sentence goes through ``i18n.t`` (or ``tn``, ``pt``),
so it is said in the language being spoken. Nothing here imports discord or the rest of the chat layer: data
in, text out. The wording is the players' interface: ``tests/golden/service_texts.txt`` holds a reviewed
transcript of it.

- One module per feature of ``bot/chat/features/``: ``lobby``, ``moves``, ``offers``, ``premoves``,
  ``timelimits``, ``reminders``, ``info``, ``settings``, ``community``, ``review``, ``tournaments`` (with
  ``standings``, as the service's ``standings.py``), ``activity`` (the board you touch: ``features/activity.py``
  and ``bot/web/``); each words its own refusals in its ``REFUSALS``.
- What several features say: ``shared`` (people and seats, durations, clocks and banks, lists joined in words,
  an engine's reason, autocomplete choices, a language's name), ``errors`` (refusals any command can meet:
  finding its match, a paused match, the storage; and the answers to failures), ``outcomes`` (a stored change
  announced: the turns, the result, who is to move), ``posting`` (a board's thread and where the board went
  when the thread would not take it), ``boards`` (a board in words: alt text, ``/board text``, pictures'
  descriptions), ``markup`` (names made inert, text bounded).

A feature module reads its own words module (``from ..words import offers as words``) and the shared ones by
name; :data:`REFUSALS`, every module's merged once here, is what :func:`refusal` reads.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from ...domain.errors import Refusal
from . import (
    activity,
    community,
    errors,
    info,
    lobby,
    moves,
    offers,
    premoves,
    puzzles,
    reminders,
    review,
    settings,
    timelimits,
    tournaments,
)

Wording = Callable[[dict[str, Any]], str]


def _merged(*modules: ModuleType) -> dict[str, Wording]:
    """Every module's ``REFUSALS`` in one table; a reason worded in two modules is a mistake, refused here
    (one dict literal had ruff's duplicate-key check; the modules' tables have this one)."""
    merged: dict[str, Wording] = {}
    for module in modules:
        twice = sorted(merged.keys() & module.REFUSALS.keys())
        if twice:
            raise ValueError(f"{module.__name__} words refusals another module already words: {twice}")
        merged.update(module.REFUSALS)
    return merged


REFUSALS = _merged(
    activity,
    puzzles,
    errors,
    lobby,
    moves,
    info,
    offers,
    timelimits,
    settings,
    reminders,
    community,
    premoves,
    review,
    tournaments,
)


def refusal(error: Refusal) -> str:
    """The sentence for a refusal, written for the player who caused it."""
    return REFUSALS[error.reason](error.facts)
