"""The Store protocol's part for tournaments (bot/store/base.py's ``Store`` includes it), and reading its rows.

Every change to a tournament is a compare-and-set on its ``version``: a join, a leave, a withdrawal, a round
with its matches, the end. Two processes acting on the same event at once never both apply; the loser gets
``VersionConflict`` (or False) and reads again. An event's rows are read defensively (``tournament_from`` and
``game_from`` in sqlite/rows.py): a value that cannot be read raises ``DamagedTournament`` (the service sets the
event aside), never anything else.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..domain.tournament import NewRound, TournamentGame, TournamentRow

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, message_id, organizer_id, game, options, format, rounds, days_per_move,"
    " max_players, starts_at, rated, status, round, version, created_at, standings_told,"
    " (SELECT q.reason FROM tournament_quarantine q WHERE q.tournament_id = tournaments.id)"
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

    async def claim_tournament_standings(self, tournament_id: int, round_number: int, now: float, lease: float) -> bool:
        """Claim the posting of the standings after a round, for ``lease`` seconds: True to one process, unless they
        were posted (``tournament_standings_posted``) or another process holds them (its lease still running)."""
        ...

    async def tournament_standings_posted(self, tournament_id: int, round_number: int, posted: bool) -> None:
        """The claimed standings after a round were posted (never again), or not (the claim is let go: retried)."""
        ...

    async def last_turns(self, user_ids: list[int]) -> dict[int, float]:
        """When each of these people last played a turn, in any match (those who never did are missing)."""
        ...

    # Events set aside: rows that cannot be read (or break a constraint) pause their event, as a match is paused;
    # the lists and the pass leave it out, and its organizer is told once.

    async def set_tournament_aside(self, tournament_id: int, reason: str, now: float) -> bool:
        """Set an event aside; False if it already was."""
        ...

    async def release_tournament_aside(self, tournament_id: int) -> None:
        """Its rows read again (repaired): back in play."""
        ...

    async def tournaments_set_aside(self) -> list[int]: ...

    async def claim_tournaments_aside_untold(self, now: float, lease: float) -> list[tuple[int, int | None]]:
        """Events set aside whose organizer was not told yet, claimed for ``lease`` seconds: (event, its
        organizer if that much of its row reads)."""
        ...

    async def release_tournament_aside_notice(self, tournament_id: int) -> None: ...

    async def tournament_aside_told(self, tournament_id: int) -> None: ...
