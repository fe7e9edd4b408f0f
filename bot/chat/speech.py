"""Which language each message is said in: the service decides (bot/service/languages.py), this applies it.

An interaction's two languages, its person's (its answers) and its server's (what it posts for everyone), are
decided once, at the door (:func:`listen`, called by the command tree and by every button through
``handle_press``), and held in i18n's one context variable (``i18n.answering``) for the rest of its handler and
the work it sets off. So private answers and refusals need nothing more, and what that work posts for everyone
(:func:`publicly`, :func:`in_public`) is said in the server's language without a second look-up. Only work no
interaction started looks a language up: a server's in :func:`in_public` (a catch-up board, a notice), a
person's in :func:`to_person` (a DM, a reminder), once per recipient.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from contextlib import AbstractContextManager, asynccontextmanager
from typing import TypeVar

import discord

from i18n import DEFAULT, answering, current, language_of, speaking, voice

from ..service.languages import LanguageLookup, Spoken

T = TypeVar("T")


async def listen(languages: LanguageLookup, interaction: discord.Interaction) -> Spoken:
    """Decide the interaction's two languages (noting the locales it came with) and speak its person's for the
    rest of its handler."""
    spoken = await languages.interaction(
        interaction.user.id, interaction.locale.value, interaction.guild_id, _guild_locale(interaction)
    )
    answering(spoken.private, spoken.public, interaction.guild_id)
    return spoken


def listen_unheard(interaction: discord.Interaction) -> Spoken:
    """The store did not answer: the locales Discord sent still say both languages (as if nothing were chosen)."""
    private = language_of(interaction.locale.value)
    guild_locale = _guild_locale(interaction)
    public = private if interaction.guild_id is None else language_of(guild_locale) if guild_locale else DEFAULT
    answering(private, public, interaction.guild_id)
    return Spoken(private, public)


def _guild_locale(interaction: discord.Interaction) -> str | None:
    return interaction.guild_locale.value if interaction.guild_locale is not None else None


def now_speaking(language: str) -> str:
    """The person chose another language in this very interaction (/settings): its answers say it from now on."""
    heard = voice()
    return answering(language, heard.public or language, heard.place)


def privately() -> AbstractContextManager[str]:
    """Inside a public block, what is said to the interaction's person alone (an ephemeral answer)."""
    return speaking(voice().private or current())


async def publicly(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """Run a flow that posts for everyone (a lobby, an offer) in the server's language, as decided at the door;
    a refusal it raises leaves the block and is explained in the person's own."""
    with speaking(voice().public or current()):
        return await work


@asynccontextmanager
async def in_public(languages: LanguageLookup, guild_id: int | None) -> AsyncIterator[str]:
    """Say what the block posts for everyone in the server in the server's language: the one an interaction from
    that server decided at the door, else (work no interaction started) looked up."""
    heard = voice()
    if guild_id is not None and heard.public is not None and heard.place == guild_id:
        language = heard.public
    else:
        language = await languages.of_guild(guild_id)
    with speaking(language) as said:
        yield said


@asynccontextmanager
async def to_person(languages: LanguageLookup, user_id: int) -> AsyncIterator[str]:
    """Say what the block sends to one person, outside any interaction, in their language."""
    with speaking(await languages.of_player(user_id)) as language:
        yield language
