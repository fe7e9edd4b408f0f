"""An engine's reason in the language being spoken.

The engines keep no language: a :class:`games.GameError` holds its English template and named fields, so
it is said here with :func:`i18n.t`. A field named ``colour`` holds a seat's colour name ("Red"), a word
of the game's data (bot/chat/game_words.py marks them for the catalogs): it is translated too.
"""

from __future__ import annotations

from typing import Any

from games import GameError
from i18n import t

TRANSLATED_FIELDS = ("colour",)


def reason(error: GameError) -> str:
    """``error``'s sentence in the current language (``str(error)`` is its English)."""
    return t(error.template, **_said_fields(error.fields))


def _said_fields(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: t(value) if key in TRANSLATED_FIELDS else value for key, value in fields.items()}


class Reason(str):
    """An engine's reason as a refusal carries it (``Refusal("illegal_move", why=Reason.of(error))``): the
    sentence in the language being spoken, which still holds the engine's ``template`` and ``fields`` so
    the chat layer may say it again in another language (``t(why.template, **why.fields)``)."""

    template: str
    fields: dict[str, Any]
    english: str

    @classmethod
    def of(cls, error: GameError) -> Reason:
        said = cls(reason(error))
        said.template, said.fields, said.english = error.template, _said_fields(error.fields), str(error)
        return said
