"""PostgreSQL: ratings: a match's settlement, once, and the leaderboards.

The protocol, with what each method promises: bot/store/ratings.py.
"""

from __future__ import annotations

from ...domain.model import RatingRow
from ..rows import RATING_COLUMNS
from .plumbing import RATING_LOCK, PostgresPlumbing, rows_touched


class PostgresRatings(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def unrated_finished_ids(self) -> list[int]:
        """Finished matches whose rating was never settled (the bot stopped in between)."""
        rows = await self._fetch(
            "SELECT id FROM matches m WHERE status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id) ORDER BY updated_at, id"
        )
        return [r[0] for r in rows]

    async def ratings_of(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])",
            guild_id,
            game,
            user_ids,
        )
        return {r[2]: RatingRow(*r) for r in rows}

    async def settle_rating(
        self, match_id: int, counted: bool, rows: list[RatingRow], now: float, read_games: dict[int, int | None]
    ) -> str:
        """Store a match's rating changes once: "settled", "already", or "stale" (see the SQLite store); under
        an advisory lock, so two settlements of the same players in two processes are judged one after the other."""
        async with self.transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock($1)", RATING_LOCK)
            for user_id, games in read_games.items():
                found = await db.fetchval(
                    "SELECT r.games FROM matches m JOIN ratings r ON r.guild_id = m.guild_id AND r.game = m.game"
                    " WHERE m.id = $1 AND r.user_id = $2",
                    match_id,
                    user_id,
                )
                if found != games:
                    return "stale"
            status = await db.execute(
                "INSERT INTO rated_matches (match_id, counted, rated_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                match_id,
                int(counted),
                now,
            )
            if rows_touched(status) != 1:
                return "already"
            await db.executemany(
                f"INSERT INTO ratings ({RATING_COLUMNS}, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,"
                " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, losses = excluded.losses,"
                " draws = excluded.draws, updated_at = excluded.updated_at",
                [
                    (r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws, now)
                    for r in rows
                ],
            )
            return "settled"

    async def leaderboard(self, guild_id: int, game: str) -> list[RatingRow]:
        """Everyone rated in this server's game, best first (conservative skill mu - 3 sigma)."""
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND game = $2 AND games > 0"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id",
            guild_id,
            game,
        )
        return [RatingRow(*r) for r in rows]

    async def ratings_of_user(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND user_id = $2 ORDER BY game",
            guild_id,
            user_id,
        )
        return [RatingRow(*r) for r in rows]
