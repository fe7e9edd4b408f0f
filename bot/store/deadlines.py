"""The Store protocol's part for time limits (claimed deadline notices) and vacations.

bot/store/base.py's ``Store`` includes it; sqlite/deadlines.py and postgres/deadlines.py implement it.
"""

from __future__ import annotations

from typing import Protocol


class DeadlineStore(Protocol):
    async def claim_deadlines(
        self,
        now: float,
        warnings: tuple[tuple[int, float], ...],
        lease: float,
        paused_shards: tuple[int, tuple[int, ...]] = (1, ()),
        held_at: float | None = None,
    ) -> list[int]:
        """Active matches with a notice due, claimed for ``lease`` seconds: a warning level not yet sent whose
        time has come, or the time-out (each match goes to one process only).

        ``warnings`` are (level, seconds before the deadline); a warning is only due when the
        limit is longer than that (one day per move gets no 24 h warning).
        """
        ...

    async def release_deadline(self, match_id: int) -> None:
        """Give a claimed deadline notice back (not delivered this time)."""
        ...

    async def set_deadline_notice(self, match_id: int, expected_version: int, level: int) -> bool:
        """Remember what was sent about the current deadline (its claim ends); False if the match changed."""
        ...

    async def hold_warnings(self, match_id: int, expected_version: int, until: float) -> bool:
        """No time-limit warning for the current turn before ``until`` (the mover's morning; the deadline itself
        never moves), the claim ending; False if the match changed meanwhile."""
        ...

    async def extend_deadline(self, match_id: int, expected_version: int, seconds: float) -> bool:
        """Push the current turn's deadline back (a vacation), if the turn is still the one that was read."""
        ...

    async def add_vacation(self, user_id: int, starts_at: float, ends_at: float) -> None: ...

    async def vacation_until(self, user_id: int, now: float) -> float | None: ...

    async def vacation_seconds_since(self, user_id: int, since: float) -> float: ...
