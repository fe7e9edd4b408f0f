"""The product's rules of play, in one place, without Discord.

Command handlers and buttons call this service and show what it returns;
every error it raises is a :class:`ServiceError` whose message is written for
the player who caused it.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import weakref
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, TypeVar

from games import Event, Game, GameError, GameInfo, load_state
from games.interface import split_turn
from games import get as get_game
from render import can_zoom

from .clock import Clock, SystemClock
from .limits import CHALLENGES_PER_MINUTE, MAX_OPEN_LOBBIES  # noqa: F401  (abuse limits: bot/limits.py)
from .limits import Challenge, ChallengeLimits, StoredChallengeLimits
from .pictures import Pictures
from .domain.errors import DamagedMatch, StorageFull, VersionConflict
from .domain.model import MatchRow, MoveRow, Preferences, ReminderRow, SeatRow
from .store.base import Store
from .suggestions import MAX_CHOICES, clip, suggest_moves
from .turn_builder import BuilderError, BuilderState
from .turn_builder import build as build_turn
from .text import escape, fit, quoted

log = logging.getLogger(__name__)

DAY = 86400.0
MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE = 1.0, 30.0


# Numbers come from custom ids and commands typed by anyone: beyond SQLite's 64-bit integers there is no such row.
MAX_ROW_ID = 2**63 - 1


DISK_FULL = ("Nothing was saved: the bot's disk is full. Its operator has been told (see the log); "
             "try again later.")


class ServiceError(Exception):
    """A refusal with a message for the player."""


@dataclass
class Outcome:
    """What a change to a match produced, for the bot to announce."""

    match: MatchRow
    game: Game | None
    line: str
    mention_user_id: int | None = None
    events: tuple[Event, ...] = ()
    started: bool = False
    finished: bool = False
    # A finished game pings every player, and DMs those whose reminders come by DM.
    ending_user_ids: tuple[int, ...] = ()
    ending_dm_user_ids: tuple[int, ...] = ()
    # posted offers this move lapsed (channel, message): their buttons are taken away
    lapsed_offers: tuple[tuple[int, int], ...] = ()

    @property
    def mention_user_ids(self) -> list[int]:
        if self.ending_user_ids:
            return list(self.ending_user_ids)
        return [self.mention_user_id] if self.mention_user_id is not None else []


@dataclass
class ReminderJob:
    match: MatchRow
    user_id: int
    ply: int
    via: str
    text: str
    next_at: float


class BuilderExpired(ServiceError):
    """A turn builder opened on a position that has changed since."""


def parse_options(text: str | None) -> dict[str, str]:
    """``"side=4 board=small"`` → ``{"side": "4", "board": "small"}``."""
    options: dict[str, str] = {}
    for pair in (text or "").replace(",", " ").split():
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise ServiceError(f"Options are written key=value, like side=4; `{quoted(pair, 40)}` is not.")
        options[key.lower()] = value
    return options


T = TypeVar("T")


def one_at_a_time(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Run a change to a match (first argument: its id) holding that match's lock.

    Its read-check-write then sees the result of any change before it, so of two racing
    submissions the second is judged on the position the first produced ("not your turn").
    The store's conditional update (version check) still guards against anything else.
    """

    @functools.wraps(method)
    async def locked(self: "MatchService", match_id: int, *args: Any, **kwargs: Any) -> T:
        async with self.match_lock(match_id):
            return await method(self, match_id, *args, **kwargs)

    return locked


# Computer seats (docs/ai.md, "Computer seats in Discord"): the levels a player may pick, the default one
# (inviting the bot itself), and how a computer seat is named: pseudo user ids below zero, one per seat.
COMPUTER_LEVELS = ("easy", "medium", "hard")
DEFAULT_COMPUTER_LEVEL = "medium"
COMPUTER_NAME = "Hexplay"
COMPUTER_MARK = "🤖"  # in messages
PICTURE_MARK = "⚙"  # in pictures (the bundled font has no robot)


def computer_seat_name(level: str, number: int, count: int) -> str:
    """``Hexplay (hard)``; several computer seats are numbered: ``Hexplay 2 (easy)``."""
    return f"{COMPUTER_NAME}{f' {number}' if count > 1 else ''} ({level})"


def picture_name(seat: SeatRow) -> str:
    """A computer seat's name on pictures, short for the narrowest player table (Bide's, which cuts a name
    at about ten letters): ``⚙ AI hard``, ``⚙ AI 2 easy`` (the number first, so it is never the part cut)."""
    number = seat.name.removeprefix(COMPUTER_NAME).split("(")[0].strip()
    return f"{PICTURE_MARK} AI{f' {number}' if number else ''} {seat.computer}"


def seat_name(seat: SeatRow) -> str:
    """A seat's name for messages: computer seats carry a robot, so nobody mistakes them for a person."""
    return f"{COMPUTER_MARK} {seat.name}" if seat.is_computer else seat.name


def mention(match: MatchRow, user_id: int) -> str:
    """A ping for a person; a computer seat is named, never pinged (its id is not a Discord user)."""
    seat = match.seat_of(user_id)
    if seat is not None and seat.is_computer:
        return f"**{escape(seat_name(seat))}**"
    return f"<@{user_id}>"


# GIF replays are slow to draw: drawn apart from boards (Pictures.gif), one at a time per match, and a user
# waits between two.
GIF_COOLDOWN_SECONDS = 30.0


class MatchService:
    def __init__(self, store: Store, clock: Clock | None = None, default_reminder_hours: float = 24.0,
                 pictures: Pictures | None = None, limits: ChallengeLimits | None = None) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.pictures = pictures or Pictures()  # on a thread unless the bot gives it worker processes
        self.default_reminder_hours = default_reminder_hours
        self._match_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.limits: ChallengeLimits = limits or StoredChallengeLimits(store)
        self._gifs_drawing: set[int] = set()
        self._gif_asked: dict[int, float] = {}
        # called with each match that has just finished, after its commit (ratings); failures are logged only
        self.finish_hooks: list[Callable[[MatchRow], Awaitable[Any]]] = []
        # called (not awaited) with each match after a stored change that starts or moves on a game: the
        # computer player looks whether it is to move (bot/computer.py)
        self.change_hooks: list[Callable[[MatchRow], Any]] = []

    def match_lock(self, match_id: int) -> asyncio.Lock:
        """The lock serialising changes to one match (dropped when nobody holds or waits on it)."""
        lock = self._match_locks.get(match_id)
        if lock is None:
            lock = self._match_locks[match_id] = asyncio.Lock()
        return lock

    # -- helpers -----------------------------------------------------------------

    @staticmethod
    def info(match: MatchRow) -> GameInfo:
        return get_game(match.game)

    @staticmethod
    def title(match: MatchRow) -> str:
        return f"{get_game(match.game).name} #{match.id}"

    @staticmethod
    def game_of(match: MatchRow) -> Game:
        assert match.state is not None
        return load_state(match.state)

    @staticmethod
    def player_row(match: MatchRow, game: Game, seat: int) -> SeatRow:
        row = match.user_of(game.player_of_seat(seat))
        assert row is not None, (match.id, seat)
        return row

    @staticmethod
    def player_names(match: MatchRow) -> list[str]:
        """Names in sitting order, as pictures take them (a computer seat marked as such)."""
        return [picture_name(s) if s.is_computer else s.name for s in sorted(match.seats, key=lambda s: s.seat)]

    def seat_label(self, match: MatchRow, game: Game, seat: int) -> str:
        colours = self.info(match).seat_names
        colour = colours[seat - 1] if seat - 1 < len(colours) else f"seat {seat}"
        return f"**{escape(seat_name(self.player_row(match, game, seat)))}** ({colour})"

    def computer_to_move(self, match: MatchRow, game: Game) -> SeatRow | None:
        """The computer seat whose turn it is, if any."""
        mover = self.user_to_move(match, game)
        seat = None if mover is None else match.seat_of(mover)
        return seat if seat is not None and seat.is_computer else None

    def engine_seat_of(self, match: MatchRow, game: Game, user_id: int) -> int:
        for seat in range(1, game.players + 1):
            if self.player_row(match, game, seat).user_id == user_id:
                return seat
        raise ServiceError(f"You are not a player in {self.title(match)}.")

    def user_to_move(self, match: MatchRow, game: Game) -> int | None:
        seat = game.to_move
        return None if seat is None else self.player_row(match, game, seat).user_id

    async def get(self, match_id: int) -> MatchRow:
        match = await self.store.get_match(match_id)
        if match is None or match.status == "cancelled":
            raise ServiceError(f"There is no match #{match_id}.")
        if not await self.usable(match):
            raise ServiceError(self.quarantine_notice(match))
        return match

    @staticmethod
    def quarantine_notice(match: MatchRow | int) -> str:
        match_id = match if isinstance(match, int) else match.id
        reason = "" if isinstance(match, int) else match.quarantine or ""
        why = ("its saved move list does not lead to its saved position" if "move log" in reason
               or "differs" in reason else "part of its saved record cannot be read")
        return (f"Match #{match_id} is paused: {why}, so nothing can be played or shown in it until the bot's "
                "operator repairs it (they have been told; see the log). Your other matches are not affected.")

    @staticmethod
    def unreadable(match: MatchRow) -> str | None:
        """Why the stored match cannot be served (a column, its game, its options or its position), or None."""
        if match.damage is not None:
            return match.damage
        try:
            info = get_game(match.game)
        except GameError:
            return f"its game {match.game!r} is not one this bot plays"
        try:
            info.resolve_options(match.options)
        except (GameError, TypeError, ValueError) as error:
            return f"its options cannot be used ({error})"
        if match.state is not None:
            try:
                game = load_state(match.state)
            except Exception as error:  # any engine or data error: the position cannot be trusted
                return f"its stored position cannot be loaded ({type(error).__name__}: {error})"
            if game.info.id != info.id:
                return f"its stored position is a game of {game.info.id}, not of {info.id}"
            seated = {s.seat for s in match.seats}
            if any(game.player_of_seat(seat) not in seated for seat in range(1, game.players + 1)):
                return "its seats do not match its stored position"
        return None

    async def usable(self, match: MatchRow) -> bool:
        """Whether the match can be served; one whose data cannot be read is set aside (once) and is not."""
        if match.quarantine is not None and match.damage is None:
            return False  # already set aside
        problem = self.unreadable(match)
        if problem is None:
            return True
        match.quarantine = match.quarantine or problem
        await self.set_aside(match.id, problem)
        return False

    async def set_aside(self, match_id: int, reason: str) -> bool:
        """Quarantine one match (its players are told once, by the bot); True if it was not set aside before."""
        if not await self.store.quarantine(match_id, reason, self.clock.now()):
            return False
        log.error("match %s set aside: %s; it is paused until repaired, other matches are served", match_id, reason)
        return True

    async def paused_by(self, damaged: DamagedMatch) -> str:
        """A request ran into a match's damaged data: set the match aside; the player's explanation."""
        await self.set_aside(damaged.match_id, damaged.reason)
        return self.quarantine_notice(damaged.match_id)

    async def usable_only(self, matches: list[MatchRow]) -> list[MatchRow]:
        """The matches of a list that can be served (the others are set aside, not shown)."""
        return [match for match in matches if await self.usable(match)]

    async def active(self, match_id: int) -> tuple[MatchRow, Game]:
        match = await self.get(match_id)
        if match.status == "lobby":
            raise ServiceError(f"{self.title(match)} has not started yet.")
        if match.status == "finished":
            raise ServiceError(f"{self.title(match)} is over.")
        return match, self.game_of(match)

    # -- time limits ----------------------------------------------------------------

    async def deadline_for(self, match: MatchRow, game: Game, now: float) -> float | None:
        """When the player now to move runs out of time: a vacation starts their clock at its end.

        The computer has no clock, and neither has a person whose only opponents still playing are
        computers (nobody could claim their time).
        """
        if match.days_per_move is None or game.is_over:
            return None
        mover = self.user_to_move(match, game)
        if match.is_computer(mover) or not [u for u in match.human_ids(playing=True) if u != mover]:
            return None
        start = now
        if mover is not None:
            start = max(now, await self.store.vacation_until(mover, now) or now)
        return start + match.days_per_move * DAY

    def time_note(self, match: MatchRow, prefix: str = "") -> str:
        """The time left on the current turn, for boards and lists (Discord shows it relative)."""
        if match.status != "active" or match.deadline_at is None:
            return ""
        if match.deadline_at <= self.clock.now():
            return f"{prefix}out of time"
        return f"{prefix}time runs out <t:{int(match.deadline_at)}:R>"

    async def vacation_note(self, match: MatchRow) -> str:
        """Players of the match on vacation, shown to their opponents."""
        now = self.clock.now()
        notes = []
        for seat in match.seats:
            if seat.is_computer:
                continue
            until = await self.store.vacation_until(seat.user_id, now)
            if until is not None:
                notes.append(f"{escape(seat.name)} is on vacation until <t:{int(until)}:f>")
        return "; ".join(notes)

    async def reminder_delay(self, user_id: int, guild_id: int) -> float:
        """The user's delay in this server (or their global one), else the server's, else the environment's."""
        user_hours, server_hours = await self.store.reminder_hours(user_id, guild_id)
        return (user_hours or server_hours or self.default_reminder_hours) * 3600.0

    async def server_reminder_hours(self, guild_id: int) -> float:
        """The server's default reminder delay (set with /config), else the environment's."""
        return (await self.store.guild_settings(guild_id)).reminder_hours or self.default_reminder_hours

    async def _reminder_for(self, match: MatchRow, game: Game, now: float) -> tuple[int, int, float] | None:
        user_id = self.user_to_move(match, game)
        if user_id is None or match.is_computer(user_id):  # the computer is never reminded
            return None
        return user_id, game.ply, now + await self.reminder_delay(user_id, match.guild_id)

    # -- finding a match ------------------------------------------------------------

    async def resolve(self, user_id: int, guild_id: int, channel_id: int, match_id: int | None) -> MatchRow:
        """The match a command means: named, the thread it is typed in, or the user's only one."""
        if match_id is not None:
            match = await self.get(match_id)
            if match.guild_id != guild_id:
                raise ServiceError(f"There is no match #{match_id} in this server.")
            return match
        in_thread = await self.store.match_by_thread(channel_id)
        if in_thread is not None and in_thread.status != "cancelled":
            if not await self.usable(in_thread):  # typed in a paused match's thread: say so
                raise ServiceError(self.quarantine_notice(in_thread))
            return in_thread
        mine = await self.usable_only(await self.store.matches_of_user(user_id, guild_id, ("active",)))
        if not mine:
            raise ServiceError("You have no match in progress here. Start one with /play.")
        if len(mine) == 1:
            return mine[0]
        waiting = [m for m in mine if self.user_to_move(m, self.game_of(m)) == user_id]
        if len(waiting) == 1:
            return waiting[0]
        names = ", ".join(f"#{m.id} {self.info(m).name}" for m in mine[:10])
        raise ServiceError(f"You are in several matches ({names}): use the match option, "
                           "or type the command in the match's thread.")

    async def my_matches(self, user_id: int, guild_id: int) -> list[tuple[MatchRow, Game | None, bool]]:
        """Lobbies and games of the user: those awaiting their move first, oldest first."""
        rows = await self.usable_only(await self.store.matches_of_user(user_id, guild_id, ("lobby", "active")))
        listed = []
        for match in rows:
            game = self.game_of(match) if match.state else None
            waiting = game is not None and self.user_to_move(match, game) == user_id
            listed.append((match, game, waiting))
        listed.sort(key=lambda item: (not item[2], item[0].turn_started_at or item[0].created_at))
        return listed

    # -- the lobby ---------------------------------------------------------------------

    async def create(
        self,
        *,
        game_id: str,
        creator: tuple[int, str],
        invited: list[tuple[int, str]],
        guild_id: int,
        channel_id: int,
        players: int | None = None,
        options_text: str | None = None,
        days_per_move: float | None = None,
        rated: bool = True,
        computer: str | None = None,
        computers: int | None = None,
        with_bot: bool = False,
        hints: bool = False,
    ) -> MatchRow:
        """A new lobby. ``computer`` (a level) and ``computers`` (how many) seat the computer; inviting the
        bot itself (``with_bot``) seats one at the default level. Computer seats are always ready."""
        level, count = self._computer_seats(computer, computers, with_bot)
        if days_per_move is None:  # the match option, else the server's default (0 there means none)
            days_per_move = (await self.store.guild_settings(guild_id)).days_per_move
        days_per_move = days_per_move or None
        if days_per_move is not None and not MIN_DAYS_PER_MOVE <= days_per_move <= MAX_DAYS_PER_MOVE:
            raise ServiceError(f"A time limit is between {MIN_DAYS_PER_MOVE:g} and {MAX_DAYS_PER_MOVE:g} days "
                               "per move.")
        try:
            info = get_game(game_id)
            options = info.resolve_options(parse_options(options_text))
        except GameError as error:
            raise ServiceError(fit(str(error), 300)) from None
        unique = []
        for user in invited:
            if user[0] == creator[0]:
                raise ServiceError("You cannot invite yourself; you are already seated.")
            if user[0] not in [u[0] for u in unique]:
                unique.append(user)
        seats_wanted = players or max(info.min_players, len(unique) + 1 + count)
        try:
            info.check_players(seats_wanted)
        except GameError as error:
            counted = ""
            if count and not players:
                counted = (f" (you, {len(unique)} invited player{'s' * (len(unique) != 1)} and {count} computer "
                           f"seat{'s' * (count != 1)})")
            raise ServiceError(f"{error}{counted}.") from None
        if len(unique) + 1 + count > seats_wanted:
            computers_too = f" and {count} computer seat{'s' * (count != 1)}" if count else ""
            raise ServiceError(f"{len(unique) + 1} players{computers_too} do not fit in {seats_wanted} seats.")
        await self._check_challenge_limits(creator[0], guild_id, unique)  # only a valid challenge counts
        seats = [SeatRow(1, creator[0], creator[1])]
        seats += [SeatRow(i + 2, uid, name, accepted=False) for i, (uid, name) in enumerate(unique)]
        seats += [SeatRow(len(unique) + 2 + i, -(i + 1), computer_seat_name(level, i + 1, count), computer=level)
                  for i in range(count)]
        match_id = await self.store.create_match(
            game=info.id, options=options, players=seats_wanted, guild_id=guild_id, channel_id=channel_id,
            creator_id=creator[0], seats=seats, now=self.clock.now(), days_per_move=days_per_move, rated=rated,
            hints=hints,
        )
        return await self.get(match_id)

    @staticmethod
    def _computer_seats(level: str | None, count: int | None, with_bot: bool) -> tuple[str, int]:
        """(level, how many computer seats) from /play's options."""
        if level is None and count is None and not with_bot:
            return DEFAULT_COMPUTER_LEVEL, 0
        level = (level or DEFAULT_COMPUTER_LEVEL).strip().lower()
        if level not in COMPUTER_LEVELS:
            raise ServiceError(f"The computer plays at {', '.join(COMPUTER_LEVELS[:-1])} or {COMPUTER_LEVELS[-1]}, "
                               f"not `{quoted(level, 20)}`.")
        if count is None:
            count = 1
        if not 1 <= count <= 5:
            raise ServiceError("The computer can take 1 to 5 seats (a match keeps at least one for you).")
        return level, count

    @one_at_a_time
    async def start_if_ready(self, match_id: int) -> Outcome | None:
        """Start a new lobby whose every seat is taken and ready (you against the computer): None otherwise."""
        match = await self._lobby(match_id)
        if len(match.seats) == match.players and all(s.accepted for s in match.seats):
            return await self._start(match, match.seats)
        return None

    async def _check_challenge_limits(self, user_id: int, guild_id: int, invited: list[tuple[int, str]]) -> None:
        """Every path that invites people asks here (/play, rematch); ``invited`` are people, never computer seats."""
        refusal = await self.limits.admit(Challenge(guild_id, user_id, tuple(invited)), self.clock.now())
        if refusal is not None:
            raise ServiceError(refusal)

    def check_guild(self, match: MatchRow, guild_id: int | None) -> None:
        """Buttons answer only in the match's own server, as commands do."""
        if match.guild_id != guild_id:
            raise ServiceError(f"There is no match #{match.id} in this server.")

    def lobby_text(self, match: MatchRow) -> str:
        info = self.info(match)
        options = ", ".join(f"{k}={v}" for k, v in match.options.items())
        terms = [options] if options else []
        if match.days_per_move:
            terms.append(f"{match.days_per_move:g} day{'s' * (match.days_per_move != 1)} per move")
        if match.has_computer:
            terms.append("not rated: the computer plays")
        elif not match.rated:
            terms.append("unrated")
        if match.hints:
            terms.append("hints allowed: joining agrees to /hint for everyone")
        lines = [f"**{self.title(match)}** — {match.players} seats" + (f" ({'; '.join(terms)})" if terms else "")]
        for seat in match.seats:
            if seat.is_computer:
                lines.append(f"{seat.seat}. {mention(match, seat.user_id)} — the computer, always ready")
                continue
            state = "ready" if seat.accepted else "invited, waiting for an answer"
            lines.append(f"{seat.seat}. <@{seat.user_id}> — {state}")
        if match.status != "lobby":
            return "\n".join(lines)
        open_seats = match.players - len(match.seats)
        if open_seats:
            lines.append(f"{open_seats} open seat{'s' * (open_seats != 1)}: press **Join** to take one.")
        if self.can_start_early(match):
            lines.append(f"<@{match.creator_id}> can press **Start** to begin with the players who are ready.")
        return "\n".join(lines)

    def can_start_early(self, match: MatchRow) -> bool:
        """Start helps only when some seats are optional and enough players are ready.

        A lobby whose seats are all needed (a two-seat challenge) starts by itself
        once full, so it never shows Start.
        """
        info = self.info(match)
        ready = sum(1 for s in match.seats if s.accepted)
        return (match.status == "lobby" and match.players > info.min_players and ready >= info.min_players
                and ready < match.players)

    async def _lobby(self, match_id: int) -> MatchRow:
        match = await self.get(match_id)
        if match.status != "lobby":
            state = "is over" if match.status == "finished" else "has already started"
            raise ServiceError(f"{self.title(match)} {state}.")
        return match

    @one_at_a_time
    async def accept(self, match_id: int, user_id: int) -> Outcome:
        return await self._accept(match_id, user_id)

    async def _accept(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise ServiceError(f"You were not invited to {self.title(match)}.")
        if seat.accepted:
            raise ServiceError("You have already accepted.")
        await self._lobby_change(match, accept_user=user_id)
        return await self._maybe_start(match_id, f"<@{user_id}> accepted.")

    @one_at_a_time
    async def decline(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        seat = match.seat_of(user_id)
        if seat is None or user_id == match.creator_id:
            raise ServiceError("Only an invited player can decline.")
        if match.players == 2:  # a declined challenge between two is over
            await self._guarded(self.store.cancel_match(match.id, match.version, self.clock.now()))
            cancelled = await self.store.get_match(match_id)
            assert cancelled is not None
            return Outcome(cancelled, None,
                           f"<@{user_id}> declined: {self.title(match)} is cancelled.", finished=True)
        await self._lobby_change(match, remove_user=user_id)
        return Outcome(await self.get(match_id), None, f"<@{user_id}> declined; the seat is open.")

    @one_at_a_time
    async def join(self, match_id: int, user: tuple[int, str]) -> Outcome:
        match = await self._lobby(match_id)
        seated = match.seat_of(user[0])
        if seated is not None and not seated.accepted:
            return await self._accept(match_id, user[0])  # an invited player pressing Join means yes
        if seated is not None:
            raise ServiceError(f"You are already seated in {self.title(match)}.")
        if len(match.seats) >= match.players:
            raise ServiceError(f"{self.title(match)} has no open seat.")
        taken = {s.seat for s in match.seats}
        number = min(n for n in range(1, match.players + 1) if n not in taken)
        await self._lobby_change(match, add_seat=SeatRow(number, user[0], user[1]))
        return await self._maybe_start(match_id, f"<@{user[0]}> joined.")

    @one_at_a_time
    async def cancel(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        if user_id != match.creator_id:
            raise ServiceError("Only the player who created the match can cancel it.")
        await self._guarded(self.store.cancel_match(match.id, match.version, self.clock.now()))
        cancelled = await self.store.get_match(match_id)
        assert cancelled is not None
        return Outcome(cancelled, None, f"{self.title(match)} was cancelled.", finished=True)

    @one_at_a_time
    async def start(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        if user_id != match.creator_id:
            raise ServiceError("Only the player who created the match can start it.")
        ready = [s for s in match.seats if s.accepted]
        info = self.info(match)
        if len(ready) < info.min_players:
            raise ServiceError(f"{info.name} needs at least {info.min_players} ready players; "
                               f"{len(ready)} so far.")
        return await self._start(match, ready)

    async def _maybe_start(self, match_id: int, line: str) -> Outcome:
        match = await self.get(match_id)
        if len(match.seats) == match.players and all(s.accepted for s in match.seats):
            outcome = await self._start(match, match.seats)
            outcome.line = f"{line} {outcome.line}"
            return outcome
        return Outcome(match, None, line)

    async def _start(self, match: MatchRow, ready: list[SeatRow]) -> Outcome:
        seats = [SeatRow(i + 1, s.user_id, s.name, computer=s.computer)
                 for i, s in enumerate(sorted(ready, key=lambda s: s.seat))]
        game = self.info(match).new(len(seats), match.options)
        now = self.clock.now()
        match.seats = seats
        reminder = await self._reminder_for(match, game, now)
        deadline = await self.deadline_for(match, game, now)
        await self._guarded(self.store.start_match(
            match.id, match.version, seats=seats, state=game.to_json(), now=now, reminder=reminder,
            deadline_at=deadline))
        started = await self.get(match.id)
        assert game.to_move is not None
        line = f"{self.title(started)} begins. {self.seat_label(started, game, game.to_move)} to move."
        self._changed(started)
        return Outcome(started, game, line, mention_user_id=self._ping_to_move(started, game), started=True)

    def _ping_to_move(self, match: MatchRow, game: Game) -> int | None:
        """Whom "your move" pings: the person to move; never a computer seat."""
        mover = self.user_to_move(match, game)
        return None if mover is None or match.is_computer(mover) else mover

    def _changed(self, match: MatchRow) -> None:
        for hook in self.change_hooks:
            try:
                hook(match)
            except Exception:  # the change is stored: a hook must not turn it into an error
                log.exception("match %s: a change hook failed", match.id)

    async def _lobby_change(self, match: MatchRow, **change: Any) -> None:
        await self._guarded(self.store.lobby_change(match.id, match.version, now=self.clock.now(), **change))

    @staticmethod
    async def _guarded(operation: Any) -> Any:
        """A change's one transaction: a conflict or a full disk rolled all of it back, and the player hears so."""
        try:
            return await operation
        except VersionConflict:
            raise ServiceError("The position changed at the same moment (another turn or button came first), "
                               "so nothing was done: look at the latest board and try again.") from None
        except StorageFull as error:
            log.error("the database cannot grow (%s): the bot's disk is full", error)
            raise ServiceError(DISK_FULL) from None

    # -- playing ---------------------------------------------------------------------------

    @one_at_a_time
    async def play(self, match_id: int, user_id: int, text: str, expected_version: int | None = None) -> Outcome:
        match, game = await self.active(match_id)
        seat = self.engine_seat_of(match, game, user_id)
        if game.to_move != seat:
            assert game.to_move is not None
            raise ServiceError(f"It is not your turn in {self.title(match)}: "
                               f"{self.seat_label(match, game, game.to_move)} is to move.")
        if expected_version is not None and expected_version != match.version:
            raise ServiceError("That button belongs to an older position; use the latest board.")
        before_ply, before_mover = game.ply, game.to_move
        label = self.seat_label(match, game, seat)  # before the turn: a swap changes who owns the seat
        try:
            events = game.play_turn(text)
        except GameError as error:
            raise ServiceError(f"`{quoted(text)}` is not a legal move: {fit(str(error), 300)}.") from None
        notation = game.last_turn_notation
        line = self.turn_line(label, game, notation, events)
        move = MoveRow(0, before_ply, seat, user_id, "turn", notation, [e.to_json() for e in events], 0.0,
                       entered=text)
        return await self._record(match, game, (before_mover, before_ply), move, events, line)

    @one_at_a_time
    async def resign(self, match_id: int, user_id: int) -> Outcome:
        match, game = await self.active(match_id)
        seat = self.engine_seat_of(match, game, user_id)
        if self.player_row(match, game, seat).resigned:
            raise ServiceError("You have already resigned from this match.")
        label = self.seat_label(match, game, seat)
        before = (game.to_move, game.ply)
        try:
            events = game.resign(seat)
        except GameError as error:
            raise ServiceError(str(error)) from None
        move = MoveRow(0, game.ply, seat, user_id, "resign", "resign", [e.to_json() for e in events], 0.0)
        return await self._record(match, game, before, move, events, f"{label} resigned.",
                                  resigned_seat=game.player_of_seat(seat))

    async def _record(
        self, match: MatchRow, game: Game, before: tuple[int | None, int], move: MoveRow, events: list[Event],
        line: str, resigned_seat: int | None = None,
    ) -> Outcome:
        """Store a move; ``before`` is (seat to move, ply) as they were before it."""
        now = self.clock.now()
        turn_changed = (game.to_move, game.ply) != before
        finished = game.is_over
        result = {"winners": list(game.winners), "scores": game.scores()} if finished else None
        reminder = await self._reminder_for(match, game, now) if turn_changed and not finished else None
        deadline = await self.deadline_for(match, game, now) if turn_changed and not finished else None
        recorded = await self._guarded(self.store.record_move(
            match.id, match.version, move=move, state=game.to_json(), finished=finished, result=result,
            turn_changed=turn_changed, resigned_seat=resigned_seat, reminder=reminder, now=now,
            deadline_at=deadline))
        updated = recorded.match  # as committed, read in the move's transaction
        if finished:
            await self._finished(updated)
        else:
            self._changed(updated)
        outcome = await self._announcement(updated, game, line, events)
        outcome.lapsed_offers = tuple(recorded.lapsed_offers)  # the move deleted them in its transaction
        return outcome

    async def _finished(self, match: MatchRow) -> None:
        for hook in self.finish_hooks:
            try:
                await hook(match)
            except Exception:  # the move is stored: a rating problem must not turn it into an error
                log.exception("match %s: a finish hook failed (it is retried at start-up)", match.id)

    async def _announcement(self, match: MatchRow, game: Game, line: str, events: list[Event]) -> Outcome:
        """The outcome of a move: its line, then the result (pinging everyone) or a call to the player to move."""
        if not game.is_over:
            computer = self.computer_to_move(match, game)
            if computer is not None:
                line += f" {mention(match, computer.user_id)} is thinking…"
                return Outcome(match, game, line, events=tuple(events))
            mover = self.user_to_move(match, game)
            line += f" <@{mover}>, your move{self.time_note(match, ' — ')}."
            return Outcome(match, game, line, mention_user_id=mover, events=tuple(events))
        everyone = tuple(match.human_ids())  # the result pings the people, never a computer seat
        line += f" {self.result_line(match, game)} " + " ".join(f"<@{u}>" for u in everyone)
        by_dm = []
        for user_id in everyone:
            prefs = await self.store.get_preferences(user_id, match.guild_id)
            if prefs.reminders and prefs.via == "dm":
                by_dm.append(user_id)
        return Outcome(match, game, line, events=tuple(events), finished=True,
                       ending_user_ids=everyone, ending_dm_user_ids=tuple(by_dm))

    def ending_dm(self, outcome: Outcome) -> str:
        """The direct message a player gets when a game ends."""
        return f"**{self.title(outcome.match)}** has ended. {outcome.line}"

    async def unannounced(self) -> list[Outcome]:
        """Moves stored but never shown (the bot stopped between the two), to post at start-up."""
        outcomes = []
        for match_id in await self.store.unannounced_match_ids():
            outcome = await self.for_one_match(match_id, self.missed(match_id))  # one bad match stops no other
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    async def missed(self, match_id: int) -> Outcome:
        """The announcement of the match's latest stored change, rebuilt from its log."""
        match = await self.get(match_id)
        game = self.game_of(match)
        moves = await self.store.moves(match_id)
        if not moves:
            return Outcome(match, game, self.status_line(match, game), started=True,
                           mention_user_id=self._ping_to_move(match, game))
        last = moves[-1]
        before = self.replay(match, moves[:-1])  # whose seat it was then (a swap changes it)
        label = self.seat_label(match, before, last.seat)
        events = [Event.from_json(e) for e in last.events]
        line = self.move_line(label, last, events, game)
        return await self._announcement(match, game, line, events)

    def move_line(self, label: str, move: MoveRow, events: list[Event], game: Game | None = None) -> str:
        """How a logged move is announced."""
        if move.kind == "resign":
            return f"{label} resigned."
        if move.kind == "timeout":
            return f"{label} ran out of time and is out of the game."
        if move.kind == "draw":
            return "The players agreed a draw."
        if move.kind == "takeback":
            return f"By agreement, {label}'s last turn was taken back."
        if game is not None:
            return self.turn_line(label, game, move.notation, events)
        return f"{label} played `{move.notation}`{self._effects(events)}."

    @classmethod
    def turn_line(cls, label: str, game: Game, notation: str, events: list[Event]) -> str:
        """A played turn, in the engine's words when it has them (Game.describe_turn: Bump's chains,
        "alice: 03,05-4 — bumps 06 to 07, which bumps 17 (captured against the wall)."), else counted."""
        described = game.describe_turn(events, notation)
        if described and described != notation:
            return f"{label}: {described}" + ("" if described.endswith(("!", ".")) else ".")
        return f"{label} played `{notation}`{cls._effects(events)}."

    @staticmethod
    def _effects(events: list[Event]) -> str:
        pushes = sum(1 for e in events if e.kind == "push")
        captures = sum(1 for e in events if e.kind == "capture")
        parts = []
        if pushes:
            parts.append(f"{pushes} disc{'s' * (pushes != 1)} pushed")
        if captures:
            parts.append(f"{captures} captured")
        if any(e.kind == "release" for e in events):
            parts.append("a release: every opponent must release next turn")
        if any(e.kind == "swap" for e in events):
            parts.append("the players swapped sides")
        return f" — {', '.join(parts)}" if parts else ""

    def result_line(self, match: MatchRow, game: Game) -> str:
        winners = [self.seat_label(match, game, s) for s in game.winners]
        scores = game.scores()
        score_text = ""
        if scores is not None:  # each score named by its player, so nobody guesses whose is whose
            named = [f"{escape(self.player_row(match, game, seat).name)} {_number(value)}"
                     for seat, value in enumerate(scores, start=1)]
            score_text = " (" + ", ".join(named) + ")"
        if len(winners) > 1:
            return f"Game over: {' and '.join(winners)} share the win{score_text}."
        if winners:
            return f"Game over: {winners[0]} wins{score_text}."
        return f"Game over: a draw{score_text}."

    # -- looking -------------------------------------------------------------------------

    async def render(self, match: MatchRow, game: Game, events: tuple[Event, ...] | list[Event] = (),
                     zoom: str | None = None) -> bytes:
        return await self.pictures.png(game, player_names=self.player_names(match), last_events=events,
                                       title=self.title(match), zoom=zoom)

    async def last_events(self, match: MatchRow) -> list[Event]:
        moves = effective_moves(await self.store.moves(match.id))
        for move in reversed(moves):
            if move.kind == "turn":
                return [Event.from_json(e) for e in move.events]
        return []

    async def board(self, match_id: int, zoom: str | None = None) -> tuple[MatchRow, Game, bytes, str]:
        """The board picture; ``zoom`` ("last" or a cell) enlarges part of it, for games that can."""
        match = await self.get(match_id)
        if match.status == "lobby":
            raise ServiceError(f"{self.title(match)} has not started yet.")
        game = self.game_of(match)
        zoom = (zoom or "").strip()[:20] or None
        if zoom is not None:
            if not can_zoom(game.info.id):
                raise ServiceError(f"{game.info.name} boards have no zoom: they are readable whole.")
            try:
                if zoom.lower() != "last":
                    game.board.parse(zoom)  # type: ignore[attr-defined]  (games that zoom have named cells)
            except ValueError:
                raise ServiceError(f"`{zoom}` is not a cell of this board: give a cell name such as "
                                   f"`{game.board.names[0]}`, or `last`.") from None
        png = await self.render(match, game, await self.last_events(match), zoom=zoom)
        line = self.status_line(match, game) + self.time_note(match, " — ")
        vacation = await self.vacation_note(match)
        return match, game, png, line + (f"\n{vacation}." if vacation else "")

    def status_line(self, match: MatchRow, game: Game) -> str:
        if game.is_over:
            return f"{self.title(match)}: {self.result_line(match, game)}"
        assert game.to_move is not None
        return f"{self.title(match)}, turn {game.ply + 1}: {self.seat_label(match, game, game.to_move)} to move."

    async def preview(self, match_id: int, user_id: int, text: str) -> tuple[bytes, str]:
        match, game = await self.active(match_id)
        if match.seat_of(user_id) is None:
            raise ServiceError(f"You are not a player in {self.title(match)}.")
        if self.user_to_move(match, game) != user_id:  # the engine can only try the mover's turn
            assert game.to_move is not None
            raise ServiceError(f"It is not your turn in {self.title(match)}: "
                               f"{self.seat_label(match, game, game.to_move)} is to move, and a preview "
                               "shows your own move when it is your turn.")
        trial = game.copy()
        try:
            events = trial.play_turn(text)
        except GameError as error:
            # Not a whole turn: show the actions so far, if each of them is legal (a turn half-built).
            partial = self._partial_turn(game, text)
            if partial is None:
                raise ServiceError(f"`{quoted(text)}` is not a legal move: {fit(str(error), 300)}.") from None
            trial, events = partial
            done = trial.format_turn(trial.turn_actions)
            line = (f"Preview of a turn in progress (not played): `{done}` — not a whole turn yet: "
                    f"{fit(str(error), 300)}.")
            return await self.render(match, trial, events), line
        assert game.to_move is not None
        line = "Preview (not played): " + self.turn_line(
            self.seat_label(match, game, game.to_move), trial, trial.last_turn_notation, events)
        return await self.render(match, trial, events), line

    @staticmethod
    def _partial_turn(game: Game, text: str) -> tuple[Game, list[Event]] | None:
        """The game after the actions of ``text`` when each is legal but the turn is not finished."""
        trial = game.copy()
        events: list[Event] = []
        tokens = split_turn(text)
        if not tokens:
            return None
        try:
            for token in tokens:
                if trial.is_over:
                    return None
                events.extend(trial.apply_action(trial.parse_action(token)))
        except GameError:
            return None
        return (trial, events) if trial.turn_in_progress() else None

    async def builder(self, match_id: int, user_id: int, version: int | None, picks: list[int]
                      ) -> tuple[MatchRow, BuilderState]:
        """The turn builder's state for the mover (see :mod:`bot.turn_builder`)."""
        match, game = await self.active(match_id)
        seat = self.engine_seat_of(match, game, user_id)
        if version is not None and version != match.version:
            raise BuilderExpired("This turn builder has expired: the match has moved on since it was opened. "
                                 "Open a new one from the latest board (or /turn).")
        if game.to_move != seat:
            assert game.to_move is not None
            raise ServiceError(f"It is not your turn in {self.title(match)}: "
                               f"{self.seat_label(match, game, game.to_move)} is to move.")
        try:
            return match, build_turn(game, picks)
        except BuilderError as error:
            raise ServiceError(f"Turn builder: {error}.") from None

    async def history(self, match_id: int) -> tuple[MatchRow, list[str]]:
        match = await self.get(match_id)
        moves = await self.store.moves(match.id)
        game = self.replay(match, [])
        lines = []
        for number, move in enumerate(moves, start=1):
            if move.kind == "takeback":  # the log keeps both the turn and its takeback
                game = self.replay(match, moves[:number])
                lines.append(f"{number}. takeback: turn {number - 1} was taken back by agreement")
                continue
            label = self.seat_label(match, game, move.seat)
            lines.append(f"{number}. {label}: {self.log_text(move)}")
            self._apply_logged(game, move)
        return match, lines

    @staticmethod
    def log_text(move: MoveRow) -> str:
        return {"draw": "draw agreed", "timeout": "ran out of time", "resign": "resign"}.get(move.kind, move.notation)

    async def history_gif(self, match_id: int, user_id: int | None = None, guild_id: int | None = None) -> bytes:
        """The whole match as an animated GIF, drawn apart from boards (Pictures.gif) so turns never wait behind it."""
        match = await self.get(match_id)
        if guild_id is not None:
            self.check_guild(match, guild_id)
        if match.status == "lobby":
            raise ServiceError(f"{self.title(match)} has not started yet.")
        if match_id in self._gifs_drawing:
            raise ServiceError(f"A replay of {self.title(match)} is being drawn right now; "
                               "ask again in a moment.")
        now = self.clock.now()
        if user_id is not None:
            asked = min(self._gif_asked.get(user_id, -GIF_COOLDOWN_SECONDS), now)  # a clock stepped back waits no longer
            if now - asked < GIF_COOLDOWN_SECONDS:
                raise ServiceError(f"One replay every {GIF_COOLDOWN_SECONDS:g} s: "
                                   f"try again in {math.ceil(GIF_COOLDOWN_SECONDS - (now - asked))} s.")
            self._gif_asked[user_id] = now
        self._gifs_drawing.add(match_id)
        try:
            game = self.replay(match, [])
            frames: list[tuple[Game, list[Event]]] = [(game.copy(), [])]
            for move in effective_moves(await self.store.moves(match.id)):
                events = self._apply_logged(game, move)
                frames.append((game.copy(), events))
            return await self.pictures.gif(frames, player_names=self.player_names(match), title=self.title(match))
        finally:
            self._gifs_drawing.discard(match_id)

    # -- autocomplete ----------------------------------------------------------------------

    def suggestions(self, match: MatchRow, game: Game, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Autocomplete for /move: legal continuations of ``typed``, with a note when it is not your turn."""
        if game.is_over:
            return [(clip(f"{self.title(match)} is over"), "-")]
        seat = match.seat_of(user_id)
        if seat is None or seat.resigned:
            why = "have left" if seat is not None else "are not playing in"
            return [(clip(f"You {why} {self.title(match)}; /board shows its position"), "-")]
        choices = suggest_moves(game, typed)
        if self.user_to_move(match, game) != user_id:
            assert game.to_move is not None
            note = f"Not your turn: {self.player_row(match, game, game.to_move).name} is to move"
            choices = [(clip(note), clip(typed))] + choices[: MAX_CHOICES - 1]
        return choices[:MAX_CHOICES]

    # -- the move log ----------------------------------------------------------------------

    def replay(self, match: MatchRow, moves: list[MoveRow]) -> Game:
        """The match rebuilt from its move log (a takeback row cancels the turn before it)."""
        game = self.info(match).new(match.players, match.options)
        for move in effective_moves(moves):
            self._apply_logged(game, move)
        return game

    @staticmethod
    def _apply_logged(game: Game, move: MoveRow) -> list[Event]:
        if move.kind in ("resign", "timeout"):  # a time-out drops the seat as if it resigned
            return game.resign(move.seat)
        if move.kind == "draw":
            return game.agree_draw()
        assert move.kind == "turn", move.kind
        return game.play_turn(move.notation)

    async def verify_all(self) -> list[int]:
        """Start-up check: every active match must rebuild from its log to exactly its stored state.

        One that does not is set aside (quarantined), logged, and left as stored, so an operator
        can see what happened; every other match keeps being served. A set-aside match whose log
        replays again (the operator repaired it) is put back in play. Returns the set-aside ids.
        """
        for match_id in await self.store.quarantined_ids():
            if await self._replay_problem(match_id) is None:
                await self.store.release_quarantine(match_id)
                log.warning("match %s: its move log replays to its state again; back in play", match_id)
        for match_id in await self.store.active_match_ids():
            problem = await self._replay_problem(match_id)
            if problem is not None:
                await self.set_aside(match_id, problem)
        return await self.store.quarantined_ids()

    async def _replay_problem(self, match_id: int) -> str | None:
        """Why the match's log does not rebuild its stored state, or None when it does."""
        match = await self.store.get_match(match_id)
        if match is None:
            return "the match row is missing"
        problem = self.unreadable(match)
        if problem is not None:
            return problem
        try:
            rebuilt = self.replay(match, await self.store.moves(match_id))
        except Exception as error:  # any engine or data error: the log cannot be trusted
            return f"its move log does not replay ({type(error).__name__}: {error})"
        if json.dumps(rebuilt.to_json(), sort_keys=True) != json.dumps(match.state, sort_keys=True):
            return "its stored state differs from what its move log replays to"
        return None

    # -- reminders and preferences -------------------------------------------------------------

    async def due_reminders(self) -> list[ReminderJob]:
        now = self.clock.now()
        jobs = []
        for row in await self.store.due_reminders(now):
            job = await self.for_one_match(row.match_id, self._reminder_job(row, now))
            if job is not None:
                jobs.append(job)
        return jobs

    async def for_one_match(self, match_id: int, work: Awaitable[T]) -> T | None:
        """One match's part of a pass over many: whatever goes wrong stays with that match.

        Damaged data sets the match aside; any other failure is logged. Either way the pass goes on.
        """
        try:
            return await work
        except DamagedMatch as damaged:
            await self.set_aside(damaged.match_id, damaged.reason)
        except Exception:
            log.exception("match %s: skipped in this pass", match_id)
        return None

    async def _reminder_job(self, row: ReminderRow, now: float) -> ReminderJob | None:
        match = await self.store.get_match(row.match_id)
        if match is None or match.status != "active" or not await self.usable(match):
            return None
        game = self.game_of(match)
        if self.user_to_move(match, game) != row.user_id or game.ply != row.ply:
            return None  # the turn moved on: never remind someone whose turn it is not
        prefs = await self.store.get_preferences(row.user_id, match.guild_id)
        delay = (prefs.delay_hours or await self.server_reminder_hours(match.guild_id)) * 3600.0
        away_until = await self.store.vacation_until(row.user_id, now)
        if away_until is not None:  # no reminders during a vacation: the next one comes a delay after it
            await self.store.reminder_sent(match.id, row.ply, now, away_until + delay)
            return None
        if not prefs.reminders:
            await self.store.reminder_sent(match.id, row.ply, now, now + delay)
            return None
        moves = await self.store.moves(match.id)
        last = next((m for m in reversed(moves) if m.kind == "turn"), None)
        waited = _duration(now - (match.turn_started_at or now))
        text = f"It is your turn in **{self.title(match)}** (waiting {waited}{self.time_note(match, '; ')})."
        if last is not None:
            who = self.seat_label(match, game, last.seat)
            text += f" Last move: {who} played `{last.notation}`."
        return ReminderJob(match, row.user_id, row.ply, prefs.via, text, now + delay)

    async def reminder_done(self, job: ReminderJob) -> bool:
        return await self.store.reminder_sent(job.match.id, job.ply, self.clock.now(), job.next_at)

    async def snooze(self, match_id: int, user_id: int, ply: int) -> str:
        match = await self.get(match_id)
        if 0 <= ply <= MAX_ROW_ID and await self.store.snooze(match_id, user_id, ply):
            return f"No more reminders for this turn of {self.title(match)}."
        raise ServiceError("That reminder is out of date: the turn has already moved on.")

    async def preferences(self, user_id: int, guild_id: int) -> Preferences:
        return await self.store.get_preferences(user_id, guild_id)

    async def set_preferences(
        self, user_id: int, guild_id: int, *, reminders: bool | None, delay_hours: float | None, via: str | None
    ) -> Preferences:
        prefs = await self.store.get_preferences(user_id, guild_id)
        if reminders is not None:
            prefs.reminders = reminders
        if delay_hours is not None:
            if not 1 <= delay_hours <= 24 * 14:
                raise ServiceError("The reminder delay must be between 1 hour and 14 days (336 hours).")
            prefs.delay_hours = delay_hours
        if via is not None:
            if via not in ("dm", "ping"):
                raise ServiceError("Reminders come by direct message (dm) or by a ping in the match (ping).")
            prefs.via = via
        await self.store.set_preferences(user_id, guild_id, prefs)
        return prefs

    def describe_preferences(self, prefs: Preferences, default_hours: float | None = None) -> str:
        hours = prefs.delay_hours or default_hours or self.default_reminder_hours
        if not prefs.reminders:
            return "Reminders are **off** in this server."
        how = "a direct message" if prefs.via == "dm" else "a ping in the match thread"
        return f"Reminders are **on**: after {hours:g} h without your move, by {how}."


def effective_moves(moves: list[MoveRow]) -> list[MoveRow]:
    """The log without taken-back turns: what replays to the position."""
    kept: list[MoveRow] = []
    for move in moves:
        if move.kind == "takeback":
            kept.pop()
        else:
            kept.append(move)
    return kept


def waited(match: MatchRow, now: float) -> str:
    """How long the current turn has waited, for digests."""
    return _duration(now - (match.turn_started_at or match.created_at))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _duration(seconds: float) -> str:
    hours = seconds / 3600
    if hours >= 48:
        return f"{hours / 24:.0f} days"
    if hours >= 1:
        return f"{hours:.0f} h"
    return f"{max(1, int(seconds // 60))} min"
