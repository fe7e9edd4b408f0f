"""Gateway shards across bot processes: the layout is checked before anything starts, two processes that
each run part of the shards on one PostgreSQL database share the IDENTIFY buckets (Discord's pacing counts
every process), and each serves the guilds of its own shards."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.chat.client import HexplayBot, point_client_at
from bot.config import Settings
from bot.domain.clock import ManualClock
from bot.runtime import build_bot
from bot.store import open_store
from emulator import DiscordEmulator
from emulator.sharding import ShardingRules
from tests import backends

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "shard-token"
INTERVAL = 0.6  # Discord's 5 s between IDENTIFYs of a bucket, shortened on both sides


def settings_from(monkeypatch, **env: str) -> Settings:
    for name in ("HEXPLAY_SHARD_COUNT", "HEXPLAY_SHARD_IDS", "HEXPLAY_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings.from_env()


@pytest.mark.parametrize(
    "env, says",
    [
        ({"HEXPLAY_SHARD_COUNT": "4", "HEXPLAY_SHARD_IDS": "0-1"}, "must share one PostgreSQL database"),
        ({"HEXPLAY_SHARD_IDS": "0-1"}, "needs HEXPLAY_SHARD_COUNT"),
        ({"HEXPLAY_SHARD_COUNT": "4", "HEXPLAY_SHARD_IDS": "2-5"}, "names shard 4, but there are 4"),
        ({"HEXPLAY_SHARD_COUNT": "4", "HEXPLAY_SHARD_IDS": "3-1"}, "runs backwards"),
        ({"HEXPLAY_SHARD_COUNT": "4", "HEXPLAY_SHARD_IDS": "one"}, "such as 0-3 or 0,2,5"),
        ({"HEXPLAY_SHARD_COUNT": "0"}, "from 1 to 100000"),
    ],
)
def test_a_shard_layout_that_cannot_work_is_refused_in_one_line(monkeypatch, env, says):
    with pytest.raises(SystemExit) as refused:
        settings_from(monkeypatch, **env).check_shards()
    assert says in str(refused.value)


def test_layouts_that_work(monkeypatch):
    every = settings_from(monkeypatch, HEXPLAY_SHARD_COUNT="4")  # all four here: SQLite is fine
    every.check_shards()
    assert (every.shard_count, every.shard_ids) == (4, None)
    part = settings_from(
        monkeypatch,
        HEXPLAY_SHARD_COUNT="8",
        HEXPLAY_SHARD_IDS="0-2,6",
        HEXPLAY_DATABASE_URL="postgresql://u:p@db/hexplay",
    )
    part.check_shards()
    assert part.shard_ids == [0, 1, 2, 6]
    assert settings_from(monkeypatch).shard_count is None  # unset: Discord's recommended count


def test_the_command_line_takes_the_layout_and_refuses_part_of_it_on_sqlite(tmp_path):
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "DISCORD_TOKEN": "x", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--shard-count", "2", "--shard-ids", "1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode != 0 and "must share one PostgreSQL database" in done.stderr, done
    assert len(done.stderr.strip().splitlines()) == 1
    usage = subprocess.run(
        [sys.executable, "-m", "bot", "--shard-count"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert usage.returncode == 2 and "--shard-count N" in usage.stderr


class ShardedBots:
    """An emulator with a guild on each of two shards, and a bot process per shard (each with its own pool)."""

    def __init__(self, url: str, paced: bool) -> None:
        self.url, self.paced = url, paced
        self.emu = DiscordEmulator(bot_token=TOKEN, sharding=ShardingRules(identify_interval=INTERVAL))
        self.clock = ManualClock()
        self.bots: list[HexplayBot] = []
        self.stores: list = []
        self.tasks: list[asyncio.Task] = []

    async def start(self) -> ShardedBots:
        await self.emu.start()
        point_client_at(self.emu.api_base_url, self.emu.gateway_url)
        self.guilds = [self.emu.create_guild(f"server {s}", shard=(s, 2)) for s in (0, 1)]
        self.channels = [self.emu.create_text_channel(g, "games") for g in self.guilds]
        self.users = [self.emu.create_user(n) for n in ("alice", "bob")]
        for shard in (0, 1):
            settings = Settings(
                token=TOKEN,
                database_url=self.url,
                dev_guild_ids=[g.id for g in self.guilds],
                reminder_check_seconds=3600,
                shard_count=2,
                shard_ids=[shard],
                identify_seconds=INTERVAL,
            )
            store = await open_store(self.url, pool_size=3)
            options = {} if self.paced else {"identify_pacing": None}  # None: discord.py's own, per process
            bot = build_bot(settings, store, self.clock, guild_ready_timeout=0.05, **options)
            self.stores.append(store)
            self.bots.append(bot)
        # both processes start at the same moment, as after a deploy
        self.tasks = [asyncio.create_task(bot.start(TOKEN)) for bot in self.bots]
        for shard in (0, 1):
            await self.emu.wait_until_ready(timeout=20, shard=(shard, 2))
        await asyncio.gather(*(asyncio.wait_for(bot.wait_until_ready(), 20) for bot in self.bots))
        return self

    async def stop(self) -> None:
        for bot in self.bots:
            await bot.close()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 10)
        for store in self.stores:
            await store.close()
        await self.emu.stop()


async def test_two_processes_starting_together_pace_their_identifies_through_the_database(postgres_server):
    await backends.empty_postgres(postgres_server.url)
    world = await ShardedBots(postgres_server.url, paced=True).start()
    try:
        assert world.emu.violations == []
        sessions = sorted((s.shard_id, s.shard_count) for s in world.emu.gateway_sessions() if s.ready)
        assert sessions == [(0, 2), (1, 2)]
        alice, bob = world.users
        for shard, channel in enumerate(world.channels):  # each guild's commands reach its own shard's process
            lobby = await world.emu.invoke(alice, channel, "play", {"game": "bide", "opponent": bob})
            accept = next(b for b in lobby.response.buttons() if b["label"] == "Accept")
            await world.emu.press(bob, lobby.response, accept["custom_id"])
            assert world.bots[shard].is_ready() and not lobby.ephemeral, lobby.text
        matches = await backends.fetch(world.stores[0], "SELECT guild_id, status FROM matches ORDER BY id")
        assert matches == [(world.guilds[0].id, "active"), (world.guilds[1].id, "active")]
    finally:
        await world.stop()


async def test_without_the_shared_pacing_two_processes_break_discords_identify_limit(postgres_server):
    """The control: discord.py paces only the shards of its own process, so the emulator sees two
    IDENTIFYs of one bucket at once and refuses one (the test above passes because of the database)."""
    await backends.empty_postgres(postgres_server.url)
    world = ShardedBots(postgres_server.url, paced=False)
    try:
        with contextlib.suppress(Exception):
            await world.start()
        assert any("IDENTIFY" in v or "identify" in v for v in world.emu.violations), world.emu.violations
    finally:
        await world.stop()
