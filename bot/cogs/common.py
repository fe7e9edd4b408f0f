"""Pieces the cogs share: the game choices and match-option autocomplete."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from games import GAMES

if TYPE_CHECKING:
    from ..app import HexplayBot

GAME_CHOICES = [app_commands.Choice(name=info.name, value=info.id) for info in GAMES.values()]


def bot_of(interaction: discord.Interaction) -> "HexplayBot":
    return interaction.client  # type: ignore[return-value]


def guild_only(interaction: discord.Interaction) -> int:
    from ..service import ServiceError

    if interaction.guild_id is None:
        raise ServiceError("Hexplay matches live in servers: use this command in a server channel.")
    return interaction.guild_id


async def resolve_match_id(interaction: discord.Interaction, match: int | None) -> int:
    """The match a command means: named, the thread it is typed in, or the user's only one."""
    guild_id = guild_only(interaction)
    row = await bot_of(interaction).service.resolve(interaction.user.id, guild_id, interaction.channel_id or 0, match)
    return row.id


async def match_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    bot = bot_of(interaction)
    if interaction.guild_id is None:
        return []
    listed = await bot.service.my_matches(interaction.user.id, interaction.guild_id)
    choices = []
    for match, game, waiting in listed:
        label = f"#{match.id} {bot.service.title(match).split(' #')[0]}"
        others = ", ".join(s.name for s in match.seats if s.user_id != interaction.user.id)
        label += f" with {others}" if others else ""
        label += " — your move" if waiting else (" — waiting to start" if game is None else "")
        if current and current.lstrip("#") not in str(match.id) and current.lower() not in label.lower():
            continue
        choices.append(app_commands.Choice(name=label[:100], value=match.id))
    return choices[:25]
