"""Bank clocks and quiet hours in the store, on SQLite and on PostgreSQL: what a move's transaction writes
(the bank of the turn that ended, the next mover's allowance), what a warning's hold and a reminder's
postponement change, and the settings read back."""

from __future__ import annotations

import pytest

from bot.domain.bank import BankClock
from bot.domain.errors import VersionConflict
from bot.domain.model import GuildSettings, MoveRow
from bot.service.matches import MatchService
from bot.service.timelimits import WARNINGS

pytestmark = pytest.mark.both_backends

GUILD, CHANNEL = 9000, 9001
ALICE, BOB = (101, "alice"), (102, "bob")
HOUR = 3600.0


async def banked(service: MatchService, clock: str = "10h+4h max 12h"):
    service.clock.advance(61)  # past the challenge rate limit
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, clock_text=clock
    )
    await service.accept(match.id, BOB[0])
    return await service.get(match.id)


async def test_a_move_settles_the_movers_bank_and_starts_the_next_with_theirs_in_one_transaction(service):
    store = service.store
    match = await banked(service)
    assert match.clock == BankClock(10 * HOUR, 4 * HOUR, 12 * HOUR)
    assert [s.bank for s in match.seats] == [10 * HOUR, 10 * HOUR] and match.turn_allowance == 10 * HOUR
    service.clock.advance(3 * HOUR)
    await service.play(match.id, ALICE[0], "e5")
    after = await store.get_match(match.id)
    assert [s.bank for s in after.seats] == [11 * HOUR, 10 * HOUR]
    assert after.deadline_at == service.clock.now() + 10 * HOUR and after.turn_allowance == 10 * HOUR
    stale = MoveRow(0, 1, 2, BOB[0], "turn", "a1", [], 0.0)
    with pytest.raises(VersionConflict):  # a move on the version as it was changes no bank
        await store.record_move(
            match.id,
            match.version,
            move=stale,
            state=after.state,
            finished=False,
            result=None,
            turn_changed=True,
            resigned_seat=None,
            reminder=None,
            now=service.clock.now(),
            bank=(2, 1.0),
            turn_allowance=1.0,
        )
    assert [s.bank for s in (await store.get_match(match.id)).seats] == [11 * HOUR, 10 * HOUR]
    service.clock.advance(HOUR)
    await service.resign(match.id, BOB[0])  # on his own turn: one write resigns his seat and settles his bank
    done = await store.get_match(match.id)
    assert done.status == "finished" and done.turn_allowance is None and done.deadline_at is None
    assert [(s.resigned, s.bank) for s in done.seats] == [(False, 11 * HOUR), (True, 9 * HOUR)]


async def test_a_held_warning_is_not_claimed_before_the_morning_but_the_time_out_is(service):
    store = service.store
    match = await banked(service, "2h+1h max 3h")
    now = service.clock.now()
    assert await store.claim_deadlines(now + 0.5 * HOUR, WARNINGS, 60.0) == []  # 1.5 h left: nothing due
    await store.release_deadline(match.id)
    assert await store.hold_warnings(match.id, match.version, now + 1.8 * HOUR)
    assert not await store.hold_warnings(match.id, match.version - 1, now + 9 * HOUR)  # a stale hold changes nothing
    assert await store.claim_deadlines(now + 1.5 * HOUR, WARNINGS, 60.0) == []  # the 1 h warning waits
    assert await store.claim_deadlines(now + 1.8 * HOUR, WARNINGS, 60.0) == [match.id]  # the morning
    await store.release_deadline(match.id)
    assert await store.hold_warnings(match.id, match.version, now + 9 * HOUR)
    assert await store.claim_deadlines(now + 2 * HOUR, WARNINGS, 60.0) == [match.id]  # the deadline never waits


async def test_a_postponed_reminder_keeps_its_turn_and_is_not_marked_sent(service):
    store = service.store
    match = await banked(service)
    row = await store.get_reminder(match.id)
    assert await store.postpone_reminder(match.id, row.ply, row.remind_at + 5 * HOUR)
    assert not await store.postpone_reminder(match.id, row.ply + 1, 1.0)  # a later turn's: nothing
    moved = await store.get_reminder(match.id)
    assert (moved.remind_at, moved.last_sent_at, moved.ply) == (row.remind_at + 5 * HOUR, None, row.ply)


async def test_quiet_hours_and_a_default_clock_read_back_as_written(service):
    store = service.store
    prefs = await service.set_preferences(
        ALICE[0], GUILD, reminders=None, delay_hours=None, via=None, quiet_zone="Asia/Tokyo", quiet_hours="23:30-7"
    )
    stored = await store.get_preferences(ALICE[0], GUILD)
    assert stored == prefs and (stored.quiet_zone, stored.quiet_start, stored.quiet_end) == ("Asia/Tokyo", 1410, 420)
    clock = BankClock(72 * HOUR, 36 * HOUR, 120 * HOUR)
    await store.set_guild_settings(GUILD, GuildSettings(days_per_move=3, clock=clock), 1.0)
    assert (await store.guild_settings(GUILD)) == GuildSettings(days_per_move=3, clock=clock)
    await store.set_guild_settings(GUILD, GuildSettings(days_per_move=3), 2.0)
    assert (await store.guild_settings(GUILD)).clock is None
