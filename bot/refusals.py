"""Who a player takes challenges from (/settings): everyone or nobody in a server, and people they block.

"nobody" is a preference of the server, beside the reminders: a player may welcome challenges among friends
and refuse them in a large public server. A block is about a person, so it holds in every server. Both are
enforced where challenges are admitted (bot/limits.py), for /play and rematches alike.
"""

from __future__ import annotations

from .clock import Clock
from .service import ServiceError
from .store.base import Store
from .text import escape, quoted

CHALLENGE_CHOICES = ("everyone", "nobody")
MAX_BLOCKS = 500  # the table stays small; nobody needs more
SHOWN_BLOCKS = 20  # a reply lists this many, then counts the rest (Discord's 2,000 characters)


class ChallengeRefusals:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def update(self, user_id: int, guild_id: int, *, challenges: str | None = None,
                     block: tuple[int, str] | None = None, unblock: tuple[int, str] | None = None) -> None:
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

    async def check(self, user_id: int, *, challenges: str | None = None, block: tuple[int, str] | None = None,
                    unblock: tuple[int, str] | None = None) -> None:
        """Refuse (ServiceError) a change that cannot be made, storing nothing."""
        if challenges is not None and challenges not in CHALLENGE_CHOICES:
            raise ServiceError(f"Challenges come from everyone or nobody, not `{quoted(challenges, 20)}`.")
        blocked = await self.store.blocked_by(user_id)
        if block is not None:
            if block[0] == user_id:
                raise ServiceError("You cannot block yourself.")
            if block[0] not in blocked and len(blocked) >= MAX_BLOCKS:
                raise ServiceError(f"You have blocked {MAX_BLOCKS} players, the most Hexplay keeps: unblock one "
                                   "first, or refuse challenges from everyone with challenges:nobody.")
        if unblock is not None and unblock[0] not in blocked:
            raise ServiceError(f"{escape(unblock[1])} is not blocked.")

    async def describe(self, user_id: int, guild_id: int) -> str:
        """For the player only (an ephemeral reply): blocked people appear as mentions, which ping nobody there."""
        prefs = await self.store.get_preferences(user_id, guild_id)
        blocked = await self.store.blocked_by(user_id)
        listed = ", ".join(f"<@{b}>" for b in blocked[:SHOWN_BLOCKS])
        if len(blocked) > SHOWN_BLOCKS:
            listed += f" and {len(blocked) - SHOWN_BLOCKS} more"
        if prefs.challenges == "nobody":
            text = ("Challenges: you are **not taking challenges in this server** (you can still challenge others "
                    "and join matches with open seats).")
            return text + (f" Blocked in every server: {listed}." if blocked else "")
        if blocked:
            return f"Challenges: **from everyone except** {listed} (a block holds in every server)."
        return "Challenges: you take them **from everyone**."
