"""How fast this process may send requests to Discord in bulk (reminders, time-limit notices).

Discord allows a bot 50 requests per second in all (interaction answers aside) and answers
429 beyond that. discord.py sleeps a 429 off, but a pass that sent hundreds of messages as
fast as it could would meet one 429 after another, and every request of the bot, a player's
board included, would wait behind each. So whatever sends in bulk spends from one budget a
little under the limit, leaving room for the replies to players, which are not paced.
Per-route limits (five posts per five seconds in one channel) are discord.py's own business:
it reads them from each answer and queues requests to an exhausted bucket.

``RequestBudget`` is the seam: ``LocalRequestBudget`` holds for one process (SQLite);
``SharedRequestBudget`` for several processes on one PostgreSQL database, which between them
may send no more than the limit in any second of wall clock: each takes a few requests at a
time from a count per second kept in the database.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol

GLOBAL_LIMIT_PER_SECOND = 50  # Discord's documented limit per bot


class RequestBudget(Protocol):
    async def spend(self, requests: int = 1) -> None:
        """Return once ``requests`` more requests may be sent."""


class Unpaced:
    """No budget: for a single post a player is waiting for."""

    async def spend(self, requests: int = 1) -> None:
        return None


class LocalRequestBudget:
    """A token bucket: ``per_second`` requests a second, at most ``burst`` at once after a quiet spell.

    In any one second it lets through at most ``burst + per_second`` requests, which the defaults
    keep under Discord's 50 with room to spare for the unpaced ones.
    """

    def __init__(self, per_second: float = 45.0, burst: int = 3, clock: Callable[[], float] = time.monotonic) -> None:
        if per_second <= 0 or burst < 1:
            raise ValueError("a budget needs a positive rate and a burst of at least one request")
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._filled_at = clock()
        self._queue = asyncio.Lock()  # first come, first served: a big spender is not overtaken for ever

    async def spend(self, requests: int = 1) -> None:
        async with self._queue:
            needed = min(requests, self.burst)  # more than a burst waits for a full bucket, then owes the rest
            while self._refill() < needed:
                await asyncio.sleep((needed - self._tokens) / self.per_second)
            self._tokens -= requests

    def _refill(self) -> float:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._filled_at) * self.per_second)
        self._filled_at = now
        return self._tokens


class GrantsRequests(Protocol):
    async def grant_requests(self, second: int, wanted: int, limit: int) -> int: ...


class SharedRequestBudget:
    """Every process's bulk requests counted together, per second of wall clock, in the shared database.

    A process takes ``chunk`` requests at a time (one database round trip per chunk) and spends them within
    that second; what it does not spend is lost, which only ever errs on the side of sending less.
    """

    def __init__(
        self,
        store: GrantsRequests,
        per_second: int = 45,
        chunk: int = 5,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.per_second = per_second
        self.chunk = chunk
        self._clock = clock
        self._second = -1
        self._left = 0
        self._queue = asyncio.Lock()
        # Paced here too: a second's grant spent in its last tenth, then the next second's at once, would be
        # 2 x per_second inside one of Discord's windows (they are not aligned to the wall clock's seconds).
        self._smooth = LocalRequestBudget(per_second, burst=3, clock=time.monotonic)

    async def spend(self, requests: int = 1) -> None:
        async with self._queue:
            for _ in range(requests):
                await self._smooth.spend()
                await self._one()

    async def _one(self) -> None:
        while True:
            now = self._clock()
            second = int(now)
            if second != self._second:
                self._second, self._left = second, 0
            if self._left == 0:
                self._left = await self.store.grant_requests(second, self.chunk, self.per_second)
                if int(self._clock()) != second:  # granted for a second the round trip outlived: let it go
                    self._left = 0
                    continue
            if self._left > 0:
                self._left -= 1
                return
            await asyncio.sleep(max(0.001, second + 1 - self._clock()))  # this second is spent: the next one
