"""Time limits, vacations and outages: when a turn runs out, and who may claim it.

Deadlines follow lila's way: the match row holds the current turn's deadline
(``deadline_at``, set in the transaction that starts the turn) and what was
already sent about it (``deadline_notice``). A pass asks the row, never a
separate timer, whether a warning or a time-out is due, and a claim is judged
again from the row inside the match's lock and version check. A vacation or
an outage moves the deadline back; nothing else does.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from .service import DAY, MatchService, Outcome, ServiceError
from .domain.model import MatchRow, MoveRow
from .text import escape

log = logging.getLogger(__name__)

HOUR = 3600.0
WARNINGS = ((2, HOUR), (1, 24 * HOUR))  # (notice level, time left when it is sent), most urgent first
TIMED_OUT = 3
OUTAGE_GRACE = 5 * 60.0  # a stop longer than this gives every running clock its time back


@dataclass
class DeadlineJob:
    """A warning to the player to move (level 1 or 2) or a time-out to announce to the others (level 3)."""

    match: MatchRow
    level: int
    user_id: int  # the player to move
    ply: int
    via: str
    text: str
    claimant_ids: list[int]


class TimeLimits:
    def __init__(self, service: MatchService, vacation_days_per_year: float = 30.0) -> None:
        self.service = service
        self.store = service.store
        self.vacation_days_per_year = vacation_days_per_year

    # -- the pass ------------------------------------------------------------------------

    async def due(self) -> list[DeadlineJob]:
        now = self.service.clock.now()
        jobs = []
        for match_id in await self.store.deadline_candidates(now, WARNINGS):
            job = await self.service.for_one_match(match_id, self._job(match_id, now))
            if job is not None:
                jobs.append(job)
        return jobs

    async def _job(self, match_id: int, now: float) -> DeadlineJob | None:
        service = self.service
        match = await self.store.get_match(match_id)
        if match is None or match.status != "active" or match.deadline_at is None:
            return None
        if not await service.usable(match):
            return None
        game = service.game_of(match)
        mover = service.user_to_move(match, game)
        if mover is None or match.is_computer(mover):  # the computer has no clock
            return None
        left = match.deadline_at - now
        if left <= 0:
            level = TIMED_OUT
        else:
            # a warning no earlier than the turn began: one day per move gets no 24 h warning
            level = next((lvl for lvl, before in WARNINGS
                          if left <= before and before < (match.days_per_move or 0) * DAY), 0)
        if level <= match.deadline_notice:
            return None
        title = service.title(match)
        claimants = [u for u in match.human_ids(playing=True) if u != mover]  # the computer never claims
        if not claimants:
            return None
        if level == TIMED_OUT:
            what = "claim the win" if len(claimants) == 1 else "drop them from the game (as if they resigned)"
            text = (f"<@{mover}> has run out of time in **{title}**. "
                    f"{' '.join(f'<@{u}>' for u in claimants)}: press **Claim** to {what} "
                    "(until then they may still move).")
            return DeadlineJob(match, level, mover, game.ply, "ping", text, claimants)
        prefs = await self.store.get_preferences(mover, match.guild_id)
        text = (f"Your time in **{title}** runs out <t:{int(match.deadline_at)}:R> "
                f"({_hours(left)} left). Play with /move, or take a /vacation.")
        return DeadlineJob(match, level, mover, game.ply, prefs.via, text, claimants)

    async def done(self, job: DeadlineJob) -> bool:
        return await self.store.set_deadline_notice(job.match.id, job.match.version, job.level)

    # -- claiming ------------------------------------------------------------------------

    async def claim(self, match_id: int, user_id: int, ply: int) -> Outcome:
        async with self.service.match_lock(match_id):
            return await self._claim(match_id, user_id, ply)

    async def _claim(self, match_id: int, user_id: int, ply: int) -> Outcome:
        service = self.service
        match, game = await service.active(match_id)
        seat_row = match.seat_of(user_id)
        if seat_row is None or seat_row.resigned:
            raise ServiceError(f"Only a player still in {service.title(match)} can claim.")
        if game.ply != ply or game.to_move is None:
            raise ServiceError("That claim is out of date: the turn has moved on since.")
        mover_seat = game.to_move
        mover = service.player_row(match, game, mover_seat)
        if mover.user_id == user_id:
            raise ServiceError("It is your own time that ran out: play your move instead.")
        now = service.clock.now()
        if match.deadline_at is None or now < match.deadline_at:
            left = "" if match.deadline_at is None else f": their time runs out <t:{int(match.deadline_at)}:R>"
            raise ServiceError(f"{escape(mover.name)} has not run out of time{left}.")
        label = service.seat_label(match, game, mover_seat)
        before = (game.to_move, game.ply)
        events = game.resign(mover_seat)
        move = MoveRow(0, game.ply, mover_seat, user_id, "timeout", "timeout", [e.to_json() for e in events], 0.0)
        line = f"{label} ran out of time and is out of the game (claimed by <@{user_id}>)."
        return await service._record(match, game, before, move, events, line,
                                     resigned_seat=game.player_of_seat(mover_seat))

    # -- vacations -------------------------------------------------------------------------

    async def vacation(self, user_id: int, days: int) -> str:
        service = self.service
        now = service.clock.now()
        if not 1 <= days <= 60:
            raise ServiceError("A vacation lasts from 1 to 60 days.")
        current = await self.store.vacation_until(user_id, now)
        if current is not None:
            raise ServiceError(f"You are already on vacation until <t:{int(current)}:f>.")
        used = await self.store.vacation_seconds_since(user_id, now - 365 * DAY) / DAY
        left = self.vacation_days_per_year - used
        if days > left:
            raise ServiceError(f"You have {max(0.0, left):g} vacation day{'s' * (left != 1)} left in the last "
                               f"365 days (the allowance is {self.vacation_days_per_year:g} a year).")
        until = now + days * DAY
        await self.store.add_vacation(user_id, now, until)
        paused = 0
        for match in await service.usable_only(await self.store.matches_of_user(user_id, None, ("active",))):
            if match.deadline_at is None:
                continue
            if service.user_to_move(match, service.game_of(match)) == user_id:
                async with service.match_lock(match.id):
                    fresh = await self.store.get_match(match.id)
                    if fresh is not None and fresh.version == match.version:
                        paused += await self.store.extend_deadline(match.id, match.version, until - now)
        return (f"You are on vacation until <t:{int(until)}:f> ({days} day{'s' * (days != 1)}; "
                f"{left - days:g} left this year). Your clocks are paused ({paused} running now), your opponents "
                "see it on the board, and no reminders come meanwhile.")

    # -- outages ---------------------------------------------------------------------------

    async def recover_outage(self) -> float:
        """At start-up: if the bot was down for longer than the grace, give every running clock that time."""
        now = self.service.clock.now()
        last = await self.store.last_seen()
        if last is None or now - last <= OUTAGE_GRACE:
            await self.store.beat(now)
            return 0.0
        extended = await self.store.record_outage(last, now)
        log.warning("the bot was down for %s; %d running clocks extended", _hours(now - last), extended)
        return now - last

    async def connection_gap(self, since: float) -> bool:
        """The gateway was down from ``since`` until now; a gap beyond the grace is an outage. True if recorded."""
        now = self.service.clock.now()
        if now - since <= OUTAGE_GRACE:
            return False
        await self.store.record_outage(since, now)
        return True

    async def heartbeat(self) -> None:
        await self.store.beat(self.service.clock.now())


def _hours(seconds: float) -> str:
    if seconds >= 48 * HOUR:
        return f"{seconds / DAY:.0f} days"
    if seconds >= HOUR:
        return f"{seconds / HOUR:.0f} h"
    return f"{max(1, int(seconds // 60))} min"
