"""The Store protocol's part for challenge limits and refusals: counting challenges, blocks.

bot/store/base.py's ``Store`` includes it; sqlite/challenges.py and postgres/challenges.py implement it.

The store reads the counts a challenge is judged on; the rule that judges them (which limit comes first, what a
refusal says) is the service's (bot/service/challenge_limits.py), handed to ``admit_challenge`` and applied inside the
transaction that reads the counts and records the challenge, so the check and the count stay one atomic step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..domain.model import ChallengeCaps, ChallengeRefusal


@dataclass(frozen=True)
class ChallengeCounts:
    """What a challenge is judged on, read in the transaction that would record it.

    Each ``(count, oldest)`` pair is a number of recorded challenges within a window and when the oldest of them
    was made (None when there are none)."""

    blocking: frozenset[int]  # the invited people who refuse challenges from the challenger (a block)
    refusing: frozenset[int]  # the invited people who take challenges from nobody in this server
    open_lobbies: int  # the challenger's lobbies waiting for players in this server
    recent: tuple[int, float | None]  # the challenger's challenges in this server within ``caps.window``
    same_player: dict[int, tuple[int, float | None]]  # per invited: challenged by the challenger (any server)
    # within ``caps.same_player_window``
    waiting: dict[int, int]  # per invited: their unanswered invitations in this server


ChallengeRule = Callable[[ChallengeCounts], ChallengeRefusal | None]
"""The service's rule: the refusal a challenge with these counts gets, or None to admit it."""


class ChallengeStore(Protocol):
    async def admit_challenge(
        self,
        guild_id: int,
        challenger_id: int,
        invited_ids: list[int],
        now: float,
        caps: ChallengeCaps,
        rule: ChallengeRule,
    ) -> ChallengeRefusal | None:
        """Read the challenge's counts, ask ``rule`` and, when it refuses nothing, record the challenge: one
        transaction (with the rule applied inside it), so two challenges at the same instant (even from two
        processes) cannot both take the last place in a count. ``caps`` gives the windows counted over.

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
