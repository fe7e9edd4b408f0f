"""The parts of a message the bot sends: a picture as a file with its description, and whom it may ping."""

from __future__ import annotations

import io

import discord

BOARD_FILENAME = "board.png"
NO_MENTIONS = discord.AllowedMentions.none()


def mention_only(user_id: int | list[int] | tuple[int, ...] | None) -> discord.AllowedMentions:
    """Allow pings of exactly these users (one id, a list, or nobody)."""
    ids = [] if user_id is None else [user_id] if isinstance(user_id, int) else list(user_id)
    if not ids:
        return NO_MENTIONS
    return discord.AllowedMentions(users=[discord.Object(u) for u in ids], everyone=False, roles=False)


def png_file(data: bytes, filename: str = BOARD_FILENAME, *, description: str) -> discord.File:
    """A picture to send, with its description (alt text: words/boards.py says it)."""
    return discord.File(io.BytesIO(data), filename=filename, description=description)
