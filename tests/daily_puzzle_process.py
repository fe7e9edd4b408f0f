"""One bot process's part in tests/test_puzzles_daily_processes.py: its own pool on the shared PostgreSQL database.

Reads one JSON order per line on stdin: at the store time ``now``, beat for its ``shard`` (as every bot's
heartbeat does: its claims hold while it beats), then at ``at`` (wall clock, shared by the processes) make the
daily puzzle pass as the bot's loop does (bot/chat/features/puzzles.py's DailyPuzzleLoop): each server due is
claimed, and, when ``post`` (a process whose post Discord took), recorded as posted with the message id
``message``; otherwise the claim is held (a process killed before posting). Writes one JSON line per order: the
(server, day) it claimed and those it recorded as posted.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.domain.clock import ManualClock
from bot.service.daily_puzzles import DailyPuzzles
from bot.service.matches import MatchService
from bot.service.puzzles import Puzzles
from bot.store import open_store
from tests.child_orders import orders


async def no_search(state, played):  # this process only posts: it never looks for puzzles
    raise AssertionError("no search here")


async def main(url: str) -> None:
    store = await open_store(url, pool_size=2)
    clock = ManualClock()
    daily = DailyPuzzles(Puzzles(MatchService(store, clock, default_reminder_hours=24), no_search))
    try:
        async for order in orders():
            clock.current = order["now"]
            await store.beat(order["now"], (2, (order["shard"],)))
            await asyncio.sleep(max(0.0, order["at"] - time.time()))
            claimed, posted = [], []
            for guild_id, channel_id in await daily.due():
                post = await daily.claim(guild_id, channel_id)
                if post is None:
                    continue
                claimed.append([guild_id, post.row.day, post.row.puzzle_id])
                if order["post"]:
                    await daily.posted(post, order["message"])
                    posted.append([guild_id, post.row.day])
            print(json.dumps({"claimed": claimed, "posted": posted}), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
