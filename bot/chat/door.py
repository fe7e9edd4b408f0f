"""The door every interaction comes in by: the command tree's check for commands, ``handle_press`` for buttons.

Both acknowledge in time (timely.py), speak the person's language (speech.py), refuse new work while the bot
stops, and explain every failure the same way (failures.py).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from ..domain.errors import DamagedMatch
from .context import Chat
from .failures import answer_failure, reply_error
from .launcher import is_entry_point
from .speech import listen, listen_unheard
from .timely import answer_in_time
from .words import errors

log = logging.getLogger(__name__)


def stopping(interaction: discord.Interaction) -> bool:
    """The bot is stopping: new commands and presses are refused, those in flight finish."""
    return bool(getattr(interaction.client, "stopping", False))


def chat_in(interaction: discord.Interaction) -> Chat | None:
    """The bot's context (chat/context.py), or None for a client without one."""
    chat: Chat | None = getattr(interaction.client, "chat", None)
    return chat


async def speak_to(interaction: discord.Interaction) -> None:
    """Decide, once, the interaction's two languages: its person's, spoken for the rest of its handler, and its
    server's, for what it posts for everyone (bot/chat/speech.py)."""
    chat = chat_in(interaction)
    if chat is None:
        return
    try:
        await listen(chat.service.languages, interaction)
    except Exception:  # the store is down: the locales Discord sent still say the languages
        log.warning("could not read or note the languages of an interaction", exc_info=True)
        listen_unheard(interaction)


async def answer_what_failed(interaction: discord.Interaction, error: BaseException) -> None:
    """Explain a failure to the interaction's person; a match whose stored data cannot be read is set aside
    first, and the player is told it is paused."""
    chat = chat_in(interaction)
    if isinstance(error, DamagedMatch) and chat is not None:
        error = await chat.service.paused_by(error)
    await answer_failure(interaction, error)


async def handle_press(interaction: discord.Interaction, action: Callable[[], Awaitable[Any]]) -> None:
    """Run a button's work, acknowledged within Discord's 3 seconds however long it takes (timely.py); whatever
    goes wrong is explained to the presser (answer_what_failed)."""
    answer_in_time(interaction)
    await speak_to(interaction)
    if stopping(interaction):
        await reply_error(interaction, errors.restarting())
        return
    try:
        await action()
    except Exception as error:
        await answer_what_failed(interaction, error)


class HexplayTree(discord.app_commands.CommandTree):
    """The command tree: acknowledges every command in time (timely.py), refuses new commands while the bot
    stops, explains every failure the same way."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        answer_in_time(interaction)  # first: reading the speaker's language is already a trip to the database
        await speak_to(interaction)
        if stopping(interaction):
            if interaction.type is not discord.InteractionType.autocomplete:  # suggestions simply stop
                await reply_error(interaction, errors.restarting())
            return False
        if is_entry_point(interaction):  # the App Launcher's Entry Point: no command of the tree (features/activity.py)
            interaction.client.dispatch("entry_point", interaction)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(error, discord.app_commands.CheckFailure) and original is error:
            await reply_error(interaction, str(error) or errors.cannot_use_here())
            return
        await answer_what_failed(interaction, original)
