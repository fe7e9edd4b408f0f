"""Live updates: every open Activity of a match hears "changed" within a second or two of any stored change.

A change reaches the hub three ways: this process's own ``MatchEvents`` (at once; all there is on SQLite),
PostgreSQL notices from other processes and workers (``hexplay_match_changed`` for every move any bot process
stores, ``hexplay_turn_stored`` for a worker's turn), and a look at the versions of the watched matches every
few seconds, for a notice lost while a listener reconnected. Each watcher is told a version once, the
newest, whichever way it came first.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

ReadVersions = Callable[[list[int]], Awaitable[dict[int, int]]]


@dataclass(eq=False)
class Watcher:
    """One open view of a match: the newest version it was told, and its queue of versions to tell."""

    match_id: int
    version: int
    queue: asyncio.Queue[int] = field(default_factory=asyncio.Queue)

    def tell(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self.queue.put_nowait(version)


class LiveHub:
    look_every = 5.0  # seconds between looks at the watched matches' versions (the fallback)
    most_watchers = 5000  # open views in one process; the next one is refused (the page looks every few seconds)

    def __init__(self, read_versions: ReadVersions) -> None:
        self.read_versions = read_versions
        self._watching: dict[int, set[Watcher]] = {}
        self._stopped = asyncio.Event()
        self._looking: set[asyncio.Task[None]] = set()
        self.told = 0  # "changed" messages queued (tests and metrics read it)

    @property
    def watchers(self) -> int:
        return sum(len(w) for w in self._watching.values())

    def watch(self, match_id: int, version: int) -> Watcher | None:
        if self.watchers >= self.most_watchers:
            return None
        watcher = Watcher(match_id, version)
        self._watching.setdefault(match_id, set()).add(watcher)
        return watcher

    def leave(self, watcher: Watcher) -> None:
        watching = self._watching.get(watcher.match_id)
        if watching is not None:
            watching.discard(watcher)
            if not watching:
                del self._watching[watcher.match_id]

    def changed(self, match_id: int, version: int | None = None) -> None:
        """Match ``match_id`` is now at ``version`` (None: unknown, look it up now)."""
        watching = self._watching.get(match_id)
        if not watching:
            return
        if version is None:
            task = asyncio.get_running_loop().create_task(self._look([match_id]), name="hexplay-activity-look")
            self._looking.add(task)  # (held: the loop keeps only a weak reference to a task)
            task.add_done_callback(self._looking.discard)
            return
        for watcher in list(watching):
            before = watcher.version
            watcher.tell(version)
            self.told += watcher.version != before

    def notice(self, payload: str) -> None:
        """A PostgreSQL notice: ``"<match id>:<version>"`` (a move stored) or ``"<match id>"`` (a worker's turn)."""
        match_id, _, version = payload.partition(":")
        if match_id.isdigit():
            self.changed(int(match_id), int(version) if version.isdigit() else None)

    async def _look(self, match_ids: list[int]) -> None:
        try:
            versions = await self.read_versions(match_ids)
        except Exception:  # the database is away: the next look tries again
            log.warning("could not read the versions of %d watched matches", len(match_ids), exc_info=True)
            return
        for match_id, version in versions.items():
            self.changed(match_id, version)

    async def run_forever(self) -> None:
        while not self._stopped.is_set():
            try:
                await asyncio.wait_for(self._stopped.wait(), self.look_every)
            except TimeoutError:
                if self._watching:
                    await self._look(list(self._watching))

    async def stop(self, grace: float) -> None:
        self._stopped.set()
