"""Puzzles from the server's own games (issue 36, docs/puzzles.md): ``/puzzle start|answer|text|stats``, the
Hint button, and the background search of finished matches.

Everything is private to the player: the puzzle, its picture, the answers. The answer is typed with the same
autocomplete as /move (the puzzle's position); it is judged by the puzzle's own data (bot/service/puzzles.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ...domain.errors import Refusal
from ...service.puzzles import PuzzleAnswer, Puzzles, PuzzleView
from ...service.suggestions import suggest_moves
from ..commands import GAME_CHOICES, guild_only
from ..common import guarded, mention_only, png_file
from ..context import Chat
from ..words import puzzles as words
from ..words import refusal, shared

log = logging.getLogger(__name__)


class PuzzleHintButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hx:pz:hint:(?P<puzzle>\d+):(?P<user>\d+)",
):
    """Where the answer starts, for the player whose puzzle it is (a forged or passed-on button is refused)."""

    def __init__(self, puzzle_id: int, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=words.hint_label(),
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"hx:pz:hint:{puzzle_id}:{user_id}",
            )
        )
        self.puzzle_id, self.user_id = puzzle_id, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> PuzzleHintButton:
        return cls(int(match["puzzle"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._hint(interaction))

    async def _hint(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise Refusal("puzzle_not_yours")
        view, hint = await puzzles_of(interaction).hint(interaction.user.id)
        if view.row.id != self.puzzle_id:
            raise Refusal("puzzle_finished")
        await interaction.response.send_message(words.hint_message(hint), ephemeral=True)


ITEMS = (PuzzleHintButton,)


def puzzles_of(interaction: discord.Interaction) -> Puzzles:
    cog = interaction.client.get_cog("Puzzles") if isinstance(interaction.client, commands.bot.BotBase) else None
    if not isinstance(cog, PuzzleCog):
        raise RuntimeError("the puzzles feature is not loaded")
    return cog.puzzles


def hint_view(view: PuzzleView) -> discord.ui.View:
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(PuzzleHintButton(view.row.id, view.attempt.user_id))
    return buttons


async def picture(chat: Chat, view: PuzzleView) -> discord.File:
    png = await chat.service.pictures.png(view.game, player_names=words.player_names(view), title=words.heading(view))
    return png_file(png, "puzzle.png", description=words.picture_description(view))


class PuzzleCog(commands.GroupCog, name="Puzzles", group_name="puzzle"):
    """Puzzles found in this server's finished games."""

    def __init__(self, chat: Chat, puzzles: Puzzles) -> None:
        self.chat = chat
        self.puzzles = puzzles
        super().__init__()

    @app_commands.command(name="start", description="A puzzle from this server's games, at your level (private)")
    @app_commands.describe(game="Only puzzles of this game")
    @app_commands.choices(game=GAME_CHOICES)
    async def start(self, interaction: discord.Interaction, game: str | None = None) -> None:
        guild_id = guild_only(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the picture takes a moment
        view = await self.puzzles.start(interaction.user.id, guild_id, game)
        await interaction.followup.send(
            words.puzzle_message(view), file=await picture(self.chat, view), view=hint_view(view), ephemeral=True
        )

    @app_commands.command(name="answer", description="Answer your puzzle, e.g. e5 (autocomplete lists legal moves)")
    @app_commands.describe(move="Your turn, as in /move")
    async def answer(self, interaction: discord.Interaction, move: str) -> None:
        current = await self.puzzles.current(interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        answered = await self.puzzles.answer(interaction.user.id, current.row.id, current.attempt.version, move)
        await self._tell(interaction, answered)

    async def _tell(self, interaction: discord.Interaction, answered: PuzzleAnswer) -> None:
        content = words.answer_message(answered)
        if answered.check.status != "continue":
            await interaction.followup.send(content, ephemeral=True, allowed_mentions=mention_only(None))
            return
        png = await self.chat.service.pictures.png(
            answered.view.game, player_names=words.player_names(answered.view), title=words.heading(answered.view)
        )
        file = png_file(png, "puzzle.png", description=words.reply_picture(answered))
        await interaction.followup.send(content, file=file, view=hint_view(answered.view), ephemeral=True)

    @answer.autocomplete("move")
    async def answer_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            view = await self.puzzles.current(interaction.user.id)
        except Refusal as error:
            return [app_commands.Choice(name=shared.clip_choice(refusal(error)), value="-")]
        pairs = await asyncio.to_thread(suggest_moves, view.game, current)
        return [app_commands.Choice(name=name, value=value) for name, value in pairs]

    @app_commands.command(name="text", description="Privately, your puzzle's position in words (for screen readers)")
    async def text(self, interaction: discord.Interaction) -> None:
        view = await self.puzzles.current(interaction.user.id)
        first, *more = words.board_text(view)
        await interaction.response.send_message(first, ephemeral=True, allowed_mentions=mention_only(None))
        for part in more:
            await interaction.followup.send(part, ephemeral=True, allowed_mentions=mention_only(None))

    @app_commands.command(name="leaderboard", description="This server's best puzzle ratings")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        board = await self.puzzles.leaderboard(guild_only(interaction))
        await interaction.response.send_message(
            words.leaderboard(board), ephemeral=True, allowed_mentions=mention_only(None)
        )

    @app_commands.command(name="stats", description="Your puzzle rating, puzzles solved and your streak")
    async def stats(self, interaction: discord.Interaction) -> None:
        player = await self.puzzles.player(interaction.user.id)
        await interaction.response.send_message(words.stats_message(player), ephemeral=True)


class PuzzleSearchLoop:
    """Periodically: search a few finished matches not yet searched for puzzles (each position one bounded
    proof in the computer's pool, so computer turns never wait long behind it)."""

    def __init__(self, client: discord.Client, puzzles: Puzzles, interval: float) -> None:
        self.client = client
        self.puzzles = puzzles
        self.interval = interval
        self._pass = asyncio.Lock()

    async def run_forever(self) -> None:
        await self.client.wait_until_ready()
        while not self.client.is_closed():
            await asyncio.sleep(self.interval)  # first: a start-up has more pressing work than puzzles
            async with self._pass:
                try:
                    await self.puzzles.scan_pending()
                except Exception:
                    log.exception("the puzzle search failed")

    async def stop(self, grace: float) -> None:
        try:  # a search cut short is taken up again after its lease (nothing stored half)
            await asyncio.wait_for(self._pass.acquire(), grace)
        except TimeoutError:
            log.info("a puzzle search was still running at shutdown: another process takes it up after its lease")
