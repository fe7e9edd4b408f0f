"""PostgreSQL: post-game reviews: a claimed search, its progress, its result.

The protocol, with what each method promises: bot/store/reviews.py.
"""

from __future__ import annotations

import json
from typing import Any

from ...domain.model import ReviewRow
from ..rows import review_from
from .plumbing import PostgresPlumbing, rows_touched


class PostgresReviews(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def get_review(self, match_id: int) -> ReviewRow | None:
        row = await self._fetchrow(
            "SELECT match_id, done, total, data, claimed_until FROM reviews WHERE match_id = $1", match_id
        )
        return None if row is None else review_from(tuple(row))

    async def claim_review(self, match_id: int, total: int, now: float, lease: float) -> bool:
        status = await self._execute(
            "INSERT INTO reviews AS r (match_id, done, total, claimed_until, created_at) VALUES ($1, 0, $2, $3, $4)"
            " ON CONFLICT (match_id) DO UPDATE SET done = 0, total = excluded.total,"
            " claimed_until = excluded.claimed_until WHERE r.data IS NULL AND r.claimed_until <= $4",
            match_id,
            total,
            now + lease,
            now,
        )
        return rows_touched(status) == 1

    async def review_progress(self, match_id: int, done: int, now: float, lease: float) -> bool:
        status = await self._execute(
            "UPDATE reviews SET done = $1, claimed_until = $2 WHERE match_id = $3 AND data IS NULL",
            done,
            now + lease,
            match_id,
        )
        return rows_touched(status) == 1

    async def save_review(self, match_id: int, data: dict[str, Any]) -> None:
        await self._execute(
            "UPDATE reviews SET data = $1, done = total, claimed_until = NULL WHERE match_id = $2",
            json.dumps(data),
            match_id,
        )

    async def release_review(self, match_id: int) -> None:
        await self._execute("DELETE FROM reviews WHERE match_id = $1", match_id)
