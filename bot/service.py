"""The product's rules of play, in one place, without Discord.

Command handlers and buttons call this service and show what it returns;
every error it raises is a :class:`ServiceError` whose message is written for
the player who caused it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any

from games import Event, Game, GameError, GameInfo, load_state
from games import get as get_game
from render import can_zoom, render_gif, render_png

from .clock import Clock, SystemClock
from .storage import (
    MatchRow,
    MoveRow,
    Preferences,
    ReminderRow,
    SeatRow,
    Store,
    VersionConflict,
)
from .suggestions import MAX_CHOICES, clip, suggest_moves

log = logging.getLogger(__name__)

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


@dataclass
class ReminderJob:
    match: MatchRow
    user_id: int
    ply: int
    via: str
    text: str
    next_at: float


def parse_options(text: str | None) -> dict[str, str]:
    """``"side=4 board=small"`` → ``{"side": "4", "board": "small"}``."""
    options: dict[str, str] = {}
    for pair in (text or "").replace(",", " ").split():
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise ServiceError(f"Options are written key=value, like side=4; {pair!r} is not.")
        options[key.lower()] = value
    return options


class MatchService:
    def __init__(self, store: Store, clock: Clock | None = None, default_reminder_hours: float = 24.0) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.default_reminder_hours = default_reminder_hours

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
        """Names in sitting order, as pictures take them."""
        return [s.name for s in sorted(match.seats, key=lambda s: s.seat)]

    def seat_label(self, match: MatchRow, game: Game, seat: int) -> str:
        colours = self.info(match).seat_names
        colour = colours[seat - 1] if seat - 1 < len(colours) else f"seat {seat}"
        return f"**{self.player_row(match, game, seat).name}** ({colour})"

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
        return match

    async def active(self, match_id: int) -> tuple[MatchRow, Game]:
        match = await self.get(match_id)
        if match.status == "lobby":
            raise ServiceError(f"{self.title(match)} has not started yet.")
        if match.status == "finished":
            raise ServiceError(f"{self.title(match)} is over.")
        return match, self.game_of(match)

    async def reminder_delay(self, user_id: int, guild_id: int) -> float:
        prefs = await self.store.get_preferences(user_id, guild_id)
        return (prefs.delay_hours or self.default_reminder_hours) * 3600.0

    async def _reminder_for(self, match: MatchRow, game: Game, now: float) -> tuple[int, int, float] | None:
        user_id = self.user_to_move(match, game)
        if user_id is None:
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
            return in_thread
        mine = await self.store.matches_of_user(user_id, guild_id, ("active",))
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
        rows = await self.store.matches_of_user(user_id, guild_id, ("lobby", "active"))
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
    ) -> MatchRow:
        try:
            info = get_game(game_id)
            options = info.resolve_options(parse_options(options_text))
        except GameError as error:
            raise ServiceError(str(error)) from None
        unique = []
        for user in invited:
            if user[0] == creator[0]:
                raise ServiceError("You cannot invite yourself; you are already seated.")
            if user[0] not in [u[0] for u in unique]:
                unique.append(user)
        seats_wanted = players or max(info.min_players, len(unique) + 1)
        try:
            info.check_players(seats_wanted)
        except GameError as error:
            raise ServiceError(str(error)) from None
        if len(unique) + 1 > seats_wanted:
            raise ServiceError(f"{len(unique) + 1} players do not fit in {seats_wanted} seats.")
        seats = [SeatRow(1, creator[0], creator[1])]
        seats += [SeatRow(i + 2, uid, name, accepted=False) for i, (uid, name) in enumerate(unique)]
        match_id = await self.store.create_match(
            game=info.id, options=options, players=seats_wanted, guild_id=guild_id, channel_id=channel_id,
            creator_id=creator[0], seats=seats, invited=[u[0] for u in unique],
            open_seats=seats_wanted - len(seats), now=self.clock.now(),
        )
        return await self.get(match_id)

    def lobby_text(self, match: MatchRow) -> str:
        info = self.info(match)
        options = ", ".join(f"{k}={v}" for k, v in match.options.items())
        lines = [f"**{self.title(match)}** — {match.players} seats" + (f" ({options})" if options else "")]
        for seat in match.seats:
            state = "ready" if seat.accepted else "invited, waiting for an answer"
            lines.append(f"{seat.seat}. <@{seat.user_id}> — {state}")
        open_seats = match.players - len(match.seats)
        if open_seats:
            lines.append(f"{open_seats} open seat{'s' * (open_seats != 1)}: press **Join** to take one.")
        if info.max_players > 2 and len(match.seats) >= info.min_players:
            lines.append(f"<@{match.creator_id}> can press **Start** once enough players are ready.")
        return "\n".join(lines)

    async def _lobby(self, match_id: int) -> MatchRow:
        match = await self.get(match_id)
        if match.status != "lobby":
            state = "is over" if match.status == "finished" else "has already started"
            raise ServiceError(f"{self.title(match)} {state}.")
        return match

    async def accept(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise ServiceError(f"You were not invited to {self.title(match)}.")
        if seat.accepted:
            raise ServiceError("You have already accepted.")
        await self._lobby_change(match, accept_user=user_id)
        return await self._maybe_start(match_id, f"<@{user_id}> accepted.")

    async def decline(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        seat = match.seat_of(user_id)
        if seat is None or user_id == match.creator_id:
            raise ServiceError("Only an invited player can decline.")
        if match.players == 2:  # a declined challenge between two is over
            await self._guarded(self.store.cancel_match(match.id, match.version, self.clock.now()))
            return Outcome(await self.store.get_match(match_id) or match, None,
                           f"<@{user_id}> declined: {self.title(match)} is cancelled.", finished=True)
        await self._lobby_change(match, remove_user=user_id)
        return Outcome(await self.get(match_id), None, f"<@{user_id}> declined; the seat is open.")

    async def join(self, match_id: int, user: tuple[int, str]) -> Outcome:
        match = await self._lobby(match_id)
        seated = match.seat_of(user[0])
        if seated is not None and not seated.accepted:
            return await self.accept(match_id, user[0])  # an invited player pressing Join means yes
        if seated is not None:
            raise ServiceError(f"You are already seated in {self.title(match)}.")
        if len(match.seats) >= match.players:
            raise ServiceError(f"{self.title(match)} has no open seat.")
        taken = {s.seat for s in match.seats}
        number = min(n for n in range(1, match.players + 1) if n not in taken)
        await self._lobby_change(match, add_seat=SeatRow(number, user[0], user[1]))
        return await self._maybe_start(match_id, f"<@{user[0]}> joined.")

    async def cancel(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        if user_id != match.creator_id:
            raise ServiceError("Only the player who created the match can cancel it.")
        await self._guarded(self.store.cancel_match(match.id, match.version, self.clock.now()))
        return Outcome(match, None, f"{self.title(match)} was cancelled.", finished=True)

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
        seats = [SeatRow(i + 1, s.user_id, s.name) for i, s in enumerate(sorted(ready, key=lambda s: s.seat))]
        game = self.info(match).new(len(seats), match.options)
        now = self.clock.now()
        match.seats = seats
        reminder = await self._reminder_for(match, game, now)
        await self._guarded(self.store.start_match(
            match.id, match.version, seats=seats, state=game.to_json(), now=now, reminder=reminder))
        started = await self.get(match.id)
        assert game.to_move is not None
        line = f"{self.title(started)} begins. {self.seat_label(started, game, game.to_move)} to move."
        return Outcome(started, game, line, mention_user_id=self.user_to_move(started, game), started=True)

    async def _lobby_change(self, match: MatchRow, **change: Any) -> None:
        await self._guarded(self.store.lobby_change(match.id, match.version, now=self.clock.now(), **change))

    @staticmethod
    async def _guarded(operation: Any) -> Any:
        try:
            return await operation
        except VersionConflict:
            raise ServiceError("Someone else changed this match at the same moment; "
                               "look at it again and retry.") from None

    # -- playing ---------------------------------------------------------------------------

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
            raise ServiceError(f"`{text.strip()[:80]}` is not a legal move: {error}.") from None
        notation = game.last_turn_notation
        line = f"{label} played `{notation}`{self._effects(events)}."
        move = MoveRow(0, before_ply, seat, user_id, "turn", notation, [e.to_json() for e in events], 0.0,
                       entered=text)
        return await self._record(match, game, (before_mover, before_ply), move, events, line)

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
        await self._guarded(self.store.apply_move(
            match.id, match.version, move=move, state=game.to_json(), finished=finished, result=result,
            turn_changed=turn_changed, resigned_seat=resigned_seat, reminder=reminder, now=now))
        updated = await self.get(match.id)
        return self._announcement(updated, game, line, events)

    def _announcement(self, match: MatchRow, game: Game, line: str, events: list[Event]) -> Outcome:
        """The outcome of a move: its line, then the result or a call to the player to move."""
        mention = None
        if game.is_over:
            line += " " + self.result_line(match, game)
        else:
            mention = self.user_to_move(match, game)
            line += f" <@{mention}>, your move."
        return Outcome(match, game, line, mention_user_id=mention, events=tuple(events), finished=game.is_over)

    async def unannounced(self) -> list[Outcome]:
        """Moves stored but never shown (the bot stopped between the two), to post at start-up."""
        outcomes = []
        for match_id in await self.store.unannounced_match_ids():
            match = await self.get(match_id)
            game = self.game_of(match)
            moves = await self.store.moves(match_id)
            if not moves:
                outcomes.append(Outcome(match, game, self.status_line(match, game), started=True,
                                        mention_user_id=self.user_to_move(match, game)))
                continue
            last = moves[-1]
            before = self.replay(match, moves[:-1])  # whose seat it was then (a swap changes it)
            label = self.seat_label(match, before, last.seat)
            events = [Event.from_json(e) for e in last.events]
            if last.kind == "resign":
                line = f"{label} resigned."
            else:
                line = f"{label} played `{last.notation}`{self._effects(events)}."
            outcomes.append(self._announcement(match, game, line, events))
        return outcomes

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
        if scores is not None:
            score_text = " (" + "–".join(str(int(v)) if float(v).is_integer() else str(v) for v in scores) + ")"
        if len(winners) > 1:
            return f"Game over: {' and '.join(winners)} share the win{score_text}."
        return f"Game over: {winners[0]} wins{score_text}." if winners else "Game over."

    # -- looking -------------------------------------------------------------------------

    async def render(self, match: MatchRow, game: Game, events: tuple[Event, ...] | list[Event] = (),
                     zoom: str | None = None) -> bytes:
        return await asyncio.to_thread(render_png, game, player_names=self.player_names(match),
                                       last_events=list(events), title=self.title(match), zoom=zoom)

    async def last_events(self, match: MatchRow) -> list[Event]:
        moves = await self.store.moves(match.id)
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
        return match, game, png, self.status_line(match, game)

    def status_line(self, match: MatchRow, game: Game) -> str:
        if game.is_over:
            return f"{self.title(match)}: {self.result_line(match, game)}"
        assert game.to_move is not None
        return f"{self.title(match)}, turn {game.ply + 1}: {self.seat_label(match, game, game.to_move)} to move."

    async def preview(self, match_id: int, user_id: int, text: str) -> tuple[bytes, str]:
        match, game = await self.active(match_id)
        if match.seat_of(user_id) is None:
            raise ServiceError(f"You are not a player in {self.title(match)}.")
        trial = game.copy()
        try:
            events = trial.play_turn(text)
        except GameError as error:
            raise ServiceError(f"`{text.strip()[:80]}` is not a legal move: {error}.") from None
        assert game.to_move is not None
        line = (f"Preview (not played): {self.seat_label(match, game, game.to_move)} "
                f"`{trial.last_turn_notation}`{self._effects(events)}.")
        return await self.render(match, trial, events), line

    async def history(self, match_id: int) -> tuple[MatchRow, list[str]]:
        match = await self.get(match_id)
        moves = await self.store.moves(match.id)
        game = self.replay(match, [])
        lines = []
        for number, move in enumerate(moves, start=1):
            label = self.seat_label(match, game, move.seat)
            lines.append(f"{number}. {label}: {move.notation}")
            self._apply_logged(game, move)
        return match, lines

    async def history_gif(self, match_id: int) -> bytes:
        match = await self.get(match_id)
        if match.status == "lobby":
            raise ServiceError(f"{self.title(match)} has not started yet.")
        game = self.replay(match, [])
        frames: list[tuple[Game, list[Event]]] = [(game.copy(), [])]
        for move in await self.store.moves(match.id):
            events = self._apply_logged(game, move)
            frames.append((game.copy(), events))
        return await asyncio.to_thread(render_gif, frames, player_names=self.player_names(match),
                                       title=self.title(match))

    # -- autocomplete ----------------------------------------------------------------------

    def suggestions(self, match: MatchRow, game: Game, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Autocomplete for /move: legal continuations of ``typed``, with a note when it is not your turn."""
        if game.is_over:
            return [(clip(f"{self.title(match)} is over"), "-")]
        choices = suggest_moves(game, typed)
        if self.user_to_move(match, game) != user_id:
            assert game.to_move is not None
            note = f"Not your turn: {self.player_row(match, game, game.to_move).name} is to move"
            choices = [(clip(note), clip(typed))] + choices[: MAX_CHOICES - 1]
        return choices[:MAX_CHOICES]

    # -- the move log ----------------------------------------------------------------------

    def replay(self, match: MatchRow, moves: list[MoveRow]) -> Game:
        """The match rebuilt from its move log."""
        game = self.info(match).new(match.players, match.options)
        for move in moves:
            self._apply_logged(game, move)
        return game

    @staticmethod
    def _apply_logged(game: Game, move: MoveRow) -> list[Event]:
        if move.kind == "resign":
            return game.resign(move.seat)
        return game.play_turn(move.notation)

    async def verify_all(self) -> list[int]:
        """Start-up check: rebuild every active match from its log; repair any that disagree."""
        repaired = []
        for match_id in await self.store.active_match_ids():
            match = await self.get(match_id)
            rebuilt = self.replay(match, await self.store.moves(match_id))
            stored = match.state
            if json.dumps(rebuilt.to_json(), sort_keys=True) != json.dumps(stored, sort_keys=True):
                log.warning("match %s: stored state differs from its move log; using the log", match_id)
                await self.store.replace_state(match_id, rebuilt.to_json(), self.clock.now())
                repaired.append(match_id)
        return repaired

    # -- reminders and preferences -------------------------------------------------------------

    async def due_reminders(self) -> list[ReminderJob]:
        now = self.clock.now()
        jobs = []
        for row in await self.store.due_reminders(now):
            job = await self._reminder_job(row, now)
            if job is not None:
                jobs.append(job)
        return jobs

    async def _reminder_job(self, row: ReminderRow, now: float) -> ReminderJob | None:
        match = await self.store.get_match(row.match_id)
        if match is None or match.status != "active":
            return None
        game = self.game_of(match)
        if self.user_to_move(match, game) != row.user_id or game.ply != row.ply:
            return None  # the turn moved on: never remind someone whose turn it is not
        prefs = await self.store.get_preferences(row.user_id, match.guild_id)
        delay = (prefs.delay_hours or self.default_reminder_hours) * 3600.0
        if not prefs.reminders:
            await self.store.reminder_sent(match.id, row.ply, now, now + delay)
            return None
        moves = await self.store.moves(match.id)
        last = next((m for m in reversed(moves) if m.kind == "turn"), None)
        waited = _duration(now - (match.turn_started_at or now))
        text = f"It is your turn in **{self.title(match)}** (waiting {waited})."
        if last is not None:
            who = self.seat_label(match, game, last.seat)
            text += f" Last move: {who} played `{last.notation}`."
        return ReminderJob(match, row.user_id, row.ply, prefs.via, text, now + delay)

    async def reminder_done(self, job: ReminderJob) -> bool:
        return await self.store.reminder_sent(job.match.id, job.ply, self.clock.now(), job.next_at)

    async def snooze(self, match_id: int, user_id: int, ply: int) -> str:
        match = await self.get(match_id)
        if await self.store.snooze(match_id, user_id, ply):
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

    def describe_preferences(self, prefs: Preferences) -> str:
        hours = prefs.delay_hours or self.default_reminder_hours
        if not prefs.reminders:
            return "Reminders are **off** in this server."
        how = "a direct message" if prefs.via == "dm" else "a ping in the match thread"
        return f"Reminders are **on**: after {hours:g} h without your move, by {how}."


def waited(match: MatchRow, now: float) -> str:
    """How long the current turn has waited, for digests."""
    return _duration(now - (match.turn_started_at or match.created_at))


def _duration(seconds: float) -> str:
    hours = seconds / 3600
    if hours >= 48:
        return f"{hours / 24:.0f} days"
    if hours >= 1:
        return f"{hours:.0f} h"
    return f"{max(1, int(seconds // 60))} min"
