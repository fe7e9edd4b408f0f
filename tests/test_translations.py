"""The catalogs are complete and correct: every sentence the code says has its French, with the same fields.

The sentences come from the code itself (tools/translations.py reads every ``t``/``tn``/``pt``/``N_`` call, the
engines' reasons and the slash commands), so a sentence added without its French fails here, and so does a
French sentence that drops, adds or misspells a field (it would raise KeyError when said, or lose a name).
"""

from __future__ import annotations

import asyncio
import re

import pytest

import i18n
from i18n import language_of, number, pt, speaking, t, tn
from tools import translations

TEMPLATE = translations.collected()
FRENCH = translations.merged(TEMPLATE, "fr")

# Words French shares with English: an entry made only of these, fields, notation and punctuation may read the
# same in both languages; any other French that equals its English is a sentence left untranslated.
SAME_IN_FRENCH = {
    *("Bide", "Begird", "Bump", "Play", "Bai", "Hexplay", "Discord", "Elo", "Buchholz", "Sonneborn", "Berger"),
    *("English", "Français", "config", "options", "zoom", "gif", "format", "Orange", "Score", "Scores"),
    *("Swiss", "ping", "DM", "Option", "Options", "Points", "points", "Total", "Type", "Notation", "Version"),
    *("Position", "Explorations", "Rotation", "Minute", "Minutes", "Stop", "ok", "OK", "IANA", "Europe", "Paris"),
    *("America", "New_York", "off", "on", "dm", "h", "d", "min", "s", "W", "L", "D", "GIF", "PNG", "ID", "id"),
    *("Pts", "pt", "pts", "score", "E", "SE", "NE", "standard"),  # compass points E, SE, NE (French O, SO, NO for W…)
    "expert",  # the computer's level above hard (issue 39)
}


def entries():
    return [m for m in FRENCH if m.id]


def english_words(text: str) -> list[str]:
    """The words of a sentence, leaving out fields, code, commands, mentions, times and cell names."""
    text = re.sub(r"\{[^}]*\}|`[^`]*`|<[^>]*>|/\w+|\b\w*\d\w*\b", " ", text)
    return re.findall(r"[A-Za-zÀ-ÿ]+", text)


def test_the_catalogs_hold_every_sentence_the_code_says():
    assert len(TEMPLATE) > 800, "the extractor found too few sentences: is a keyword missing?"
    assert translations.main(["--check"]) == 0, "run `make translations` and translate what it adds"


@pytest.mark.parametrize("language", i18n.LANGUAGES[1:])
def test_every_sentence_has_a_translation_with_the_same_fields(language):
    catalog = translations.merged(TEMPLATE, language)
    wrong = {str(m.id): translations.problems(m) for m in catalog if m.id and translations.problems(m)}
    assert wrong == {}, f"{len(wrong)} sentences lack {language} or break their fields: {list(wrong.items())[:10]}"


def test_no_french_entry_is_its_english_left_as_it_was():
    same = []
    for message in entries():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        said = message.string if isinstance(message.string, tuple) else (message.string,)
        for english, french in zip(ids, said, strict=False):
            if french == english and not set(english_words(english)) <= SAME_IN_FRENCH:
                same.append(english)
    assert same == []


def test_the_field_check_catches_a_dropped_or_renamed_field():
    from babel.messages.catalog import Message

    assert translations.problems(Message("{name} wins", "{name} gagne")) == []
    assert translations.problems(Message("{name} wins", "{nom} gagne"))
    assert translations.problems(Message("{name} wins", "Victoire"))
    assert translations.problems(Message("{name} wins", "")) == ["not translated"]
    assert translations.problems(Message("{name} wins", "{name} gagne", flags=["fuzzy"])) == ["not translated"]
    plural = Message(("{count} game", "{count} games"), ("une partie", "{count} parties"))
    assert translations.problems(plural) == []


def test_french_is_spoken_inside_the_block_and_english_outside():
    english = "the game is over"
    with speaking("fr"):
        french = t(english)
    assert french != english and t(english) == english
    with speaking("fr-FR"), speaking("en-GB"):
        assert t(english) == english


def test_plurals_follow_each_languages_rule():
    with speaking("fr"):
        one, zero, two = (tn("{count} move", "{count} moves", n) for n in (1, 0, 2))
    assert zero.startswith("0") and one.startswith("1")
    assert zero.split()[1] == one.split()[1] != two.split()[1], "French counts 0 like 1 (0 coup, 1 coup, 2 coups)"
    assert tn("{count} move", "{count} moves", 0) == "0 moves"
    with speaking("fr"):
        assert number(1.5) == "1,5"
    assert number(1.5) == "1.5"


def test_a_command_name_and_a_word_are_translated_apart():
    with speaking("fr"):
        assert pt("command name", "move") == "coup"
        assert pt("command name", "board") == "plateau"


@pytest.mark.parametrize(
    ("locale", "language"),
    [("fr", "fr"), ("fr-CA", "fr"), ("en-US", "en"), ("en-GB", "en"), ("pt-BR", "en"), (None, "en"), ("", "en")],
)
def test_discord_locales_map_to_the_languages_hexplay_speaks(locale, language):
    assert language_of(locale) == language


async def test_two_conversations_at_once_keep_their_own_languages():
    said: dict[str, list[str]] = {"en": [], "fr": []}

    async def converse(language: str) -> None:
        i18n.use(language)  # an interaction's handler: its own task
        for _ in range(20):
            said[language].append(t("the game is over"))
            await asyncio.sleep(0)

    await asyncio.gather(converse("fr"), converse("en"))
    assert set(said["en"]) == {"the game is over"}
    assert len(set(said["fr"])) == 1 and said["fr"][0] != "the game is over"
    assert i18n.current() == "en"


def test_the_docs_list_the_commands_french_names_as_the_catalog_has_them():
    docs = (translations.ROOT / "docs" / "translating.md").read_text(encoding="utf-8")
    assert translations.commands_table("fr") in docs, "paste `python tools/translations.py --commands fr` there"
