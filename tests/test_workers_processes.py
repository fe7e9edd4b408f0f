"""Worker processes (``python -m bot worker``) on one PostgreSQL database, as real OS processes.

A worker SIGKILLed in the middle of a search leaves its job picked with a heartbeat that stops; another
worker takes it again once the heartbeat is stale and plays the turn, and the turn is in the log once.
A worker stopped with SIGTERM hands its job back and exits 0; with SQLite the command refuses to run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import count
from pathlib import Path

import pytest

from bot.jobs.queue import JobQueue
from bot.store import open_store
from tests.racing import log_matches_state
from tests.worker_processes import (
    WorkerProcess,
    computer_to_move,
    empty_queue,
    jobs,
    system_service,
    until,
)

COMPUTER = -1
_NAMES = count()


@pytest.fixture
async def queue_world(postgres_server, tmp_path):
    url = postgres_server.create_database(f"workers_{next(_NAMES)}")
    store = await open_store(url)
    await empty_queue(store)
    service = system_service(store)
    started: list[WorkerProcess] = []

    def start(**options) -> WorkerProcess:
        worker = WorkerProcess(url, tmp_path / "logs", **options)
        started.append(worker)
        return worker

    try:
        yield service, start
    finally:
        for worker in started:
            worker.stop()
        await store.close()


async def computer_moves(service, match_id: int) -> list[str]:
    return [m.notation for m in await service.store.moves(match_id) if m.user_id == COMPUTER]


async def test_a_worker_killed_mid_search_its_turn_is_played_once_by_another(queue_world):
    service, start = queue_world
    match_id, version = await computer_to_move(service, level="hard", options="")  # a search of seconds
    doomed = start()
    await JobQueue(service.store.pool).turn_due(match_id, version)
    await until(lambda: jobs(service.store), 10, what="the job queued")
    await until(lambda: _picked(service), 20, what="the job taken by the first worker")
    await until(doomed.searching, 20, what="the first worker's search")
    doomed.kill()
    assert await computer_moves(service, match_id) == [], "killed before the turn was stored"
    assert [status for _, status, _, _ in await jobs(service.store)] == ["picked"]  # held by a dead worker

    survivors = [start(), start()]  # both may reach for the stale job: one gets it
    await until(lambda: computer_moves(service, match_id), 60, what="the turn played by a survivor")
    await until(lambda: _no_jobs(service), 10, what="the job done")
    assert len(await computer_moves(service, match_id)) == 1
    consistent, logged = await log_matches_state(service, match_id)
    assert consistent and logged == 2
    taken_by = [w for w in survivors if "stored" in w.output()]
    assert len(taken_by) == 1, [w.output() for w in survivors]


async def test_sigterm_hands_a_thinking_job_back_and_the_worker_exits_cleanly(queue_world):
    service, start = queue_world
    match_id, version = await computer_to_move(service, level="hard", options="")
    stopping = start(stale_seconds=60)  # handed back, not recovered by staleness
    await JobQueue(service.store.pool).turn_due(match_id, version)
    await until(lambda: _picked(service), 20, what="the job taken")
    await until(stopping.searching, 20, what="the search")
    assert stopping.terminate() == 0, stopping.output()
    assert "handed back" in stopping.output()
    [(_, status, _, attempts)] = await jobs(service.store)
    assert (status, attempts) == ("queued", 1)
    assert await computer_moves(service, match_id) == []
    start(stale_seconds=60)
    await until(lambda: computer_moves(service, match_id), 60, what="the turn played by the next worker")
    await until(lambda: _no_jobs(service), 10, what="the job done")
    assert len(await computer_moves(service, match_id)) == 1


def test_the_worker_refuses_sqlite_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "HEXPLAY_DATABASE_URL"}
    env["HEXPLAY_DB_PATH"] = str(tmp_path / "hexplay.sqlite3")
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)  # this checkout's code
    done = subprocess.run(
        [sys.executable, "-m", "bot", "worker"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "needs PostgreSQL" in done.stderr
    assert not (tmp_path / "hexplay.sqlite3").exists()


async def _picked(service) -> bool:
    return [status for _, status, _, _ in await jobs(service.store)] == ["picked"]


async def _no_jobs(service) -> bool:
    return await jobs(service.store) == []
