"""PostgreSQL's LISTEN/NOTIFY between processes: a worker stored a turn, a hint is ready.

A notice is a wake-up, never the only record: a board to post is in the database (its announced
version is behind), and every bot process also looks for such boards now and then, so a notice lost
while a listener was reconnecting delays a board, it does not lose it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

import asyncpg

from ..store.postgres.store import redacted

log = logging.getLogger(__name__)

STORED = "hexplay_turn_stored"  # payload: the match id; a worker stored a turn whose board a bot must post
HINTS = "hexplay_hint_ready"  # payload: JSON {"request", "turn"} or {"request", "refused"}


async def notify(pool: asyncpg.Pool, channel: str, payload: str) -> None:
    await pool.execute("SELECT pg_notify($1, $2)", channel, payload)


class Notices:
    """Listens on one connection of its own (a pooled one would be handed back and lose its LISTEN), and
    connects again when it drops; each channel's payloads go to its handler, on the event loop."""

    reconnect_delays = (0.5, 1.0, 2.0, 5.0, 10.0)
    check_every = 10.0  # seconds between checks that an idle connection is still alive (a dead peer is silent)

    def __init__(
        self,
        url: str,
        handlers: Mapping[str, Callable[[str], Any]],
        on_reconnect: Callable[[], Any] | None = None,
    ) -> None:
        self.url = url
        self.handlers = handlers
        self.on_reconnect = on_reconnect  # notices may have been missed while it was away
        self.listening = asyncio.Event()
        self._stopped = False
        self._connection: asyncpg.Connection | None = None

    async def run_forever(self) -> None:
        failures = 0
        connected_before = False
        while not self._stopped:
            try:
                await self._listen_until_lost(connected_before)
                connected_before, failures = True, 0
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                delay = self.reconnect_delays[min(failures, len(self.reconnect_delays) - 1)]
                failures += 1
                log.warning("not listening to %s (%s); again in %.1f s", redacted(self.url), error, delay)
                await asyncio.sleep(delay)
            finally:
                self.listening.clear()

    async def _listen_until_lost(self, connected_before: bool) -> None:
        connection = await asyncpg.connect(self.url, timeout=8)
        lost = asyncio.Event()
        connection.add_termination_listener(lambda _: lost.set())
        self._connection = connection
        try:
            for channel, handler in self.handlers.items():
                await connection.add_listener(channel, _payload_to(handler))
            self.listening.set()
            if connected_before:
                log.info("listening to %s again", redacted(self.url))
                if self.on_reconnect is not None:
                    self.on_reconnect()
            while not self._stopped and not lost.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), self.check_every)
                if not self._stopped and not lost.is_set():
                    await connection.fetchval("SELECT 1", timeout=5)
        finally:
            self._connection = None
            with contextlib.suppress(Exception):
                await connection.close(timeout=2)

    async def stop(self, grace: float) -> None:
        self._stopped = True
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.close(timeout=grace)


def _payload_to(handler: Callable[[str], Any]) -> Callable[[Any, int, str, str], None]:
    def deliver(connection: Any, pid: int, channel: str, payload: str) -> None:
        try:
            handler(payload)
        except Exception:  # one bad notice must not end the listening
            log.exception("a notice on %s could not be handled: %r", channel, payload[:100])

    return deliver


CHANGED = "hexplay_match_changed"  # payload: "<match id>:<version>"; any process stored a move (the Activity's pages)


class MovePublisher:
    """Tells every process of each move this one stores (``MatchEvents.on_move``), so the Activity's pages
    open on any of them hear of it at once. A lost notice is caught by their look every few seconds."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self._sending: set[asyncio.Task[None]] = set()

    def moved(self, match: Any, move: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._send(f"{match.id}:{match.version}"))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, payload: str) -> None:
        try:
            await notify(self.pool, CHANGED, payload)
        except Exception as error:  # the pages' look finds the change a few seconds later
            log.info("could not publish a stored move (%s): %r", payload, error)
