"""Pieces the slash commands share: the game choices, and which match a command means."""

from __future__ import annotations

import discord
from discord import app_commands

from games import GAMES
from i18n import LANGUAGES

from ..domain.errors import Refusal
from ..domain.model import MatchRow
from .context import chat_of
from .words import shared

GAME_CHOICES = [app_commands.Choice(name=info.name, value=info.id) for info in GAMES.values()]
UNSET = "auto"  # the language choice that removes a choice made before


def language_choices(unset: str) -> list[app_commands.Choice[str]]:
    """/config and /settings language: each language Hexplay speaks, then ``unset`` (back to Discord's)."""
    named = [app_commands.Choice(name=shared.language_name(code), value=code) for code in LANGUAGES]
    return [*named, app_commands.Choice(name=unset, value=UNSET)]


def chosen_language(choice: app_commands.Choice[str]) -> str | None:
    return None if choice.value == UNSET else choice.value


def guild_only(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise Refusal("servers_only")
    return interaction.guild_id


def bot_can_post_in(channel: discord.abc.GuildChannel) -> bool:
    """Whether the bot may post a picture in the channel (see it, send, attach), by its cached permissions."""
    mine = channel.permissions_for(channel.guild.me)
    return mine.view_channel and mine.send_messages and mine.attach_files


async def resolve_match(interaction: discord.Interaction, match: int | None, *, acting: bool = True) -> MatchRow:
    """The match a command means: named, the thread it is typed in, or the user's only one (as read now).

    ``acting=False`` (a command that only looks) may name another match from a match's thread.
    """
    guild_id = guild_only(interaction)
    service = chat_of(interaction).service
    return await service.resolve(interaction.user.id, guild_id, interaction.channel_id or 0, match, acting=acting)


async def resolve_match_id(interaction: discord.Interaction, match: int | None, *, acting: bool = True) -> int:
    return (await resolve_match(interaction, match, acting=acting)).id


async def match_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    if interaction.guild_id is None:
        return []
    listed = await chat_of(interaction).service.my_matches(interaction.user.id, interaction.guild_id)
    choices = []
    for match, game, waiting in listed:
        label = shared.match_choice(match, interaction.user.id, game, waiting)
        if current and current.lstrip("#") not in str(match.id) and current.lower() not in label.lower():
            continue
        choices.append(app_commands.Choice(name=label, value=match.id))
    return choices[:25]
