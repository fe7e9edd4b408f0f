"""One bot process's part in tests/test_races_processes.py: its own pool on the shared PostgreSQL database.

Reads one JSON order per line on stdin: read the match now, then at ``at`` (wall clock, shared by the two
processes) play ``move`` for ``user`` on that read; writes one JSON answer per order on stdout.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.domain.clock import SystemClock
from bot.domain.errors import Refusal
from bot.service.matches import MatchService
from bot.store import open_store
from tests.child_orders import orders


async def main(url: str) -> None:
    store = await open_store(url, pool_size=2)
    service = MatchService(store, SystemClock(), default_reminder_hours=24)
    try:
        async for order in orders():
            seen = await service.get(order["match"])  # read before the start: the other process may move first
            await asyncio.sleep(max(0.0, order["at"] - time.time()))
            try:
                outcome = await service.play(order["match"], order["user"], order["move"], seen=seen)
                answer = {"applied": True, "version": outcome.match.version}
            except Refusal as refusal:
                answer = {"applied": False, "reason": refusal.reason}
            print(json.dumps(answer), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
