"""/move, /preview and /resign."""

from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from ..service import ServiceError
from ..ui import ResignConfirmButton, png_file
from .common import bot_of, match_autocomplete, resolve_match_id


class MovesCog(commands.Cog, name="Moves"):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description="Play your turn, e.g. e5 (autocomplete lists legal moves)")
    @app_commands.describe(move="Your turn in the game's notation; keep typing after a space or comma to add actions",
                           match="Which match (only needed outside the match's thread)")
    async def move(self, interaction: discord.Interaction, move: str, match: Optional[int] = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        await bot_of(interaction).play_and_announce(interaction, match_id, move)

    @app_commands.command(name="preview", description="Privately see the board after a move, without playing it")
    @app_commands.describe(move="The move to try (a whole turn, or its first actions)", match="Which match (only needed outside the match's thread)")
    async def preview(self, interaction: discord.Interaction, move: str, match: Optional[int] = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        png, line = await bot_of(interaction).service.preview(match_id, interaction.user.id, move)
        await interaction.response.send_message(line, file=png_file(png, "preview.png"), ephemeral=True)

    @app_commands.command(name="hint", description="Privately: the move the medium computer would play for you")
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def hint(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        bot = bot_of(interaction)
        bot.computer.check_hint(await bot.service.get(match_id), interaction.user.id)  # refused at once, privately
        await interaction.response.defer(ephemeral=True, thinking=True)  # thinking takes a second or two
        notation = await bot.computer.hint(match_id, interaction.user.id)
        png, line = await bot.service.preview(match_id, interaction.user.id, notation)
        text = (f"Hint: the medium computer would play `{notation}` (only you see this).\n"
                f"{line}\nPlay it with `/move {notation}`.")
        await interaction.followup.send(text[:2000], file=png_file(png, "hint.png"), ephemeral=True)

    @app_commands.command(name="turn", description="Build your turn action by action from menus (privately)")
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def turn(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        await bot_of(interaction).turn_builder(interaction, "open", match_id, None, [])

    @move.autocomplete("move")
    @preview.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str):
        service = bot_of(interaction).service
        try:
            match_ref = getattr(interaction.namespace, "match", None)
            row = await service.resolve(interaction.user.id, interaction.guild_id or 0, interaction.channel_id or 0,
                                        match_ref)
            if row.status != "active":
                return [app_commands.Choice(name=f"{service.title(row)} is not in play", value="-")]
            game = service.game_of(row)
            pairs = service.suggestions(row, game, interaction.user.id, current)
        except ServiceError as error:
            text = str(error)
            return [app_commands.Choice(name=text[:99] + ("…" if len(text) > 99 else ""), value="-")]
        return [app_commands.Choice(name=name, value=value) for name, value in pairs]

    @move.autocomplete("match")
    @preview.autocomplete("match")
    async def match_choice(self, interaction: discord.Interaction, current: str):
        return await match_autocomplete(interaction, current)

    @app_commands.command(name="resign", description="Resign from a match (asks for confirmation)")
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def resign(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        service = bot_of(interaction).service
        row, game = await service.active(match_id)
        service.engine_seat_of(row, game, interaction.user.id)  # refuses non-players now, not at the button
        view = discord.ui.View(timeout=None)
        view.add_item(ResignConfirmButton(match_id, interaction.user.id))
        await interaction.response.send_message(
            f"Resign from **{service.title(row)}**? This cannot be undone.", view=view, ephemeral=True)

    @app_commands.command(name="draw", description="Offer a draw (games that can be drawn); the others accept or decline")
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def draw(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        await bot_of(interaction).offer_and_announce(interaction, match_id, "draw")

    @app_commands.command(name="undo", description="Ask the other players to take back your last turn")
    @app_commands.describe(match="Which match (only needed outside the match's thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def undo(self, interaction: discord.Interaction, match: Optional[int] = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        await bot_of(interaction).offer_and_announce(interaction, match_id, "undo")
