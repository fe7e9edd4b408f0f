"""When things fall due for a position: the mover's reminder and deadline, as the move's transaction stores them,
and what the turn that ended took from its player's bank (a bank clock)."""

from __future__ import annotations

from games import AnyGame

from ..domain.bank import settle
from ..domain.model import MatchRow, ReminderPlan
from ..domain.seats import user_to_move
from ..store.base import Store

DAY = 86400.0
HOUR = 3600.0


class Schedule:
    def __init__(self, store: Store, default_reminder_hours: float = 24.0) -> None:
        self.store = store
        self.default_reminder_hours = default_reminder_hours

    async def deadline_for(self, match: MatchRow, game: AnyGame, now: float) -> float | None:
        """When the player now to move runs out of time (see :meth:`turn_deadline`)."""
        return (await self.turn_deadline(match, game, now))[0]

    async def turn_deadline(
        self, match: MatchRow, game: AnyGame, now: float, settled: tuple[int, float] | None = None
    ) -> tuple[float | None, float | None]:
        """(deadline, allowance) of the turn now starting: when the player to move runs out of time, and with a
        bank clock the bank they start it with (``settled``: a seat's bank as the move being stored leaves it).
        A vacation starts their clock at its end.

        The computer has no clock, and neither has a person whose only opponents still playing are
        computers (nobody could claim their time).
        """
        if (match.days_per_move is None and match.clock is None) or game.is_over:
            return None, None
        mover = user_to_move(match, game)
        if match.is_computer(mover) or not [u for u in match.human_ids(playing=True) if u != mover]:
            return None, None
        start = now
        if mover is not None:
            start = max(now, await self.store.vacation_until(mover, now) or now)
        if match.clock is None:
            assert match.days_per_move is not None
            return start + match.days_per_move * DAY, None
        seat = match.seat_of(mover) if mover is not None else None
        bank = match.clock.initial if seat is None or seat.bank is None else seat.bank
        if seat is not None and settled is not None and settled[0] == seat.seat:
            bank = settled[1]
        return start + bank, bank

    async def settled_bank(
        self, match: MatchRow, before: AnyGame, now: float, *, played: bool
    ) -> tuple[int, float] | None:
        """(seat, bank) of the player whose turn ends now, as the move's transaction stores it: the time left
        on their running clock (a vacation's days and an outage, which pushed the deadline back, cost nothing),
        plus the increment if they ``played`` a turn, never above the cap. None when no bank was running."""
        if match.clock is None or match.deadline_at is None:
            return None
        mover = user_to_move(match, before)
        seat = match.seat_of(mover) if mover is not None else None
        if seat is None or seat.is_computer or seat.bank is None:
            return None
        away = await self.store.vacation_until(seat.user_id, now)
        left = match.deadline_at - max(now, away or now)
        return seat.seat, settle(match.clock, seat.bank, left, played=played).bank

    async def reminder_delay(self, user_id: int, guild_id: int) -> float:
        """Seconds: the user's delay in this server (or their global one), else the server's, else the default."""
        user_hours, server_hours = await self.store.reminder_hours(user_id, guild_id)
        return (user_hours or server_hours or self.default_reminder_hours) * HOUR

    async def server_reminder_hours(self, guild_id: int) -> float:
        """The server's default reminder delay (set with /config), else the environment's."""
        return (await self.store.guild_settings(guild_id)).reminder_hours or self.default_reminder_hours

    def reminder_for(self, match: MatchRow, game: AnyGame) -> ReminderPlan | None:
        """The reminder the position calls for (the store times it in the move's transaction, from the player's
        and the server's delays: no extra trip to the database); the computer is never reminded."""
        user_id = user_to_move(match, game)
        if user_id is None or match.is_computer(user_id):
            return None
        return ReminderPlan(user_id, game.ply, match.guild_id, self.default_reminder_hours)

    async def vacations(self, match: MatchRow, now: float) -> list[tuple[str, float]]:
        """(name, until) of the match's players on vacation now, shown to their opponents."""
        away = []
        for seat in match.seats:
            if not seat.is_computer:
                until = await self.store.vacation_until(seat.user_id, now)
                if until is not None:
                    away.append((seat.name, until))
        return away
