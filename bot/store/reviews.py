"""The Store protocol's part for post-game reviews: a claimed search, its progress, its result.

bot/store/base.py's ``Store`` includes it; sqlite/reviews.py and postgres/reviews.py implement it.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..domain.model import ReviewRow


class ReviewStore(Protocol):
    async def get_review(self, match_id: int) -> ReviewRow | None:
        """The match's review, finished or running; None if none was started (or a failed one was let go)."""
        ...

    async def claim_review(self, match_id: int, total: int, now: float, lease: float) -> bool:
        """Claim the search of the match's review (a new row, or one whose lease ran out); False if it is
        finished or another process holds it."""
        ...

    async def review_progress(self, match_id: int, done: int, now: float, lease: float) -> bool:
        """Record ``done`` positions searched and renew the lease; False if the review is no longer running."""
        ...

    async def save_review(self, match_id: int, data: dict[str, Any]) -> None:
        """Store the finished review (its claim ends)."""
        ...

    async def release_review(self, match_id: int) -> None:
        """Let a running review go (its search failed or stopped): the next request starts it again."""
        ...
