"""The Store protocol's part for conditional moves and private analysis boards (issue 25).

bot/store/base.py's ``Store`` includes it; sqlite/premoves.py and postgres/premoves.py implement it.
"""

from __future__ import annotations

from typing import Protocol

from ..domain.model import ExplorationRow, PremoveRow


class PremoveStore(Protocol):
    async def set_premoves(
        self, match_id: int, user_id: int, expected_version: int, lines: list[list[str]], now: float
    ) -> None:
        """Replace the player's conditional moves (``lines`` empty: remove them), in one transaction that holds
        the match at ``expected_version`` (VersionConflict if it moved on) and marks it ``premoves_held``: a
        move landing first makes the edit fail, and a move landing after it sees the edit."""
        ...

    async def premoves_of(self, match_id: int, user_id: int) -> PremoveRow | None:
        """The player's conditional moves, whatever version they were made at (None: none, or unreadable)."""
        ...

    async def premoves_at(self, match_id: int, version: int) -> list[PremoveRow]:
        """The match's conditional moves made at ``version`` (read only: they stay stored until the move from
        ``version`` has been followed, so a stop between that move and its answer loses nothing)."""
        ...

    async def take_premoves(self, match_id: int, version: int) -> list[PremoveRow]:
        """Delete and return the match's conditional moves made at ``version`` or before (the move from
        ``version`` has been followed: they were answered or cleared; older ones were stale). With none left
        in the match, its ``premoves_held`` is cleared in the same transaction (its moves look for none)."""
        ...

    async def premoves_left_behind(self) -> list[tuple[int, int]]:
        """(match id, version) of conditional moves an active match has moved past without their being
        followed (a stop between a move and its answer): for the catch-up of any live process."""
        ...

    async def keep_premoves(
        self, match_id: int, user_id: int, version: int, lines: list[list[str]], now: float
    ) -> bool:
        """Store what is left of a player's conditional moves after a move, at the match's new ``version``:
        only if the match is at that version and the player has not entered new ones meanwhile (True if kept;
        the match's ``premoves_held`` is set again with it)."""
        ...

    async def get_exploration(self, match_id: int, user_id: int) -> ExplorationRow | None: ...

    async def put_exploration(self, exploration: ExplorationRow, now: float) -> None:
        """Create or replace the player's analysis board of the match."""
        ...

    async def drop_exploration(self, match_id: int, user_id: int) -> None: ...
