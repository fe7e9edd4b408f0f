"""The languages Hexplay speaks: gettext catalogs, and which language is being spoken now.

Every sentence in the code is English and goes through :func:`t` (or :func:`tn` when it counts,
:func:`pt` when the same English means two things). The French for it lives in a gettext catalog,
``i18n/locale/fr/LC_MESSAGES/hexplay.po``, read with Babel; ``make translations`` collects new
sentences into the catalogs (docs/translating.md).

Which language: the chat layer decides per message (the interaction's person's language for private answers,
the server's for public posts, the player's stored language for DMs) and says it with :func:`speaking`.
One context variable holds one :class:`Voice`: the language being spoken and, while an interaction is answered,
the two languages decided for it once at its start (:func:`answering`). So concurrent interactions in one
process never mix languages, and code below the chat layer (the pictures, the words of a turn) needs no
language argument.

Placeholders are ``str.format`` fields named by what they hold (``{name} wins``), so a translation may
reorder them; literal braces are doubled. The tests check that each translation keeps its fields.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "fr")
"""The languages with a complete catalog; English is the source language (no catalog)."""
DEFAULT = "en"
DOMAIN = "hexplay"
LOCALE_DIR = Path(__file__).parent / "locale"


@dataclass(frozen=True)
class Voice:
    """What is being spoken: the language now, and what an interaction decided once, at its start."""

    language: str = DEFAULT
    """The language being spoken now (what :func:`t` says)."""
    private: str | None = None
    """The interaction's person's language: its answers (None outside an interaction)."""
    public: str | None = None
    """The language of what the interaction posts for everyone in ``place`` (None outside an interaction)."""
    place: int | None = None
    """Where the interaction came from (its server's id; None in a DM)."""


#: Outside any interaction, nothing said yet: English.
UNSPOKEN = Voice()
_voice: ContextVar[Voice] = ContextVar("voice", default=UNSPOKEN)


def language_of(locale: str | None) -> str:
    """The language Hexplay speaks for a Discord locale (``fr``, ``en-US``, ``pt-BR``…) or a language code;
    English for anything without a catalog."""
    if locale in LANGUAGES:  # already one of ours (most calls): nothing to read
        return locale
    if not locale:
        return DEFAULT
    base = str(locale).replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT


def current() -> str:
    """The language being spoken now."""
    return _voice.get().language


def voice() -> Voice:
    """What is being spoken now, and what the interaction being answered (if any) decided."""
    return _voice.get()


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak ``language`` (a language code or a Discord locale) inside the block."""
    said = language_of(language)
    token = _voice.set(replace(_voice.get(), language=said))
    try:
        yield said
    finally:
        _voice.reset(token)


def use(language: str | None) -> str:
    """Speak ``language`` from now on in this task: for the start of a task of its own, where no block encloses
    the work. Tasks started later copy it; other tasks never see it."""
    said = language_of(language)
    _voice.set(replace(_voice.get(), language=said))
    return said


def answering(private: str, public: str, place: int | None) -> str:
    """The start of an interaction's task: its two languages, decided once, held for the rest of it (and the
    tasks it starts): its person's (``private``) is spoken from now on; ``public`` is for what it posts for
    everyone in ``place``."""
    said = language_of(private)
    _voice.set(Voice(said, said, language_of(public), place))
    return said


def on_its_own() -> None:
    """A task started by an interaction that outlives it (a retry later): no interaction's languages any more,
    so what it posts is said in the languages of its own time."""
    _voice.set(Voice(_voice.get().language))


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language``; English is the source, so it has none.

    The ``.po`` file is compiled in memory (Babel reads it, writes the binary form gettext loads), so the
    repository holds only the text catalogs and no build step can leave a stale ``.mo`` behind. Fuzzy
    entries are not used: a translation a tool guessed is not a translation.
    """
    if language == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # only when a language is first spoken
    from babel.messages.pofile import read_po

    with catalog_path(language).open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def sentences_of(language: str, prefix: str) -> dict[str, str | list[str]]:
    """The translated sentences a page says, by their English (a plural one by its singular, as a list of forms):
    those of ``language``'s catalog said in files under ``prefix`` (``activity/src/``, ``sandbox/static/``). A web
    page fills them itself (its ``say``); untranslated and fuzzy entries are left out, so it says the English."""
    if language == DEFAULT:
        return {}
    from babel.messages.pofile import read_po  # only when a page asks

    with catalog_path(language).open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    found: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not any(str(where).startswith(prefix) for where, _ in message.locations):
            continue
        if isinstance(message.id, (tuple, list)):
            forms = [str(form or "") for form in message.string or ()]
            if all(forms):
                found[str(message.id[0])] = forms
        elif message.string:
            found[str(message.id)] = str(message.string)
    return found


def t(message: str, /, **fields: Any) -> str:
    """``message`` in the current language, its ``{fields}`` filled in."""
    language = current()
    return fill(translations(language).gettext(message), fields, language)


def tn(singular: str, plural: str, count: int | float, /, **fields: Any) -> str:
    """The form for ``count`` (``{count}`` is a field too): the language's plural rule picks it
    (French says "0 partie", English "0 games")."""
    language = current()
    chosen = translations(language).ngettext(singular, plural, _whole(count))
    return fill(chosen, {"count": _shown(count), **fields}, language)


def pt(context: str, message: str, /, **fields: Any) -> str:
    """``message`` where the same English means different things: ``pt("command name", "move")``."""
    language = current()
    return fill(translations(language).pgettext(context, message), fields, language)


def fill(template: str, fields: dict[str, Any], language: str) -> str:
    """``template``'s fields filled in, and the language's elisions made where a field's value begins with a
    vowel: French "au tour de {player}" says "au tour d’amelie" (the translator writes "de": the name is not
    known until now). Only a word the language elides, standing right before a field, changes."""
    if not _may_elide(template, language):
        return template.format(**fields)
    return _ELIDABLE[language].sub(lambda hit: _elided(hit, fields), template).format(**fields)


# A word French elides before a vowel ("de", "que", "jusque", "lorsque", "puisque"), then any markdown opening, then
# a simple field: "de **{player}**". Its apostrophe is the catalog's typographic one.
_ELIDABLE = {
    "fr": re.compile(
        r"(?<![\w’'])(?P<word>[Dd]e|[Qq]ue|[Jj]usque|[Ll]orsque|[Pp]uisque) (?P<mark>(?:\*\*|__|\*|_)*)"
        r"(?P<field>\{(?P<name>\w+)(?:[!:][^{}]*)?\})"
    )
}
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüÿæœAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŸÆŒ")
_MARKUP = "*_~`\\|"


@lru_cache(maxsize=8192)  # the catalogs' sentences: a fixed set, bounded all the same
def _may_elide(template: str, language: str) -> bool:
    """Whether ``template`` has a word that may elide before a field (cached: the catalogs are fixed)."""
    pattern = _ELIDABLE.get(language)
    return pattern is not None and pattern.search(template) is not None


def _elided(hit: re.Match[str], fields: dict[str, Any]) -> str:
    """The word before a field, elided ("de " → "d’") when the field's value starts with a vowel followed by a
    letter: a name ("amelie", "**Émile**"), not a cell ("e5") nor a mention ("<@1>") nor a number."""
    value = str(fields.get(hit["name"], "")).lstrip(_MARKUP)
    if len(value) < 2 or value[0] not in _VOWELS or not value[1].isalpha():
        return hit.group()
    return f"{hit['word'][:-1]}’{hit['mark']}{hit['field']}"


def N_(message: str) -> str:
    """Marks a sentence kept as data (a table of labels) for the catalogs; translate it with :func:`t`
    where it is said."""
    return message


def number(value: int | float) -> str:
    """A number as the current language writes it: ``1.5`` in English, ``1,5`` in French."""
    shown = str(int(value)) if float(value).is_integer() else f"{value:g}"
    return shown.replace(".", ",") if current() == "fr" else shown


def _whole(count: int | float) -> int:
    return int(count) if float(count).is_integer() else 2  # 1.5 days: plural in English and French


def _shown(count: int | float) -> str:
    return number(count)
