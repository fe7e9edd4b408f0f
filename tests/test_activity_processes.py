"""Live updates across bot processes on PostgreSQL: a turn played through one process's Activity server reaches
the pages open on another process's within 2 s (NOTIFY hexplay_match_changed), and the look every few seconds
catches a change whose notice was lost."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from bot.service.matches import MatchService
from bot.web.live import LiveHub
from sandbox.activity import handed_down, listening_socket
from sandbox.fleet import bot_environment
from tests.activity_page import Page
from tests.botworld import BotWorld

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def backend():
    return "postgres"


@pytest.fixture
async def world(database, tmp_path):
    world = await BotWorld(database, activity=True, jobs=True).start()
    try:
        async with aiohttp.ClientSession() as session:
            world.session = session
            world.url = await world.activity_url()
            yield world
    finally:
        await world.stop()


async def second_bot(world: BotWorld, tmp_path: Path) -> tuple[asyncio.subprocess.Process, str]:
    """`python -m bot` on the same database and emulator, with its own Activity server."""
    held = listening_socket()  # handed down, as the sandbox does: no other process can take the port meanwhile
    port = held.getsockname()[1]
    env = bot_environment(
        world.emu,
        str(world.db_path),
        tmp_path / "clock",
        extra={
            **handed_down(held),
            "HEXPLAY_DEV_GUILD_IDS": str(world.guild.id),
            "HEXPLAY_RENDER_PROCESSES": "0",
        },
    )
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env, pass_fds=(held.fileno(),)
    )
    held.close()  # (the child has its own copy)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            assert child.returncode is None, "the second bot process exited"
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(f"{url}/api/activity/config") as answer:
                    if answer.status == 200:
                        return child, url
            await asyncio.sleep(0.2)
    child.kill()
    raise AssertionError("the second bot process's Activity server did not answer")


async def test_a_turn_stored_by_another_process_reaches_the_open_pages(world, tmp_path) -> None:
    alice, carol = world.users[0], world.users[2]
    match_id, _ = await world.start_two_player("begird")
    child, other_url = await second_bot(world, tmp_path)
    try:
        watching = await Page.open(world.url, world.emu, carol, world.session)  # a page on this process
        live = await watching.live(match_id)
        hello = await live.next()
        playing = await Page.open(other_url, world.emu, alice, world.session)  # alice's page on the other one
        for turn, move in enumerate(("i9", None, "j9", None)):
            view = await playing.view(match_id)
            if move is None:  # bob's turn: he plays from a page on the other process too
                bob = await Page.open(other_url, world.emu, world.users[1], world.session)
                view = await bob.view(match_id)
                legal = (
                    await bob.post(f"/matches/{match_id}/turn", {"version": view["match"]["version"], "actions": []})
                )[1]
                status, _ = await bob.play(match_id, view["match"]["version"], legal["legal"][0]["notation"])
            else:
                started = time.monotonic()
                status, _ = await playing.play(match_id, view["match"]["version"], move)
            assert status == 200, turn
            changed = await live.next(timeout=2.0)
            assert changed["type"] == "changed" and changed["version"] > hello["version"], changed
            hello = changed
            if move is not None:
                assert time.monotonic() - started < 2.0
        await live.close()
    finally:
        child.terminate()
        await asyncio.wait_for(child.wait(), 20)


async def test_a_lost_notice_is_caught_by_the_look(world) -> None:
    carol = world.users[2]
    match_id, _ = await world.start_two_player("begird")
    live = await (await Page.open(world.url, world.emu, carol, world.session)).live(match_id)
    hello = await live.next()
    # A turn stored by a writer that tells no one (as if the notice was lost while a listener reconnected):
    # the look at the watched matches' versions, every 5 s, finds it.
    silent = MatchService(world.store, world.clock, default_reminder_hours=24)
    match = await silent.get(match_id)
    started = time.monotonic()
    await silent.play(match_id, world.users[0].id, "i9", expected_version=match.version)
    changed = await live.next(timeout=8.0)
    assert changed["type"] == "changed" and changed["version"] > hello["version"]
    assert time.monotonic() - started < LiveHub.look_every + 1.5
    await live.close()
