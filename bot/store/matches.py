"""The Store protocol's part for matches and their moves: creating, reading and listing matches, recording a move.

bot/store/base.py's ``Store`` includes it; sqlite/matches.py and postgres/matches.py implement it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ..domain.bank import BankClock
from ..domain.model import MatchRow, MoveRow, RecordedMove, ReminderPlan, SeatRow


class MatchStore(Protocol):
    async def create_match(
        self,
        *,
        game: str,
        options: dict[str, Any],
        players: int,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        seats: Iterable[SeatRow],
        now: float,
        days_per_move: float | None = None,
        rated: bool = True,
        hints: bool = False,
        analysis: bool = True,
        clock: BankClock | None = None,
    ) -> int: ...

    async def get_match(self, match_id: int) -> MatchRow | None: ...

    async def match_by_thread(self, thread_id: int) -> MatchRow | None: ...

    async def matches_of_user(
        self, user_id: int, guild_id: int | None, statuses: tuple[str, ...]
    ) -> list[MatchRow]: ...

    async def active_match_ids(self) -> list[int]: ...

    async def active_computer_match_ids(self) -> list[int]:
        """Matches in play with a computer seat (the computer's turns a stop may have interrupted)."""
        ...

    async def active_matches_of_guild(self, guild_id: int, limit: int = 50) -> list[MatchRow]: ...

    async def update_match_fields(self, match_id: int, **fields: Any) -> None: ...

    async def record_move(
        self,
        match_id: int,
        expected_version: int,
        *,
        move: MoveRow,
        state: dict[str, Any],
        finished: bool,
        result: dict[str, Any] | None,
        turn_changed: bool,
        resigned_seat: int | None,
        reminder: ReminderPlan | None,
        now: float,
        deadline_at: float | None = None,
        bank: tuple[int, float] | None = None,
        turn_allowance: float | None = None,
    ) -> RecordedMove:
        """Record one move and the new state atomically, in one trip to the database thread.

        When the turn changes, the new mover's deadline (``deadline_at``, None without a time limit)
        replaces the old one, with their bank as ``turn_allowance`` (a bank clock); a finished match has
        none. ``bank`` (seat, seconds): the bank of the player whose turn ended, settled. Any move lapses the
        pending offers: the posted ones are returned so their buttons can be retired, with the match as
        committed.
        """
        ...

    async def moves(self, match_id: int) -> list[MoveRow]: ...
