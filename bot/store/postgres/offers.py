"""PostgreSQL: offers of a draw or a takeback, and their acceptances.

The protocol, with what each method promises: bot/store/offers.py.
"""

from __future__ import annotations

import json

from ...domain.errors import VersionConflict
from ...domain.model import OfferRow
from ..rows import accepted_from
from .plumbing import PostgresPlumbing, in_range, rows_touched


class PostgresOffers(PostgresPlumbing):
    """Mixed into PostgresStore."""

    async def make_offer(self, match_id: int, expected_version: int, offer: OfferRow) -> None:
        """Record an offer for the match as the maker saw it; refused if the match changed since."""
        async with self.transaction() as db:
            row = await db.fetchrow("SELECT version, status FROM matches WHERE id = $1 FOR SHARE", match_id)
            if row is None or row[0] != expected_version or row[1] != "active":
                raise VersionConflict(match_id)
            await db.execute(
                "INSERT INTO offers (match_id, kind, user_id, at_seq, accepted, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (match_id, kind) DO UPDATE SET"
                " user_id = excluded.user_id, at_seq = excluded.at_seq, accepted = excluded.accepted,"
                " created_at = excluded.created_at, channel_id = NULL, message_id = NULL",
                match_id,
                offer.kind,
                offer.user_id,
                offer.at_seq,
                json.dumps(offer.accepted),
                offer.created_at,
            )

    async def get_offer(self, match_id: int, kind: str) -> OfferRow | None:
        r = await self._fetchrow(
            "SELECT match_id, kind, user_id, at_seq, accepted, created_at FROM offers"
            " WHERE match_id = $1 AND kind = $2",
            match_id,
            kind,
        )
        return OfferRow(r[0], r[1], r[2], r[3], accepted_from(match_id, r[4]), r[5]) if r else None

    async def accept_offer(self, match_id: int, kind: str, at_seq: int, user_id: int) -> list[int] | None:
        """Add one acceptance; returns who has accepted, or None if the offer is gone."""
        if not in_range(at_seq):
            return None
        async with self.transaction() as db:
            row = await db.fetchrow(
                "SELECT accepted FROM offers WHERE match_id = $1 AND kind = $2 AND at_seq = $3 FOR UPDATE",
                match_id,
                kind,
                at_seq,
            )
            if row is None:
                return None
            accepted = sorted(set(accepted_from(match_id, row[0])) | {user_id})
            await db.execute(
                "UPDATE offers SET accepted = $1 WHERE match_id = $2 AND kind = $3",
                json.dumps(accepted),
                match_id,
                kind,
            )
            return accepted

    async def set_offer_message(self, match_id: int, kind: str, at_seq: int, channel_id: int, message_id: int) -> None:
        await self._execute(
            "UPDATE offers SET channel_id = $1, message_id = $2 WHERE match_id = $3 AND kind = $4 AND at_seq = $5",
            channel_id,
            message_id,
            match_id,
            kind,
            at_seq,
        )

    async def offer_messages(self, match_id: int) -> list[tuple[int, int]]:
        """(channel, message) of the match's pending offers that were posted."""
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM offers WHERE match_id = $1 AND message_id IS NOT NULL", match_id
        )
        return [(r[0], r[1]) for r in rows]

    async def withdraw_offer(self, match_id: int, kind: str, at_seq: int) -> bool:
        if not in_range(at_seq):
            return False
        status = await self._execute(
            "DELETE FROM offers WHERE match_id = $1 AND kind = $2 AND at_seq = $3", match_id, kind, at_seq
        )
        return rows_touched(status) == 1
