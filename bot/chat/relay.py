"""What a stop or a lost notice left unsaid, caught up by any live process; and the boards of workers' turns.

Every bot process, on either backend, looks every ``look_every`` seconds for boards stored a while ago and
never posted (a process stopped between the two, or its post failed for good) and for conditional moves a
stop left unfollowed between a move and its answer, and catches them up: a killed process's work waits
for no restart. Each board is claimed on its own as it is posted (``claim_announcement``), so another
process never posts it meanwhile, and a process that dies holds one claim at most, until its heartbeat
stops (bot.domain.clock).

With workers (python -m bot worker: no Discord there), a worker's NOTIFY says "a turn of match N was
stored" (wired in bot/runtime.py); the first bot process to claim the match's board posts it, the others
find it claimed. A notice can be lost (a listener reconnecting, every bot stopped): the look finds it.
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
    look_every = 10.0  # seconds between looks for boards and conditional moves left behind
    # A change younger than this is left to whoever stored it (a player's own command posts its board, and the
    # process that stored a move follows its conditional moves at once); a worker's board comes by its notice.
    settle_seconds = 20.0

    def __init__(self, client: discord.Client, service: MatchService, announcer: Announcer) -> None:
        self.client = client
        self.service = service
        self.announcer = announcer
        self._posting: set[asyncio.Task[object]] = set()
        self._stopping = False
        # (match, when it changed) of the boards the last look found unposted. A board is posted by a look only
        # once the one before found it unposted too: a whole look's time on the wall clock, whatever the games'
        # clock does (the sandbox moves it days ahead, which would make any board look settled at once).
        self._unposted: set[tuple[int, float]] = set()

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
        """Post the boards stored at least ``settle_seconds`` ago and found unposted by the last look too, then
        follow the conditional moves left behind as long, once their move's board is posted; how many boards
        were posted."""
        posted = 0
        settled = self.service.clock.now() - self.settle_seconds
        found = await self.service.unannounced(changed_by=settled)
        earlier, self._unposted = self._unposted, set(found)
        for match_id, changed in found:
            if self._stopping:
                return posted
            if (match_id, changed) in earlier:
                posted += await self._claim_and_post(match_id, look=True)
        waiting = {match_id for match_id, _ in await self.service.unannounced()}
        for outcome in await self.service.follow_left_conditionals(changed_by=settled, unless=waiting):
            await self.announcer.follow_conditional(outcome)  # the answer's board, and who was told what
        return posted

    async def _claim_and_post(self, match_id: int, look: bool = False) -> int:
        """Post the match's unposted boards under this process's claim; how many were posted. ``look``: the
        board may have been posted just before a process stopped (the channel is read first)."""
        if not await self.service.claim_announcement(match_id):
            return 0  # posted already, or another process is posting it
        outcomes = await self.service.for_one_match(match_id, self.service.missed_turns(match_id))
        if not outcomes:
            await self.service.release_announcement(match_id)
            return 0
        posted = 0
        latest = outcomes[-1].match.version
        for number, outcome in enumerate(outcomes):
            if number and not await self.service.claim_announcement(match_id):
                break  # posting one board ended the claim: another process took the next meanwhile
            if look and await self.announcer.already_shown(outcome):  # recorded as posted: the claim ended
                continue
            if not await self.service.for_one_match(match_id, self._post(outcome, latest)):
                break
            posted += 1
        await self.service.release_announcement(match_id)  # whatever is left is for a later try
        return posted

    async def _post(self, outcome: Outcome, latest: int) -> bool:
        """Post one board, unless the match moved past ``latest`` (the last board this claim owes): that change's
        own board shows the position, and an older one after it would mislead."""
        current = await self.service.read(outcome.match.id)
        if current is None or current.version > latest:
            return False
        try:
            await self.announcer.announce(outcome)
        except Undelivered:
            return False  # logged, released and retried in the background by the announcer
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
