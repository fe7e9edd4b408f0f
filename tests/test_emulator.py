"""The loopback Discord emulator, driven by a small real discord.py client (not the project's bot)."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import struct
import zlib
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from emulator import DiscordEmulator, EmulatorError, commandlimits, limits, patch_discord
from emulator.errors import FormErrors

TOKEN = "test-token"
CELLS = [f"{column}{row}" for column in "abcdefg" for row in range(1, 6)]  # 35 cells


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PNG = tiny_png()


async def eventually(predicate: Callable[[], bool], timeout: float = 2.0) -> None:
    """Poll ``predicate`` (for state that lives in the bot, which the emulator cannot signal)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


class LobbyView(discord.ui.View):
    """A persistent view: fixed custom_id, no timeout, re-registered by every boot of the bot."""

    def __init__(self, boot: int) -> None:
        super().__init__(timeout=None)
        self.boot = boot

    @discord.ui.button(label="Join", style=discord.ButtonStyle.primary, custom_id="lobby:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[LobbyView]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined (boot {self.boot})")


class SampleBot:
    """``async with SampleBot(emu) as bot:`` runs a discord.Client with a few slash commands."""

    def __init__(self, emu: DiscordEmulator, boot: int = 1) -> None:
        self.emu = emu
        self.boot = boot
        self.events: dict[str, Any] = {}
        self.client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self.client)
        self.client.setup_hook = self._setup_hook  # type: ignore[method-assign]
        self._task: asyncio.Task[None] | None = None
        self._register_commands()

    async def _setup_hook(self) -> None:
        self.client.add_view(LobbyView(self.boot))
        await self.tree.sync()

    async def __aenter__(self) -> SampleBot:
        self._task = asyncio.create_task(self.client.start(TOKEN))
        ready = asyncio.create_task(self.emu.wait_until_ready(timeout=5))
        done, _ = await asyncio.wait({self._task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            ready.cancel()
            self._task.result()
            raise AssertionError("the client stopped before becoming ready")
        ready.result()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.client.close()
        if self._task is not None:
            await self._task

    def _register_commands(self) -> None:
        tree, events = self.tree, self.events

        @tree.command(description="Greet someone")
        async def hello(interaction: discord.Interaction, text: str, who: discord.Member) -> None:
            await interaction.response.send_message(f"{text}, {who.mention}! ({who.display_name})")

        @tree.command(description="A private answer")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("for your eyes only", ephemeral=True)

        @tree.command(description="Render the board slowly")
        async def render(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            sent = await interaction.followup.send(
                "the board", file=discord.File(io.BytesIO(PNG), "board.png"), wait=True
            )
            events["readback"] = await sent.attachments[0].read()

        @tree.command(description="Play a move")
        async def move(interaction: discord.Interaction, move: str) -> None:
            await interaction.response.send_message(f"played {move}")

        @move.autocomplete("move")
        async def move_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            cells = CELLS if current == "all" else [c for c in CELLS if c.startswith(current)]
            return [app_commands.Choice(name=c, value=c) for c in cells]  # "all": 35 > 25, a violation

        @tree.command(description="Open a lobby")
        async def lobby(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Lobby open", view=LobbyView(self.boot))

        @tree.command(description="Start a game thread")
        async def game(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            try:
                thread = await interaction.channel.create_thread(
                    name="alice vs bob", type=discord.ChannelType.public_thread
                )
            except discord.Forbidden as error:
                events["thread_error"] = error
                await interaction.response.send_message("no threads here", ephemeral=True)
                return
            await thread.send("Game on!")
            await interaction.response.send_message(f"started {thread.mention}")

        @tree.command(description="Nudge a player by DM")
        async def nudge(interaction: discord.Interaction, who: discord.User) -> None:
            try:
                await who.send("your turn")
            except discord.Forbidden as error:
                events["dm_error"] = error
                await interaction.response.send_message(f"could not DM {who.mention}")
                return
            await interaction.response.send_message("nudged", ephemeral=True)

        @tree.command(description="Post something too long")
        async def ramble(interaction: discord.Interaction) -> None:
            assert interaction.channel is not None
            try:
                await interaction.channel.send("x" * 2001)  # type: ignore[union-attr]
            except discord.HTTPException as error:
                events["long_error"] = error
            await interaction.response.send_message("rambled")

        @tree.command(description="Answer too late")
        async def sleepy(interaction: discord.Interaction) -> None:
            await asyncio.sleep(3.5)
            try:
                await interaction.response.send_message("finally")
            except discord.NotFound as error:
                events["late_error"] = error

        @tree.command(description="Post an announcement after answering")
        async def announce(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ok", ephemeral=True)
            await asyncio.sleep(0.05)
            await interaction.channel.send("announcement")  # type: ignore[union-attr]


@pytest.fixture
async def emu():
    async with DiscordEmulator(bot_token=TOKEN) as emulator:
        patch_discord(emulator.api_base_url, emulator.gateway_url)
        yield emulator


@pytest.fixture
def world(emu: DiscordEmulator) -> SimpleNamespace:
    guild = emu.create_guild("Test Server")
    return SimpleNamespace(
        guild=guild,
        games=emu.create_text_channel(guild, "games"),
        quiet=emu.create_text_channel(guild, "quiet", allow_threads=False),
        alice=emu.create_user("alice"),
        bob=emu.create_user("bob"),
        carol=emu.create_user("carol", dms_open=False),
    )


async def test_login_ready_and_sync(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu) as bot:
        await asyncio.wait_for(bot.client.wait_until_ready(), timeout=3)
        assert bot.client.user is not None and bot.client.user.id == emu.bot.id
        guild = bot.client.get_guild(world.guild.id)
        assert guild is not None and guild.get_channel(world.games.id) is not None
        names = {command["name"] for command in emu.commands()}
        assert {"hello", "move", "lobby", "sleepy"} <= names
        assert ("GET", "/users/@me") in emu.requests
    assert emu.violations == []

    intruder = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await intruder.login("wrong-token")
    await intruder.close()


async def test_slash_command_with_user_option(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu):
        result = await emu.invoke(world.alice, world.games, "hello", {"text": "hi", "who": world.bob})
    assert result.response is not None and not result.ephemeral and not result.deferred
    assert result.text == f"hi, <@{world.bob.id}>! (bob)"
    assert result.response.mentions == [world.bob.id]
    assert result.response.author_id == emu.bot.id
    assert emu.messages(world.games) == [result.response]
    assert result.latency is not None and result.latency < 1
    with pytest.raises(EmulatorError, match="missing required"):
        await emu.invoke(world.alice, world.games, "hello", {"text": "hi"})
    assert emu.violations == []


async def test_ephemeral_reply(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu):
        result = await emu.invoke(world.alice, world.games, "secret")
    assert result.ephemeral and result.text == "for your eyes only"
    assert emu.messages(world.games) == []
    assert emu.messages(world.games, include_ephemeral=True) == [result.response]


async def test_defer_then_followup_with_png(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu) as bot:
        result = await emu.invoke(world.alice, world.games, "render")
        assert result.deferred
        [followup] = await result.wait_followups(1)
        await eventually(lambda: "readback" in bot.events)
    [attachment] = followup.attachments
    assert (attachment.filename, attachment.content_type, attachment.size) == ("board.png", "image/png", len(PNG))
    assert attachment.data == PNG and bot.events["readback"] == PNG
    assert (attachment.width, attachment.height) == (3, 2)
    # The first followup after a defer fills in the "thinking" message.
    assert result.messages == [followup] and followup is result.response and result.text == "the board"
    assert emu.violations == []


async def test_autocomplete_and_choice_limit(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu):
        choices = await emu.autocomplete(world.alice, world.games, "move", {"move": "e"}, focused="move")
        assert [c["value"] for c in choices] == ["e1", "e2", "e3", "e4", "e5"]
        assert emu.violations == []
        assert await emu.autocomplete(world.alice, world.games, "move", {"move": "all"}) == []
        played = await emu.invoke(world.alice, world.games, "move", {"move": "e5"})
    assert played.text == "played e5"
    [violation] = emu.violations
    assert "50035" in violation and "data.choices" in violation and "25 or fewer" in violation


async def test_persistent_button_survives_restart(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu, boot=1):
        opened = await emu.invoke(world.alice, world.games, "lobby")
        lobby = opened.response
        assert lobby is not None
        assert lobby.buttons() == [{"custom_id": "lobby:join", "label": "Join", "style": 1, "disabled": False}]
        first = await emu.press(world.alice, lobby, "lobby:join")
        assert first.text == "alice joined (boot 1)"
    assert not emu.bot_connected
    async with SampleBot(emu, boot=2):  # a new client process, same emulator
        second = await emu.press(world.bob, lobby, "lobby:join")
    assert second.text == "bob joined (boot 2)"
    assert emu.violations == []


async def test_threads(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu) as bot:
        result = await emu.invoke(world.alice, world.games, "game")
        refused = await emu.invoke(world.alice, world.quiet, "game")
    [thread] = emu.threads(world.games)
    assert thread.name == "alice vs bob" and thread.type == 11
    assert result.text == f"started <#{thread.id}>"
    assert [m.content for m in emu.messages(thread)] == ["Game on!"]
    assert refused.ephemeral and bot.events["thread_error"].code == 50013
    assert emu.threads(world.quiet) == []
    assert emu.violations == []  # a 403 is a situation to handle, not a rule broken


async def test_an_idle_thread_archives_itself_after_its_auto_archive_duration(
    emu: DiscordEmulator, world: SimpleNamespace
) -> None:
    """Issue 37: the sandbox's threads never archived. Discord archives a thread ``auto_archive_duration`` minutes
    after its last activity, tells the bot (THREAD_UPDATE) and leaves it out of the channel list; a message
    unarchives it. Idle time is by the store's clock (the sandbox's moves with its "+1 day")."""
    now = [1_000_000.0]
    emu.store.clock = lambda: now[0]
    seen: list[tuple[str, int, bool]] = []
    emu.observers.append(
        lambda event, obj: seen.append((event, obj.id, obj.archived)) if event == "channel_updated" else None
    )
    async with SampleBot(emu) as bot:
        await emu.invoke(world.alice, world.games, "game")  # a thread, "Game on!" posted in it at once
        [thread] = emu.threads(world.games)
        assert thread.auto_archive_duration == 1440 and bot.client.get_channel(thread.id) is not None
        now[0] += 1439 * 60
        assert emu.archive_idle_threads() == [] and not thread.archived
        await emu.user_message(world.alice, thread, "still here")  # activity: a day from now, again
        now[0] += 1439 * 60
        assert emu.archive_idle_threads() == []
        now[0] += 60
        assert emu.archive_idle_threads() == [thread] and thread.archived
        assert emu.archive_idle_threads() == []  # once
        assert seen == [("channel_updated", thread.id, True)]
        metadata = emu.store.channel_payload(thread)["thread_metadata"]
        archived_at = dt.datetime.fromtimestamp(now[0], dt.UTC)
        assert metadata["archived"] and dt.datetime.fromisoformat(metadata["archive_timestamp"]) == archived_at

        async def told() -> None:
            while bot.client.get_channel(thread.id) is not None:  # discord.py drops an archived thread from its cache
                await asyncio.sleep(0.01)

        await asyncio.wait_for(told(), timeout=3)  # discord.py saw THREAD_UPDATE
        await emu.user_message(world.bob, thread, "one more")  # writing in it unarchives it
        assert not thread.archived and seen[-1] == ("channel_updated", thread.id, False)
        now[0] += 1440 * 60
        assert emu.archive_idle_threads() == [thread]
    assert emu.violations == []


async def test_direct_messages(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu) as bot:
        await emu.invoke(world.alice, world.games, "nudge", {"who": world.bob})
        refused = await emu.invoke(world.alice, world.games, "nudge", {"who": world.carol})
    assert [m.content for m in emu.dms(world.bob)] == ["your turn"]
    assert emu.dms(world.carol) == []
    assert isinstance(bot.events["dm_error"], discord.Forbidden) and bot.events["dm_error"].code == 50007
    assert refused.text == f"could not DM <@{world.carol.id}>"
    assert emu.violations == []


async def test_content_over_2000_is_rejected(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu) as bot:
        result = await emu.invoke(world.alice, world.games, "ramble")
    error = bot.events["long_error"]
    assert isinstance(error, discord.HTTPException) and (error.status, error.code) == (400, 50035)
    assert result.text == "rambled" and [m.content for m in emu.messages(world.games)] == ["rambled"]
    [violation] = emu.violations
    assert violation.startswith(f"POST /channels/{world.games.id}/messages") and "content" in violation


async def test_three_second_deadline(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu) as bot:
        result = await emu.invoke(world.alice, world.games, "sleepy", timeout=6)
    error = bot.events["late_error"]
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert result.response is None and result.errors and result.latency is not None and result.latency > 3
    [violation] = emu.violations
    assert "10062" in violation


async def test_resume_after_disconnect_and_wait_for_message(emu: DiscordEmulator, world: SimpleNamespace) -> None:
    async with SampleBot(emu):
        await emu.disconnect_bot()
        await emu.wait_until_ready(timeout=5)
        assert ("GET", "/gateway") in emu.requests
        waiter = asyncio.create_task(emu.wait_for_message(world.games, check=lambda m: m.content == "announcement"))
        result = await emu.invoke(world.bob, world.games, "announce")
        announcement = await waiter
    assert result.ephemeral and announcement.channel_id == world.games.id
    assert emu.violations == []


def test_limits_reject_what_discord_rejects() -> None:
    errors = FormErrors()
    commandlimits.check_commands(
        [
            {
                "name": "Bad",
                "description": "x",
                "options": [
                    {"type": 3, "name": "a", "description": "a"},
                    {"type": 3, "name": "b", "description": "b", "required": True},
                ],
            }
        ],
        errors,
    )
    assert set(errors.tree["0"]) == {"name", "options"}

    button = {"type": 2, "style": 1, "label": "x", "custom_id": "same"}
    errors = FormErrors()
    limits.check_message_components([{"type": 1, "components": [button, button]}] * 6, 0, errors, ["components"])
    assert "_errors" in errors.tree["components"] and "custom_id" in errors.tree["components"]["0"]["components"]["1"]

    errors = FormErrors()
    limits.check_embeds([{"description": "d" * 4000}, {"description": "d" * 2001}], errors, ["embeds"])
    assert errors.tree["embeds"]["_errors"][0]["code"] == "MAX_EMBED_SIZE_EXCEEDED"
