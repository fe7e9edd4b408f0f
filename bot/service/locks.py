"""Per-match serialisation: a seam, because several processes will share one database.

Correctness never rests on it: every change of a match is a compare-and-set on its version in the
store's transaction. The lock only makes the loser of a race hear the truth ("not your turn", judged
on the position the winner produced) instead of "the position changed at the same moment". In one
process an asyncio lock per match does that; across processes another implementation can (or the
version check alone answers, as it does today for a change that races a button from a DM).
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class MatchLocks(Protocol):
    def hold(self, match_id: int) -> AbstractAsyncContextManager[Any]:
        """Held while a change to the match is read, checked and stored."""
        ...


class InProcessMatchLocks:
    """One asyncio lock per match, dropped when nobody holds or waits on it."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def hold(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock


class HasLocks(Protocol):
    locks: MatchLocks


def one_at_a_time(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Run a change to a match (first argument: its id) holding that match's lock."""

    @functools.wraps(method)
    async def locked(self: HasLocks, match_id: int, *args: Any, **kwargs: Any) -> T:
        async with self.locks.hold(match_id):
            return await method(self, match_id, *args, **kwargs)

    return locked
