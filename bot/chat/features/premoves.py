"""Conditional moves (/premove) and the private analysis board (/explore): every answer is private.

The rules are the service's (``bot/service/premoves.py``); a conditional answer the bot plays is posted by
the announcer after the turn it answers (``Announcer.follow_conditional``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ...domain.errors import Refusal
from ...service.premoves import EXPLORE_STEPS
from ...service.suggestions import CHOICE_TEXT_LIMIT
from ..commands import match_autocomplete, resolve_match, resolve_match_id
from ..context import Chat
from ..outgoing import png_file
from ..words import boards, refusal, shared
from ..words import premoves as words
from ..words.moves import move_choices

STEP_CHOICES = [app_commands.Choice(name=step, value=step) for step in EXPLORE_STEPS]


class PremovesCog(commands.Cog, name="Premoves"):
    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    @app_commands.command(
        name="premove", description="Privately: if they play X, answer Y at once (lines of turns; no line: list them)"
    )
    @app_commands.describe(
        line="Turns separated by ';', theirs and yours, e.g. e5; d4 (autocomplete lists legal turns at each step)",
        clear="Remove all your conditional moves in this match",
        match="Which match (only needed outside the match's thread)",
    )
    @app_commands.autocomplete(match=match_autocomplete)
    async def premove(
        self, interaction: discord.Interaction, line: str | None = None, clear: bool = False, match: int | None = None
    ) -> None:
        match_id = await resolve_match_id(interaction, match)
        service = self.chat.service
        user_id = interaction.user.id
        if clear:
            await service.clear_premoves(match_id, user_id)
            await interaction.response.send_message(words.premoves_removed(), ephemeral=True)
            return
        if line is None or not line.strip():
            shown = await service.premoves(match_id, user_id)
        else:
            shown = await service.add_premove(match_id, user_id, line)
        if not shown.line:
            await interaction.response.send_message(words.premoves(shown), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # stored; the picture takes a moment
        png = await service.line_picture(shown)
        assert png is not None
        content = words.premoves(shown)
        described = boards.described(words.premove_picture(), content)
        await interaction.followup.send(
            content, file=png_file(png, "premove.png", description=described), ephemeral=True
        )

    @premove.autocomplete("line")
    async def line_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = self.chat.service
        try:
            row = await resolve_match(interaction, getattr(interaction.namespace, "match", None))
            if row.status != "active":
                return [app_commands.Choice(name=shared.not_in_play(row), value="-")]
            pairs = move_choices(service.premove_suggestions(row, interaction.user.id, current))
        except Refusal as error:
            return [app_commands.Choice(name=shared.clip_choice(refusal(error)), value="-")]
        return [
            app_commands.Choice(name=shared.clip_choice(name), value=value)
            for name, value in pairs
            if len(value) <= CHOICE_TEXT_LIMIT  # a longer line is simply typed on
        ]

    @app_commands.command(
        name="explore", description="Privately try turns for either side on a copy of the position (nothing is played)"
    )
    @app_commands.describe(
        turn="A turn for whoever is to move on your board (autocomplete lists the legal ones)",
        step="open (default), new (a fresh copy), back, forward, save (the line shown, as conditional moves), close",
        match="Which match (only needed outside the match's thread)",
    )
    @app_commands.choices(step=STEP_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete)
    async def explore(
        self,
        interaction: discord.Interaction,
        turn: str | None = None,
        step: app_commands.Choice[str] | None = None,
        match: int | None = None,
    ) -> None:
        match_id = await resolve_match_id(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a picture takes a moment
        shown = await self.chat.service.explore(match_id, interaction.user.id, step.value if step else "open", turn)
        content = words.exploration(shown)
        described = boards.described(words.explore_picture(), content)
        await interaction.followup.send(
            content, file=png_file(shown.png, "explore.png", description=described), ephemeral=True
        )

    @explore.autocomplete("turn")
    async def turn_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = self.chat.service
        try:
            row = await resolve_match(interaction, getattr(interaction.namespace, "match", None))
            if row.status != "active":
                return [app_commands.Choice(name=shared.not_in_play(row), value="-")]
            kept = await service.exploration_of(row.id, interaction.user.id)
            pairs = move_choices(service.explore_suggestions(kept, row, current))
        except Refusal as error:
            return [app_commands.Choice(name=shared.clip_choice(refusal(error)), value="-")]
        return [app_commands.Choice(name=shared.clip_choice(name), value=value) for name, value in pairs]
