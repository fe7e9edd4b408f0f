"""A review on PostgreSQL goes where /hint goes (issue 23): the bot sends a job, a worker (``python -m bot
worker``'s ``Worker``, in this process) searches it in its pool and stores it, and the bot, which searched
nothing, reads the progress and the result from the reviews table. Asked twice, it is one job."""

from __future__ import annotations

import asyncio
import json
from itertools import count
from pathlib import Path

import pytest

from ai.worker import Thinker
from bot.config import Settings
from bot.domain.seats import game_of, user_to_move
from bot.jobs import queue
from bot.jobs.worker import Worker
from bot.service.review import Reviews
from bot.store import open_store
from tests.worker_processes import ALICE, empty_queue, jobs, system_service

BOB = (102, "bob")
GUILD, CHANNEL = 1, 2
BEGIRD = next(
    c
    for c in json.loads((Path(__file__).parent / "data" / "review_blunders.json").read_text())
    if c["game"] == "begird"
)
_NAMES = count()


class NoSearchHere(Thinker):
    """The bot's pool with PostgreSQL: it must never be asked for a review's search."""

    async def assess(self, *args, **kwargs):
        raise AssertionError("the bot searched a review itself")


@pytest.fixture(scope="module")
def queue_url(postgres_server):
    return postgres_server.create_database(f"review_queue_{next(_NAMES)}")


@pytest.fixture
async def service(queue_url):
    store = await open_store(queue_url)
    await store.pool.execute("TRUNCATE matches, seats, moves, reminders, reviews RESTART IDENTITY CASCADE")
    await empty_queue(store)
    try:
        yield system_service(store)
    finally:
        await store.close()


async def test_a_review_is_a_workers_job_read_back_by_the_bot(service, queue_url):
    match = await service.create(
        game_id="begird", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, options_text="board=small"
    )
    await service.accept(match.id, BOB[0])
    for notation in BEGIRD["turns"]:
        row = await service.get(match.id)
        await service.play(match.id, user_to_move(row, game_of(row)), notation)
    bot = Reviews(service, NoSearchHere(), jobs=queue.JobQueue(service.store.pool))
    bot.poll_seconds = 0.05
    first = await bot.request(ALICE[0], GUILD, CHANNEL, match.id)
    second = await bot.request(BOB[0], GUILD, CHANNEL, match.id)
    assert (first.ahead, second.ahead) == (0, 0)
    assert [kind for _, _, kind, _ in await jobs(service.store)] == [queue.REVIEW]  # one job for both

    worker = Worker(service.store, Settings(database_url=queue_url, review_simulations=40), 1, stale_seconds=5.0)
    worker.computer.thinker.close()
    worker.computer.thinker = worker.reviews.thinker = Thinker()  # forked: a spawned pool would start slower
    running = asyncio.ensure_future(worker.run())
    seen = []

    async def progress(now):
        seen.append(now)

    try:
        review = await bot.wait(first, ALICE[0], progress)
    finally:
        worker.stop()
        await running
    worst = max(review.result.turns, key=lambda t: t.drop)
    assert worst.index == BEGIRD["blunder"]
    assert worker.reviews.budget.simulations == 40  # the operator's setting, HEXPLAY_REVIEW_SIMULATIONS
    assert seen and seen[-1].done <= seen[-1].total
    assert (await bot.request(BOB[0], GUILD, CHANNEL, match.id)).ready
