"""The Store protocol's part for challenge limits and refusals: counting challenges, blocks.

bot/store/base.py's ``Store`` includes it; sqlite/challenges.py and postgres/challenges.py implement it.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import ChallengeCaps, ChallengeRefusal


class ChallengeStore(Protocol):
    async def admit_challenge(
        self, guild_id: int, challenger_id: int, invited_ids: list[int], now: float, caps: ChallengeCaps
    ) -> ChallengeRefusal | None:
        """Check a challenge against every limit and, when none refuses it, count it: one transaction, so two
        challenges at the same instant (even from two processes) cannot both take the last place in a count.

        ``invited_ids`` are people: computer seats are never limited. The transaction is committed even when
        the challenge is refused, for what it tidies: records older than the longest window are pruned, and
        records stamped after ``now`` (the clock stepped back) are brought to ``now``, so they age out within one
        window instead of holding a count until the clock catches up with them.
        """
        ...

    async def block(self, user_id: int, blocked_id: int, now: float) -> None:
        """``user_id`` refuses challenges from ``blocked_id``, in every server (again: no change)."""
        ...

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        """False when there was no such block."""
        ...

    async def blocked_by(self, user_id: int) -> list[int]:
        """Whom the user refuses challenges from, oldest block first."""
        ...
