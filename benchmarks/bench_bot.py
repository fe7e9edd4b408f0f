"""The bot under load, through the loopback Discord emulator with the real discord.py client.

The bot runs as its own process (`python -m bot`, as in production) pointed at an emulator
in this process, so Discord's side of the work does not share the bot's core. 50 concurrent
two-player Bide matches are played by 100 simulated players:

* **paced**: each player answers after a random think time (exponential, mean --think
  seconds) — already far busier than correspondence play, where moves are hours apart;
* **saturated**: every player answers the instant it is its turn (50 moves always in
  flight): the bot's maximum throughput, and the queueing delay at that load.

Prints turns per second and the 50th/95th/99th percentile time from the /move interaction
to the bot's response carrying the new picture.

Run: .venv/bin/python benchmarks/bench_bot.py [--matches 50] [--turns 20] [--think 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
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


class Bench:
    def __init__(self, matches: int, tmp: Path) -> None:
        self.emu = DiscordEmulator(bot_token=TOKEN)
        self.matches = matches
        self.tmp = tmp
        self.process: subprocess.Popen | None = None

    async def start(self) -> None:
        await self.emu.start()
        self.guild = self.emu.create_guild("Bench")
        self.channel = self.emu.create_text_channel(self.guild, "games")
        self.users = [self.emu.create_user(f"player{i}") for i in range(2 * self.matches)]
        env = {**os.environ, "DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": self.emu.api_base_url,
               "DISCORD_GATEWAY_URL": self.emu.gateway_url, "HEXPLAY_DEV_GUILD_IDS": str(self.guild.id),
               "HEXPLAY_DB_PATH": str(self.tmp / "bench.sqlite3"), "HEXPLAY_LOG_LEVEL": "WARNING"}
        self.process = subprocess.Popen([sys.executable, "-m", "bot"], cwd=self.tmp, env={**env, "PYTHONPATH": str(ROOT)})
        await self.emu.wait_until_ready(timeout=30)
        await asyncio.sleep(2.5)  # discord.py waits for guilds before on_ready

    async def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
        await self.emu.stop()

    async def open_match(self, a, b):
        lobby = await self.emu.invoke(a, self.channel, "play", {"game": "bide", "opponent": b})
        accept = next(x for x in lobby.response.buttons() if x["label"] == "Accept")
        known = {t.id for t in self.emu.threads(self.channel)}
        await self.emu.press(b, lobby.response, accept["custom_id"])
        for _ in range(500):
            for thread in self.emu.threads(self.channel):
                if thread.id not in known and any(m.attachments for m in self.emu.messages(thread)):
                    return thread
            await asyncio.sleep(0.01)
        raise RuntimeError("the match did not start")

    def bot_cpu_seconds(self) -> float:
        """User + system CPU time of the bot process so far (Linux /proc)."""
        assert self.process is not None
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def phase(self, name: str, turns: int, think: float) -> None:
        pairs = []
        for i in range(self.matches):
            a, b = self.users[2 * i], self.users[2 * i + 1]
            pairs.append((await self.open_match(a, b), a, b))
        latencies: list[float] = []

        async def play(thread, a, b, rng):
            game = new_game("bide", 2)  # a replica: the engines are deterministic
            players = [a, b]
            for turn in range(turns):
                if game.is_over:
                    return
                if think:
                    await asyncio.sleep(rng.expovariate(1 / think))
                choice = rng.choice([n for n in game.legal_notations() if n != "bide"])
                start = time.perf_counter()
                result = await self.emu.invoke(players[turn % 2], thread, "move", {"move": choice}, timeout=30)
                latencies.append(time.perf_counter() - start)
                if result.response is None:  # e.g. answered after Discord's 3 s deadline
                    raise RuntimeError(f"move not answered: {result.errors}")
                if result.ephemeral or not result.response.attachments:
                    raise RuntimeError(f"move refused: {result.text}")
                game.play_turn(choice)

        started, cpu_before = time.perf_counter(), self.bot_cpu_seconds()
        await asyncio.gather(*(play(*pair, random.Random(i)) for i, pair in enumerate(pairs)))
        wall = time.perf_counter() - started
        cpu = self.bot_cpu_seconds() - cpu_before
        ms = [1000 * v for v in latencies]
        print(f"{name}: {self.matches} concurrent matches, {len(ms)} turns in {wall:.1f} s = "
              f"{len(ms) / wall:.1f} turns/s")
        print(f"  /move -> response with picture: p50 {percentile(ms, 50):.0f} ms, p95 {percentile(ms, 95):.0f} ms, "
              f"p99 {percentile(ms, 99):.0f} ms (mean {statistics.mean(ms):.0f} ms)")
        print(f"  bot process CPU: {1000 * cpu / len(ms):.1f} ms per turn ({100 * cpu / wall:.0f}% of one core)")
        print(f"  429 rate-limit answers so far: {len(self.emu.rate_limit_hits)}")


async def run(matches: int, turns: int, think: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(matches, Path(tmp))
        await bench.start()
        try:
            await bench.phase(f"paced (think time mean {think:g} s)", turns, think)
            await bench.phase("saturated (no think time)", turns, 0.0)
        finally:
            hits = bench.emu.rate_limit_hits
            print(f"Discord rule violations: {len(bench.emu.violations)}; 429 rate-limit answers: {len(hits)}")
            await bench.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--think", type=float, default=2.0)
    args = parser.parse_args()
    asyncio.run(run(args.matches, args.turns, args.think))


if __name__ == "__main__":
    main()
