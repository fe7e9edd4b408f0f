"""The page's own words in each player's language, from the bot's catalogs (issue 37: amelie's page stayed English).

The page (``static/*.js``) marks what it says with ``say("…")`` and ``sayN("…", "…", n)`` (``static/words.js``);
``make translations`` collects them into ``i18n/locale`` with the bot's sentences and the Activity's, so one
translator sees them all. ``GET /api/words?user=`` answers the player's language (their Discord's locale, as the
emulator keeps it) and its sentences; the page asks once, before it draws. What the sandbox itself says from
Python (the composer's refusals and pop-up titles) is said through ``i18n.t`` in the player's language.

French elision before a name (``de {name}`` → ``d’amelie``) follows one rule for both pages: the Activity's module
(``activity/src/elision.js``), served to this page as ``/lib/elision.js``.
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from i18n import language_of, sentences_of

PAGE_SOURCES = "sandbox/static/"
ELISION = Path(__file__).resolve().parent.parent / "activity" / "src" / "elision.js"


def page_words(locale: str | None) -> dict[str, object]:
    """``{"language": …, "catalog": {english: translation}}`` for a player whose Discord speaks ``locale``."""
    language = language_of(locale)
    return {"language": language, "catalog": sentences_of(language, PAGE_SOURCES)}


async def elision(request: web.Request) -> web.StreamResponse:
    """The Activity's elision rule, for this page's ``say`` (one rule for both pages)."""
    return web.FileResponse(ELISION, headers={"Content-Type": "text/javascript; charset=utf-8"})
