"""One bot process's part in tests/test_tournament_processes.py: its own pool on the shared PostgreSQL database.

Reads one JSON order per line on stdin: at ``at`` (wall clock, shared by the processes), at the store time
``now``, beat for its ``shard`` (as every bot's heartbeat does: its claims hold while it beats), look at the
tournament as every process's pass does (``tend``: the next Swiss round, stored once), then claim the
standings after the round that ended, and record them as posted when ``post`` (a process whose post Discord
took), or hold the claim (a process killed before posting). Writes one JSON line per order: the round it
stored (0 if none) and the round whose standings it claimed (0 if none).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.domain.clock import ManualClock
from bot.service.matches import MatchService
from bot.service.tournaments import Tournaments
from bot.store import open_store
from tests.child_orders import orders


async def main(url: str) -> None:
    store = await open_store(url, pool_size=2)
    clock = ManualClock()
    tournaments = Tournaments(MatchService(store, clock, default_reminder_hours=24))
    try:
        async for order in orders():
            clock.current = order["now"]
            await store.beat(order["now"], (2, (order["shard"],)))
            await asyncio.sleep(max(0.0, order["at"] - time.time()))
            news = await tournaments.tend(order["tournament"])
            stored = news.round if news is not None and news.started else 0
            table = await tournaments.claim_round_standings(order["tournament"])
            if table is not None and order["post"]:
                await tournaments.round_standings_posted(order["tournament"], table.after_round, posted=True)
            print(json.dumps({"stored": stored, "claimed": table.after_round if table else 0}), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
