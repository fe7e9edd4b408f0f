"""What a change to a match produced, as data: the chat layer says it (``bot/chat/words/``).

The service decides and stores; it returns what happened (an :class:`Outcome` holding its
:class:`Change`\\ s) and never a sentence. Jobs and notices the timers produce are data too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import AnyGame, Event

from .model import MatchRow

# Changes of a lobby, then the changes a move of the log makes (moves.kind, plus "turn").
LOBBY_CHANGES = ("accepted", "declined", "joined", "cancelled", "started", "status")
MOVE_CHANGES = ("turn", "resign", "timeout", "draw", "takeback")


@dataclass(frozen=True)
class Change:
    """One thing that happened to a match, in the order it happened."""

    kind: str
    """One of LOBBY_CHANGES or MOVE_CHANGES; "status" is a reminder of where a match stands (no change)."""
    user_id: int | None = None
    """Who acted: the player who accepted, declined or joined, who claimed a time-out, who made a move."""
    seat: int | None = None
    """The engine seat a move concerns (its colour)."""
    holder_id: int | None = None
    """The user who held ``seat`` when the move was made (a swap changes who holds a seat afterwards)."""
    notation: str = ""
    """A turn's canonical notation; for a takeback, the turn taken back (empty when rebuilt from the log)."""
    events: tuple[Event, ...] = ()
    seat_open: bool = False
    """For "declined": the seat is open again (with two seats, a declined challenge is cancelled instead)."""
    conditional: bool = False
    """For "turn": played by the bot from the player's conditional moves (/premove)."""


@dataclass
class Outcome:
    """What a change to a match produced, for the bot to announce."""

    match: MatchRow
    game: AnyGame | None
    changes: tuple[Change, ...]
    mention_user_id: int | None = None
    """The person whose move it now is (never a computer seat), pinged by the announcement."""
    events: tuple[Event, ...] = ()
    started: bool = False
    finished: bool = False
    ending_user_ids: tuple[int, ...] = ()
    """A finished game pings every person in it…"""
    ending_dm_user_ids: tuple[int, ...] = ()
    """…and sends a direct message to those whose reminders come by DM."""
    unrated: str | None = None
    """Why a finished game its players asked to be rated does not count, said with its result: "too_short" (it
    ended before its second turn). None when it counts or was never rated (``bot/service/rating_rules.py``)."""
    lapsed_offers: tuple[tuple[int, int], ...] = ()
    """Posted offers this move lapsed (channel, message): their buttons are taken away."""
    answered: Outcome | None = None
    """The turn a player's conditional moves answered this move with, stored right after it (announced next)."""
    premoves_cleared: tuple[tuple[int, str], ...] = ()
    """(player, why) for each player whose conditional moves this move cleared, told privately: "unexpected"
    (a turn none of their lines expected), "takeback" (the turn they answered was taken back, theirs too),
    "resign" or "timeout" (a player left a game that goes on) or "illegal" (their answer could not be played).
    Nobody is told when the move ended the game (its result is posted) or of their own resignation."""

    @property
    def mention_user_ids(self) -> list[int]:
        if self.ending_user_ids:
            return list(self.ending_user_ids)
        return [self.mention_user_id] if self.mention_user_id is not None else []

    @property
    def moved(self) -> bool:
        """Whether a move of the log was stored (its announcement then says who is to move, or the result)."""
        return any(change.kind in MOVE_CHANGES for change in self.changes)


@dataclass
class ReminderJob:
    """A turn reminder due for the player to move."""

    match: MatchRow
    game: AnyGame
    user_id: int
    ply: int
    via: str
    waited: float
    """Seconds the turn has waited."""
    last_turn: tuple[int, str] | None
    """(seat, notation) of the last turn played, if any."""
    next_at: float


@dataclass
class DeadlineJob:
    """A warning to the player to move (level 1 or 2) or a time-out to announce to the others (level 3)."""

    match: MatchRow
    level: int
    user_id: int
    """The player to move."""
    ply: int
    via: str
    left: float
    """Seconds left before the deadline (zero or less for a time-out)."""
    claimant_ids: list[int]


@dataclass
class TurnNotice:
    """A turn reminder and a time-limit warning due in the same pass for the same player and turn: said in one
    message (two in the same second read as one said twice), each still recorded as sent by its own
    compare-and-set, as when they go alone."""

    reminder: ReminderJob
    warning: DeadlineJob

    @property
    def match(self) -> MatchRow:
        return self.warning.match

    @property
    def user_id(self) -> int:
        return self.warning.user_id

    @property
    def via(self) -> str:
        return self.warning.via


@dataclass
class OfferNotice:
    """A new offer, for the bot to post with Accept / Decline buttons."""

    match: MatchRow
    kind: str
    at_seq: int
    maker_id: int
    answerer_ids: list[int]
    """The people asked (pinged)."""
    computer_ids: tuple[int, ...] = ()
    """Computer seats asked: the computer player answers for them."""
    asked_ids: tuple[int, ...] = field(default=())
    """Everyone asked, people and computer seats, in seat order (as the offer names them)."""


@dataclass
class OfferAnswer:
    """What an answer did; ``outcome`` when it changed the match."""

    kind: str
    """"withdrawn", "declined", "accepted" (waiting for others) or "agreed" (the offer took effect)."""
    user_id: int
    """Who answered."""
    closed: bool
    match: MatchRow
    offer_kind: str
    maker_id: int
    waiting_ids: tuple[int, ...] = ()
    outcome: Outcome | None = None
