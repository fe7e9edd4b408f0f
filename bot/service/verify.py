"""Start-up check: every match in play must rebuild from its log to exactly its stored state."""

from __future__ import annotations

import json
import logging

from ..domain.replay import replay
from .core import MatchCore

log = logging.getLogger(__name__)


class VerifyFlow(MatchCore):
    async def verify_all(self) -> list[int]:
        """Set aside (quarantine) every active match that does not rebuild; put back those repaired.

        One that does not is logged and left as stored, so an operator can see what happened; every other
        match keeps being served. A set-aside match whose log replays again is put back in play. Returns
        the set-aside ids.
        """
        for match_id in await self.store.quarantined_ids():
            if await self.replay_problem(match_id) is None:
                await self.store.release_quarantine(match_id)
                log.warning("match %s: its move log replays to its state again; back in play", match_id)
        for match_id in await self.store.active_match_ids():
            problem = await self.replay_problem(match_id)
            if problem is not None:
                await self.set_aside(match_id, problem)
        return await self.store.quarantined_ids()

    async def replay_problem(self, match_id: int) -> str | None:
        """Why the match's data does not rebuild its stored state, or None when it does."""
        match = await self.store.get_match(match_id)
        if match is None:
            return "the match row is missing"
        problem = self.unreadable(match)
        if problem is not None:
            return problem
        try:
            rebuilt = replay(match, await self.store.moves(match_id))
        except Exception as error:  # any engine or data error: the log cannot be trusted
            return f"its move log does not replay ({type(error).__name__}: {error})"
        if json.dumps(rebuilt.to_json(), sort_keys=True) != json.dumps(match.state, sort_keys=True):
            return "its stored state differs from what its move log replays to"
        return None
