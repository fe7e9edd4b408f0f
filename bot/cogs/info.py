"""/board, /history, /games and /rules."""

from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from games import get as get_game

from ..service import waited
from ..text import escape
from ..ui import ReplayButton, mention_only, png_file
from .common import (
    GAME_CHOICES,
    bot_of,
    guild_only,
    match_autocomplete,
    resolve_match_id,
)

MESSAGE_LIMIT = 2000


class InfoCog(commands.Cog, name="Info"):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="board", description="Show a match's current board")
    @app_commands.describe(match="Which match (only needed outside the match's thread)",
                           zoom="Begird: enlarge the board around the last move (last) or a cell (e.g. i9)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def board(self, interaction: discord.Interaction, match: Optional[int] = None,
                    zoom: Optional[str] = None) -> None:
        match_id = await resolve_match_id(interaction, match)
        if zoom:
            # A zoomed board is drawn at twice the scale: the first one of a board size
            # builds its background (a second or so), past Discord's 3 s on a busy machine.
            await interaction.response.defer(ephemeral=True, thinking=True)
            _, _, png, line = await bot_of(interaction).service.board(match_id, zoom=zoom)
            await interaction.followup.send(line, file=png_file(png), ephemeral=True)
            return
        _, _, png, line = await bot_of(interaction).service.board(match_id)
        await interaction.response.send_message(line, file=png_file(png), ephemeral=True)

    @app_commands.command(name="history", description="A match's move list, with a GIF replay on request")
    @app_commands.describe(match="Which match (only needed outside the match's thread)",
                           gif="Also send an animated replay of the whole match")
    @app_commands.autocomplete(match=match_autocomplete)
    async def history(self, interaction: discord.Interaction, match: Optional[int] = None, gif: bool = False) -> None:
        match_id = await resolve_match_id(interaction, match)
        service = bot_of(interaction).service
        row, lines = await service.history(match_id)
        header = f"**{service.title(row)}** — {len(lines)} move{'s' * (len(lines) != 1)}\n"
        body = "\n".join(lines) or "No moves yet."
        if len(header) + len(body) > MESSAGE_LIMIT - 20:
            # keep the latest moves; the GIF shows the whole game
            kept: list[str] = []
            budget = MESSAGE_LIMIT - len(header) - 40
            for line in reversed(lines):
                if budget - len(line) - 1 < 0:
                    break
                kept.insert(0, line)
                budget -= len(line) + 1
            body = f"… {len(lines) - len(kept)} earlier moves\n" + "\n".join(kept)
        view = discord.ui.View(timeout=None)
        view.add_item(ReplayButton(match_id))
        if gif:
            await interaction.response.defer(ephemeral=True, thinking=True)
            data = await service.history_gif(match_id, interaction.user.id, interaction.guild_id)
            await interaction.followup.send(header + body, file=png_file(data, f"match-{match_id}.gif"),
                                            ephemeral=True)
        else:
            await interaction.response.send_message(header + body, view=view, ephemeral=True)

    @app_commands.command(name="games", description="Your matches in this server (all:true lists everyone's)")
    @app_commands.describe(all="List every match in play in this server, to watch them")
    async def games(self, interaction: discord.Interaction, all: bool = False) -> None:
        guild_id = guild_only(interaction)
        service = bot_of(interaction).service
        if all:
            lines = await bot_of(interaction).servers.server_matches(guild_id)
            text = "**Matches in play in this server**\n" + "\n".join(lines) if lines else \
                "No match is in play in this server. Start one with /play."
            if len(text) > MESSAGE_LIMIT:
                text = text[: MESSAGE_LIMIT - 30].rsplit("\n", 1)[0] + "\n… and more"
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=mention_only(None))
            return
        listed = await service.my_matches(interaction.user.id, guild_id)
        if not listed:
            await interaction.response.send_message("You have no matches here. Start one with /play.",
                                                    ephemeral=True)
            return
        lines = []
        for match, game, waiting in listed:
            where = f"<#{match.home_channel_id}>"
            if game is None:
                state = "waiting for players"
            elif waiting:
                state = f"**your move** (waiting {waited(match, service.clock.now())})"
            else:
                assert game.to_move is not None
                state = f"{escape(service.player_row(match, game, game.to_move).name)} to move"
            state += service.time_note(match, ", ")
            others = ", ".join(escape(s.name) for s in match.seats if s.user_id != interaction.user.id) \
                or "open seats"
            lines.append(f"• {service.title(match)} with {others} — {state} — {where}")
        text = "\n".join(lines)
        if len(text) > MESSAGE_LIMIT:
            text = text[: MESSAGE_LIMIT - 30].rsplit("\n", 1)[0] + "\n… and more"
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="rules", description="How to play a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        info = get_game(game.value)
        embed = discord.Embed(title=f"{info.name} — rules", description=info.summary[:4096], colour=0x3B82F6)
        seats = f"{info.min_players}" if info.min_players == info.max_players else \
            f"{info.min_players}–{info.max_players}"
        embed.add_field(name="Players", value=seats)
        for spec in info.options:
            allowed = ", ".join(str(v) for v in spec.allowed)
            embed.add_field(name=f"Option {spec.key}", value=f"{spec.description} (default {spec.default}; {allowed})"[:1024])
        await interaction.response.send_message(embed=embed, ephemeral=True)
