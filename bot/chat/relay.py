"""Boards of turns that a worker stored (python -m bot worker: no Discord there) are posted by a bot process.

A worker's NOTIFY says "a turn of match N was stored" (wired in bot/runtime.py); the first bot process
to claim the match's board in the database (``claim_announcement``, with a lease) posts it, the others
find it claimed. A notice can be lost (a listener reconnecting, every bot stopped), so each process
also looks now and then for boards stored a while ago and still not posted, under the same claim as
the start-up catch-up: whatever happens, each board is posted once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

import discord

from ..domain.outcome import Outcome
from ..service.matches import MatchService
from .announce import TASK_PREFIX, Announcer, Undelivered

log = logging.getLogger(__name__)


class BoardRelay:
    look_every = 30.0  # seconds between looks for boards a lost notice left unposted
    # A board younger than this is left to whoever stored it (a player's own command posts its board);
    # a worker's board comes by its notice well within it.
    settle_seconds = 20.0

    def __init__(self, client: discord.Client, service: MatchService, announcer: Announcer) -> None:
        self.client = client
        self.service = service
        self.announcer = announcer
        self._posting: set[asyncio.Task[object]] = set()
        self._stopping = False

    def stored(self, payload: str) -> None:
        """A worker's notice: a turn of this match is stored; post its board unless another process does."""
        if self._stopping or not self.client.is_ready():
            return  # before ready: the start-up catch-up or the next look posts it
        match_id = int(payload)
        self._start(self._claim_and_post(match_id), f"{TASK_PREFIX}-relay-{match_id}")

    def look_soon(self) -> None:
        """Notices may have been missed (the listener reconnected): look now rather than at the next round."""
        if not self._stopping and self.client.is_ready():
            self._start(self.look_once(), f"{TASK_PREFIX}-relay-look")

    async def run_forever(self) -> None:
        await self.client.wait_until_ready()
        while not self.client.is_closed() and not self._stopping:
            await asyncio.sleep(self.look_every)
            try:
                await self.look_once()
            except Exception:
                log.exception("the look for unposted boards failed")

    async def look_once(self) -> int:
        """Post the boards stored at least ``settle_seconds`` ago and never posted; how many were posted."""
        posted = 0
        settled = self.service.clock.now() - self.settle_seconds
        for outcome in await self.service.unannounced():  # claimed: no other process posts these meanwhile
            if outcome.match.updated_at > settled:
                await self.service.release_announcement(outcome.match.id)  # its own command is posting it
                continue
            if await self.announcer.already_shown(outcome):  # posted just before a process stopped
                continue
            posted += bool(await self.service.for_one_match(outcome.match.id, self._post(outcome)))
        return posted

    async def _claim_and_post(self, match_id: int) -> None:
        if not await self.service.claim_announcement(match_id):
            return  # posted already, or another process is posting it
        outcome = await self.service.for_one_match(match_id, self.service.missed(match_id))
        if outcome is None:
            await self.service.release_announcement(match_id)
            return
        await self.service.for_one_match(match_id, self._post(outcome))

    async def _post(self, outcome: Outcome) -> bool:
        try:
            delivered = await self.announcer.announce(outcome, unless_superseded=True)
        except Undelivered:
            return False  # logged, released and retried in the background by the announcer
        if delivered is None:  # a later turn was stored meanwhile: its own board shows the position
            await self.service.release_announcement(outcome.match.id)
            return False
        await self.announcer.notify_ending(outcome)
        return True

    def _start(self, work: Coroutine[Any, Any, object], name: str) -> None:
        # named with the announcer's prefix: the client's clean stop waits for these posts too
        task = asyncio.create_task(work, name=name)
        self._posting.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[object]) -> None:
        """A post or look that failed is said here, once (a later look posts its board), not left to asyncio."""
        self._posting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed; a later look posts its board", task.get_name(), exc_info=task.exception())

    async def stop(self, grace: float) -> None:
        """No new posts; those in flight finish (bounded)."""
        self._stopping = True
        if self._posting:
            await asyncio.wait(list(self._posting), timeout=grace)
