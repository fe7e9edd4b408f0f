"""Time limits, vacations and outages: when a turn runs out, and who may claim it.

Deadlines follow lila's way: the match row holds the current turn's deadline
(``deadline_at``, set in the transaction that starts the turn) and what was
already sent about it (``deadline_notice``). A pass asks the row, never a
separate timer, whether a warning or a time-out is due, and a claim is judged
again from the row inside the match's lock and version check. A vacation or
an outage moves the deadline back; nothing else does. A bank clock is a deadline too (the mover's bank from
the turn's start), so its warnings, claims, vacations and outages are these; a warning due in the mover's
quiet hours is held in the row until their morning.
"""

from __future__ import annotations

import logging

from ..domain.errors import Refusal, StalePosition
from ..domain.model import MoveRow
from ..domain.outcome import Change, DeadlineJob, Outcome, ReminderJob, TurnNotice
from ..domain.quiet import held_until
from ..domain.seats import game_of, player_row, user_to_move
from .matches import MatchService
from .reminders import CLAIM_LEASE
from .schedule import DAY, HOUR

log = logging.getLogger(__name__)

WARNINGS = ((2, HOUR), (1, 24 * HOUR))  # (notice level, time left when it is sent), most urgent first
TIMED_OUT = 3
OUTAGE_GRACE = 5 * 60.0  # a stop longer than this gives every running clock its time back


def together(
    deadlines: list[DeadlineJob], reminders: list[ReminderJob]
) -> tuple[list[DeadlineJob], list[ReminderJob], list[TurnNotice]]:
    """A pass's notices, each warning paired with the reminder of the same player, match and turn (due together:
    a bank's 24 h warning and the day's reminder) into one :class:`TurnNotice`: (time-limit notices still alone,
    reminders still alone, pairs). Each keeps its own claim and is recorded sent by its own compare-and-set."""
    warnings = {(job.match.id, job.user_id, job.ply): job for job in deadlines if job.level < TIMED_OUT}
    pairs, alone = [], []
    for job in reminders:
        warning = warnings.pop((job.match.id, job.user_id, job.ply), None)
        if warning is None:
            alone.append(job)
        else:
            pairs.append(TurnNotice(job, warning))
    paired = {id(pair.warning) for pair in pairs}
    return [job for job in deadlines if id(job) not in paired], alone, pairs


class TimeLimits:
    def __init__(self, service: MatchService, vacation_days_per_year: float = 30.0) -> None:
        self.service = service
        self.store = service.store
        self.vacation_days_per_year = vacation_days_per_year
        # The gateway shards in all, and those this process runs (set once the bot knows them): a process that
        # is down pauses the clocks of its shards' servers only. One process running them all: (1, (0,)).
        self.shards: tuple[int, tuple[int, ...]] = (1, (0,))

    @property
    def whole_bot(self) -> bool:
        """This process runs every shard: its outages are the bot's."""
        count, ids = self.shards
        return len(ids) == count

    async def paused_shards(self, now: float) -> tuple[int, tuple[int, ...]]:
        """(count, the other processes' shards not seen alive within the grace): their servers' clocks stand."""
        count, mine = self.shards
        if self.whole_bot:
            return count, ()
        seen = await self.store.shard_heartbeats(count)
        return count, tuple(s for s, last in sorted(seen.items()) if s not in mine and now - last > OUTAGE_GRACE)

    # -- the pass ------------------------------------------------------------------------

    async def due(self) -> list[DeadlineJob]:
        now = self.service.clock.now()
        jobs = []
        paused = await self.paused_shards(now)
        for match_id in await self.store.claim_deadlines(
            now, WARNINGS, CLAIM_LEASE, paused, held_at=self.service.clock.lease_now()
        ):
            job = await self.service.for_one_match(match_id, self._job(match_id, now))
            if job is not None:
                jobs.append(job)
            else:  # nothing to send after all: the claim goes back
                await self.store.release_deadline(match_id)
        return jobs

    async def _job(self, match_id: int, now: float) -> DeadlineJob | None:
        service = self.service
        match = await self.store.get_match(match_id)
        if match is None or match.status != "active" or match.deadline_at is None:
            return None
        if not await service.usable(match):
            return None
        game = game_of(match)
        mover = user_to_move(match, game)
        if mover is None or match.is_computer(mover):  # the computer has no clock
            return None
        left = match.deadline_at - now
        if left <= 0:
            level = TIMED_OUT
        else:
            # a warning no earlier than the turn began: one day per move gets no 24 h warning
            # (with a bank clock: no earlier than the turn began with the bank the mover had then)
            allowance = match.turn_allowance if match.turn_allowance is not None else (match.days_per_move or 0) * DAY
            level = next((lvl for lvl, before in WARNINGS if left <= before and before < allowance), 0)
        if level <= match.deadline_notice:
            return None
        claimants = [u for u in match.human_ids(playing=True) if u != mover]  # the computer never claims
        if not claimants:
            return None
        if level == TIMED_OUT:
            return DeadlineJob(match, level, mover, game.ply, "ping", left, claimants)
        prefs = await self.store.get_preferences(mover, match.guild_id)
        morning = held_until(prefs, now)
        if morning is not None:  # the mover's night: the warning waits for the morning (the deadline does not)
            await self.store.hold_warnings(match.id, match.version, morning)
            return None
        return DeadlineJob(match, level, mover, game.ply, prefs.via, left, claimants)

    async def release(self, job: DeadlineJob) -> None:
        """Not delivered this time: the notice goes back, for the next pass of any process."""
        await self.store.release_deadline(job.match.id)

    async def done(self, job: DeadlineJob) -> bool:
        return await self.store.set_deadline_notice(job.match.id, job.match.version, job.level)

    # -- claiming ------------------------------------------------------------------------

    async def claim(self, match_id: int, user_id: int, ply: int) -> Outcome:
        async with self.service.locks.hold(match_id):
            return await self._claim(match_id, user_id, ply)

    async def _claim(self, match_id: int, user_id: int, ply: int) -> Outcome:
        service = self.service
        match, game = await service.active(match_id)
        seat_row = match.seat_of(user_id)
        if seat_row is None or seat_row.resigned:
            raise Refusal("only_players_claim", match=match)
        if game.ply != ply or game.to_move is None:
            raise StalePosition("claim_out_of_date")
        mover_seat = game.to_move
        mover = player_row(match, game, mover_seat)
        if mover.user_id == user_id:
            raise Refusal("claim_own_time")
        now = service.clock.now()
        if match.deadline_at is None or now < match.deadline_at:
            raise Refusal("not_out_of_time", name=mover.name, deadline=match.deadline_at)
        before = (game.to_move, game.ply)
        events = game.resign(mover_seat)
        move = MoveRow(0, game.ply, mover_seat, user_id, "timeout", "timeout", [e.to_json() for e in events], 0.0)
        change = Change("timeout", user_id=user_id, seat=mover_seat, holder_id=mover.user_id, events=tuple(events))
        return await service.commit_move(
            match, game, before, move, change, resigned_seat=game.player_of_seat(mover_seat)
        )

    # -- vacations -------------------------------------------------------------------------

    async def vacation(self, user_id: int, days: int) -> tuple[float, float, int]:
        """Start a vacation; (until, days left this year, clocks paused now)."""
        service = self.service
        now = service.clock.now()
        if not 1 <= days <= 60:
            raise Refusal("vacation_length")
        current = await self.store.vacation_until(user_id, now)
        if current is not None:
            raise Refusal("on_vacation", until=current)
        used = await self.store.vacation_seconds_since(user_id, now - 365 * DAY) / DAY
        left = self.vacation_days_per_year - used
        if days > left:
            raise Refusal("vacation_allowance", left=max(0.0, left), allowance=self.vacation_days_per_year)
        until = now + days * DAY
        await service.stored_or_refused(self.store.add_vacation(user_id, now, until))
        paused = 0
        for match in await service.usable_only(await self.store.matches_of_user(user_id, None, ("active",))):
            if match.deadline_at is None:
                continue
            if user_to_move(match, game_of(match)) == user_id:
                async with service.locks.hold(match.id):
                    fresh = await self.store.get_match(match.id)
                    if fresh is not None and fresh.version == match.version:
                        paused += await self.store.extend_deadline(match.id, match.version, until - now)
        return until, left - days, paused

    # -- outages ---------------------------------------------------------------------------

    async def recover_outage(self) -> float:
        """At start-up: if the bot (each of this process's shards, when it runs only some) was down for longer
        than the grace, give every running clock it paused that time. Returns the longest gap made good."""
        now = self.service.clock.now()
        bot_last = await self.store.last_seen()
        if self.whole_bot:
            if bot_last is None or now - bot_last <= OUTAGE_GRACE:
                await self.heartbeat()
                return 0.0
            extended = await self.store.record_outage(bot_last, now)
            await self.heartbeat()
            log.warning("the bot was down for %.0f s; %d running clocks extended", now - bot_last, extended)
            return now - bot_last
        count, mine = self.shards
        seen = await self.store.shard_heartbeats(count)
        longest = 0.0
        for shard_id in mine:
            last = seen.get(shard_id, bot_last)  # a shard new to this layout: the bot as a whole
            if last is None or now - last <= OUTAGE_GRACE:
                continue
            extended = await self.store.record_outage(last, now, (shard_id, count))
            log.warning("shard %d was down for %.0f s; %d running clocks extended", shard_id, now - last, extended)
            longest = max(longest, now - last)
        await self.heartbeat()
        return longest

    async def connection_gap(self, since: float) -> bool:
        """The gateway was down from ``since`` until now; a gap beyond the grace is an outage. True if recorded."""
        now = self.service.clock.now()
        if now - since <= OUTAGE_GRACE:
            return False
        if self.whole_bot:
            await self.store.record_outage(since, now)
        else:
            count, mine = self.shards
            for shard_id in mine:
                await self.store.record_outage(since, now, (shard_id, count))
        return True

    async def heartbeat(self) -> None:
        """This process is alive now: outages are measured from it, and (PostgreSQL) the claims it holds stay
        its own while it beats (bot.domain.clock.STALE_SECONDS)."""
        await self.store.beat(self.service.clock.now(), self.shards, held_at=self.service.clock.lease_now())
