"""The bot as its own process (``python -m bot``, as in production) against a loopback
emulator in the benchmark's process, with one server and one channel: what the benchmarks
that drive the whole bot share."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from emulator import DiscordEmulator  # noqa: E402
from games import new_game  # noqa: E402

TOKEN = "bench-token"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))]


class BotProcess:
    """The emulator, a "Bench" server with a "games" channel, and the bot started against them."""

    def __init__(self, tmp: Path, profile: Path | None = None, database_url: str = "") -> None:
        self.emu = DiscordEmulator(bot_token=TOKEN)
        self.tmp = tmp
        self.db_path = tmp / "bench.sqlite3"
        self.database_url = database_url  # a PostgreSQL database instead of the SQLite file
        self.profile = profile  # run the bot under cProfile (benchmarks/profile_bot.py), stats to this file
        self.process: subprocess.Popen | None = None

    async def start(self) -> None:
        await self.emu.start()
        self.guild = self.emu.create_guild("Bench")
        self.channel = self.emu.create_text_channel(self.guild, "games")
        await self.start_process()
        await self.emu.wait_until_ready(timeout=30)
        await asyncio.sleep(2.5)  # discord.py waits for guilds before on_ready

    async def start_process(self) -> None:
        """The bot process, against the emulator already started (its guild and channel made)."""
        env = {
            **os.environ,
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": self.emu.api_base_url,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "HEXPLAY_DEV_GUILD_IDS": str(self.guild.id),
            "HEXPLAY_DB_PATH": str(self.db_path),
            "HEXPLAY_DATABASE_URL": self.database_url,
            "HEXPLAY_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
        }
        command = [sys.executable, "-m", "bot"]
        if self.profile is not None:
            command = [sys.executable, str(ROOT / "benchmarks" / "profile_bot.py"), str(self.profile)]
        self.process = subprocess.Popen(command, cwd=self.tmp, env=env)

    async def new_thread(self, known: set[int], polls: int = 1000):
        """The first match thread not in ``known`` once its board is posted (polled every 10 ms)."""
        for _ in range(polls):
            for thread in self.emu.threads(self.channel):
                if thread.id not in known and any(m.attachments for m in self.emu.messages(thread)):
                    return thread
            await asyncio.sleep(0.01)
        raise RuntimeError("the match did not start")

    async def people_match(self, a, b, timeout: float | None = None, polls: int = 1000):
        """A Bide match between people ``a`` and ``b``: ``a`` challenges, ``b`` accepts; its thread.
        ``timeout``: for each interaction (None: the emulator's default)."""
        lobby = await self.emu.invoke(a, self.channel, "play", {"game": "bide", "opponent": b}, timeout=timeout)
        challenge = lobby.response
        assert challenge is not None, lobby  # the bot answers /play with the challenge
        accept = next(x for x in challenge.buttons() if x["label"] == "Accept")
        known = {t.id for t in self.emu.threads(self.channel)}
        await self.emu.press(b, challenge, accept["custom_id"], timeout=timeout)
        return await self.new_thread(known, polls)

    async def play_people(
        self, thread, a, b, rng: random.Random, turns: int, think: float, latencies_ms: list[float], timeout: float = 60
    ) -> None:
        """People ``a`` and ``b`` play random Bide turns (no bide) in ``thread``, each after an
        exponential think time of mean ``think`` s (0: at once); each /move's time to the board
        shown goes to ``latencies_ms``."""
        game = new_game("bide", 2)  # a replica: the engines are deterministic
        players = [a, b]
        for turn in range(turns):
            if game.is_over:
                return
            if think:
                await asyncio.sleep(rng.expovariate(1 / think))
            choice = rng.choice([n for n in game.legal_notations() if n != "bide"])
            start = time.perf_counter()
            result = await self.emu.invoke(players[turn % 2], thread, "move", {"move": choice}, timeout=timeout)
            if result.deferred:  # a slow moment: the bot acknowledged first, the board follows
                await result.wait_message(timeout=timeout)
            latencies_ms.append(1000 * (time.perf_counter() - start))
            if result.ephemeral or not any(m.attachments for m in result.messages):
                raise RuntimeError(f"move not shown: {result!r} {result.text!r} {result.errors}")
            game.play_turn(choice)

    async def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)
        await self.emu.stop()
