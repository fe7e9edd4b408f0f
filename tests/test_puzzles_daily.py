"""The daily puzzle in the store and the service (issue 36), on SQLite and on a real PostgreSQL: one post a day
at the server's hour, across two bot processes on one PostgreSQL database (each its own store) racing 0–5 ms
apart, through a process killed between its claim and its post, with the clock moved across several days; a
solve counted on the post once, with the fastest."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot.domain.errors import Refusal
from bot.domain.puzzles import NewPuzzle
from bot.service.daily_puzzles import DAILY_LEASE, DailyPuzzles, day_and_hour, nonce_of
from bot.service.matches import MatchService
from bot.service.puzzles import Puzzles
from bot.store import open_store
from tests import backends
from tests.test_puzzles_service import inline_search, missed_win_match
from tests.test_review_service import BOB, GUILD, OTHER_GUILD

pytestmark = pytest.mark.both_backends

CHANNEL = 9555
HOUR = 9
DAY = 86_400.0


async def server_with_puzzles(service, count: int) -> None:
    """``count`` puzzles of the server (the planted one's document, stored for several turns of its match)."""
    match, ply = await missed_win_match(service)
    await Puzzles(service, inline_search).scan(match.id)
    (document,) = (await backends.fetch(service.store, "SELECT document FROM puzzles WHERE source_ply = ?", ply))[0]
    await backends.execute(service.store, "DELETE FROM puzzles")
    found = [NewPuzzle("begird", json.loads(document), 1500.0 + k, 100 + k) for k in range(count)]
    await service.store.finish_puzzle_scan(match.id, GUILD, found, service.clock.now())


async def test_one_post_a_day_across_processes_and_a_killed_one(service, database, backend):
    await server_with_puzzles(service, 4)
    clock = service.clock
    stores = [service.store]
    if backend == "postgres":  # a second bot process: its own store on the same database
        stores.append(await open_store(database))
    processes = [DailyPuzzles(Puzzles(MatchService(store, clock), inline_search)) for store in stores]
    try:
        with pytest.raises(Refusal, match="puzzle_daily_needs_manage_server"):
            await processes[0].change(GUILD, is_manager=False, channel_id=CHANNEL, hour=HOUR)
        assert await processes[0].due() == [] and await stores[0].daily_puzzle_settings(GUILD) is None
        await processes[0].change(GUILD, is_manager=True, channel_id=CHANNEL, hour=HOUR)
        with pytest.raises(Refusal, match="puzzle_daily_hour"):
            await processes[0].change(GUILD, is_manager=True, channel_id=CHANNEL, hour=24)
        assert day_and_hour(clock.now())[1] == HOUR - 1
        assert await processes[-1].due() == []  # not yet the hour
        clock.advance(3600)
        rng = random.Random(len(stores))
        days = []
        for day in range(3):
            for shard, store in enumerate(stores):  # each process beats, as the bot does: its claims hold
                await store.beat(clock.lease_now(), (len(stores), (shard,)))
            assert await processes[-1].due() == [(GUILD, CHANNEL)]

            async def claim(process):
                await asyncio.sleep(rng.uniform(0, 0.005))
                return await process.claim(GUILD, CHANNEL)

            claims = await asyncio.gather(*(claim(p) for p in processes for _ in range(2)))
            won = [c for c in claims if c is not None]
            assert len(won) == 1, claims  # one claim of the day, whichever process
            first = won[0]
            assert await processes[0].due() == []  # claimed: nobody else posts meanwhile
            if day == 0:  # the claimer is killed before it posts: its claim lapses, another posts the same puzzle
                clock.advance(DAILY_LEASE + 1)
                assert await processes[-1].due() == [(GUILD, CHANNEL)]
                again = await processes[-1].claim(GUILD, CHANNEL)
                assert again is not None and again.row.puzzle_id == first.row.puzzle_id
                assert again.nonce == first.nonce == nonce_of(first.row.day)  # Discord returns the first post
                first = again
            await processes[-1].posted(first, 5000 + day)
            assert await processes[0].due() == [] and await processes[0].claim(GUILD, CHANNEL) is None
            days.append((first.row.day, first.row.puzzle_id))
            clock.advance(DAY)
        rows = await backends.fetch(service.store, "SELECT day, puzzle_id, message_id FROM daily_puzzles ORDER BY day")
        assert [(r[0], r[1]) for r in rows] == days and [r[2] for r in rows] == [5000, 5001, 5002]
        assert len({puzzle for _, puzzle in days}) == 3  # a new puzzle each day
        assert len({day for day, _ in days}) == 3
    finally:
        for store in stores[1:]:
            await store.close()


async def test_a_solve_is_counted_on_the_post_once_with_the_fastest(service):
    await server_with_puzzles(service, 1)
    puzzles = Puzzles(service, inline_search)
    daily = DailyPuzzles(puzzles)
    await daily.change(GUILD, is_manager=True, channel_id=CHANNEL, hour=0)
    post = await daily.claim(GUILD, CHANNEL)
    assert post is not None
    await daily.posted(post, 777)
    with pytest.raises(Refusal, match="puzzle_not_daily"):
        await daily.solve(BOB[0], OTHER_GUILD, post.row.puzzle_id)  # a button carried to another server
    view = await daily.solve(BOB[0], GUILD, post.row.puzzle_id)
    service.clock.advance(42)
    first = await puzzles.answer(BOB[0], view.row.id, view.attempt.version, "e4")
    winning = {"e5": "f5", "f5": "e5"}[first.check.reply]
    assert (await puzzles.answer(BOB[0], view.row.id, None, winning)).check.status == "right"
    shown = await daily.post_of(post.row.puzzle_id)
    assert shown is not None and (shown.solvers, shown.fastest_user_id, shown.fastest_seconds) == (1, BOB[0], 42)
    with pytest.raises(Refusal, match="puzzle_already_tried"):
        await daily.solve(BOB[0], GUILD, post.row.puzzle_id)
    assert (await daily.post_of(post.row.puzzle_id)).solvers == 1


async def test_a_day_claimed_by_a_process_start_that_is_gone_is_taken_at_once(service):
    """A process killed holding the day's post (its claim names its start): a restart (SQLite: one process
    serves the file) or another process (PostgreSQL: no heartbeat names that start) takes the day at once,
    not after the lease, and keeps its puzzle."""
    await server_with_puzzles(service, 2)
    daily = DailyPuzzles(Puzzles(service, inline_search))
    await daily.change(GUILD, is_manager=True, channel_id=CHANNEL, hour=0)
    first = await daily.claim(GUILD, CHANNEL)
    assert first is not None and await daily.claim(GUILD, CHANNEL) is None  # held by this start, within its lease
    await backends.execute(service.store, "UPDATE daily_puzzles SET claimed_by = 'a start now gone'")
    assert await daily.due() == [(GUILD, CHANNEL)]
    again = await daily.claim(GUILD, CHANNEL)
    assert again is not None and again.row.puzzle_id == first.row.puzzle_id
    await daily.release(again)
    (row,) = await backends.fetch(service.store, "SELECT claimed_until, claimed_by FROM daily_puzzles")
    assert tuple(row) == (None, None)
