"""What the bot stores of a tournament: the event, its players, and its games (a match or a bye) by round.

Plain dataclasses shared by the store and the service; the rules (pairing, standings) are in bot/service/.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .model import ReminderPlan, SeatRow

FORMATS = ("round-robin", "swiss")
# open: taking players; running: its games are played; finished: its podium stands; cancelled: stopped early.
LIVE_STATUSES = ("open", "running")
TOURNAMENT_STATUSES = ("open", "running", "finished", "cancelled")


@dataclass
class TournamentPlayer:
    user_id: int
    name: str
    joined_at: float
    rating: float | None = None  # the conservative rating the player was seeded by, read at the start
    withdrawn_at: float | None = None  # when the player left the running event (their later games forfeited)

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


@dataclass
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None  # the public announcement with Join/Leave, or None before it is posted
    organizer_id: int
    game: str
    options: dict[str, Any]
    format: str  # one of FORMATS
    rounds: int  # Swiss: rounds to play; round robin: the schedule's rounds, set at the start
    days_per_move: float | None
    max_players: int
    starts_at: float | None  # when it starts by itself, or None for the organizer's /tournament start
    rated: bool
    status: str  # open, running, finished, cancelled
    round: int  # the latest round paired (0 before the start)
    version: int  # bumped by every change: the compare-and-set that makes each change happen once
    created_at: float
    players: list[TournamentPlayer] = field(default_factory=list)
    set_aside: str | None = None  # why the event is paused (its stored rows cannot be used), if it is
    standings_told: int = 0  # the last round whose standings (Swiss, between rounds) were posted in its channel

    def player(self, user_id: int) -> TournamentPlayer | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    @property
    def active_players(self) -> list[TournamentPlayer]:
        return [p for p in self.players if not p.withdrawn]


@dataclass
class TournamentGame:
    """One table of one round: a match (seats in their first-move order), or a bye (``bye_user_id``)."""

    round: int
    board: int  # the table's number in its round
    division: int  # round robin above ten players: the rating-seeded group (1 is the strongest); else 1
    match_id: int | None
    bye_user_id: int | None = None


@dataclass
class NewTable:
    """A match a round starts, ready to store: its seats (first to move first), position, reminder and deadline."""

    round: int
    board: int
    division: int
    seats: list[SeatRow]
    state: dict[str, Any]
    reminder: ReminderPlan | None
    deadline_at: float | None


@dataclass
class NewRound:
    """What one compare-and-set stores: the tables and byes of a round (round robin: of every round at once)."""

    round: int  # the tournament's round once stored
    tables: list[NewTable]
    byes: list[tuple[int, int]]  # (round, user id)
    seeds: dict[int, float] | None = None  # at the start: each player's rating, for the seeding and the record
    rounds: int | None = None  # at the start: the number of rounds the event will have
