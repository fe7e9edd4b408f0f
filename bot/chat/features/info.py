"""Looking at matches: /board, /history (with the Replay button), /games and /rules."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from games import get as get_game
from i18n import t

from ...domain.seats import game_of
from ...service.puzzles import Puzzles
from ..commands import GAME_CHOICES, guild_only, match_autocomplete, resolve_match_id
from ..context import Chat, chat_of
from ..door import handle_press
from ..game_words import option_description, summary
from ..outgoing import mention_only, png_file
from ..words import boards
from ..words import info as words
from .activity import open_board_view
from .puzzles import show_puzzle


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:gif:(?P<match>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("Replay (GIF)"), style=discord.ButtonStyle.secondary, custom_id=f"hx:gif:{match_id}"
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ReplayButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            service = chat_of(interaction).service
            service.check_guild(await service.get(self.match_id), interaction.guild_id)  # before any work
            await interaction.response.defer(ephemeral=True, thinking=True)
            gif = await service.history_gif(self.match_id, interaction.user.id, interaction.guild_id)
            row = await service.get(self.match_id)
            described = boards.replay_description(row, game_of(row))
            await interaction.followup.send(
                file=png_file(gif, f"match-{self.match_id}.gif", description=described), ephemeral=True
            )

        await handle_press(interaction, run)


class GamesPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hx:games:(?P<scope>mine|all):(?P<way>prev|next):(?P<page>\d+)",
):
    """Previous / Next under a /games list longer than a page: shows that page, as read now."""

    def __init__(self, scope: str, way: str, page: int) -> None:
        label = t("Previous") if way == "prev" else t("Next")
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"hx:games:{scope}:{way}:{page}"
            )
        )
        self.scope, self.way, self.page = scope, way, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> GamesPageButton:
        return cls(match["scope"], match["way"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            content, view = await games_page(chat_of(interaction), interaction, self.scope, self.page)
            await interaction.response.edit_message(content=content, view=view, allowed_mentions=mention_only(None))

        await handle_press(interaction, run)


class ZoomButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:zoom:(?P<match>\d+)"):
    """Under a board a phone cannot read whole (Bump, Begird's standard board): privately, the board around
    where the play is, twice as large (``/board zoom:last``)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("Zoom"), emoji="🔍", style=discord.ButtonStyle.secondary, custom_id=f"hx:zoom:{match_id}"
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> ZoomButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            chat = chat_of(interaction)
            chat.service.check_guild(await chat.service.get(self.match_id), interaction.guild_id)  # before any work
            await send_board(interaction, chat, self.match_id, "last")

        await handle_press(interaction, run)


ITEMS = (ReplayButton, GamesPageButton, ZoomButton)


async def send_board(interaction: discord.Interaction, chat: Chat, match_id: int, zoom: str | None) -> None:
    """The match's board, privately: whole, or ``zoom`` ("last" or a cell) part of it enlarged."""
    if zoom:
        # A zoomed board is drawn at twice the scale: the first one of a board size
        # builds its background (a second or so), past Discord's 3 s on a busy machine.
        await interaction.response.defer(ephemeral=True, thinking=True)
    shown = await chat.service.board(match_id, zoom=zoom or None)
    line = words.board_line(shown.match, shown.game, shown.vacations, chat.now())
    file = png_file(shown.png, description=boards.board_description(shown.match, shown.game, shown.last))
    view = open_board_view(interaction.client, chat, match_id)  # the Activity, when this bot has one
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    if zoom:
        await interaction.followup.send(line, file=file, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(line, file=file, ephemeral=True, **extra)


async def games_page(
    chat: Chat, interaction: discord.Interaction, scope: str, page: int
) -> tuple[str, discord.ui.View | None]:
    """A page of /games (``scope`` mine or all) and its Previous / Next buttons (None when one page holds all)."""
    guild_id = guild_only(interaction)
    if scope == "all":
        matches = await chat.guilds.server_matches(guild_id)
        count, content = len(matches), words.server_matches(matches, chat.now(), page)
    else:
        listed = await chat.service.my_matches(interaction.user.id, guild_id)
        count, content = len(listed), words.my_matches(listed, interaction.user.id, chat.now(), page)
    pages = words.match_pages(count)
    page = min(max(page, 0), pages - 1)
    if pages == 1:
        return content, None
    view = discord.ui.View(timeout=None)
    if page > 0:
        view.add_item(GamesPageButton(scope, "prev", page - 1))
    if page < pages - 1:
        view.add_item(GamesPageButton(scope, "next", page + 1))
    return content, view


class InfoCog(commands.Cog, name="Info"):
    def __init__(self, chat: Chat, puzzles: Puzzles) -> None:
        self.chat = chat
        self.puzzles = puzzles  # /board shows the player's open puzzle (docs/puzzles.md)

    @app_commands.command(name="board", description="Show a match's current board")
    @app_commands.describe(
        match="Which match (only needed outside the match's thread; without it, a puzzle you are solving)",
        zoom="Bump, Begird: enlarge the board around the last move (last) or a space (e.g. i9, 431)",
        text="Privately, the position in words instead of a picture (for screen readers)",
    )
    @app_commands.autocomplete(match=match_autocomplete)
    async def board(
        self, interaction: discord.Interaction, match: int | None = None, zoom: str | None = None, text: bool = False
    ) -> None:
        if match is None and zoom is None:  # a puzzle open, outside a match's thread: the board meant is the puzzle's
            puzzle = await self.puzzles.shown_by_board(interaction.user.id, interaction.channel_id or 0)
            if puzzle is not None:
                await show_puzzle(interaction, self.chat, puzzle, text=text)
                return
        match_id = await resolve_match_id(interaction, match, acting=False)
        service = self.chat.service
        if text:
            shown = await service.board(match_id, picture=False)
            first, *more = boards.board_text(shown.match, shown.game, shown.last)
            await interaction.response.send_message(first, ephemeral=True, allowed_mentions=mention_only(None))
            for part in more:
                await interaction.followup.send(part, ephemeral=True, allowed_mentions=mention_only(None))
            return
        await send_board(interaction, self.chat, match_id, zoom)

    @app_commands.command(name="history", description="A match's move list, with a GIF replay on request")
    @app_commands.describe(
        match="Which match (only needed outside the match's thread)",
        gif="Also send an animated replay of the whole match",
    )
    @app_commands.autocomplete(match=match_autocomplete)
    async def history(self, interaction: discord.Interaction, match: int | None = None, gif: bool = False) -> None:
        match_id = await resolve_match_id(interaction, match, acting=False)
        service = self.chat.service
        row, logged = await service.history(match_id)
        text = words.history(row, [words.history_line(row, e.number, e.move, e.holder_id) for e in logged])
        if gif:
            await interaction.response.defer(ephemeral=True, thinking=True)
            data = await service.history_gif(match_id, interaction.user.id, interaction.guild_id)
            described = boards.replay_description(row, game_of(row))
            await interaction.followup.send(
                text, file=png_file(data, f"match-{match_id}.gif", description=described), ephemeral=True
            )
        else:
            view = discord.ui.View(timeout=None)
            view.add_item(ReplayButton(match_id))
            await interaction.response.send_message(text, view=view, ephemeral=True)

    @app_commands.command(name="games", description="Your matches in this server (all:true lists everyone's)")
    @app_commands.describe(all="List every match in play in this server, to watch them")
    async def games(self, interaction: discord.Interaction, all: bool = False) -> None:
        content, view = await games_page(self.chat, interaction, "all" if all else "mine", 0)
        await interaction.response.send_message(
            content, view=view or discord.utils.MISSING, ephemeral=True, allowed_mentions=mention_only(None)
        )

    @app_commands.command(name="rules", description="How to play a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        info = get_game(game.value)
        # TRANSLATORS: the title of /rules, e.g. "Bide — rules".
        title = t("{game} — rules", game=info.name)
        embed = discord.Embed(title=title, description=summary(info)[:4096], colour=0x3B82F6)
        seats = (
            f"{info.min_players}" if info.min_players == info.max_players else f"{info.min_players}–{info.max_players}"
        )
        embed.add_field(name=t("Players"), value=seats)
        for spec in info.options:
            allowed = ", ".join(str(v) for v in spec.allowed)
            # TRANSLATORS: an option of a game in /rules: its key (e.g. side) stays as typed.
            name = t("Option {key}", key=spec.key)
            # TRANSLATORS: a game option's description, then its default value and the values it takes.
            value = t(
                "{description} (default {default}; {allowed})",
                description=option_description(spec),
                default=spec.default,
                allowed=allowed,
            )
            embed.add_field(name=name, value=value[:1024])
        await interaction.response.send_message(embed=embed, ephemeral=True)
