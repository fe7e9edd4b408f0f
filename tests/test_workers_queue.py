"""The job queue in one process, on a real PostgreSQL server: jobs are sent once, a job delivered twice
plays its turn once, the schema installs once, and a hint goes to a worker and comes back by NOTIFY.

Queues deliver at least once: the same turn job can run twice, even at the same time (a worker thought
dead while it was only slow). Each run plays only on the version the job is for; so the second finds the
match moved on, or has its turn refused by the store's compare-and-set.
"""

from __future__ import annotations

import asyncio
import json
from itertools import count

import pytest

from bot.config import Settings
from bot.domain.errors import Refusal
from bot.jobs import queue
from bot.jobs.notices import HINTS, Notices
from bot.jobs.worker import Worker
from bot.service.computer import ComputerPlayer
from bot.service.offers import Offers
from bot.store import open_store
from games import load_state
from tests.racing import log_matches_state
from tests.worker_processes import ALICE, computer_to_move, empty_queue, jobs, system_service, until

COMPUTER = -1
_NAMES = count()


class ScriptedThinker:
    """Answers each search with the next notation of its script, once that search's gate opens."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.gates: list[asyncio.Event] = []

    async def turn(self, state, level, seed):
        answer = self.answers.pop(0) if self.answers else load_state(state).legal_notations()[0]
        gate = asyncio.Event()
        self.gates.append(gate)
        await gate.wait()
        return {"turn": answer, "level": level, "seconds": 0.0, "simulations": 0}

    def open_all(self) -> None:
        for gate in self.gates:
            gate.set()

    async def warm(self) -> None:
        pass  # Thinker warms its processes before the first job; a script has nothing to warm

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def queue_url(postgres_server):
    return postgres_server.create_database(f"queue_{next(_NAMES)}")


@pytest.fixture
async def service(queue_url):
    store = await open_store(queue_url)
    await store.pool.execute("TRUNCATE matches, seats, moves, reminders RESTART IDENTITY CASCADE")
    await empty_queue(store)
    try:
        yield system_service(store)
    finally:
        await store.close()


def player(service, thinker) -> ComputerPlayer:
    computer = ComputerPlayer(service, Offers(service), thinker)
    computer.announce_wait = 0.0
    return computer


async def computer_notations(service, match_id: int) -> list[str]:
    return [m.notation for m in await service.store.moves(match_id) if m.user_id == COMPUTER]


async def test_a_turn_due_twice_waits_as_one_job(service):
    sender = queue.JobQueue(service.store.pool)
    await asyncio.gather(*(sender.turn_due(7, 3) for _ in range(5)))  # bot processes' start-ups, a sweep
    await sender.turn_due(7, 4)
    assert [(status, entrypoint) for _, status, entrypoint, _ in await jobs(service.store)] == [
        ("queued", queue.TURN),
        ("queued", queue.TURN),
    ]


async def test_a_turn_job_delivered_again_after_its_turn_plays_nothing(service):
    match_id, version = await computer_to_move(service)
    thinker = ScriptedThinker("a1", "b2")
    computer = player(service, thinker)
    first = asyncio.ensure_future(computer.play_queued_turn(match_id, version))
    await until(lambda: thinker.gates, 5)
    thinker.open_all()
    assert await first == "stored"
    await service.play(match_id, ALICE[0], "c3")  # alice answers: the computer is to move again
    again = asyncio.ensure_future(computer.play_queued_turn(match_id, version))  # the same job, redelivered
    thinker.open_all()
    assert await again == "not_due"
    assert await computer_notations(service, match_id) == ["a1"]
    assert len(thinker.gates) == 1, "the late copy did not even think"


async def test_two_deliveries_thinking_at_once_store_the_turn_once(service):
    """Both copies read the match at the job's version and think; the first stores, alice answers, then the
    second's answer (still legal in the new position) is refused: it was thought for the old one."""
    match_id, version = await computer_to_move(service)
    thinker = ScriptedThinker("a1", "b2")
    computer = player(service, thinker)
    copies = [asyncio.ensure_future(computer.play_queued_turn(match_id, version)) for _ in range(2)]
    await until(lambda: len(thinker.gates) == 2, 5, what="both copies thinking")
    thinker.gates[0].set()
    await until(lambda: copies[0].done(), 5)
    await service.play(match_id, ALICE[0], "c3")
    thinker.gates[1].set()
    assert [await copies[0], await copies[1]] == ["stored", "moved_on"]
    assert await computer_notations(service, match_id) == ["a1"]
    consistent, logged = await log_matches_state(service, match_id)
    assert consistent and logged == 3


async def test_the_queue_installs_once_when_processes_start_together(postgres_server):
    url = postgres_server.create_database(f"install_{next(_NAMES)}")
    stores = [await open_store(url) for _ in range(3)]
    try:
        await asyncio.gather(*(queue.install(store.pool) for store in stores))
        await queue.install(stores[0].pool)  # and again at the next start: nothing to do
        tables = await stores[0].pool.fetch(
            "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name LIKE 'pgqueuer%'"
        )
        assert {schema for schema, _ in tables} == {queue.SCHEMA}  # never among the bot's own tables
    finally:
        for store in stores:
            await store.close()


async def test_a_hint_goes_to_a_worker_and_comes_back_by_notify(service, queue_url):
    match_id, _ = await computer_to_move(service)
    await service.play(match_id, COMPUTER, "a1")  # alice's turn: she may ask for a hint
    worker = Worker(service.store, Settings(database_url=queue_url), concurrency=1, stale_seconds=2.0)
    worker.computer.thinker.close()
    thinker = ScriptedThinker("e5")
    worker.computer.thinker = thinker
    asker = queue.JobQueue(service.store.pool)
    listener = Notices(queue_url, {HINTS: asker.hint_answered})
    listening = asyncio.ensure_future(listener.run_forever())
    running = asyncio.ensure_future(worker.run())
    try:
        await until(listener.listening.is_set, 5)
        hint = asyncio.ensure_future(asker.hint(match_id, ALICE[0]))
        await until(lambda: thinker.gates, 10, what="the worker thinking the hint")
        thinker.open_all()
        assert await hint == "e5"
    finally:
        worker.stop()
        await running
        await listener.stop(1)
        await listening


async def test_a_hint_nobody_answers_is_refused_in_bounded_time(service):
    asker = queue.JobQueue(service.store.pool)
    asker.hint_wait = 0.3
    with pytest.raises(Refusal) as refused:
        await asyncio.wait_for(asker.hint(1, ALICE[0]), 5)
    assert refused.value.reason == "hint_unavailable"
    asker.hint_answered(json.dumps({"request": "nobody", "turn": "a1"}))  # a late answer finds no one waiting
