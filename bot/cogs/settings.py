"""/settings: a player's reminders in this server, and who may challenge them."""

from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from ..refusals import ChallengeRefusals
from ..service import ServiceError
from ..text import escape
from ..ui import mention_only
from .common import bot_of, guild_only


class SettingsCog(commands.Cog, name="Settings"):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="settings", description="Your reminders in this server (on/off, delay, DM or ping) and who may challenge you")
    @app_commands.describe(reminders="Remind me when a match waits for my move",
                           delay_hours="Hours without my move before a reminder (1–336)",
                           via="Remind me by direct message or by a ping in the match thread",
                           challenges="Who may challenge me in this server (everyone, or nobody)",
                           block="Refuse challenges from this member, in every server",
                           unblock="Take challenges from this member again")
    @app_commands.choices(via=[app_commands.Choice(name="Direct message", value="dm"),
                               app_commands.Choice(name="Ping in the match thread", value="ping")],
                          challenges=[app_commands.Choice(name="Everyone", value="everyone"),
                                      app_commands.Choice(name="Nobody", value="nobody")])
    async def settings(self, interaction: discord.Interaction, reminders: Optional[bool] = None,
                       delay_hours: Optional[float] = None, via: Optional[app_commands.Choice[str]] = None,
                       challenges: Optional[app_commands.Choice[str]] = None, block: Optional[discord.User] = None,
                       unblock: Optional[discord.User] = None) -> None:
        guild_id = guild_only(interaction)
        service = bot_of(interaction).service
        refusals = ChallengeRefusals(service.store, service.clock)
        user_id = interaction.user.id
        if block is not None and block.bot:
            raise ServiceError(f"{escape(block.display_name)} is a bot: bots never challenge anyone, so there is "
                               "nothing to block.")
        changed = any(option is not None for option in (reminders, delay_hours, via, challenges, block, unblock))
        refusal_change = dict(challenges=challenges.value if challenges else None,
                              block=(block.id, block.display_name) if block else None,
                              unblock=(unblock.id, unblock.display_name) if unblock else None)
        await refusals.check(user_id, **refusal_change)  # before the reminders are saved: a refusal saves nothing
        if reminders is not None or delay_hours is not None or via is not None:
            prefs = await service.set_preferences(user_id, guild_id, reminders=reminders,
                                                  delay_hours=delay_hours, via=via.value if via else None)
        else:
            prefs = await service.preferences(user_id, guild_id)
        if challenges is not None or block is not None or unblock is not None:
            await refusals.update(user_id, guild_id, **refusal_change)
        default_hours = await service.server_reminder_hours(guild_id)
        text = ("Saved. " if changed else "") + service.describe_preferences(prefs, default_hours)
        text += "\n" + await refusals.describe(user_id, guild_id)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=mention_only(None))

    @app_commands.command(name="vacation", description="Pause your clocks in every match for some days")
    @app_commands.describe(days="How many days (your yearly allowance is shown if it is not enough)")
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 60]) -> None:
        text = await bot_of(interaction).timelimits.vacation(interaction.user.id, days)
        await interaction.response.send_message(text, ephemeral=True)
