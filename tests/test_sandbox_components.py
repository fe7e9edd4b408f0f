"""Select menus in the sandbox's page (no bot command uses them yet): a tiny discord.py client
posts a message with a single select, a multi-select and a user select, and answers each pick;
the page, in Chromium, picks and shows the answers."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import discord
import pytest
from aiohttp import web

from bot.chat.client import point_client_at
from emulator import DiscordEmulator
from sandbox import world
from sandbox.clockfile import ClockFile
from sandbox.web import WebFace
from tests.test_sandbox_browser import CHROMIUM, sync_api  # skips like the browser tests

TOKEN = "echo-token"


class Echo(discord.Client):
    """Answers every pick with the values it received (privately)."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type == discord.InteractionType.component:
            values = ",".join(interaction.data.get("values", []))
            await interaction.response.send_message(f"picked {interaction.data['custom_id']}={values}", ephemeral=True)


class Background:
    """The emulator, the web face and the Echo client on an event loop in a thread."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def run(self, coroutine, timeout=30):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def start(self) -> None:
        self.emu = DiscordEmulator(bot_token=TOKEN)
        await self.emu.start()
        world.build(self.emu)
        self.games = next(c for c in self.emu.store.channels.values() if c.name == world.CHANNEL_NAME)
        self.face = WebFace(self.emu, ClockFile(self.tmp / "clock"))
        self.runner = web.AppRunner(self.face.app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
        point_client_at(self.emu.api_base_url, self.emu.gateway_url)
        self.client = Echo(intents=discord.Intents.default())
        self.client_task = asyncio.create_task(self.client.start(TOKEN))
        await self.emu.wait_until_ready(timeout=15)
        await self.client.wait_until_ready()
        channel = self.client.get_channel(self.games.id)
        view = discord.ui.View()
        view.add_item(
            discord.ui.Select(
                custom_id="disc",
                placeholder="Pick a disc",
                options=[
                    discord.SelectOption(label="Disc e5", value="e5"),
                    discord.SelectOption(label="Disc d4", value="d4"),
                ],
            )
        )
        view.add_item(
            discord.ui.Select(
                custom_id="two",
                min_values=2,
                max_values=2,
                options=[discord.SelectOption(label=x, value=x) for x in ("a1", "b2", "c3")],
            )
        )
        view.add_item(discord.ui.UserSelect(custom_id="who", placeholder="Pick a player"))
        await channel.send("Build your turn:", view=view)

    async def stop(self) -> None:
        await self.client.close()
        await self.client_task
        await self.runner.cleanup()
        await self.emu.stop()


@pytest.fixture
def background(tmp_path):
    background = Background(tmp_path)
    background.thread.start()
    background.run(background.start())
    yield background
    background.run(background.stop())
    background.loop.call_soon_threadsafe(background.loop.stop)
    background.thread.join(5)


def test_select_menus_send_the_picked_values(background, tmp_path):
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        page.set_default_timeout(15_000)
        page.goto(f"{background.url}/alice")
        # Pick only once the live socket is open and its reconnect refresh has re-rendered the
        # channel: a pick made before that can land on a replaced element or its answer be missed.
        page.wait_for_function("typeof socket !== 'undefined' && socket !== null && socket.readyState === 1")
        page.wait_for_load_state("networkidle")
        single = page.locator("select[data-custom-id=disc]")
        single.wait_for()
        single.select_option("d4")
        page.locator(".message.ephemeral", has_text="picked disc=d4").wait_for()
        page.locator("select[data-custom-id=two]").select_option(["a1", "c3"])
        page.locator(".row", has=page.locator("select[data-custom-id=two]")).get_by_role(
            "button", name="Choose"
        ).click()
        page.locator(".message.ephemeral", has_text="picked two=a1,c3").wait_for()
        bob = next(u for u in background.emu.store.users.values() if u.name == "bob")
        page.locator("select[data-custom-id=who]").select_option(label="bob")
        page.locator(".message.ephemeral", has_text=f"picked who={bob.id}").wait_for()
        folder = Path(os.environ.get("HEXPLAY_SCREENSHOTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / "7-selects.png"))
        browser.close()
    assert not background.emu.violations, background.emu.violations
