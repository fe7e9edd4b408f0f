"""With the shards split over processes, a process that is down pauses the clocks of its own shards' servers
only: the others neither time out those players nor warn them, and the returning process gives those clocks
their time back. One process running every shard keeps the old meaning (the bot's outage, every clock)."""

from __future__ import annotations

import pytest

from bot.service.timelimits import OUTAGE_GRACE, TimeLimits

pytestmark = pytest.mark.both_backends

ALICE, BOB = (101, "alice"), (102, "bob")
ON_SHARD = {0: 1000 << 22, 1: 1001 << 22}  # server ids whose events go to shard 0 and shard 1 of 2
DAY = 86400.0


async def timed_match(service, shard: int) -> int:
    service.clock.advance(61)
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=ON_SHARD[shard], channel_id=9, days_per_move=1
    )
    await service.accept(match.id, BOB[0])
    return match.id


async def test_a_shard_whose_process_is_down_keeps_its_servers_clocks_standing(service):
    store = service.store
    first, second = TimeLimits(service), TimeLimits(service)
    first.shards, second.shards = (2, (0,)), (2, (1,))
    on_zero, on_one = await timed_match(service, 0), await timed_match(service, 1)
    await first.heartbeat()
    await second.heartbeat()
    deadline_one = (await store.get_match(on_one)).deadline_at

    service.clock.advance(2 * DAY)  # both deadlines long past; the second process died a day and a half ago
    await first.heartbeat()
    assert (await first.paused_shards(service.clock.now())) == (2, (1,))
    assert [job.match.id for job in await first.due()] == [on_zero]  # shard 1's player is not timed out

    gap = await second.recover_outage()  # it comes back: its servers' clocks get the time back
    assert gap == pytest.approx(2 * DAY)
    assert (await store.get_match(on_one)).deadline_at == pytest.approx(deadline_one + 2 * DAY)
    assert (await first.paused_shards(service.clock.now())) == (2, ())
    assert await first.due() == []  # shard 1's deadline is a day away again; shard 0's is claimed already


async def test_a_process_running_every_shard_pauses_every_clock_as_before(service):
    store = service.store
    limits = TimeLimits(service)
    limits.shards = (2, (0, 1))
    ids = [await timed_match(service, s) for s in (0, 1)]
    await limits.heartbeat()
    before = [(await store.get_match(i)).deadline_at for i in ids]
    service.clock.advance(OUTAGE_GRACE + 600)
    assert await limits.recover_outage() == pytest.approx(OUTAGE_GRACE + 600)
    after = [(await store.get_match(i)).deadline_at for i in ids]
    assert after == [pytest.approx(b + OUTAGE_GRACE + 600) for b in before]
    assert await limits.paused_shards(service.clock.now()) == (2, ())


async def test_a_new_shard_layout_starts_from_the_bots_last_heartbeat(service):
    """From one process to two: the new layout has no heartbeats yet, so each shard is as old as the bot."""
    single = TimeLimits(service)
    match_id = await timed_match(service, 1)
    await single.heartbeat()
    before = (await service.store.get_match(match_id)).deadline_at
    service.clock.advance(3600)
    split = TimeLimits(service)
    split.shards = (2, (1,))
    assert await split.recover_outage() == pytest.approx(3600)
    assert (await service.store.get_match(match_id)).deadline_at == pytest.approx(before + 3600)


async def test_processes_sharing_the_request_budget_never_send_more_than_the_limit_in_a_second(service):
    """Four processes' budgets on one database, spending as fast as they may: per wall-clock second, the
    grants never add up past the limit (Discord's 50 a second counts the bot's processes together)."""
    import asyncio
    import time

    from bot.chat.pacing import SharedRequestBudget

    sent: list[float] = []
    budgets = [SharedRequestBudget(service.store, per_second=20, chunk=3) for _ in range(4)]

    async def sender(budget: SharedRequestBudget) -> None:
        for _ in range(15):
            await budget.spend()
            sent.append(time.time())

    started = time.time()
    await asyncio.gather(*(sender(b) for b in budgets))
    per_second: dict[int, int] = {}
    for at in sent:
        per_second[int(at)] = per_second.get(int(at), 0) + 1
    assert len(sent) == 60 and max(per_second.values()) <= 20, per_second
    assert time.time() - started >= 1  # 60 requests at 20 a wall-clock second span three seconds
