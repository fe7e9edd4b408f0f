"""The words of the games' own data that players read, in their language.

The engines keep their data in English (``GameInfo``: seat colours, the /rules summary, option lines, quick
actions). ``make translations`` reads those strings from the registered games themselves (so a new colour or
option reaches the catalogs without being copied anywhere), and they are said with ``t`` through the small
functions below.
"""

from __future__ import annotations

from games import GameInfo
from games.interface import OptionSpec, QuickAction
from i18n import t


def colour(name: str) -> str:
    """A seat colour's name ("Red") in the current language."""
    return t(name)


def summary(info: GameInfo) -> str:
    """The game's rules summary (/rules) in the current language."""
    return t(info.summary)


def option_description(spec: OptionSpec) -> str:
    """An option's line for players in the current language."""
    return t(spec.description)


def quick_label(action: QuickAction) -> str:
    """A quick-action button's label in the current language."""
    return t(action.label)
