"""Puzzle searches on PostgreSQL go to the workers (issue 36): the bot searches nothing, it sends each finished
match to the queue as a job of the lowest priority (one job per match however often it is sent), and a worker
(``python -m bot worker``'s ``Worker``) proves its positions in a low-priority pool of its own and stores the
puzzles. A job delivered twice stores each puzzle once (the store's uniqueness per server, match and turn); a
worker SIGKILLed in the middle of a search loses nothing: another takes the job again once it is stale."""

from __future__ import annotations

import asyncio
from itertools import count

import pytest

from ai.worker import Thinker
from bot.config import Settings
from bot.domain.seats import game_of, user_to_move
from bot.jobs import queue
from bot.jobs.worker import Worker
from bot.service.puzzles import SELF_PLAY_GAMES, Puzzles
from bot.store import open_store
from tests.test_puzzles_cases import BLACK, WHITE
from tests.worker_processes import ALICE, WorkerProcess, empty_queue, jobs, system_service, until

BOB = (102, "bob")
GUILD, CHANNEL = 1, 2
MISSED = "j6"  # Black's turn instead of e4, which wins in two
TURNS = [stone for pair in zip(BLACK, (*WHITE, "f4"), strict=True) for stone in pair]
_NAMES = count()


@pytest.fixture(scope="module")
def queue_url(postgres_server):
    return postgres_server.create_database(f"puzzle_queue_{next(_NAMES)}")


@pytest.fixture
async def service(queue_url):
    store = await open_store(queue_url)
    await store.pool.execute(
        "TRUNCATE matches, seats, moves, reminders, puzzles, puzzle_scans, puzzle_attempts RESTART IDENTITY CASCADE"
    )
    await empty_queue(store)
    try:
        yield system_service(store)
    finally:
        await store.close()


async def missed_win(service) -> int:
    """A finished small-board Begird match where Black missed a win in two (e4) at ply ``len(TURNS)``."""
    match = await service.create(
        game_id="begird", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, options_text="board=small"
    )
    await service.accept(match.id, BOB[0])
    for notation in [*TURNS, MISSED]:
        row = await service.get(match.id)
        await service.play(match.id, user_to_move(row, game_of(row)), notation)
    row = await service.get(match.id)
    await service.resign(match.id, user_to_move(row, game_of(row)))
    return match.id


async def stored_puzzles(service, match_id: int) -> list[tuple[int, int]]:
    rows = await service.store.pool.fetch(
        "SELECT guild_id, source_ply FROM puzzles WHERE source_match_id = $1 ORDER BY source_ply", match_id
    )
    return [(int(r[0]), int(r[1])) for r in rows]


def in_process_worker(service, url: str) -> Worker:
    worker = Worker(service.store, Settings(database_url=url), 1, stale_seconds=5.0)
    worker.computer.thinker.close()
    worker.puzzle_pool.close()
    pool = Thinker()  # forked: a spawned pool would start slower
    worker.computer.thinker = pool
    worker.puzzles.search, worker.puzzles.self_play = pool.find_puzzle, pool.self_play_puzzles
    return worker


async def run_until_the_queue_is_empty(worker: Worker, service) -> None:
    running = asyncio.ensure_future(worker.run())
    try:
        await until(lambda: _queue_empty(service), 60, what="the puzzle job done")
    finally:
        worker.stop()
        await running


async def _queue_empty(service) -> bool:
    return await jobs(service.store) == []


async def test_a_puzzle_search_is_a_workers_job_and_a_second_delivery_stores_nothing_twice(service, queue_url):
    match_id = await missed_win(service)
    bot = Puzzles(service, None, jobs=queue.JobQueue(service.store.pool))  # the bot's, with workers: no pool
    assert await bot.search_pass(SELF_PLAY_GAMES, 1) == 1
    assert await bot.search_pass(SELF_PLAY_GAMES, 2) == 1  # sent again while it waits: still one job
    queued = await service.store.pool.fetch(f"SELECT entrypoint, priority, payload FROM {queue.SCHEMA}.pgqueuer")
    assert [(r[0], r[1]) for r in queued] == [(queue.PUZZLE, queue.PUZZLE_PRIORITY)]
    assert min(queue.REVIEW_PRIORITY, queue.TURN_PRIORITY, queue.HINT_PRIORITY) > queue.PUZZLE_PRIORITY
    assert queue.decode_puzzle(queued[0][2]) == queue.PuzzleOrder(match_id=match_id)
    with pytest.raises(RuntimeError):
        await bot.scan(match_id)  # the bot process searches nothing itself

    worker = in_process_worker(service, queue_url)
    await run_until_the_queue_is_empty(worker, service)
    found = await stored_puzzles(service, match_id)
    assert (GUILD, len(TURNS)) in found and len(set(found)) == len(found)

    # delivered again (a second delivery of a job whose first run is still going, or ran to its end): it proves
    # the same positions again and stores nothing twice
    await service.store.pool.execute("UPDATE puzzle_scans SET done_at = NULL WHERE match_id = $1", match_id)
    await queue.JobQueue(service.store.pool).puzzle_scan_due(match_id)
    await run_until_the_queue_is_empty(in_process_worker(service, queue_url), service)
    assert await stored_puzzles(service, match_id) == found
    assert await service.store.pool.fetchval("SELECT done_at FROM puzzle_scans WHERE match_id = $1", match_id)

    # every match searched: the pass sends one game of the computer against itself (once, whatever its seed)
    assert await bot.search_pass(SELF_PLAY_GAMES, 3) == 1
    assert await bot.search_pass(SELF_PLAY_GAMES, 4) == 1
    orders = [
        queue.decode_puzzle(r[0])
        for r in await service.store.pool.fetch(f"SELECT payload FROM {queue.SCHEMA}.pgqueuer")
    ]
    assert orders == [queue.PuzzleOrder(seed=3)]


async def test_a_worker_killed_mid_search_loses_nothing_another_stores_the_puzzles_once(service, queue_url, tmp_path):
    match_id = await missed_win(service)
    started: list[WorkerProcess] = []
    try:
        doomed = WorkerProcess(queue_url, tmp_path / "logs")
        started.append(doomed)
        await queue.JobQueue(service.store.pool).puzzle_scan_due(match_id)
        await until(lambda: _picked(service), 30, what="the job taken by the first worker")
        doomed.kill()  # its puzzle pool is still starting or proving: nothing of the match is stored
        assert await stored_puzzles(service, match_id) == [], doomed.output()
        assert [status for _, status, _, _ in await jobs(service.store)] == ["picked"]  # held by a dead worker

        started.append(WorkerProcess(queue_url, tmp_path / "logs"))
        await until(lambda: _queue_empty(service), 90, what="the job taken again and done")
        found = await stored_puzzles(service, match_id)
        assert (GUILD, len(TURNS)) in found and len(set(found)) == len(found), started[1].output()
    finally:
        for worker in started:
            worker.stop()


async def _picked(service) -> bool:
    return [status for _, status, _, _ in await jobs(service.store)] == ["picked"]


async def test_a_puzzle_search_leaves_every_task_slot_of_a_worker_to_turns(service, queue_url):
    """A worker of concurrency 2 proving puzzles still thinks two computer turns at once: the puzzle job is
    taken by a queue manager of its own (before, it held one of the two slots for its whole search, and the
    second turn waited in the queue). The searches are held open here so that what runs at once can be seen."""
    worker = in_process_worker(service, queue_url)
    worker.concurrency = 2
    searches_may_end = asyncio.Event()
    proving: list[int] = []
    thinking: list[int] = []

    async def long_scan(match_id: int, lease: float) -> int:
        proving.append(match_id)
        await searches_may_end.wait()
        return 0

    async def long_turn(match_id: int, version: int) -> str:
        thinking.append(match_id)
        await searches_may_end.wait()
        return "stale"

    worker.puzzles.scan = long_scan  # type: ignore[method-assign]
    worker.computer.play_queued_turn = long_turn  # type: ignore[method-assign,assignment]
    running = asyncio.ensure_future(worker.run())
    try:
        await worker.jobs.puzzle_scan_due(1)
        await until(lambda: proving == [1], 30, what="the puzzle job taken")
        await worker.jobs.turn_due(2, 5)
        await worker.jobs.turn_due(3, 5)
        await until(lambda: sorted(thinking) == [2, 3], 30, what="both turns thought at once")
        assert proving == [1]
    finally:
        searches_may_end.set()
        worker.stop()
        await running
