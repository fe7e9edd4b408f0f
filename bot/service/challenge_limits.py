"""Challenge limits (docs/rules.md, "Limits"): what keeps /play and rematches from flooding a server, or
one person, with pings.

The service asks one seam, :class:`ChallengeLimits`, before it stores any challenge (a /play lobby or a
rematch). :class:`StoredChallengeLimits` keeps its counts in the database, so a restart forgets none, and
checks and counts a challenge in one transaction. Another implementation (a limiter shared by several bot
processes that do not share a database, say) can replace it: the service needs only ``admit``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..domain.model import ChallengeCaps, ChallengeRefusal
from ..store.challenges import ChallengeCounts, ChallengeStore

# A challenger's own pace, per server.
MAX_OPEN_LOBBIES = 5
CHALLENGES_PER_MINUTE = 3
# Challenges aimed at one person. Five unanswered invitations are plenty to answer at once, and from one
# challenger ten a day (cancelled ones count: each pinged) is far more than a correspondence game needs, but
# it stops the challenge-and-cancel loop that pinged someone 180 times an hour.
MAX_INVITATIONS_WAITING = 5
SAME_PLAYER_PER_DAY = 10

CAPS = ChallengeCaps(
    open_lobbies=MAX_OPEN_LOBBIES,
    per_window=CHALLENGES_PER_MINUTE,
    window=60.0,
    same_player=SAME_PLAYER_PER_DAY,
    same_player_window=86400.0,
    invitations_waiting=MAX_INVITATIONS_WAITING,
)


@dataclass(frozen=True)
class Challenge:
    """A challenge about to be stored: who makes it, in which server, and the people it invites (names for
    messages). Computer seats are never listed: nothing limits inviting the computer."""

    guild_id: int
    challenger_id: int
    invited: tuple[tuple[int, str], ...]


class ChallengeLimits(Protocol):
    caps: ChallengeCaps  # the numbers, for the refusals' wording

    async def admit(self, challenge: Challenge, now: float) -> ChallengeRefusal | None:
        """None when the challenge may be made (it is then counted), else the rule it breaks."""
        ...


class StoredChallengeLimits:
    """The limits kept in the database (tables challenge_events, challenge_blocks; preferences.challenges)."""

    def __init__(self, store: ChallengeStore, caps: ChallengeCaps = CAPS) -> None:
        self.store = store
        self.caps = caps

    async def admit(self, challenge: Challenge, now: float) -> ChallengeRefusal | None:
        """Judged by :func:`first_broken_rule` inside the store's transaction that counts the challenge: the
        counts it reads cannot change before the challenge is recorded (docs/storage.md, "Challenge limits")."""
        invited = [user_id for user_id, _ in challenge.invited]
        return await self.store.admit_challenge(
            challenge.guild_id,
            challenge.challenger_id,
            invited,
            now,
            self.caps,
            lambda counts: first_broken_rule(counts, invited, now, self.caps),
        )


def first_broken_rule(
    counts: ChallengeCounts, invited_ids: list[int], now: float, caps: ChallengeCaps
) -> ChallengeRefusal | None:
    """The first limit a challenge with these counts breaks, in the order a refusal is told: a block, a person
    who takes challenges from nobody, the challenger's open lobbies, their pace in the server, the same person
    challenged too often, too many invitations waiting on one person. None: the challenge may be made.

    For a counted rule, the refusal says how long until the oldest counted challenge leaves its window."""
    for invited in invited_ids:
        if invited in counts.blocking:
            return ChallengeRefusal("blocked", invited)
    for invited in invited_ids:
        if invited in counts.refusing:
            return ChallengeRefusal("nobody", invited)
    if counts.open_lobbies >= caps.open_lobbies:
        return ChallengeRefusal("open_lobbies")
    count, oldest = counts.recent
    if count >= caps.per_window:
        return ChallengeRefusal("rate", None, _until_one_ages_out(oldest, caps.window, now))
    for invited in invited_ids:
        count, oldest = counts.same_player[invited]
        if count >= caps.same_player:
            return ChallengeRefusal("same_player", invited, _until_one_ages_out(oldest, caps.same_player_window, now))
    for invited in invited_ids:
        if counts.waiting[invited] >= caps.invitations_waiting:
            return ChallengeRefusal("waiting", invited)
    return None


def _until_one_ages_out(oldest: float | None, window: float, now: float) -> float:
    """Seconds until the oldest counted challenge leaves its window (a cap of 0 counts none: the whole window)."""
    return (now if oldest is None else oldest) + window - now
