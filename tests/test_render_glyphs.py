"""Every character of the French the pictures may draw has a real glyph in the bundled fonts (no boxes)."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw

from i18n import LANGUAGES, catalog_path
from render import textdraw as td

EXTRA = "«»’éèêëàâçîïôùûüœÉÀÇ"
MISSING = "\U0010ffff"  # a character no font has: what the font draws for a missing glyph


def mask(ch: str, bold: bool) -> bytes:
    im = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(im).text((6, 6), ch, font=td.font(28, bold), fill=255)
    return im.tobytes()


def lacks(ch: str, bold: bool) -> bool:
    return not ch.isspace() and mask(ch, bold) == mask(MISSING, bold)


def characters_of(language: str) -> set[str]:
    """Every character the language's catalog brings (French's accents and quotes, always)."""
    with catalog_path(language).open("rb") as source:
        catalog = read_po(source, locale=language)
    seen = set(EXTRA) if language == "fr" else set()
    for message in catalog:
        if message.id:
            # Characters the English has too (Discord's emoji in chat sentences) are not the French's to bring.
            english = set("".join(message.id if isinstance(message.id, tuple) else (message.id,)))
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for string in strings:
                seen.update(set(string or "") - english)
    return seen


@pytest.mark.parametrize("language", LANGUAGES[1:])
@pytest.mark.parametrize("bold", [False, True])
def test_every_character_of_each_language_has_a_glyph(language, bold):
    characters = characters_of(language)
    assert len(characters) > 60
    missing = sorted(ch for ch in characters if lacks(ch, bold))
    assert not missing, missing


def test_the_check_sees_a_character_the_font_lacks():
    assert lacks("\ue000", False) and lacks("\u4e2d", True)  # a private-use character, a Chinese one
    assert not lacks("é", False) and not lacks("«", True)


def forget_drawn_parts() -> None:
    """Empty every cache of the picture modules (backgrounds, sprites, text), as in a fresh process."""
    import render

    for module in (render, *(m for m in vars(render).values() if getattr(m, "__name__", "").startswith("render."))):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.mark.parametrize("game_id", ["bide", "begird", "playbai", "bump"])
def test_a_french_picture_leaves_no_french_in_the_next_english_one(game_id):
    """Pictures cache their backgrounds and text sprites: a cache keyed without the language would draw
    the French of one picture into the next English one."""
    from games import GAMES
    from i18n import speaking
    from render import render_png
    from tests.render_cases import same_picture

    game = GAMES[game_id].new(GAMES[game_id].min_players)
    names = ["Ann", "Bob"][: game.players]
    forget_drawn_parts()
    with speaking("fr"):
        french = render_png(game, player_names=names)
    english_after_french = render_png(game, player_names=names)
    forget_drawn_parts()
    english = render_png(game, player_names=names)
    assert same_picture(english_after_french, english) and not same_picture(english, french)
