"""The Store protocol's part for ratings: a match's settlement, once, and the leaderboards.

bot/store/base.py's ``Store`` includes it; sqlite/ratings.py and postgres/ratings.py implement it.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import RatingRow


class RatingStore(Protocol):
    async def unrated_finished_ids(self) -> list[int]:
        """Finished matches whose rating was never settled (the bot stopped in between)."""
        ...

    async def ratings_of(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRow]: ...

    async def settle_rating(
        self, match_id: int, counted: bool, rows: list[RatingRow], now: float, read_games: dict[int, int | None]
    ) -> str:
        """Store a match's rating changes once: "settled", "already" (settled before), or "stale" when a player's
        rating changed since it was read (``read_games``: each player's games count then, None for no rating):
        two settlements computed from the same ratings never both land (the caller reads again and retries)."""
        ...

    async def leaderboard(self, guild_id: int, game: str) -> list[RatingRow]:
        """Everyone rated in this server's game, best first (conservative skill mu - 3 sigma)."""
        ...

    async def ratings_of_user(self, guild_id: int, user_id: int) -> list[RatingRow]: ...
