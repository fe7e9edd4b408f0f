"""/settings: a player's reminders in this server."""

from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from .common import bot_of, guild_only


class SettingsCog(commands.Cog, name="Settings"):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Your turn reminders in this server: on/off, delay, DM or ping")
    @app_commands.describe(reminders="Remind me when a match waits for my move",
                           delay_hours="Hours without my move before a reminder (1–336)",
                           via="Remind me by direct message or by a ping in the match thread")
    @app_commands.choices(via=[app_commands.Choice(name="Direct message", value="dm"),
                               app_commands.Choice(name="Ping in the match thread", value="ping")])
    async def settings(self, interaction: discord.Interaction, reminders: Optional[bool] = None,
                       delay_hours: Optional[float] = None, via: Optional[app_commands.Choice[str]] = None) -> None:
        guild_id = guild_only(interaction)
        service = bot_of(interaction).service
        if reminders is None and delay_hours is None and via is None:
            prefs = await service.preferences(interaction.user.id, guild_id)
            prefix = ""
        else:
            prefs = await service.set_preferences(interaction.user.id, guild_id, reminders=reminders,
                                                  delay_hours=delay_hours, via=via.value if via else None)
            prefix = "Saved. "
        default_hours = await service.server_reminder_hours(guild_id)
        await interaction.response.send_message(prefix + service.describe_preferences(prefs, default_hours),
                                                ephemeral=True)

    @app_commands.command(name="vacation", description="Pause your clocks in every match for some days")
    @app_commands.describe(days="How many days (your yearly allowance is shown if it is not enough)")
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 60]) -> None:
        text = await bot_of(interaction).timelimits.vacation(interaction.user.id, days)
        await interaction.response.send_message(text, ephemeral=True)
