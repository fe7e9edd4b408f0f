"""Puzzles from the server's own games (issue 36, docs/puzzles.md): ``/puzzle start|answer|text|stats``, the
Hint button, and the background search of finished matches.

Everything is private to the player: the puzzle, its picture, the answers. The answer is typed with the same
autocomplete as /move (the puzzle's position); it is judged by the puzzle's own data (bot/service/puzzles.py).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ...domain.errors import Refusal
from ...service.daily_puzzles import DEFAULT_HOUR, DailyPost, DailyPuzzles
from ...service.puzzles import SELF_PLAY_GAMES, PuzzleAnswer, Puzzles, PuzzleView
from ...service.suggestions import MAX_CHOICES, suggest_moves
from ..commands import GAME_CHOICES, bot_can_post_in, guild_only
from ..context import Chat
from ..door import handle_press
from ..outgoing import mention_only, png_file
from ..speech import in_public
from ..words import moves as move_words
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
        await handle_press(interaction, lambda: self._hint(interaction))

    async def _hint(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise Refusal("puzzle_not_yours")
        _, hint = await puzzles_of(interaction).hint(interaction.user.id, self.puzzle_id)
        await interaction.response.send_message(words.hint_message(hint), ephemeral=True)


class PuzzleSolveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hx:pz:solve:(?P<puzzle>\d+)",
):
    """The daily post's button: the presser's own private attempt at that puzzle."""

    def __init__(self, puzzle_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=words.solve_label(),
                emoji="🧩",
                style=discord.ButtonStyle.primary,
                custom_id=f"hx:pz:solve:{puzzle_id}",
            )
        )
        self.puzzle_id = puzzle_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> PuzzleSolveButton:
        return cls(int(match["puzzle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_press(interaction, lambda: self._solve(interaction))

    async def _solve(self, interaction: discord.Interaction) -> None:
        cog = cog_of(interaction)
        view = await cog.daily.solve(interaction.user.id, guild_only(interaction), self.puzzle_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(
            words.puzzle_message(view), file=await picture(cog.chat, view), view=hint_view(view), ephemeral=True
        )


ITEMS = (PuzzleHintButton, PuzzleSolveButton)


def cog_of(interaction: discord.Interaction) -> PuzzleCog:
    cog = interaction.client.get_cog("Puzzles") if isinstance(interaction.client, commands.bot.BotBase) else None
    if not isinstance(cog, PuzzleCog):
        raise RuntimeError("the puzzles feature is not loaded")
    return cog


def puzzles_of(interaction: discord.Interaction) -> Puzzles:
    return cog_of(interaction).puzzles


def hint_view(view: PuzzleView) -> discord.ui.View:
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(PuzzleHintButton(view.row.id, view.attempt.user_id))
    return buttons


async def picture(chat: Chat, view: PuzzleView) -> discord.File:
    png = await chat.service.pictures.png(view.game, player_names=words.player_names(view), title=words.heading(view))
    return png_file(png, "puzzle.png", description=words.picture_description(view))


async def show_puzzle(interaction: discord.Interaction, chat: Chat, view: PuzzleView, *, text: bool) -> None:
    """The player's puzzle, privately: in words (``text``: for screen readers), or its picture with the Hint
    button (as /puzzle start gives it)."""
    if text:
        first, *more = words.board_text(view)
        await interaction.response.send_message(first, ephemeral=True, allowed_mentions=mention_only(None))
        for part in more:
            await interaction.followup.send(part, ephemeral=True, allowed_mentions=mention_only(None))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)  # the picture takes a moment
    await interaction.followup.send(
        words.puzzle_message(view), file=await picture(chat, view), view=hint_view(view), ephemeral=True
    )


class PuzzleCog(commands.GroupCog, name="Puzzles", group_name="puzzle"):
    """Puzzles found in this server's finished games."""

    def __init__(self, chat: Chat, puzzles: Puzzles, daily: DailyPuzzles) -> None:
        self.chat = chat
        self.puzzles = puzzles
        self.daily = daily
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
        content = words.answer_message(answered, interaction.guild_id)
        if answered.check.status != "continue":
            await interaction.followup.send(content, ephemeral=True, allowed_mentions=mention_only(None))
            if answered.check.status == "right":
                await self._recount(answered)
            return
        png = await self.chat.service.pictures.png(
            answered.view.game, player_names=words.player_names(answered.view), title=words.heading(answered.view)
        )
        file = png_file(png, "puzzle.png", description=words.reply_picture(answered))
        await interaction.followup.send(content, file=file, view=hint_view(answered.view), ephemeral=True)

    async def _recount(self, answered: PuzzleAnswer) -> None:
        """A daily puzzle's post shows its new count of solvers (and the fastest): best effort, the count is
        stored; the next solve shows it if this edit fails."""
        daily = await self.daily.post_of(answered.view.row.id)
        if daily is None or daily.message_id is None:
            return
        try:
            channel = self.chat.announcer.client.get_channel(daily.channel_id)
            if isinstance(channel, discord.TextChannel | discord.Thread):
                puzzle = answered.view.puzzle
                async with in_public(self.chat.service.languages, daily.guild_id):
                    content = words.daily_post(puzzle, puzzle.start(), daily)
                await channel.get_partial_message(daily.message_id).edit(
                    content=content, allowed_mentions=mention_only(None)
                )
        except discord.HTTPException:
            log.warning("the daily puzzle post %s could not be updated", daily.message_id, exc_info=True)

    @answer.autocomplete("move")
    async def answer_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            view = await self.puzzles.current(interaction.user.id)
        except Refusal as error:
            return [app_commands.Choice(name=shared.clip_choice(refusal(error)), value="-")]
        choices = await asyncio.to_thread(suggest_moves, view.game, current)
        pairs = move_words.move_choices(choices[:MAX_CHOICES])
        return [app_commands.Choice(name=name, value=value) for name, value in pairs]

    @app_commands.command(name="text", description="Privately, your puzzle's position in words (for screen readers)")
    async def text(self, interaction: discord.Interaction) -> None:
        await show_puzzle(interaction, self.chat, await self.puzzles.current(interaction.user.id), text=True)

    @app_commands.command(name="leaderboard", description="This server's best puzzle ratings")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        board = await self.puzzles.leaderboard(guild_only(interaction))
        await interaction.response.send_message(
            words.leaderboard(board), ephemeral=True, allowed_mentions=mention_only(None)
        )

    @app_commands.command(name="daily", description="Post a puzzle every day in a channel, at an hour (UTC)")
    @app_commands.describe(channel="Where (leave out to stop the daily puzzle)", hour="The hour, 0 to 23 (UTC)")
    async def daily_setting(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None, hour: int = DEFAULT_HOUR
    ) -> None:
        """A shortcut of /config puzzle_channel: puzzle_hour: (or puzzle_stop:), by the same rule."""
        guild_id = guild_only(interaction)
        manager = bool(interaction.permissions.manage_guild)
        can_post = channel is None or bot_can_post_in(channel)
        await self.daily.change(
            guild_id,
            is_manager=manager,
            channel_id=None if channel is None else channel.id,
            hour=hour,
            bot_can_post=can_post,
        )
        await interaction.response.send_message(
            words.daily_set(None if channel is None else channel.id, hour), ephemeral=True
        )

    @app_commands.command(name="stats", description="Your puzzle rating, puzzles solved and your streak")
    async def stats(self, interaction: discord.Interaction) -> None:
        player = await self.puzzles.player(interaction.user.id)
        await interaction.response.send_message(words.stats_message(player), ephemeral=True)


class PuzzleSearchLoop:
    """Periodically: search a few finished matches not yet searched for puzzles, then, while the puzzles of
    the computer's own games are few, one more such game (both in the puzzles' own low-priority pool, so
    neither a /move nor a computer's turn waits behind them; with workers, sent to their queue instead)."""

    def __init__(
        self, client: discord.Client, puzzles: Puzzles, interval: float, close: Callable[[], None] = lambda: None
    ) -> None:
        self.client = client
        self.puzzles = puzzles
        self.interval = interval
        self.close = close  # the pool's, at the stop
        self._pass = asyncio.Lock()
        self._seeds = random.Random()  # two processes rarely play one seed; if they do, it is stored once

    async def run_forever(self) -> None:
        await self.client.wait_until_ready()
        while not self.client.is_closed():
            await asyncio.sleep(self.interval)  # first: a start-up has more pressing work than puzzles
            async with self._pass:
                try:
                    await self.puzzles.search_pass(SELF_PLAY_GAMES, self._seeds.randrange(2**31))
                except Exception:
                    log.exception("the puzzle search failed")

    async def stop(self, grace: float) -> None:
        try:  # a search cut short is taken up again after its lease (nothing stored half)
            await asyncio.wait_for(self._pass.acquire(), grace)
        except TimeoutError:
            log.info("a puzzle search was still running at shutdown: another process takes it up after its lease")
        self.close()


class DailyPuzzleLoop:
    """Every ``interval``: the daily puzzles due are claimed and posted, each once (bot/service/daily_puzzles.py)."""

    def __init__(self, client: discord.Client, chat: Chat, daily: DailyPuzzles, interval: float) -> None:
        self.client = client
        self.chat = chat
        self.daily = daily
        self.interval = interval
        self._pass = asyncio.Lock()

    async def run_forever(self) -> None:
        await self.client.wait_until_ready()
        while not self.client.is_closed():
            async with self._pass:
                try:
                    await self.post_due()
                except Exception:
                    log.exception("the daily puzzle pass failed")
            await asyncio.sleep(self.interval)

    async def post_due(self) -> int:
        posted = 0
        for guild_id, channel_id in await self.daily.due():
            post = await self.daily.claim(guild_id, channel_id)
            if post is None:
                continue
            try:
                await self._post(post)
                posted += 1
            except (discord.NotFound, discord.Forbidden) as error:  # the channel is gone or closed to the bot
                log.warning("server %s: the daily puzzle cannot be posted in %s: %s", guild_id, channel_id, error)
                await self.daily.skip(post)  # not today; tomorrow's pass tries again
            except BaseException:
                await asyncio.shield(self.daily.release(post))  # another pass posts it (same nonce: once)
                raise
        return posted

    async def _post(self, post: DailyPost) -> None:
        channel = self.client.get_channel(post.row.channel_id) or await self.client.fetch_channel(post.row.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise RuntimeError(f"channel {post.row.channel_id} takes no messages")
        async with in_public(self.chat.service.languages, post.row.guild_id):
            png = await self.chat.service.pictures.png(post.game, player_names=words.colours(post.game), title=None)
            file = png_file(png, "puzzle.png", description=words.daily_picture(post.puzzle, post.game))
            buttons = discord.ui.View(timeout=None)
            buttons.add_item(PuzzleSolveButton(post.row.puzzle_id))
            message = await channel.send(
                words.daily_post(post.puzzle, post.game, post.row),
                file=file,
                view=buttons,
                nonce=post.nonce,
                allowed_mentions=mention_only(None),
            )
        await self.daily.posted(post, message.id)

    async def stop(self, grace: float) -> None:
        try:
            await asyncio.wait_for(self._pass.acquire(), grace)
        except TimeoutError:
            log.info("a daily puzzle post was still being made at shutdown: its claim lapses, the next posts it once")
