"""One bot process's part in tests/test_claims_processes.py: its own store on the shared database.

Reads one JSON order per line on stdin and writes one JSON line per order:

* ``{"kind": "beat", "now": t, "shards": [count, [ids]]}``: the heartbeat of this process (its incarnation)
  for those shards, at ``t`` on both clocks;
* ``{"kind": …, "now": t, "lease": s, "at": wall}``: at ``at`` (wall clock, shared by the processes) take every
  due duty of that kind (reminders, deadlines, unannounced boards, paused-match notices) as a timer pass does
  (boards one at a time, as the catch-up claims them), for ``lease`` seconds at store time ``t``; the ids got
  (kind ``boards`` with ``ids``: the boards of those matches, one at a time);
* ``{"kind": "release", "duty": kind, "ids": [...]}``: give those claims back, as a pass that did not deliver.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.service.timelimits import WARNINGS
from bot.store import open_store
from bot.store.base import Store
from tests.child_orders import orders


async def claim(store: Store, kind: str, now: float, lease: float) -> list[int]:
    if kind == "reminders":
        return [row.match_id for row in await store.claim_due_reminders(now, lease)]
    if kind == "deadlines":
        return await store.claim_deadlines(now, WARNINGS, lease)
    if kind == "unannounced":
        return [m for m, _ in await store.unannounced() if await store.claim_announcement(m, now, lease)]
    if kind == "paused":
        return await store.claim_paused_untold(now, lease)
    raise ValueError(kind)


async def release(store: Store, kind: str, ids: list[int]) -> None:
    release_one = {
        "reminders": store.release_reminder,
        "deadlines": store.release_deadline,
        "unannounced": store.release_announcement,
        "paused": store.release_paused_notice,
    }[kind]
    for match_id in ids:
        await release_one(match_id)


async def main(url: str) -> None:
    store = await open_store(url, pool_size=2)
    try:
        async for order in orders():
            if order["kind"] == "beat":
                count, ids = order["shards"]
                await store.beat(order["now"], (count, tuple(ids)))  # the lease clock at the same time
                print(json.dumps({"beat": True}), flush=True)
                continue
            if order["kind"] == "release":
                await release(store, order["duty"], order["ids"])
                print(json.dumps({"released": True}), flush=True)
                continue
            await asyncio.sleep(max(0.0, order["at"] - time.time()))
            if order["kind"] == "boards":
                ids = [m for m in order["ids"] if await store.claim_announcement(m, order["now"], order["lease"])]
            else:
                ids = await claim(store, order["kind"], order["now"], order["lease"])
            print(json.dumps({"ids": sorted(ids)}), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
