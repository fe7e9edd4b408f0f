"""Every match in play must rebuild from its log to exactly its stored position, or it is not served.

A match is checked on its first use in this process (MatchCore.usable), so start-up does not grow with the
database; the matches nobody touches are checked by a slow pass in the background, and a paused match is
checked again at start-up (it is put back in play once repaired).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .core import MatchCore

log = logging.getLogger(__name__)

#: Matches the background pass checks per second at most: a check is a read and a replay (a few ms of CPU),
#: so 100,000 matches take about an hour and a half at a few percent of a core.
BACKGROUND_CHECKS_PER_SECOND = 20.0


class VerifyFlow(MatchCore):
    async def recheck_paused(self, keep: frozenset[int] = frozenset()) -> list[int]:
        """At start-up: put back in play each set-aside match whose data reads and replays again, except those in
        ``keep`` (a check of the storage still finds a fault in their rows). Returns the ones still set aside."""
        for match_id in await self.store.quarantined_ids():
            if match_id not in keep and await self.replay_problem(match_id) is None:
                await self.store.release_quarantine(match_id)
                log.warning("match %s: its move log replays to its state again; back in play", match_id)
        return await self.store.quarantined_ids()

    async def verify_all(self) -> list[int]:
        """Check every match in play now, even those checked before (tools and tests; the bot checks lazily).
        Returns the set-aside ids."""
        await self.recheck_paused()
        for match_id in await self.store.active_match_ids():
            self.replayed.discard(match_id)
            await self.for_one_match(match_id, self._check(match_id))
        return await self.store.quarantined_ids()

    async def verify_in_background(
        self,
        per_second: float | None = None,
        on_set_aside: Callable[[], Awaitable[None]] | None = None,
    ) -> int:
        """Check, slowly, every match in play not checked yet; ``on_set_aside`` runs after one is set aside
        (to tell its players). Returns how many were set aside."""
        found = 0
        paused = set(await self.store.quarantined_ids())
        for match_id in await self.store.active_match_ids():
            if match_id in self.replayed or match_id in paused:
                continue
            if await self.for_one_match(match_id, self._check(match_id)) is False:
                found += 1
                if on_set_aside is not None:
                    await on_set_aside()
            await asyncio.sleep(1 / (per_second or BACKGROUND_CHECKS_PER_SECOND))
        return found

    async def _check(self, match_id: int) -> bool:
        """True if the match can be served (checked now if it was not yet); False if it is set aside."""
        match = await self.store.get_match(match_id)
        return match is None or match.status != "active" or await self.usable(match)

    async def replay_problem(self, match_id: int) -> str | None:
        """Why the match's data does not rebuild its stored state, or None when it does."""
        match = await self.store.get_match(match_id)
        if match is None:
            return "the match row is missing"
        problem = self.unreadable(match)
        if problem is not None:
            return problem
        return await self.log_problem(match)
