"""What the bot stores: a match with its seats and moves, offers, reminders, ratings, settings, limits.

Plain dataclasses, shared by the store (which reads and writes them) and the service (which decides with
them); no layer below this one, no database and no Discord here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .bank import BankClock


@dataclass
class RecordedMove:
    """A move as committed: the match after it, and the posted offers it lapsed (channel, message)."""

    match: MatchRow
    lapsed_offers: list[tuple[int, int]]


@dataclass
class SeatRow:
    seat: int
    user_id: int
    name: str
    accepted: bool = True
    resigned: bool = False
    computer: str | None = None  # the level of a computer seat (its user_id is a pseudo id < 0), None for a person
    # seconds in the player's bank at the start of their next turn (a match with a bank clock), else None; it
    # changes only in the transaction that records the end of one of their turns
    bank: float | None = None

    @property
    def is_computer(self) -> bool:
        return self.computer is not None


@dataclass
class MatchRow:
    id: int
    game: str
    options: dict[str, Any]
    players: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    board_channel_id: int | None
    board_message_id: int | None
    creator_id: int
    status: str
    state: dict[str, Any] | None
    version: int
    created_at: float
    updated_at: float
    turn_started_at: float | None
    result: dict[str, Any] | None
    announced_version: int = 0  # the version whose board the players have seen
    seats: list[SeatRow] = field(default_factory=list)
    # why the match is set aside (its log does not replay, or its row cannot be read), or None
    quarantine: str | None = None
    damage: str | None = None  # what in the stored row cannot be read (the match is then set aside), or None
    days_per_move: float | None = None  # the time limit, or None for none
    deadline_at: float | None = None  # when the player to move runs out of time
    deadline_notice: int = 0  # what was sent about this deadline: 1 the 24 h warning, 2 the 1 h one, 3 time-out
    rated: bool = True
    hints: bool = False  # /hint allowed against people too (agreed at creation)
    analysis: bool = True  # conditional moves (/premove) and private analysis (/explore) allowed (set at creation)
    premoves_held: bool = False  # a player has stored conditional moves in it (ever): moves look for them
    clock: BankClock | None = None  # a bank clock instead of days per move, or None
    # seconds the player to move had when their turn began (their bank), so no warning comes before the turn
    # did; None for days per move (the limit says it)
    turn_allowance: float | None = None
    warnings_held_until: float | None = None  # the mover's night: no time-limit warning before this moment

    @property
    def home_channel_id(self) -> int:
        """Where the match is played: its thread, or the channel when it has none."""
        return self.thread_id or self.channel_id

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> SeatRow | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def is_computer(self, user_id: int | None) -> bool:
        seat = None if user_id is None else self.seat_of(user_id)
        return seat is not None and seat.is_computer

    @property
    def has_computer(self) -> bool:
        return any(s.is_computer for s in self.seats)

    def human_ids(self, *, playing: bool = False) -> list[int]:
        """The people seated, in seat order (``playing``: those who have not left)."""
        return [
            s.user_id
            for s in sorted(self.seats, key=lambda s: s.seat)
            if not s.is_computer and not (playing and s.resigned)
        ]


@dataclass
class MoveRow:
    seq: int
    ply: int
    seat: int
    user_id: int
    kind: str
    notation: str  # canonical: what the log replays
    events: list[dict[str, Any]]
    created_at: float
    entered: str = ""  # exactly as the player typed it
    conditional: bool = False  # played by the bot from the player's conditional moves (/premove)


@dataclass(frozen=True)
class PremoveRow:
    """A player's conditional moves in a match, valid while the match is at ``version``."""

    match_id: int
    user_id: int
    version: int
    lines: list[list[str]]
    """Each line: canonical turn notations from the position of ``version``, whoever moves (a tree's branches)."""


@dataclass(frozen=True)
class ExplorationRow:
    """A player's private analysis board on a copy of a match's position."""

    match_id: int
    user_id: int
    version: int
    """The match's version whose position was copied (a line saved as conditional moves must start there)."""
    base: dict[str, Any]
    """The copied position (the engine's state)."""
    turns: list[str]
    """Turns played on the copy since (canonical notation)."""
    shown: int
    """How many of ``turns`` the board shows: stepping back lowers it, a new turn there replaces the rest."""


@dataclass(frozen=True)
class ReminderPlan:
    """The reminder a position calls for: the store times it in the transaction that starts the turn, from the
    player's delay in the match's server (or their global one), else the server's, else ``default_hours``."""

    user_id: int
    ply: int
    guild_id: int
    default_hours: float


@dataclass
class ReviewRow:
    """A match's post-game review: finished (``data``), or being searched by the process holding its claim."""

    match_id: int
    done: int
    """Positions searched so far."""
    total: int
    """Positions to search (the turns played, and the last position)."""
    data: dict[str, Any] | None
    """The finished review (bot/service/review.py writes and reads it), None while it runs."""
    claimed_until: float | None
    """Until when the process searching it holds it (its progress renews the lease); None when finished."""


@dataclass
class ReminderRow:
    match_id: int
    user_id: int
    ply: int
    remind_at: float
    last_sent_at: float | None
    snoozed: bool


@dataclass
class OfferRow:
    """A pending draw offer or takeback request, valid for the log as it was (``at_seq`` rows)."""

    match_id: int
    kind: str
    user_id: int
    at_seq: int
    accepted: list[int]
    created_at: float


# The rating players read (issue 26): OpenSkill's mu on an Elo-like scale. A new player (mu 25) reads 1500.
# 30 points per unit of mu: between two settled players OpenSkill's Plackett-Luce gives the better one
# logistic(difference / c), c = sqrt(2 (sigma² + beta²)) ≈ 5.9 for beta = 25/6, and Elo gives
# logistic(points · ln 10 / 400): equal at 400 / (5.9 · ln 10) ≈ 30 points per unit, so 200 points mean
# winning about 3 games in 4, as in Elo.
RATING_START = 1500
SKILL_START = 25.0
RATING_PER_SKILL = 30.0
PROVISIONAL_GAMES = 5  # a rating from fewer rated games of the game is provisional (shown with "?")


@dataclass
class RatingRow:
    guild_id: int
    game: str
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def skill(self) -> float:
        """The conservative skill (OpenSkill's ordinal: mu - 3 sigma), as the stores order the leaderboard."""
        return self.mu - 3 * self.sigma

    @property
    def rating(self) -> int:
        """The rating shown to players, on an Elo-like scale (1500 to start; see RATING_PER_SKILL)."""
        return round(RATING_START + RATING_PER_SKILL * (self.mu - SKILL_START))

    @property
    def provisional(self) -> bool:
        """Too few rated games for the rating to mean much yet: shown with "?", listed after the others."""
        return self.games < PROVISIONAL_GAMES


@dataclass
class GuildSettings:
    """A server's settings; None inherits (days_per_move 0 means: no time limit by default)."""

    match_channel_id: int | None = None
    days_per_move: float | None = None
    reminder_hours: float | None = None
    clock: BankClock | None = None  # the bank clock a match gets when /play names no time control; None: none
    analysis: bool | None = None  # conditional moves and analysis boards in matches that do not say; None: allowed
    language: str | None = None  # the public posts' language (/config language); None: the server's own locale
    share_puzzles: bool | None = None  # its puzzles given to, and taken from, servers that share (None: not shared)


@dataclass(frozen=True)
class Languages:
    """The languages stored for a server or a person: the one chosen in Hexplay (None: not chosen) and the one
    Discord last said it uses (a server's preferred locale, a person's client), as Hexplay's codes."""

    chosen: str | None = None
    seen: str | None = None


@dataclass
class Preferences:
    reminders: bool = True
    delay_hours: float | None = None
    via: str = "dm"
    challenges: str = "everyone"  # or "nobody": who may challenge the player (blocks are apart, in every server)
    quiet_zone: str | None = None  # the IANA time zone of the player's quiet hours, or None for none
    quiet_start: int = 22 * 60  # the night's start, minutes after local midnight
    quiet_end: int = 8 * 60  # the night's end (the morning a held reminder waits for)


@dataclass(frozen=True)
class ChallengeCaps:
    """The numbers a challenge is checked against (bot/limits.py sets them)."""

    open_lobbies: int  # lobbies a challenger has waiting in a server
    per_window: int  # challenges a challenger makes in a server within ``window`` seconds
    window: float
    same_player: int  # challenges of one person by one challenger, in any server, within ``same_player_window``
    same_player_window: float
    invitations_waiting: int  # unanswered invitations one person has in a server


@dataclass(frozen=True)
class ChallengeRefusal:
    """Why a challenge was refused: the rule ("blocked", "nobody", "open_lobbies", "rate", "same_player",
    "waiting"), the invited person it is about, and for the counted rules how long until a count frees."""

    rule: str
    user_id: int | None = None
    wait: float = 0.0


@dataclass(frozen=True)
class ConstraintBreach:
    """A stored row that breaks one of the schema's constraints (written with them off: a hand edit, a damaged
    page that still parses), as a check of the storage found it; its match or event is set aside."""

    table: str
    rowid: int
    rule: str  # the constraint it breaks, as the schema writes it ("CHECK (deadline_notice BETWEEN 0 AND 3)")
    match_id: int | None = None  # the match the row belongs to, if it is a match's and says which
    tournament_id: int | None = None  # the event the row belongs to, if it is an event's and says which

    def describe(self) -> str:
        return f"its row {self.rowid} of {self.table} breaks the schema's rule {self.rule}"
