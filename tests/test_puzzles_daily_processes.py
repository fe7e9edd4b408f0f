"""The daily puzzle posted by two real bot processes, each with its own connection pool, on one PostgreSQL
database (issue 36's test): the clock moved across several days, the processes racing each day's pass 0–5 ms
apart, one SIGKILLed while it holds a day's claim. Every day's puzzle is stored once and its post recorded
once; the killed holder's day is taken by the other process once the holder's heartbeat is stale
(``STALE_SECONDS``), long before the claim's lease (``DAILY_LEASE``) would have let it go, and a restart of
the killed process posts nothing twice.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time

from bot.domain.clock import STALE_SECONDS, ManualClock
from bot.domain.puzzles import NewPuzzle
from bot.service.daily_puzzles import DAILY_LEASE, DailyPuzzles, day_and_hour
from bot.service.matches import MatchService
from bot.service.puzzles import Puzzles
from bot.store import open_store
from tests import backends
from tests.racing import NoChallengeLimits
from tests.test_puzzles_daily import server_with_puzzles
from tests.test_puzzles_service import inline_search
from tests.test_races_processes import Process
from tests.test_review_service import GUILD, OTHER_GUILD

CHANNEL = 9555
NOW = 1_800_000_000.0
DAY = 86_400.0
DAYS = 7
KILLED_DAY = 2
TRIALS = 20


async def start_poster(url: str) -> Process:
    return await Process.start(url, module="tests.daily_puzzle_process")


async def test_two_processes_post_each_days_puzzle_once_and_a_killed_holders_day_after_its_heartbeat(
    postgres_server,
):
    await backends.empty_postgres(postgres_server.url)
    store = await open_store(postgres_server.url)
    service = MatchService(store, ManualClock(NOW), default_reminder_hours=24)
    service.limits = NoChallengeLimits()
    await server_with_puzzles(service, DAYS + 1)
    await DailyPuzzles(Puzzles(service, inline_search)).change(GUILD, is_manager=True, channel_id=CHANNEL, hour=0)
    posters = [await start_poster(postgres_server.url), await start_poster(postgres_server.url)]
    rng = random.Random(36)
    posted_by: dict[str, list[int]] = {}  # day: the message ids of the processes that recorded its post
    claimed: dict[str, set[int]] = {}  # day: the puzzles its claims were given

    def note(answer: dict, message: int) -> None:
        for guild_id, day, puzzle_id in answer["claimed"]:
            assert guild_id == GUILD
            claimed.setdefault(day, set()).add(puzzle_id)
        for _, day in answer["posted"]:
            posted_by.setdefault(day, []).append(message)

    try:
        for day in range(DAYS):
            now = NOW + day * DAY
            today = day_and_hour(now)[0]
            if day == KILLED_DAY:  # the first process claims the day, and is killed before it posts
                doomed, survivor = posters
                doomed.send(now=now, at=0, post=False, message=0, shard=0)
                answer = await doomed.answer()
                assert [d for _, d, _ in answer["claimed"]] == [today] and answer["posted"] == []
                note(answer, 0)
                doomed.child.send_signal(signal.SIGKILL)
                await doomed.child.wait()
                survivor.send(now=now + STALE_SECONDS / 2, at=0, post=True, message=day * 10 + 1, shard=1)
                assert await survivor.answer() == {"claimed": [], "posted": []}  # its holder beat lately
                survivor.send(now=now + STALE_SECONDS + 1, at=0, post=True, message=day * 10 + 1, shard=1)
                answer = await survivor.answer()  # its holder is gone: the survivor posts the day
                assert [d for _, d, _ in answer["claimed"]] == [today], answer
                note(answer, day * 10 + 1)
                assert STALE_SECONDS + 1 < DAILY_LEASE  # long before the lease would have let it go
                posters[0] = await start_poster(postgres_server.url)  # the killed process started again
                for shard, poster in enumerate(posters):  # nothing more that day, from either
                    poster.send(now=now + STALE_SECONDS + 2, at=0, post=True, message=day * 10 + shard, shard=shard)
                    assert await poster.answer() == {"claimed": [], "posted": []}
                continue
            at = time.time() + 0.05
            gap = (day % 6) / 1000 + rng.uniform(0, 0.0005)  # 0 to 5 ms, and a little between
            racers = [0, 1] if day % 2 else [1, 0]  # each process goes first by turns
            posters[racers[0]].send(now=now, at=at, post=True, message=day * 10 + racers[0], shard=racers[0])
            posters[racers[1]].send(now=now, at=at + gap, post=True, message=day * 10 + racers[1], shard=racers[1])
            answers = {racer: await posters[racer].answer() for racer in racers}
            assert sorted(len(a["claimed"]) for a in answers.values()) == [0, 1], (day, answers)
            # which of the two wins is the scheduler's choice: on a loaded machine one may win every race
            for racer, answer in answers.items():
                note(answer, day * 10 + racer)
        days = [day_and_hour(NOW + d * DAY)[0] for d in range(DAYS)]
        rows = await backends.fetch(
            store, "SELECT day, puzzle_id, message_id, claimed_until, claimed_by FROM daily_puzzles ORDER BY day"
        )
        assert [r[0] for r in rows] == days  # every day's puzzle stored once
        assert len({r[1] for r in rows}) == DAYS  # a new puzzle each day
        assert all(claimed[r[0]] == {r[1]} for r in rows)  # the killed holder's day kept its puzzle
        assert all(posted_by[r[0]] == [r[2]] for r in rows)  # each day's post recorded once, by its poster
        assert all(r[3] is None and r[4] is None for r in rows)  # no claim left behind
    finally:
        for poster in posters:
            await poster.stop()
        await store.close()


async def test_two_servers_claiming_their_days_at_once_never_fail_on_the_same_puzzle(postgres_server):
    """Two servers with only the computer's own puzzles claim their day at the same instant from two processes'
    pools: both choose the same puzzle (a puzzle is posted once ever), and the one that comes second finds it
    taken: no post this pass, not an error; its next pass chooses another. Two claims of one server's day at
    once: one claim at most, no error. Fails before the fix: UniqueViolationError on daily_puzzles_by_puzzle."""
    await backends.empty_postgres(postgres_server.url)
    stores = [await open_store(postgres_server.url), await open_store(postgres_server.url)]
    try:
        found = [(f"seed {k}", NewPuzzle("begird", {"format": 1}, 1500.0, k)) for k in range(2 * TRIALS)]
        await stores[0].add_shared_puzzles(found, 1.0)  # the store chooses; the document is read at posting
        for shard, store in enumerate(stores):  # each process beats, as the bot does: its claims hold
            await store.beat(NOW, (2, (shard,)))
        for trial in range(TRIALS):
            day = f"2027-02-{trial + 1:02d}"
            claims = await asyncio.gather(
                stores[0].claim_daily_puzzle(GUILD, day, CHANNEL, NOW, DAILY_LEASE),
                stores[1].claim_daily_puzzle(OTHER_GUILD, day, CHANNEL, NOW, DAILY_LEASE),
                stores[1].claim_daily_puzzle(GUILD, day, CHANNEL, NOW, DAILY_LEASE),
                return_exceptions=True,
            )
            assert not any(isinstance(c, BaseException) for c in claims), (trial, claims)
            assert claims[0] is None or claims[2] is None, (trial, claims)  # one server's day: one claim at most
            assert any(c is not None for c in claims), (trial, claims)  # and some server's day posted
            for guild_id in (GUILD, OTHER_GUILD):  # the next pass: each server's day, once
                await stores[0].claim_daily_puzzle(guild_id, day, CHANNEL, NOW + DAILY_LEASE + 1, DAILY_LEASE)
        rows = await backends.fetch(stores[0], "SELECT guild_id, day, puzzle_id FROM daily_puzzles")
        assert len(rows) == 2 * TRIALS and len({r[2] for r in rows}) == 2 * TRIALS
    finally:
        for store in stores:
            await store.close()
