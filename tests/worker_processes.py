"""``python -m bot worker`` as real OS processes on a test PostgreSQL database, and the queue's rows.

tests/test_workers_processes.py and benchmarks/bench_workers.py start, kill and stop workers with these.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.domain.clock import SystemClock
from bot.jobs import queue
from bot.service.matches import MatchService
from bot.store.postgres import PostgresStore

ROOT = Path(__file__).resolve().parent.parent
ALICE = (101, "alice")


class WorkerProcess:
    """One worker, its output kept in a file (read when a test fails)."""

    def __init__(
        self,
        url: str,
        log_dir: Path,
        concurrency: int = 1,
        stale_seconds: float = 2.0,
        env: dict[str, str] | None = None,
    ) -> None:
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = log_dir / f"worker-{len(list(log_dir.iterdir()))}.log"
        env = {
            **os.environ,
            "HEXPLAY_DATABASE_URL": url,
            "HEXPLAY_WORKER_STALE_SECONDS": str(stale_seconds),
            "HEXPLAY_LOG_LEVEL": "INFO",
            **(env or {}),
        }
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot", "worker", "--concurrency", str(concurrency)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def searching(self) -> bool:
        """Whether its process pool has started a search process (a child of the worker)."""
        try:
            children = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        except OSError:
            return False
        return bool(children)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def terminate(self, timeout: float = 20.0) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


async def until(check, timeout: float, every: float = 0.05, what: str = "the condition"):
    """Await ``check()`` (sync or async) until it is truthy; its value."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if loop.time() > give_up:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(every)


async def jobs(store: PostgresStore) -> list[tuple[int, str, str, int]]:
    """The queue's rows: (id, status, entrypoint, attempts)."""
    rows = await store.pool.fetch(f"SELECT id, status, entrypoint, attempts FROM {queue.SCHEMA}.pgqueuer ORDER BY id")
    return [tuple(row) for row in rows]


async def empty_queue(store: PostgresStore) -> None:
    await queue.install(store.pool)
    await store.pool.execute(
        f"TRUNCATE {queue.SCHEMA}.pgqueuer, {queue.SCHEMA}.pgqueuer_log, {queue.SCHEMA}.pgqueuer_schedules"
    )


async def computer_to_move(service: MatchService, level: str = "easy", options: str = "side=4") -> tuple[int, int]:
    """A match of alice against the computer, alice's first turn played and its board posted: (match, version)."""
    match = await service.create(
        game_id="bide",
        creator=ALICE,
        invited=[],
        guild_id=1,
        channel_id=2,
        options_text=options,
        computer=level,
    )
    await service.start_if_ready(match.id)
    played = await service.play(match.id, ALICE[0], "d4")
    # the worker waits for the board of the position it answers to be posted: here nobody posts it
    await service.mark_announced(match.id, played.match.version, 2, 3)
    return match.id, played.match.version


def system_service(store: PostgresStore) -> MatchService:
    return MatchService(store, SystemClock(), default_reminder_hours=24)
