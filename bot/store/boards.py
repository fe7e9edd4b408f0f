"""The Store protocol's part for posted boards: which version of a match was posted, and the claims on
posting the latest.

bot/store/base.py's ``Store`` includes it; sqlite/boards.py and postgres/boards.py implement it.
"""

from __future__ import annotations

from typing import Protocol


class BoardStore(Protocol):
    async def mark_announced(self, match_id: int, version: int, channel_id: int, message_id: int) -> None:
        """The board of ``version`` was posted as this message (reminders link to it); this process's claim
        ends, and anyone's once ``version`` is the latest (nothing is left to post)."""
        ...

    async def unannounced(self) -> list[tuple[int, float]]:
        """(match id, when it last changed) of the matches in play or finished, not set aside, whose latest
        board was never posted (a stop came between the two), oldest change first. Nothing is claimed: each
        is claimed on its own (``claim_announcement``) as it is posted."""
        ...

    async def release_announcement(self, match_id: int) -> None:
        """Give back the match's board this process claimed (not posted this time): a later try, in any
        process, takes it. Another process's claim is left alone."""
        ...

    async def claim_announcement(self, match_id: int, now: float, lease: float) -> bool:
        """Claim the posting of one match's latest board for ``lease`` seconds at most; False if it is posted,
        or a live process (this one included) holds it."""
        ...
