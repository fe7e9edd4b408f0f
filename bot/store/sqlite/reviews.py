"""SQLite: post-game reviews: a claimed search, its progress, its result.

The protocol, with what each method promises: bot/store/reviews.py.
"""

from __future__ import annotations

import json
from typing import Any

from ...domain.model import ReviewRow
from ..rows import review_from
from .plumbing import SqlitePlumbing


class SqliteReviews(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def get_review(self, match_id: int) -> ReviewRow | None:
        row = await self._one(
            "SELECT match_id, done, total, data, claimed_until FROM reviews WHERE match_id = ?", (match_id,)
        )
        return None if row is None else review_from(row)

    async def claim_review(self, match_id: int, total: int, now: float, lease: float) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO reviews (match_id, done, total, claimed_until, created_at) VALUES (?, 0, ?, ?, ?)"
                " ON CONFLICT (match_id) DO UPDATE SET done = 0, total = excluded.total,"
                " claimed_until = excluded.claimed_until WHERE reviews.data IS NULL AND reviews.claimed_until <= ?",
                (match_id, total, now + lease, now, now),
            )
            return cursor.rowcount == 1

    async def review_progress(self, match_id: int, done: int, now: float, lease: float) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "UPDATE reviews SET done = ?, claimed_until = ? WHERE match_id = ? AND data IS NULL",
                (done, now + lease, match_id),
            )
            return cursor.rowcount == 1

    async def save_review(self, match_id: int, data: dict[str, Any]) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE reviews SET data = ?, done = total, claimed_until = NULL WHERE match_id = ?",
                (json.dumps(data), match_id),
            )

    async def release_review(self, match_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM reviews WHERE match_id = ?", (match_id,))
