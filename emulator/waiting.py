"""A tiny change-notification primitive for "wait until this becomes true" helpers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable


class Signal:
    """Wakes every waiter whenever :meth:`notify` is called; waiters re-check their own predicate."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], bool], timeout: float, *, poll: float | None = None) -> bool:
        """True once ``predicate()`` holds, False after ``timeout`` seconds.

        ``poll`` re-checks periodically, for state that changes without a notification.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            event = self._event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, poll) if poll else remaining)
        return True
