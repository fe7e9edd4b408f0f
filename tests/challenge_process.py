"""One bot process's part in tests/test_challenge_races.py: its own pool on the shared PostgreSQL database.

Reads one JSON order per line on stdin: at ``at`` (wall clock, shared by the two processes) ask the stored
challenge limits to admit ``challenger``'s challenge of ``invited`` in ``guild`` at game time ``now``; writes
the answer (the refusal's rule, or null when admitted) as one JSON line on stdout.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.service.challenge_limits import Challenge, StoredChallengeLimits
from bot.store import open_store
from tests.child_orders import orders


async def main(url: str) -> None:
    store = await open_store(url, pool_size=2)
    limits = StoredChallengeLimits(store)
    try:
        async for order in orders():
            invited = tuple((user_id, "someone") for user_id in order["invited"])
            challenge = Challenge(order["guild"], order["challenger"], invited)
            await asyncio.sleep(max(0.0, order["at"] - time.time()))
            refusal = await limits.admit(challenge, order["now"])
            print(json.dumps({"refused": None if refusal is None else refusal.rule}), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
