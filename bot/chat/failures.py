"""What a player is told when a command or button failed, privately, whether or not it was answered already."""

from __future__ import annotations

import logging

import discord

from ..domain.errors import Refusal, StorageDown, StorageFull, StorageReadOnly
from .words import errors, refusal
from .words.markup import fit

log = logging.getLogger(__name__)

ALREADY_ACKNOWLEDGED = 40060


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


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """What the player is told when a command or button failed; the log gets what the operator needs. (A
    damaged match is set aside before, by the door: ``door.answer_what_failed``.)"""
    if isinstance(error, Refusal):
        await reply_error(interaction, refusal(error))
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
