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

    @app_commands.command(name="config", description="Server settings for Hexplay (Manage Server to change them)")
    @app_commands.describe(channel="Channel where match threads open", days="Default time limit in days per "
                           "move (0 = none)", reminder_hours="Default reminder delay in hours (1–336)")
    @app_commands.default_permissions(manage_guild=True)
    async def config(self, interaction: discord.Interaction, channel: Optional[discord.TextChannel] = None,
                     days: Optional[app_commands.Range[float, 0, 30]] = None,
                     reminder_hours: Optional[app_commands.Range[float, 1, 336]] = None) -> None:
        guild_id = guild_only(interaction)
        guilds = bot_of(interaction).servers
        changes = {}
        if channel is not None:
            changes["match_channel_id"] = channel.id
        if days is not None:
            changes["days_per_move"] = days
        if reminder_hours is not None:
            changes["reminder_hours"] = reminder_hours
        prefix = ""
        if changes:  # Discord hides the command from non-admins; the service checks again
            await guilds.configure(guild_id, is_admin=interaction.permissions.manage_guild, **changes)
            prefix = "Saved.\n"
        await interaction.response.send_message(prefix + await guilds.describe(guild_id), ephemeral=True)

    @app_commands.command(name="help", description="Hexplay's commands on one page")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(help_text(bot_of(interaction)), ephemeral=True)


def help_text(bot) -> str:
    """Every slash command with its description, read from the command tree so it never goes stale."""
    lines = ["**Hexplay** — correspondence play of hexagonal board games. Commands:"]
    for command in sorted(bot.tree.get_commands(), key=lambda c: c.name):
        lines.append(f"`/{command.name}` — {command.description}")
    lines.append("Rules of each game: `/rules game`. Play in the match's thread; the buttons on the boards "
                 "do the rest.")
    return "\n".join(lines)[:2000]
