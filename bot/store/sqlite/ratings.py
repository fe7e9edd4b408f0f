"""SQLite: ratings: a match's settlement, once, and the leaderboards.

The protocol, with what each method promises: bot/store/ratings.py.
"""

from __future__ import annotations

from ...domain.model import RatingRow
from ..rows import RATING_COLUMNS
from .plumbing import SqlitePlumbing


class SqliteRatings(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def unrated_finished_ids(self) -> list[int]:
        """Finished matches whose rating was never settled (the bot stopped in between)."""
        rows = await self._all(
            "SELECT id FROM matches WHERE status = 'finished' AND id NOT IN (SELECT match_id FROM rated_matches)"
            " ORDER BY updated_at, id"
        )
        return [r[0] for r in rows]

    async def ratings_of(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        marks = ",".join("?" for _ in user_ids)
        rows = await self._all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
            (guild_id, game, *user_ids),
        )
        return {r[2]: RatingRow(*r) for r in rows}

    async def settle_rating(
        self, match_id: int, counted: bool, rows: list[RatingRow], now: float, read_games: dict[int, int | None]
    ) -> str:
        """Store a match's rating changes once: "settled", "already" (settled before), or "stale" when a player's
        rating changed since it was read (``read_games``: each player's games count then, None for no rating):
        two settlements computed from the same ratings never both land (the caller reads again and retries)."""
        async with self.transaction() as db:
            for user_id, games in read_games.items():
                row = await (
                    await db.execute(
                        "SELECT r.games FROM matches m JOIN ratings r ON r.guild_id = m.guild_id AND r.game = m.game"
                        " WHERE m.id = ? AND r.user_id = ?",
                        (match_id, user_id),
                    )
                ).fetchone()
                if (row[0] if row else None) != games:
                    return "stale"
            cursor = await db.execute(
                "INSERT OR IGNORE INTO rated_matches (match_id, counted, rated_at) VALUES (?, ?, ?)",
                (match_id, int(counted), now),
            )
            if cursor.rowcount != 1:
                return "already"
            for r in rows:
                await db.execute(
                    f"INSERT OR REPLACE INTO ratings ({RATING_COLUMNS}, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws, now),
                )
            return "settled"

    async def leaderboard(self, guild_id: int, game: str) -> list[RatingRow]:
        """Everyone rated in this server's game, best first (conservative skill mu - 3 sigma)."""
        rows = await self._all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id",
            (guild_id, game),
        )
        return [RatingRow(*r) for r in rows]

    async def ratings_of_user(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game",
            (guild_id, user_id),
        )
        return [RatingRow(*r) for r in rows]
