"""Challenge limits (docs/rules.md, "Limits"): what keeps /play and rematches from flooding a server, or
one person, with pings.

The service asks one seam, :class:`ChallengeLimits`, before it stores any challenge (a /play lobby or a
rematch). :class:`StoredChallengeLimits` keeps its counts in the database, so a restart forgets none, and
checks and counts a challenge in one transaction. Another implementation (a limiter shared by several bot
processes that do not share a database, say) can replace it: the service needs only ``admit``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from .domain.model import ChallengeCaps, ChallengeRefusal
from .store.base import Store
from .text import escape

# A challenger's own pace, per server.
MAX_OPEN_LOBBIES = 5
CHALLENGES_PER_MINUTE = 3
# Challenges aimed at one person. Five unanswered invitations are plenty to answer at once, and from one
# challenger ten a day (cancelled ones count: each pinged) is far more than a correspondence game needs, but
# it stops the challenge-and-cancel loop that pinged someone 180 times an hour.
MAX_INVITATIONS_WAITING = 5
SAME_PLAYER_PER_DAY = 10

CAPS = ChallengeCaps(open_lobbies=MAX_OPEN_LOBBIES, per_window=CHALLENGES_PER_MINUTE, window=60.0,
                     same_player=SAME_PLAYER_PER_DAY, same_player_window=86400.0,
                     invitations_waiting=MAX_INVITATIONS_WAITING)


@dataclass(frozen=True)
class Challenge:
    """A challenge about to be stored: who makes it, in which server, and the people it invites (names for
    messages). Computer seats are never listed: nothing limits inviting the computer."""

    guild_id: int
    challenger_id: int
    invited: tuple[tuple[int, str], ...]


class ChallengeLimits(Protocol):
    async def admit(self, challenge: Challenge, now: float) -> str | None:
        """None when the challenge may be made (it is then counted), else why not, written for the challenger
        (private, naming people without pinging them)."""


class StoredChallengeLimits:
    """The limits kept in the database (tables challenge_events, challenge_blocks; preferences.challenges)."""

    def __init__(self, store: Store, caps: ChallengeCaps = CAPS) -> None:
        self.store = store
        self.caps = caps

    async def admit(self, challenge: Challenge, now: float) -> str | None:
        refusal = await self.store.admit_challenge(challenge.guild_id, challenge.challenger_id,
                                                   [user_id for user_id, _ in challenge.invited], now, self.caps)
        if refusal is None:
            return None
        names = dict(challenge.invited)
        return explain(refusal, escape(names.get(refusal.user_id, "That player")), self.caps)


def explain(refusal: ChallengeRefusal, name: str, caps: ChallengeCaps = CAPS) -> str:
    """The refusal in words: a display name (never a mention, which would ping the person who said no)."""
    if refusal.rule == "blocked":
        return f"{name} is not taking challenges from you, so nothing was sent."
    if refusal.rule == "nobody":
        return (f"{name} is not taking challenges in this server, so nothing was sent. They can still join "
                "matches with open seats.")
    if refusal.rule == "open_lobbies":
        return (f"You already have {caps.open_lobbies} open challenges in this server: wait for answers, or "
                "cancel one with its Cancel button, before making another.")
    if refusal.rule == "rate":
        # never more than the window: a count stamped ahead of the clock was brought back to now
        wait = min(int(refusal.wait) + 1, int(caps.window))
        return f"You can make {caps.per_window} challenges a minute; try again in {wait} s."
    if refusal.rule == "same_player":
        return (f"You have challenged {name} {caps.same_player} times in the last 24 hours (cancelled challenges "
                f"count), so nothing was sent. Try again in {_later(min(refusal.wait, caps.same_player_window))}.")
    assert refusal.rule == "waiting", refusal
    return (f"{name} already has {caps.invitations_waiting} challenges waiting for an answer in this server, so "
            "nothing was sent. Try again once they have answered some.")


def _later(seconds: float) -> str:
    if seconds >= 3600:
        return f"{math.ceil(seconds / 3600)} h"
    if seconds >= 60:
        return f"{math.ceil(seconds / 60)} min"
    return f"{max(1, math.ceil(seconds))} s"
