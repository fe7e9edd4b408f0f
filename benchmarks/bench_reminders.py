"""One reminder pass at scale: 300 due reminders for 300 players with DMs open (issue 27).

The real bot and the loopback emulator in one process (tests/botworld.py), the emulator
enforcing Discord's rate limits (50 requests/s per bot, per-route buckets) and answering 429s.
Each REST request waits --latency-ms before the emulator takes it: Discord's round trip, which
loopback does not have (0 shows loopback speed, where only the rate limits hold a pass back).

Two passes in the same run, each in a fresh world (no DM channel opened yet, as after a start):

* **before**: the pass as it was before issue 27 (bot/reminders.py at fa89869, copied below
  with only the DM path, the one these players take): one reminder after another, the user
  fetched when not cached, nothing paced;
* **after**: ``ReminderLoop.run_once`` as it is, several at once within the request budget.

Printed for each: the pass time, reminders sent, requests made, and the 429s the emulator
answered (by scope). Every player must have exactly one DM afterwards.

Run: .venv/bin/python benchmarks/bench_reminders.py [--reminders 300] [--latency-ms 100]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402

from bot.chat.features.reminders import SnoozeButton  # noqa: E402
from bot.domain.clock import ManualClock  # noqa: E402
from tests.botworld import BotWorld  # noqa: E402
from tests.faults import SlowRequests  # noqa: E402

DAY = 24 * 3600


async def pass_before(bot) -> int:
    """bot/reminders.py's run_once at fa89869, DM path only: sequential, unpaced."""
    sent = 0
    await bot.timelimits.heartbeat()
    for job in await bot.service.due_reminders():
        link = bot.reminders._link(job)
        view = discord.ui.View(timeout=None)
        view.add_item(SnoozeButton(job.match.id, job.ply))
        view.add_item(discord.ui.Button(label="Open the board", url=link))
        user = bot.get_user(job.user_id) or await bot.fetch_user(job.user_id)
        await user.send(f"{job.text}\nBoard: {link}", view=view)
        await bot.service.reminder_done(job)
        sent += 1
    for deadline in await bot.timelimits.due():
        raise RuntimeError(f"no time limits here, yet {deadline} is due")
    return sent


async def pass_after(bot) -> int:
    return await bot.reminders.run_once()


async def seed(world: BotWorld) -> None:
    """One match per player, each player to move in theirs (a ring: each also waits in the next one's)."""
    users = world.users
    for i, user in enumerate(users):
        other = users[(i + 1) % len(users)]
        match = await world.service.create(
            game_id="bide",
            creator=(user.id, user.name),
            invited=[(other.id, other.name)],
            guild_id=world.guild.id,
            channel_id=world.channel.id,
        )
        await world.service.accept(match.id, other.id)


async def measure(label: str, one_pass, reminders: int, latency: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        world = BotWorld(Path(folder) / "bench.sqlite3", users=reminders)
        SlowRequests(world.emu, latency)
        await world.start()
        try:
            await seed(world)
            assert isinstance(world.clock, ManualClock)
            world.clock.advance(DAY + 3600)
            requests, hits = len(world.emu.requests), len(world.emu.rate_limit_hits)
            started = time.perf_counter()
            sent = await one_pass(world.bot)
            elapsed = time.perf_counter() - started
            scopes = collections.Counter(hit.scope for hit in world.emu.rate_limit_hits[hits:])
            dms = [len(world.emu.dms(user)) for user in world.users]
            assert sent == reminders and dms == [1] * reminders, (sent, collections.Counter(dms))
            print(
                f"{label}: {elapsed:6.1f} s for {sent} reminders ({sent / elapsed:5.1f}/s), "
                f"{len(world.emu.requests) - requests} requests, 429s: {sum(scopes.values())} "
                f"{dict(scopes) or ''}",
                flush=True,
            )
        finally:
            await world.stop()


async def main_async(reminders: int, latency: float) -> None:
    print(
        f"{reminders} due reminders, {reminders} players with DMs open, "
        f"{latency * 1000:.0f} ms per request to the emulator",
        flush=True,
    )
    await measure("before (one at a time, unpaced)", pass_before, reminders, latency)
    await measure("after  (concurrent, paced)     ", pass_after, reminders, latency)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reminders", type=int, default=300)
    parser.add_argument("--latency-ms", type=float, default=100.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)  # its 429 warnings: the emulator counts them
    asyncio.run(main_async(args.reminders, args.latency_ms / 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
