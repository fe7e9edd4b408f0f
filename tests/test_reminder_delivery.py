"""The reminder pass through the real bot and the emulator: many notices at once within Discord's
limits, each sent once; notices no place takes are given up after a few passes, even across restarts."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.domain.model import Preferences
from emulator import RouteLimit
from tests.botworld import BotWorld
from tests.faults import SlowRequests, delete_thread, dm_posts

pytestmark = pytest.mark.both_backends

DAY = 24 * 3600
DM_DELAY = 0.25  # seconds Discord takes over each direct message in the first test


async def started_match(world, a, b, **options):
    """``a`` challenges ``b`` through the service (no thread: the match lives in #games); ``a`` moves first."""
    service = world.service
    match = await service.create(
        game_id="bide",
        creator=(a.id, a.name),
        invited=[(b.id, b.name)],
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        **options,
    )
    await service.accept(match.id, b.id)
    return match.id


async def test_a_pass_sends_its_notices_at_once_within_the_rate_limits_each_once_time_outs_first(database):
    world = BotWorld(database, users=44)
    SlowRequests(world.emu, DM_DELAY, which=dm_posts(world.emu))
    await world.start()
    try:
        users = world.users
        reminded = users[:40]  # a ring: each is to move in one match and waits in another
        for i, user in enumerate(reminded):
            await started_match(world, user, reminded[(i + 1) % len(reminded)])
        timed = [await started_match(world, users[40 + 2 * i], users[41 + 2 * i], days_per_move=1) for i in range(2)]
        world.clock.advance(DAY + 3600)  # every reminder due (24 h), both clocks run out (1 day)
        due_dms = len(reminded) + len(timed)  # the two movers on a clock are reminded too

        started = time.perf_counter()
        passes = await asyncio.gather(world.bot.reminders.run_once(), world.bot.reminders.run_once())
        elapsed = time.perf_counter() - started

        assert sorted(passes) == [0, due_dms + len(timed)]  # one pass at a time: the second found nothing due
        assert elapsed < due_dms * DM_DELAY / 3, f"{elapsed:.1f} s: not sent concurrently"
        movers = reminded + [users[40], users[42]]
        assert [len(world.emu.dms(u)) for u in movers] == [1] * due_dms
        assert all(world.emu.dms(u) == [] for u in (users[41], users[43]))
        time_outs = [m for m in world.emu.messages(world.channel) if "run out of time" in m.content]
        assert len(time_outs) == len(timed)
        dm_ids = sorted(world.emu.dms(u)[0].id for u in movers)
        assert max(m.id for m in time_outs) < dm_ids[len(dm_ids) // 2]  # started first, not queued behind
        assert world.emu.rate_limit_hits == []  # paced under the 50 requests a second
        for match_id in range(1, len(reminded) + len(timed) + 1):
            assert (await world.store.get_reminder(match_id)).last_sent_at is not None

        assert await world.bot.reminders.run_once() == 0
        assert sum(len(world.emu.dms(u)) for u in users) == due_dms
    finally:
        await world.stop()


async def test_a_pass_claims_reminders_a_batch_at_a_time_and_sends_them_all(database):
    """A claim's lease must outlast its wait: a pass holds one batch at a time, sends it, then claims the next,
    and still sends every due reminder once."""
    world = BotWorld(database, users=10)
    await world.start()
    try:
        ring = world.users
        for i, user in enumerate(ring):
            await started_match(world, user, ring[(i + 1) % len(ring)])
        world.clock.advance(DAY + 3600)
        store = world.store
        claims = []
        claim = store.claim_due_reminders

        async def counted(*args, **kwargs):
            rows = await claim(*args, **kwargs)
            claims.append(len(rows))
            return rows

        store.claim_due_reminders = counted
        world.bot.reminders.batch = 3
        assert await world.bot.reminders.run_once() == len(ring)
        assert claims == [3, 3, 3, 1]  # never more than a batch held at once
        assert [len(world.emu.dms(u)) for u in ring] == [1] * len(ring)
        assert await world.bot.reminders.run_once() == 0
    finally:
        await world.stop()


async def test_pings_due_in_one_channel_do_not_hold_up_the_other_notices(database):
    world = await BotWorld(database, users=20).start()
    try:
        world.emu.rate_limits.routes["message-create"] = RouteLimit(5, 2.0)  # #games takes 5 posts per 2 s
        world.bot.reminders.in_flight = 4
        pinged, dmed = world.users[:10], world.users[10:]
        for user in pinged:  # their matches live in #games (no thread), and they want pings there
            await world.store.set_preferences(user.id, world.guild.id, Preferences(via="ping"))
        for a, b in zip(pinged, dmed, strict=False):
            await started_match(world, a, b)
        for a, b in zip(dmed, pinged, strict=False):
            await started_match(world, a, b)
        world.clock.advance(DAY + 3600)

        assert await world.bot.reminders.run_once() == len(pinged) + len(dmed)
        pings = sorted(m.id for m in world.emu.messages(world.channel) if "your turn" in m.content)
        dms = [world.emu.dms(u)[0].id for u in dmed]
        assert len(pings) == len(pinged) and max(dms) < pings[5]  # not queued behind #games' bucket
        assert world.emu.rate_limit_hits == []
    finally:
        await world.stop()


async def one_day_match(world):
    """alice challenges bob with one day per move; bob accepts: (match id, thread). alice moves first."""
    alice, bob = world.users[:2]
    lobby = await world.challenge(alice, [bob], days=1)
    accept = next(b for b in lobby.response.buttons() if b["label"] == "Accept")["custom_id"]
    await world.emu.press(bob, lobby.response, accept)
    match_id = int(accept.rsplit(":", 1)[1])
    return match_id, await world.wait_thread(match_id)


def channel_notices(world, user):
    return [m for m in world.emu.messages(world.channel) if f"<@{user.id}>" in m.content and "stopped" in m.content]


async def test_a_reminder_no_place_takes_stops_after_three_passes_even_across_restarts_and_says_so(database):
    world = await BotWorld(database).start()
    try:
        alice, _bob = world.users[:2]
        alice.dms_open = False
        match_id, thread = await world.start_two_player()
        delete_thread(world.emu, thread)
        world.clock.advance(DAY + 3600)
        for _ in range(2):
            assert await world.bot.reminders.run_once() == 0
            assert channel_notices(world, alice) == []
            await world.restart_bot()  # the count of refused tries is not forgotten
        assert await world.bot.reminders.run_once() == 0
        [notice] = channel_notices(world, alice)
        assert "none could reach you" in notice.content and "still your turn" in notice.content
        assert alice.id in notice.pinged

        requests = len(world.emu.requests)
        world.clock.advance(2 * DAY)
        for _ in range(3):
            assert await world.bot.reminders.run_once() == 0
        assert len(world.emu.requests) == requests and len(channel_notices(world, alice)) == 1
        assert await world.store.get_reminder(match_id) is not None  # the next turn gets reminders again
    finally:
        await world.stop()


async def test_a_time_out_whose_thread_is_gone_is_announced_in_the_channel(database):
    world = await BotWorld(database).start()
    try:
        _alice, bob = world.users[:2]
        _match_id, thread = await one_day_match(world)
        delete_thread(world.emu, thread)
        world.clock.advance(DAY + 60)
        assert await world.bot.reminders.run_once() == 2  # alice's reminder (DM) and the time-out
        [notice] = [m for m in world.emu.messages(world.channel) if "run out of time" in m.content]
        assert any(b["label"] == "Claim win" for b in notice.buttons()) and bob.id in notice.pinged
        assert await world.bot.reminders.run_once() == 0
    finally:
        await world.stop()


async def test_a_time_out_no_place_takes_is_given_up_after_three_passes_and_logged_once(database, caplog):
    world = await BotWorld(database).start()
    try:
        match_id, thread = await one_day_match(world)
        delete_thread(world.emu, thread)
        world.channel.bot_can_send = False  # and a moderator took the bot's right to post in #games
        world.emu.gateway.dispatch("CHANNEL_UPDATE", world.emu.store.channel_payload(world.channel))
        world.clock.advance(DAY + 60)
        caplog.set_level(logging.INFO, logger="bot.reminders")
        for _ in range(3):
            await world.bot.reminders.run_once()
        given_up = [r for r in caplog.records if "given up" in r.getMessage() and f"match {match_id}" in r.getMessage()]
        assert len(given_up) == 1 and given_up[0].levelname == "WARNING"

        requests = len(world.emu.requests)
        for _ in range(3):
            assert await world.bot.reminders.run_once() == 0
        assert len(world.emu.requests) == requests  # not tried for ever
        assert sum("given up" in r.getMessage() for r in caplog.records) == 1
    finally:
        await world.stop()
