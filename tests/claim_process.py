"""One bot process's part in tests/test_claims_processes.py: its own pool on the shared PostgreSQL database.

Reads one JSON order per line on stdin: at ``at`` (wall clock, shared by the processes) take every due
``kind`` of duty (reminders, deadlines, unannounced boards, paused-match notices) as a timer pass does,
for ``lease`` seconds at the store time ``now``; writes the match ids it got, one JSON line per order.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.service.timelimits import WARNINGS
from bot.store import open_store
from bot.store.base import Store


async def claim(store: Store, kind: str, now: float, lease: float) -> list[int]:
    if kind == "reminders":
        return [row.match_id for row in await store.claim_due_reminders(now, lease)]
    if kind == "deadlines":
        return await store.claim_deadlines(now, WARNINGS, lease)
    if kind == "unannounced":
        return await store.claim_unannounced(now, lease)
    if kind == "paused":
        return await store.claim_paused_untold(now, lease)
    raise ValueError(kind)


async def main(url: str) -> None:
    store = await open_store(url, pool_size=2)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    print(json.dumps({"ready": True}), flush=True)
    try:
        while line := await reader.readline():
            order = json.loads(line)
            await asyncio.sleep(max(0.0, order["at"] - time.time()))
            ids = await claim(store, order["kind"], order["now"], order["lease"])
            print(json.dumps({"ids": ids}), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
