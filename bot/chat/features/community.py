"""The server's community: /leaderboard, /profile, /config (Manage Server) and /help."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from i18n import pt, speaking

from ...domain.errors import Refusal
from ...service.daily_puzzles import DailyPuzzles
from ..commands import GAME_CHOICES, bot_can_post_in, chosen_language, guild_only, language_choices
from ..context import Chat
from ..outgoing import mention_only
from ..words import community as words
from ..words import puzzles as puzzle_words
from ..words import shared


def shown_name(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> str:
    """A command's name as Discord shows it in the language being spoken (the catalog the commands were
    synced with: bot/chat/translator.py)."""
    return pt("command name", command.name)


class CommunityCog(commands.Cog, name="Community"):
    def __init__(self, chat: Chat, tree: app_commands.CommandTree[Any], daily_puzzles: DailyPuzzles) -> None:
        self.chat = chat
        self.daily_puzzles = daily_puzzles  # its setting is one of /config's (one rule with /puzzle daily's)
        self.tree = tree  # /help lists the commands as synced, so it never goes stale

    @app_commands.command(name="leaderboard", description="The best rated players of a game in this server")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        guild_id = guild_only(interaction)
        name, board = await self.chat.ratings.leaderboard(guild_id, game.value)
        await interaction.response.send_message(
            words.leaderboard(name, board, interaction.user.id), ephemeral=True, allowed_mentions=mention_only(None)
        )

    @app_commands.command(name="profile", description="A player's ratings, results and current matches here")
    @app_commands.describe(user="Whose profile (yours by default)")
    async def profile(self, interaction: discord.Interaction, user: discord.Member | None = None) -> None:
        guild_id = guild_only(interaction)
        target = user or interaction.user
        shown = await self.chat.ratings.profile(guild_id, target.id)
        await interaction.response.send_message(
            words.profile(shown.user_id, shown.ratings, shown.playing),
            ephemeral=True,
            allowed_mentions=mention_only(None),
        )

    @app_commands.command(name="config", description="Server settings for Hexplay (Manage Server to change them)")
    @app_commands.describe(
        channel="Channel where match threads open",
        days="Default time limit in days per move (0 = none)",
        reminder_hours="Default reminder delay in hours (1–336)",
        clock="Default bank clock instead of days, e.g. 72h+36h max 120h (initial + per turn, max cap); off: none",
        premoves="Allow conditional moves (/premove) and analysis boards (/explore) by default (yes unless set)",
        language="The language of Hexplay's posts in this server (its own preferred locale unless set)",
        share_puzzles="Share this server's puzzles with servers that share theirs, and get theirs (no unless set)",
        puzzle_channel="Post a puzzle every day in this channel, at puzzle_hour (as /puzzle daily does)",
        puzzle_hour="The hour of the daily puzzle, 0 to 23 (UTC; 12 unless set)",
        puzzle_stop="Stop posting the daily puzzle",
    )
    @app_commands.choices(language=language_choices("The server's own (Discord's preferred locale)"))
    @app_commands.default_permissions(manage_guild=True)
    async def config(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        days: app_commands.Range[float, 0, 30] | None = None,
        reminder_hours: app_commands.Range[float, 1, 336] | None = None,
        clock: app_commands.Range[str, 1, 60] | None = None,
        premoves: bool | None = None,
        language: app_commands.Choice[str] | None = None,
        share_puzzles: bool | None = None,
        puzzle_channel: discord.TextChannel | None = None,
        puzzle_hour: int | None = None,
        puzzle_stop: bool = False,
    ) -> None:
        guild_id = guild_only(interaction)
        guilds = self.chat.guilds
        daily = self.daily_puzzles
        daily_change: dict[str, Any] = {}
        if puzzle_stop:
            if puzzle_channel is not None:
                raise Refusal("puzzle_daily_stop_and_channel")
            daily_change["channel_id"] = None
        elif puzzle_channel is not None:
            daily_change.update(channel_id=puzzle_channel.id, bot_can_post=bot_can_post_in(puzzle_channel))
        if puzzle_hour is not None:
            daily_change["hour"] = puzzle_hour
        manager = bool(interaction.permissions.manage_guild)
        if daily_change:  # checked before anything is stored: a refusal leaves every setting as it was
            await daily.planned(guild_id, is_manager=manager, **daily_change)
        changes: dict[str, Any] = {}
        if channel is not None:
            changes["match_channel_id"] = channel.id
        if days is not None:
            changes["days_per_move"] = days
        if reminder_hours is not None:
            changes["reminder_hours"] = reminder_hours
        if clock is not None:
            changes["clock_text"] = clock
        if premoves is not None:
            changes["analysis"] = premoves
        if language is not None:
            changes["language"] = chosen_language(language)
        if share_puzzles is not None:
            changes["share_puzzles"] = share_puzzles
        prefix = ""
        if changes:  # Discord hides the command from non-admins; the service checks again
            await guilds.configure(guild_id, is_admin=manager, **changes)
            self.chat.service.languages.forget_guild(guild_id)
        if daily_change:
            await daily.change(guild_id, is_manager=manager, **daily_change)
        if changes or daily_change:
            prefix = shared.saved().strip() + "\n"
        settings = await guilds.settings(guild_id)
        shown = words.server_settings(settings, self.chat.service.default_reminder_hours)
        shown += "\n" + puzzle_words.daily_setting(await daily.setting(guild_id))
        shown += "\n" + words.server_language(settings.language, await self.chat.service.languages.of_guild(guild_id))
        await interaction.response.send_message(prefix + shown, ephemeral=True)

    @app_commands.command(name="help", description="Hexplay's commands on one page")
    async def help(self, interaction: discord.Interaction) -> None:
        with speaking(str(interaction.locale)):  # the names the user sees in their Discord's language
            commands_ = [
                (shown_name(command), pt("command description", command.description))
                if isinstance(command, app_commands.Command)
                else (
                    shown_name(command),
                    f"{pt('command description', command.description)}"
                    f" ({', '.join(shown_name(sub) for sub in command.commands)})",
                )
                for command in self.tree.get_commands()
                if isinstance(command, app_commands.Command | app_commands.Group)
            ]
            await interaction.response.send_message(words.help_page(commands_), ephemeral=True)
