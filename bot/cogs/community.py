"""/leaderboard and /profile: ratings in this server."""

from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from ..ui import mention_only
from .common import GAME_CHOICES, bot_of, guild_only


class CommunityCog(commands.Cog, name="Community"):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The best rated players of a game in this server")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        guild_id = guild_only(interaction)
        text = await bot_of(interaction).ratings.leaderboard(guild_id, game.value, interaction.user.id)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=mention_only(None))

    @app_commands.command(name="profile", description="A player's ratings, results and current matches here")
    @app_commands.describe(user="Whose profile (yours by default)")
    async def profile(self, interaction: discord.Interaction, user: Optional[discord.Member] = None) -> None:
        guild_id = guild_only(interaction)
        target = user or interaction.user
        text = await bot_of(interaction).ratings.profile(guild_id, target.id)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=mention_only(None))
