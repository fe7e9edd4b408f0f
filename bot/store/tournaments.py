"""The Store protocol's part for tournaments (bot/store/base.py's ``Store`` includes it), and reading its rows.

Every change to a tournament is a compare-and-set on its ``version``: a join, a leave, a withdrawal, a round
with its matches, the end. Two processes acting on the same event at once never both apply; the loser gets
``VersionConflict`` (or False) and reads again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from ..domain.tournament import NewRound, TournamentGame, TournamentPlayer, TournamentRow

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, message_id, organizer_id, game, options, format, rounds, days_per_move,"
    " max_players, starts_at, rated, status, round, version, created_at"
)
PLAYER_COLUMNS = "user_id, name, joined_at, rating, withdrawn_at"
GAME_COLUMNS = "round, board, division, match_id, bye_user_id"


class TournamentStore(Protocol):
    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer_id: int,
        game: str,
        options: dict[str, Any],
        fmt: str,
        rounds: int,
        days_per_move: float | None,
        max_players: int,
        starts_at: float | None,
        rated: bool,
        now: float,
        most_live: int,
    ) -> int | None:
        """A new open tournament; None (nothing stored) when the organizer already has ``most_live`` open or
        running ones in this server: counted and inserted in one transaction, so two at once cannot both pass."""
        ...

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def tournaments_of_guild(self, guild_id: int, statuses: tuple[str, ...]) -> list[TournamentRow]: ...

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None: ...

    async def join_tournament(
        self, tournament_id: int, expected_version: int, user_id: int, name: str, now: float
    ) -> bool:
        """Seat a player in an open event, if it is still as read and has room; False otherwise."""
        ...

    async def leave_tournament(self, tournament_id: int, expected_version: int, user_id: int, now: float) -> bool: ...

    async def withdraw_from_tournament(
        self, tournament_id: int, expected_version: int, user_id: int, now: float
    ) -> bool:
        """Withdraw a player from a running event (their later rounds skip them), if it is still as read."""
        ...

    async def store_round(
        self, tournament_id: int, expected_version: int, new: NewRound, now: float
    ) -> list[int] | None:
        """Store a round and start its matches (active, their first turn's reminder and deadline set) in one
        transaction, if the event is still as read; the new matches' ids, or None when another change came
        first. At the start (``new.seeds``), the event becomes running with ``new.rounds`` rounds."""
        ...

    async def end_tournament(self, tournament_id: int, expected_version: int, status: str, now: float) -> bool:
        """Finish or cancel an event, if it is still as read."""
        ...

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]: ...

    async def tournament_of_match(self, match_id: int) -> int | None: ...

    async def tournaments_to_tend(self, now: float) -> list[int]:
        """Running events, finished ones whose podium was not told, and open ones whose start time has come: what
        the tournament pass looks at."""
        ...

    async def claim_tournament_notice(self, tournament_id: int, round_number: int) -> bool:
        """Claim the telling of a round (its number) or of the podium (0): True once, to one process."""
        ...

    async def last_turns(self, user_ids: list[int]) -> dict[int, float]:
        """When each of these people last played a turn, in any match (those who never did are missing)."""
        ...


def tournament_from(values: Sequence[Any], players: list[Sequence[Any]]) -> TournamentRow:
    row = TournamentRow(
        id=int(values[0]),
        guild_id=int(values[1]),
        channel_id=int(values[2]),
        message_id=None if values[3] is None else int(values[3]),
        organizer_id=int(values[4]),
        game=str(values[5]),
        options=json.loads(values[6]),
        format=str(values[7]),
        rounds=int(values[8]),
        days_per_move=None if values[9] is None else float(values[9]),
        max_players=int(values[10]),
        starts_at=None if values[11] is None else float(values[11]),
        rated=bool(values[12]),
        status=str(values[13]),
        round=int(values[14]),
        version=int(values[15]),
        created_at=float(values[16]),
    )
    row.players = [
        TournamentPlayer(
            int(p[0]),
            str(p[1]),
            float(p[2]),
            None if p[3] is None else float(p[3]),
            None if p[4] is None else float(p[4]),
        )
        for p in players
    ]
    return row


def game_from(values: Sequence[Any]) -> TournamentGame:
    return TournamentGame(
        int(values[0]),
        int(values[1]),
        int(values[2]),
        None if values[3] is None else int(values[3]),
        None if values[4] is None else int(values[4]),
    )
