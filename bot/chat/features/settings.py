"""/settings: a player's reminders in this server (their quiet hours too), and who may challenge them."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from i18n import current, language_of

from ...domain.errors import Refusal
from ...domain.quiet import zones_like
from ..commands import chosen_language, guild_only, language_choices
from ..context import Chat
from ..outgoing import mention_only
from ..speech import now_speaking
from ..words import settings as words
from ..words import shared


class SettingsCog(commands.Cog, name="Settings"):
    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    @app_commands.command(
        name="settings",
        description="Your reminders in this server (on/off, delay, DM or ping) and who may challenge you",
    )
    @app_commands.describe(
        reminders="Remind me when a match waits for my move",
        delay_hours="Hours without my move before a reminder (1–336)",
        via="Remind me by direct message or by a ping in the match thread",
        challenges="Who may challenge me in this server (everyone, or nobody)",
        quiet_zone="Quiet hours: your time zone (e.g. Europe/Paris); no reminders in your night. off: none",
        quiet_hours="Quiet hours in your zone, e.g. 22:00-08:00 (the default)",
        block="Refuse challenges from this member, in every server",
        unblock="Take challenges from this member again",
        language="The language of Hexplay's answers, DMs and reminders to you (your Discord's unless set)",
    )
    @app_commands.choices(
        via=[
            app_commands.Choice(name="Direct message", value="dm"),
            app_commands.Choice(name="Ping in the match thread", value="ping"),
        ],
        challenges=[
            app_commands.Choice(name="Everyone", value="everyone"),
            app_commands.Choice(name="Nobody", value="nobody"),
        ],
        language=language_choices("My Discord's language"),
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        reminders: bool | None = None,
        delay_hours: float | None = None,
        via: app_commands.Choice[str] | None = None,
        challenges: app_commands.Choice[str] | None = None,
        quiet_zone: app_commands.Range[str, 1, 64] | None = None,
        quiet_hours: app_commands.Range[str, 1, 20] | None = None,
        block: discord.User | None = None,
        unblock: discord.User | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        guild_id = guild_only(interaction)
        service = self.chat.service
        refusals = self.chat.challenges
        user_id = interaction.user.id
        if block is not None and block.bot:
            raise Refusal("block_a_bot", name=block.display_name)
        reminder_options = (reminders, delay_hours, via, quiet_zone, quiet_hours)
        changed = any(option is not None for option in (*reminder_options, challenges, block, unblock, language))
        refusal_change: dict[str, Any] = {
            "challenges": challenges.value if challenges else None,
            "block": (block.id, block.display_name) if block else None,
            "unblock": (unblock.id, unblock.display_name) if unblock else None,
        }
        await refusals.check(user_id, **refusal_change)  # before the reminders are saved: a refusal saves nothing
        if any(option is not None for option in reminder_options):
            prefs = await service.set_preferences(
                user_id,
                guild_id,
                reminders=reminders,
                delay_hours=delay_hours,
                via=via.value if via else None,
                quiet_zone=quiet_zone,
                quiet_hours=quiet_hours,
            )
        else:
            prefs = await service.preferences(user_id, guild_id)
        if challenges is not None or block is not None or unblock is not None:
            await refusals.update(user_id, guild_id, **refusal_change)
        languages = service.languages
        if language is not None:  # the answer is already in the new language
            chosen = (await languages.choose(user_id, chosen_language(language))).chosen
            now_speaking(language_of(chosen or interaction.locale.value))
        stored = await languages.stored(user_id)
        default_hours = await service.default_reminder_hours_in(guild_id)
        shown = await refusals.settings(user_id, guild_id)
        text = (shared.saved() if changed else "") + words.preferences(prefs, default_hours)
        text += "\n" + words.challenge_settings(shown.challenges, shown.blocked)
        text += "\n" + words.language_setting(stored.chosen, current())
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=mention_only(None))

    @settings.autocomplete("quiet_zone")
    async def zone_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=zone, value=zone) for zone in zones_like(current)]
