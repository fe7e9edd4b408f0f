"""The Store protocol's part for offers of a draw or a takeback, and their acceptances.

bot/store/base.py's ``Store`` includes it; sqlite/offers.py and postgres/offers.py implement it.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import OfferRow


class OfferStore(Protocol):
    async def make_offer(self, match_id: int, expected_version: int, offer: OfferRow) -> None:
        """Record an offer for the match as the maker saw it; refused if the match changed since."""
        ...

    async def get_offer(self, match_id: int, kind: str) -> OfferRow | None: ...

    async def accept_offer(self, match_id: int, kind: str, at_seq: int, user_id: int) -> list[int] | None:
        """Add one acceptance; returns who has accepted, or None if the offer is gone."""
        ...

    async def set_offer_message(
        self, match_id: int, kind: str, at_seq: int, channel_id: int, message_id: int
    ) -> None: ...

    async def offer_messages(self, match_id: int) -> list[tuple[int, int]]:
        """(channel, message) of the match's pending offers that were posted."""
        ...

    async def withdraw_offer(self, match_id: int, kind: str, at_seq: int) -> bool: ...
