"""The Store protocol's part for the lobby: seats taken and left, the start of a match, a lobby cancelled.

bot/store/base.py's ``Store`` includes it; sqlite/lobby.py and postgres/lobby.py implement it.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..domain.model import ReminderPlan, SeatRow


class LobbyStore(Protocol):
    async def open_lobbies(self, creator_id: int, guild_id: int) -> int:
        """How many lobbies this user created in this server that are still waiting for players."""
        ...

    async def lobby_change(
        self,
        match_id: int,
        expected_version: int,
        *,
        now: float,
        accept_user: int | None = None,
        remove_user: int | None = None,
        add_seat: SeatRow | None = None,
    ) -> None:
        """One change to a lobby, refused if another change happened first."""
        ...

    async def start_match(
        self,
        match_id: int,
        expected_version: int,
        *,
        seats: list[SeatRow],
        state: dict[str, Any],
        now: float,
        reminder: ReminderPlan | None,
        deadline_at: float | None = None,
        turn_allowance: float | None = None,
    ) -> None:
        """Turn a lobby into an active match with its final seats (their banks too), in one transaction;
        ``turn_allowance``: the first mover's bank (a bank clock)."""
        ...

    async def cancel_match(self, match_id: int, expected_version: int, now: float) -> None: ...
