"""The lobby: a match before it starts. Create, accept, decline, join, cancel, start."""

from __future__ import annotations

from typing import Any

from games import GameError
from games import get as get_game

from ..domain.errors import Refusal
from ..domain.model import MatchRow, SeatRow
from ..domain.outcome import Change, Outcome
from ..domain.seats import COMPUTER_LEVELS, DEFAULT_COMPUTER_LEVEL, computer_seat_name, info, person_to_move
from .challenge_limits import Challenge
from .core import MatchCore
from .locks import one_at_a_time
from .time_input import is_off, parse_bank_clock

MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE = 1.0, 30.0


def parse_options(text: str | None) -> dict[str, str]:
    """``"side=4 board=small"`` → ``{"side": "4", "board": "small"}``."""
    options: dict[str, str] = {}
    for pair in (text or "").replace(",", " ").split():
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise Refusal("option_not_key_value", text=pair)
        options[key.lower()] = value
    return options


def can_start_early(match: MatchRow) -> bool:
    """Start helps only when some seats are optional and enough players are ready.

    A lobby whose seats are all needed (a two-seat challenge) starts by itself
    once full, so it never shows Start.
    """
    game = info(match)
    ready = sum(1 for s in match.seats if s.accepted)
    return (
        match.status == "lobby"
        and match.players > game.min_players
        and ready >= game.min_players
        and ready < match.players
    )


class LobbyFlow(MatchCore):
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
        analysis: bool | None = None,
        clock_text: str | None = None,
    ) -> MatchRow:
        """A new lobby. ``computer`` (a level) and ``computers`` (how many) seat the computer; inviting the
        bot itself (``with_bot``) seats one at the default level. Computer seats are always ready. The time
        control: ``days_per_move``, or a bank clock (``clock_text``, e.g. ``72h+36h max 120h``; "off": none),
        else the server's default."""
        level, count = self._computer_seats(computer, computers, with_bot)
        clock = None if clock_text is None or is_off(clock_text) else parse_bank_clock(clock_text)
        if clock is not None and days_per_move is not None:
            raise Refusal("two_time_controls")
        if clock is None and days_per_move is None:  # the match option, else the server's default (0: none)
            server = await self.store.guild_settings(guild_id)
            if clock_text is None and server.clock is not None:
                clock = server.clock
            else:
                days_per_move = server.days_per_move
        days_per_move = days_per_move or None
        if days_per_move is not None and not MIN_DAYS_PER_MOVE <= days_per_move <= MAX_DAYS_PER_MOVE:
            raise Refusal("time_limit_range", low=MIN_DAYS_PER_MOVE, high=MAX_DAYS_PER_MOVE)
        try:
            game = get_game(game_id)  # an unknown id is a GameError, said as the engine words it
            options = game.resolve_options(parse_options(options_text))
        except GameError as error:
            raise Refusal("game_says", why=error) from None
        unique: list[tuple[int, str]] = []
        for user in invited:
            if user[0] == creator[0]:
                raise Refusal("invite_yourself")
            if user[0] not in [u[0] for u in unique]:
                unique.append(user)
        seats_wanted = players or max(game.min_players, len(unique) + 1 + count)
        try:
            game.check_players(seats_wanted)
        except GameError as error:
            raise Refusal(
                "player_count",
                why=error,
                invited=len(unique),
                computers=count,
                counted=bool(count and not players),
            ) from None
        if len(unique) + 1 + count > seats_wanted:
            raise Refusal("too_many_players", players=len(unique) + 1, computers=count, seats=seats_wanted)
        await self.check_challenge(creator[0], guild_id, unique)  # only a valid challenge counts
        seats = [SeatRow(1, creator[0], creator[1])]
        seats += [SeatRow(i + 2, uid, name, accepted=False) for i, (uid, name) in enumerate(unique)]
        seats += [
            SeatRow(len(unique) + 2 + i, -(i + 1), computer_seat_name(level, i + 1, count), computer=level)
            for i in range(count)
        ]
        match_id = await self.stored_or_refused(
            self.store.create_match(
                game=game.id,
                options=options,
                players=seats_wanted,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator[0],
                seats=seats,
                now=self.clock.now(),
                days_per_move=days_per_move,
                rated=rated,
                hints=hints,
                analysis=await self._analysis_default(guild_id) if analysis is None else analysis,
                clock=clock,
            )
        )
        return await self.get(match_id)

    async def _analysis_default(self, guild_id: int) -> bool:
        """Conditional moves and analysis boards for a match that does not say: the server's default, else yes."""
        default = (await self.store.guild_settings(guild_id)).analysis
        return True if default is None else default

    @staticmethod
    def _computer_seats(level: str | None, count: int | None, with_bot: bool) -> tuple[str, int]:
        """(level, how many computer seats) from /play's options."""
        if level is None and count is None and not with_bot:
            return DEFAULT_COMPUTER_LEVEL, 0
        level = (level or DEFAULT_COMPUTER_LEVEL).strip().lower()
        if level not in COMPUTER_LEVELS:
            raise Refusal("computer_level", level=level, levels=COMPUTER_LEVELS)
        if count is None:
            count = 1
        if not 1 <= count <= 5:
            raise Refusal("computer_seats")
        return level, count

    async def check_challenge(self, user_id: int, guild_id: int, invited: list[tuple[int, str]]) -> None:
        """Every path that invites people asks here (/play, rematch); ``invited`` are people, never computer seats."""
        refusal = await self.limits.admit(Challenge(guild_id, user_id, tuple(invited)), self.clock.now())
        if refusal is not None:
            raise Refusal("challenge_limit", rule=refusal, names=dict(invited), caps=self.limits.caps)

    @one_at_a_time
    async def start_if_ready(self, match_id: int) -> Outcome | None:
        """Start a new lobby whose every seat is taken and ready (you against the computer): None otherwise."""
        match = await self._lobby(match_id)
        if len(match.seats) == match.players and all(s.accepted for s in match.seats):
            return await self._start(match, match.seats)
        return None

    async def _lobby(self, match_id: int) -> MatchRow:
        match = await self.get(match_id)
        if match.status != "lobby":
            raise Refusal("lobby_closed", match=match)
        return match

    @one_at_a_time
    async def accept(self, match_id: int, user_id: int) -> Outcome:
        return await self._accept(match_id, user_id)

    async def _accept(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise Refusal("not_invited", match=match)
        if seat.accepted:
            raise Refusal("already_accepted")
        await self._lobby_change(match, accept_user=user_id)
        return await self._maybe_start(match_id, Change("accepted", user_id=user_id))

    @one_at_a_time
    async def decline(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        seat = match.seat_of(user_id)
        if seat is None or user_id == match.creator_id:
            raise Refusal("only_invited_decline")
        if match.players == 2:  # a declined challenge between two is over
            await self.stored_or_refused(self.store.cancel_match(match.id, match.version, self.clock.now()))
            cancelled = await self.store.get_match(match_id)
            assert cancelled is not None
            return Outcome(cancelled, None, (Change("declined", user_id=user_id),), finished=True)
        await self._lobby_change(match, remove_user=user_id)
        return Outcome(await self.get(match_id), None, (Change("declined", user_id=user_id, seat_open=True),))

    @one_at_a_time
    async def join(self, match_id: int, user: tuple[int, str]) -> Outcome:
        match = await self._lobby(match_id)
        seated = match.seat_of(user[0])
        if seated is not None and not seated.accepted:
            return await self._accept(match_id, user[0])  # an invited player pressing Join means yes
        if seated is not None:
            raise Refusal("already_seated", match=match)
        if len(match.seats) >= match.players:
            raise Refusal("no_open_seat", match=match)
        taken = {s.seat for s in match.seats}
        number = min(n for n in range(1, match.players + 1) if n not in taken)
        await self._lobby_change(match, add_seat=SeatRow(number, user[0], user[1]))
        return await self._maybe_start(match_id, Change("joined", user_id=user[0]))

    @one_at_a_time
    async def cancel(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        if user_id != match.creator_id:
            raise Refusal("only_creator_cancels")
        await self.stored_or_refused(self.store.cancel_match(match.id, match.version, self.clock.now()))
        cancelled = await self.store.get_match(match_id)
        assert cancelled is not None
        return Outcome(cancelled, None, (Change("cancelled", user_id=user_id),), finished=True)

    @one_at_a_time
    async def start(self, match_id: int, user_id: int) -> Outcome:
        match = await self._lobby(match_id)
        if user_id != match.creator_id:
            raise Refusal("only_creator_starts")
        ready = [s for s in match.seats if s.accepted]
        game = info(match)
        if len(ready) < game.min_players:
            raise Refusal("not_enough_ready", game=game.name, needed=game.min_players, ready=len(ready))
        return await self._start(match, ready)

    async def _maybe_start(self, match_id: int, change: Change) -> Outcome:
        match = await self.get(match_id)
        if len(match.seats) == match.players and all(s.accepted for s in match.seats):
            started = await self._start(match, match.seats)
            started.changes = (change, *started.changes)
            return started
        return Outcome(match, None, (change,))

    async def _start(self, match: MatchRow, ready: list[SeatRow]) -> Outcome:
        initial = None if match.clock is None else match.clock.initial  # every person starts with a full bank
        seats = [
            SeatRow(i + 1, s.user_id, s.name, computer=s.computer, bank=None if s.is_computer else initial)
            for i, s in enumerate(sorted(ready, key=lambda s: s.seat))
        ]
        game = info(match).new(len(seats), match.options)
        now = self.clock.now()
        match.seats = seats
        reminder = self.schedule.reminder_for(match, game)
        deadline, allowance = await self.schedule.turn_deadline(match, game, now)
        await self.stored_or_refused(
            self.store.start_match(
                match.id,
                match.version,
                seats=seats,
                state=game.to_json(),
                now=now,
                reminder=reminder,
                deadline_at=deadline,
                turn_allowance=allowance,
            )
        )
        self.replayed.add(match.id)  # its position is the new game its empty log replays to
        started = await self.get(match.id)
        self.events.changed(started)
        return Outcome(started, game, (Change("started"),), mention_user_id=person_to_move(started, game), started=True)

    async def _lobby_change(self, match: MatchRow, **change: Any) -> None:
        await self.stored_or_refused(self.store.lobby_change(match.id, match.version, now=self.clock.now(), **change))
