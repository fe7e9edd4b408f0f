"""Who a player takes challenges from (/settings): everyone or nobody in a server, and people they block.

"nobody" is a preference of the server, beside the reminders: a player may welcome challenges among friends
and refuse them in a large public server. A block is about a person, so it holds in every server. Both are
enforced where challenges are admitted (bot/service/challenge_limits.py), for /play and rematches alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..domain.clock import Clock
from ..domain.errors import Refusal
from ..store.challenges import ChallengeStore
from ..store.preferences import PreferenceStore

CHALLENGE_CHOICES = ("everyone", "nobody")
MAX_BLOCKS = 500  # the table stays small; nobody needs more


@dataclass
class ChallengeSettings:
    """Who a player takes challenges from: ``challenges`` in this server, and whom they block everywhere."""

    challenges: str
    blocked: list[int]


class RefusalData(ChallengeStore, PreferenceStore, Protocol):
    """What ChallengeRefusals asks of the store: the blocks, and the preference of whom may challenge."""


class ChallengeRefusals:
    def __init__(self, store: RefusalData, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def update(
        self,
        user_id: int,
        guild_id: int,
        *,
        challenges: str | None = None,
        block: tuple[int, str] | None = None,
        unblock: tuple[int, str] | None = None,
    ) -> None:
        """Each change is checked before any is stored, so a refused one leaves everything as it was."""
        await self.check(user_id, challenges=challenges, block=block, unblock=unblock)
        if challenges is not None:
            prefs = await self.store.get_preferences(user_id, guild_id)
            prefs.challenges = challenges
            await self.store.set_preferences(user_id, guild_id, prefs)
        if block is not None:
            await self.store.block(user_id, block[0], self.clock.now())
        if unblock is not None:
            await self.store.unblock(user_id, unblock[0])

    async def check(
        self,
        user_id: int,
        *,
        challenges: str | None = None,
        block: tuple[int, str] | None = None,
        unblock: tuple[int, str] | None = None,
    ) -> None:
        """Refuse a change that cannot be made, storing nothing."""
        if challenges is not None and challenges not in CHALLENGE_CHOICES:
            raise Refusal("challenges_choice", text=challenges)
        blocked = await self.store.blocked_by(user_id)
        if block is not None:
            if block[0] == user_id:
                raise Refusal("block_yourself")
            if block[0] not in blocked and len(blocked) >= MAX_BLOCKS:
                raise Refusal("too_many_blocks", most=MAX_BLOCKS)
        if unblock is not None and unblock[0] not in blocked:
            raise Refusal("not_blocked", name=unblock[1])

    async def settings(self, user_id: int, guild_id: int) -> ChallengeSettings:
        prefs = await self.store.get_preferences(user_id, guild_id)
        return ChallengeSettings(prefs.challenges, await self.store.blocked_by(user_id))
