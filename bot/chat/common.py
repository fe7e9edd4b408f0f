"""Message helpers every feature shares: files, mentions, private answers, and handling what goes wrong."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord

from i18n import use

from ..domain.errors import DamagedMatch, Refusal, StorageDown, StorageFull, StorageReadOnly
from .launcher import is_entry_point
from .speech import listen
from .timely import answer_in_time
from .words import errors, refusal
from .words.markup import fit

log = logging.getLogger(__name__)

BOARD_FILENAME = "board.png"
NO_MENTIONS = discord.AllowedMentions.none()
ALREADY_ACKNOWLEDGED = 40060


def mention_only(user_id: int | list[int] | tuple[int, ...] | None) -> discord.AllowedMentions:
    """Allow pings of exactly these users (one id, a list, or nobody)."""
    ids = [] if user_id is None else [user_id] if isinstance(user_id, int) else list(user_id)
    if not ids:
        return NO_MENTIONS
    return discord.AllowedMentions(users=[discord.Object(u) for u in ids], everyone=False, roles=False)


def png_file(data: bytes, filename: str = BOARD_FILENAME, *, description: str) -> discord.File:
    """A picture to send, with its description (alt text: words/boards.py says it)."""
    return discord.File(io.BytesIO(data), filename=filename, description=description)


def landed_anyway(error: BaseException) -> bool:
    """Discord accepted a reply but answered 5xx; discord.py's retry of it then met "already acknowledged".

    The player has the reply: answering again would only add a second error.
    """
    return isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED


async def reply_error(interaction: discord.Interaction, message: str) -> None:
    """A private answer, whether or not the interaction was already answered."""
    message = fit(message)
    try:
        if not interaction.response.is_done():
            try:
                await interaction.response.send_message(message, ephemeral=True)
                return
            except discord.HTTPException as error:
                if not landed_anyway(error):
                    raise
        await interaction.followup.send(message, ephemeral=True)  # answered already: a follow-up
    except discord.HTTPException:
        log.exception("could not deliver an error message")


def stopping(interaction: discord.Interaction) -> bool:
    """The bot is stopping: new commands and presses are refused, those in flight finish."""
    return bool(getattr(interaction.client, "stopping", False))


async def explain(interaction: discord.Interaction, error: BaseException) -> None:
    """What the player is told when a command or button failed; the log gets what the operator needs."""
    if isinstance(error, Refusal):
        await reply_error(interaction, refusal(error))
    elif isinstance(error, DamagedMatch):
        service: Any = cast(Any, interaction.client).chat.service  # the bot's context (chat/context.py)
        await reply_error(interaction, refusal(await service.paused_by(error)))
    elif isinstance(error, StorageFull):
        log.error("a write failed: the bot's disk is full")
        await reply_error(interaction, errors.disk_full_after())
    elif isinstance(error, StorageReadOnly):  # refused as a whole: nothing of it can have been stored
        log.error("a write failed: the database is read-only (%s)", error)
        await reply_error(interaction, errors.read_only_database())
    elif isinstance(error, StorageDown):
        log.error("the database did not answer: %s", error)
        await reply_error(interaction, errors.storage_down_after())
    elif landed_anyway(error):
        log.info("a reply landed although Discord answered it with an error; not answering again")
    else:
        log.error("a command or button failed", exc_info=error)
        await reply_error(interaction, errors.something_went_wrong())


async def speak_to(interaction: discord.Interaction) -> None:
    """Speak the person's language for the rest of this interaction's handler (bot/chat/speech.py)."""
    chat: Any = getattr(interaction.client, "chat", None)  # the bot's context (chat/context.py)
    if chat is None:
        return
    try:
        await listen(chat.service.languages, interaction)
    except Exception:  # the store is down: the locale Discord sent still says the language
        log.warning("could not read or note the languages of an interaction", exc_info=True)
        use(interaction.locale.value)


async def guarded(interaction: discord.Interaction, action: Callable[[], Awaitable[Any]]) -> None:
    """Run a button's work, acknowledged within Discord's 3 seconds however long it takes (timely.py); whatever
    goes wrong is explained to the presser (explain)."""
    answer_in_time(interaction)
    await speak_to(interaction)
    if stopping(interaction):
        await reply_error(interaction, errors.restarting())
        return
    try:
        await action()
    except Exception as error:
        await explain(interaction, error)


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
        await explain(interaction, original)
