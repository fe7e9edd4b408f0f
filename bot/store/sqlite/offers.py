"""SQLite: offers of a draw or a takeback, and their acceptances.

The protocol, with what each method promises: bot/store/offers.py.
"""

from __future__ import annotations

import json

from ...domain.errors import VersionConflict
from ...domain.model import OfferRow
from ..rows import accepted_from
from .plumbing import SqlitePlumbing


class SqliteOffers(SqlitePlumbing):
    """Mixed into SqliteStore."""

    async def make_offer(self, match_id: int, expected_version: int, offer: OfferRow) -> None:
        """Record an offer for the match as the maker saw it; refused if the match changed since."""
        async with self.transaction() as db:
            async with db.execute("SELECT version, status FROM matches WHERE id = ?", (match_id,)) as cursor:
                row = await cursor.fetchone()
            if row is None or row[0] != expected_version or row[1] != "active":
                raise VersionConflict(match_id)
            await db.execute(
                "INSERT OR REPLACE INTO offers (match_id, kind, user_id, at_seq, accepted, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, offer.kind, offer.user_id, offer.at_seq, json.dumps(offer.accepted), offer.created_at),
            )

    async def get_offer(self, match_id: int, kind: str) -> OfferRow | None:
        r = await self._one(
            "SELECT match_id, kind, user_id, at_seq, accepted, created_at FROM offers WHERE match_id = ? AND kind = ?",
            (match_id, kind),
        )
        return OfferRow(r[0], r[1], r[2], r[3], accepted_from(match_id, r[4]), r[5]) if r else None

    async def accept_offer(self, match_id: int, kind: str, at_seq: int, user_id: int) -> list[int] | None:
        """Add one acceptance; returns who has accepted, or None if the offer is gone."""
        async with self.transaction() as db:
            async with db.execute(
                "SELECT accepted FROM offers WHERE match_id = ? AND kind = ? AND at_seq = ?", (match_id, kind, at_seq)
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return None
            accepted = sorted(set(accepted_from(match_id, row[0])) | {user_id})
            await db.execute(
                "UPDATE offers SET accepted = ? WHERE match_id = ? AND kind = ?", (json.dumps(accepted), match_id, kind)
            )
            return accepted

    async def set_offer_message(self, match_id: int, kind: str, at_seq: int, channel_id: int, message_id: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE offers SET channel_id = ?, message_id = ? WHERE match_id = ? AND kind = ? AND at_seq = ?",
                (channel_id, message_id, match_id, kind, at_seq),
            )

    async def offer_messages(self, match_id: int) -> list[tuple[int, int]]:
        """(channel, message) of the match's pending offers that were posted."""
        rows = await self._all(
            "SELECT channel_id, message_id FROM offers WHERE match_id = ? AND message_id IS NOT NULL", (match_id,)
        )
        return [(r[0], r[1]) for r in rows]

    async def withdraw_offer(self, match_id: int, kind: str, at_seq: int) -> bool:
        async with self.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM offers WHERE match_id = ? AND kind = ? AND at_seq = ?", (match_id, kind, at_seq)
            )
            return cursor.rowcount == 1
