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

from bot.service.limits import Challenge, StoredChallengeLimits
from bot.store import open_store


async def main(url: str) -> None:
    store = await open_store(url, pool_size=2)
    limits = StoredChallengeLimits(store)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    print(json.dumps({"ready": True}), flush=True)
    try:
        while line := await reader.readline():
            order = json.loads(line)
            invited = tuple((user_id, "someone") for user_id in order["invited"])
            challenge = Challenge(order["guild"], order["challenger"], invited)
            await asyncio.sleep(max(0.0, order["at"] - time.time()))
            refusal = await limits.admit(challenge, order["now"])
            print(json.dumps({"refused": None if refusal is None else refusal.rule}), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
