"""Which language each message is said in: the service decides (bot/service/languages.py), this applies it.

An interaction's handler speaks its person's language from its first line (:func:`listen`, called by the
command tree and by every button through ``handle_press``), so private answers and refusals need nothing more.
What is posted for everyone is said inside :func:`in_public` (the server's language), and what is sent to
one person with no interaction to answer (a DM, a reminder) inside :func:`to_person`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from contextlib import AbstractContextManager, asynccontextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

import discord

from i18n import current, speaking, use

from ..service.languages import LanguageLookup

T = TypeVar("T")


_private: ContextVar[str | None] = ContextVar("private_language", default=None)


async def listen(languages: LanguageLookup, interaction: discord.Interaction) -> str:
    """Note the interaction's locales and speak its person's language for the rest of its handler."""
    guild_locale = interaction.guild_locale.value if interaction.guild_locale is not None else None
    spoken = await languages.interaction(
        interaction.user.id, interaction.locale.value, interaction.guild_id, guild_locale
    )
    _private.set(spoken.private)
    return use(spoken.private)


def privately() -> AbstractContextManager[str]:
    """Inside a public block, what is said to the interaction's person alone (an ephemeral answer)."""
    return speaking(_private.get() or current())


async def publicly(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """Run a flow that posts for everyone (a lobby, an offer) in the server's language; a refusal it raises
    leaves the block and is explained in the person's own."""
    languages = cast(Any, interaction.client).chat.service.languages  # the bot's context (chat/context.py)
    async with in_public(languages, interaction.guild_id):
        return await work


@asynccontextmanager
async def in_public(languages: LanguageLookup, guild_id: int | None) -> AsyncIterator[str]:
    """Say what the block posts for everyone in the server in the server's language."""
    with speaking(await languages.of_guild(guild_id)) as language:
        yield language


@asynccontextmanager
async def to_person(languages: LanguageLookup, user_id: int) -> AsyncIterator[str]:
    """Say what the block sends to one person, outside any interaction, in their language."""
    with speaking(await languages.of_player(user_id)) as language:
        yield language
