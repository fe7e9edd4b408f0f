"""The Discord client: wiring, start-up, and announcing what the service decided."""

from __future__ import annotations

import asyncio
import logging

import discord
import yarl
from discord.ext import commands

import render

from .clock import Clock, OffsetFileClock
from .config import Settings
from .service import MatchService, Outcome, ServiceError
from .storage import MatchRow, Store
from .ui import (
    DYNAMIC_ITEMS,
    board_view,
    lobby_view,
    mention_only,
    png_file,
    reply_error,
)

log = logging.getLogger(__name__)


def point_client_at(api_base_url: str, gateway_url: str) -> None:
    """Send discord.py's REST and gateway traffic to another endpoint (proxy or emulator)."""
    if api_base_url:
        discord.http.Route.BASE = api_base_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


# The bot permissions the invite link asks for (README "Invite the bot"): View Channels, Send Messages,
# Embed Links, Attach Files, Read Message History, Create Public Threads, Send Messages in Threads.
INVITE_PERMISSIONS = 309237763072


def invite_url(application_id: int) -> str:
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}"
            f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}")


# Hexplay never joins voice: silence discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
if hasattr(discord.VoiceClient, "warn_dave"):
    discord.VoiceClient.warn_dave = False


class HexplayBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store, clock: Clock | None = None, **options) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), **options)
        self.settings = settings
        self.store = store
        self.service = MatchService(store, clock, default_reminder_hours=settings.reminder_hours)
        self.reminder_task: asyncio.Task | None = None
        self._caught_up = False  # missed boards are posted once, at the first on_ready

    async def setup_hook(self) -> None:
        from .cogs import COGS
        from .reminders import ReminderLoop

        for cog in COGS:
            await self.add_cog(cog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error
        await asyncio.to_thread(render.warm_up)  # palettes: the first picture would take ~0.4 s otherwise
        repaired = await self.service.verify_all()
        if repaired:
            log.warning("repaired matches from their move logs: %s", repaired)
        if self.settings.dev_guild_ids:
            for guild_id in self.settings.dev_guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.reminders = ReminderLoop(self)
        self.reminder_task = asyncio.create_task(self.reminders.run_forever())

    async def on_ready(self) -> None:
        if not self._caught_up:
            self._caught_up = True
            log.info(self.connected_line())
            await self.announce_missed()

    def connected_line(self) -> str:
        """One line for the operator: who, where, how commands were synced, and the invite link."""
        count = len(self.guilds)
        servers = f"{count} server" + ("" if count == 1 else "s")
        if self.settings.dev_guild_ids:
            ids = ", ".join(str(g) for g in self.settings.dev_guild_ids)
            synced = f"commands synced to the dev servers {ids} (they appear at once)"
        else:
            synced = "commands synced globally (the first time they may take up to an hour to appear)"
        return (f"Connected as {self.user} (id {self.user.id if self.user else '?'}) in {servers}; {synced}. "
                f"Invite it to a server: {invite_url(self.application_id or 0)}")

    async def announce_missed(self) -> None:
        """Post the boards of moves that were stored but never shown (a stop between the two)."""
        for outcome in await self.service.unannounced():
            match = outcome.match
            home = await self.channel_by_id(match.home_channel_id)
            if home is None or outcome.game is None:
                continue
            png = await self.service.render(match, outcome.game, outcome.events)
            kwargs = dict(file=png_file(png), allowed_mentions=mention_only(outcome.mention_user_id))
            view = board_view(outcome)
            if view is not None:
                kwargs["view"] = view
            try:
                message = await home.send(f"(Posted after a restart.) {outcome.line}", **kwargs)
            except discord.HTTPException:
                log.exception("could not post the missed board of match %s", match.id)
                continue
            await self.store.mark_announced(match.id, match.version, message.channel.id, message.id)

    async def close(self) -> None:
        if self.reminder_task is not None:
            self.reminder_task.cancel()
        await super().close()
        await self._finish_handlers()

    async def _finish_handlers(self, timeout: float = 5.0) -> None:
        """Let commands and buttons already running finish (and record their work) before the database closes."""
        prefixes = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord.py: ")
        running = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()
                   and t.get_name().startswith(prefixes)]
        if running:
            await asyncio.wait(running, timeout=timeout)

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, ServiceError):
            await reply_error(interaction, str(original))
        elif isinstance(error, discord.app_commands.CheckFailure):
            await reply_error(interaction, str(error) or "You cannot use this command here.")
        else:
            log.error("command failed", exc_info=original)
            await reply_error(interaction, "Something went wrong on our side; nothing was changed. Please try again.")

    # -- channels ------------------------------------------------------------------

    async def channel_by_id(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel  # type: ignore[return-value]

    # -- announcing ----------------------------------------------------------------

    async def post_board(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """Show the new position: in reply when typed in the match's home, else there and privately here."""
        match, game = outcome.match, outcome.game
        assert game is not None
        png = await self.service.render(match, game, outcome.events)
        view = board_view(outcome)
        kwargs = dict(content=outcome.line, file=png_file(png), allowed_mentions=mention_only(outcome.mention_user_id))
        if view is not None:
            kwargs["view"] = view
        if interaction.channel_id == match.home_channel_id:
            response = await interaction.response.send_message(**kwargs)
            message_id = response.message_id
            channel_id = match.home_channel_id
        else:
            home = await self.channel_by_id(match.home_channel_id)
            if home is None:
                raise ServiceError("The match's thread is gone; use /board to see the position.")
            message = await home.send(**kwargs)
            await interaction.response.send_message(f"Done: {outcome.line} (see <#{match.home_channel_id}>)",
                                                    ephemeral=True, allowed_mentions=mention_only(None))
            message_id, channel_id = message.id, message.channel.id
        if message_id is not None:
            await self.store.mark_announced(match.id, match.version, channel_id, message_id)

    async def play_and_announce(self, interaction: discord.Interaction, match_id: int, text: str,
                                expected_version: int | None = None) -> None:
        outcome = await self.service.play(match_id, interaction.user.id, text, expected_version=expected_version)
        await self.post_board(interaction, outcome)

    async def resign_and_announce(self, interaction: discord.Interaction, match_id: int) -> None:
        outcome = await self.service.resign(match_id, interaction.user.id)
        await interaction.response.edit_message(content="You resigned.", view=None)
        home = await self.channel_by_id(outcome.match.home_channel_id)
        if home is not None and outcome.game is not None:
            png = await self.service.render(outcome.match, outcome.game, outcome.events)
            message = await home.send(outcome.line, file=png_file(png),
                                      allowed_mentions=mention_only(outcome.mention_user_id))
            await self.store.mark_announced(match_id, outcome.match.version, message.channel.id, message.id)

    async def lobby_button(self, interaction: discord.Interaction, action: str, match_id: int) -> None:
        user = (interaction.user.id, interaction.user.display_name)
        service = self.service
        if action == "accept":
            outcome = await service.accept(match_id, user[0])
        elif action == "decline":
            outcome = await service.decline(match_id, user[0])
        elif action == "join":
            outcome = await service.join(match_id, user)
        elif action == "start":
            outcome = await service.start(match_id, user[0])
        else:
            outcome = await service.cancel(match_id, user[0])
        match = outcome.match
        if outcome.started:
            await interaction.response.edit_message(content=service.lobby_text(match) + "\n" + outcome.line,
                                                    view=None, allowed_mentions=mention_only(None))
            await self.open_match(interaction, match, outcome)
        elif match.status == "lobby":
            await interaction.response.edit_message(content=service.lobby_text(match) + "\n" + outcome.line,
                                                    view=lobby_view(match, service),
                                                    allowed_mentions=mention_only(None))
        else:
            await interaction.response.edit_message(content=outcome.line, view=None,
                                                    allowed_mentions=mention_only(None))

    async def open_match(self, interaction: discord.Interaction, match: MatchRow, outcome: Outcome) -> None:
        """Give a started match its thread (when the channel allows it) and post the first board.

        Without a thread the board goes to the channel; if the bot may not post there either,
        it answers the interaction that started the match instead (interactions need no
        channel permission), so the match is always announced.
        """
        lobby_message = interaction.message
        names = " vs ".join(s.name for s in match.seats)
        thread_name = f"{self.service.title(match)}: {names}"[:100]
        target: discord.abc.Messageable | None = None
        if lobby_message is not None:
            try:
                thread = await lobby_message.create_thread(name=thread_name, auto_archive_duration=10080)
                await self.store.update_match_fields(match.id, thread_id=thread.id)
                match.thread_id = thread.id
                target = thread
            except discord.HTTPException as error:
                log.info("no thread for match %s (%s); playing in the channel", match.id, error)
        if target is None:
            target = await self.channel_by_id(match.channel_id)
        assert outcome.game is not None
        png = await self.service.render(match, outcome.game)
        mentions = " ".join(f"<@{s.user_id}>" for s in match.seats)
        text = f"**{self.service.title(match)}** begins: {mentions}\n{self.service.status_line(match, outcome.game)}"
        text += "\nPlay with `/move` here; `/rules` explains the game."
        view = board_view(outcome)
        kwargs = dict(file=png_file(png), allowed_mentions=discord.AllowedMentions(users=True))
        if view is not None:
            kwargs["view"] = view
        message: discord.Message | None = None
        if target is not None:
            try:
                message = await target.send(text, **kwargs)
            except discord.HTTPException as error:
                log.info("cannot post in the channel of match %s (%s); answering the interaction", match.id, error)
        if message is None:
            kwargs["file"] = png_file(png)  # a File is consumed by a failed send
            message = await interaction.followup.send(text, wait=True, **kwargs)
        await self.store.mark_announced(match.id, match.version, message.channel.id, message.id)


async def run(settings: Settings) -> None:
    point_client_at(settings.api_base_url, settings.gateway_url)
    store = await Store.open(settings.db_path)
    clock = OffsetFileClock(settings.clock_offset_file) if settings.clock_offset_file else None
    bot = HexplayBot(settings, store, clock)
    try:
        async with bot:
            await bot.start(settings.token)
    finally:
        await store.close()
