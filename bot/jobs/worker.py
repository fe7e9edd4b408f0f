"""``python -m bot worker``: a process that takes computer turns, hints, reviews and puzzle searches from the queue
and thinks them.

It is the computer player of bot/service/computer.py without Discord: it thinks in its own process pool
(``ai.worker.Thinker``: the search never holds this event loop, whose heartbeats tell PgQueuer the job
is alive), stores the turn through the service on the version the job is for, and tells the bot
processes by NOTIFY so that one of them posts the board. Its own turns are changes like any other: if
a computer is to move again (computer against computer), that turn is a new job.

A job whose worker dies (SIGKILL, a lost machine) stops heartbeating; after ``stale_seconds`` another
worker's dequeue takes it again (PgQueuer re-picks a picked job whose heartbeat is stale) and thinks
the same turn (same seed). The store's compare-and-set on the version makes sure it is stored once,
whoever finishes. On SIGTERM the worker takes no new job, hands back the ones still thinking (queued
again at once, for another worker) and lets a turn being stored finish.

Puzzle searches (docs/puzzles.md) are the least urgent jobs: queued at the lowest priority, at most one running
across all workers (PgQueuer's concurrency limit, kept in the database), thought in a pool of their own at
nice 10, so a computer's turn neither waits in the queue behind them nor shares a search process with them. They
are taken by a queue manager of their own, so a puzzle job never holds one of the task slots of turns and hints.

With ``HEXPLAY_METRICS_PORT`` it serves /healthz (the database answers, the queue loop runs) and /metrics
(the turns it stores and plays, its jobs' durations, the queue's depth) until it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import time
from collections.abc import Awaitable
from datetime import timedelta
from typing import Any, TypeVar

from pgqueuer.adapters.drivers.asyncpg import AsyncpgPoolDriver
from pgqueuer.core.applications import PgQueuer
from pgqueuer.core.qm import QueueManager
from pgqueuer.domain.errors import RetryRequested
from pgqueuer.domain.models import Job, Schedule

from ai.review import ReviewBudget
from ai.worker import Thinker

from ..config import Settings
from ..domain.clock import Clock, OffsetFileClock
from ..domain.errors import Refusal
from ..domain.outcome import Outcome
from ..observe import health
from ..observe.metrics import WorkerMetrics
from ..observe.server import MetricsServer
from ..service.computer import ComputerPlayer
from ..service.events import MatchEvents
from ..service.matches import MatchService
from ..service.offers import Offers
from ..service.puzzles import JOB_LEASE, SELF_PLAY_GAMES, Puzzles
from ..service.review import Reviews
from ..store import open_store
from ..store.postgres.store import PostgresStore, redacted
from . import queue
from .notices import HINTS, STORED, notify

log = logging.getLogger(__name__)
T = TypeVar("T")

PUZZLE_NICENESS = 10  # the puzzle pool's processes yield the CPU to the turns' and the bot's
PUZZLE_JOBS_AT_ONCE = 1  # across all workers (PgQueuer keeps the count in the database)
SWEEP_EVERY = "* * * * *"  # cron: once a minute, one worker (PgQueuer's scheduler) sends any turn left unsent


class Worker:
    def __init__(self, store: PostgresStore, settings: Settings, concurrency: int, stale_seconds: float) -> None:
        self.store = store
        self.concurrency = concurrency
        self.stale_seconds = stale_seconds
        self.metrics = WorkerMetrics(job_kinds=(queue.TURN, queue.HINT, queue.REVIEW, queue.PUZZLE))
        events = MatchEvents()
        events.on_move(self.metrics.move_stored)
        clock: Clock | None = OffsetFileClock(settings.clock_offset_file) if settings.clock_offset_file else None
        # the reminder of the next player's turn is timed in the move's transaction: the bot's default delay
        self.service = MatchService(store, clock, default_reminder_hours=settings.reminder_hours, events=events)
        self.jobs = queue.JobQueue(store.pool)
        self.computer = ComputerPlayer(
            self.service,
            Offers(self.service),
            Thinker(concurrency, start_method="spawn"),
            announce=self._tell_the_bots,
            jobs=self.jobs,
        )
        # post-game reviews: one position per task of the same pool, so a turn waits one position at most
        self.reviews = Reviews(self.service, self.computer.thinker, ReviewBudget(settings.review_simulations))
        # puzzle searches: a low-priority pool of their own (started at the first such job), never the turns'
        self.puzzle_pool = Thinker(1, start_method="spawn", niceness=PUZZLE_NICENESS)
        self.puzzles = Puzzles(self.service, self.puzzle_pool.find_puzzle, self.puzzle_pool.self_play_puzzles)
        events.on_change(self.computer.changed)  # a computer to move again (computer against computer): a new job
        self.pgq = PgQueuer(AsyncpgPoolDriver(store.pool), channel=queue.WAKE_UPS, queries=self.jobs.queries)
        self.pgq.entrypoint(queue.TURN)(self.turn_job)
        self.pgq.entrypoint(queue.HINT)(self.hint_job)
        self.pgq.entrypoint(queue.REVIEW)(self.review_job)
        self.pgq.schedule(queue.SWEEP, SWEEP_EVERY)(self.sweep)
        # Puzzle jobs have a manager of their own, whose task slots are not the turns': a manager's cap counts
        # every job it holds, so a puzzle job in the turns' manager kept one of their K slots for its whole search.
        self.puzzle_jobs = QueueManager(queue.queries(AsyncpgPoolDriver(store.pool)), self.pgq.channel)
        self.puzzle_jobs.shutdown = self.pgq.shutdown  # one stop for both
        self.puzzle_jobs.entrypoint(queue.PUZZLE, concurrency_limit=PUZZLE_JOBS_AT_ONCE)(self.puzzle_job)
        self._thinking: set[asyncio.Future[Any]] = set()
        self.stopping = False
        self.taking_jobs = False  # PgQueuer's loop is running (/healthz)

    async def run(self) -> None:
        # One search per process of the pool; PgQueuer takes at least twice its batch (1), so a worker of
        # concurrency 1 holds a second job while the first is thought (still heartbeating: never stale).
        self.taking_jobs = True
        try:
            await self.computer.thinker.warm()  # the search processes started and warmed before the first job
            heartbeat = timedelta(seconds=self.stale_seconds)
            # a stale job is noticed at a dequeue: look at least this often, even if no NOTIFY wakes it
            dequeue = timedelta(seconds=min(5.0, self.stale_seconds / 2))
            managers = [
                self.pgq.run(
                    batch_size=1,
                    max_concurrent_tasks=max(2, self.concurrency),
                    heartbeat_timeout=heartbeat,
                    dequeue_timeout=dequeue,
                ),
                # at least twice the batch (PgQueuer's rule); the database's limit keeps it to one puzzle job
                self.puzzle_jobs.run(
                    batch_size=1, max_concurrent_tasks=2, heartbeat_timeout=heartbeat, dequeue_timeout=dequeue
                ),
            ]
            running = [asyncio.ensure_future(manager) for manager in managers]
            try:
                await asyncio.gather(*running)
            finally:
                self.pgq.shutdown.set()  # one manager failed or stopped: the other stops too
                await asyncio.gather(*running, return_exceptions=True)
        finally:
            self.taking_jobs = False
        await self.computer.close()  # a turn being stored finishes; the search processes stop
        self.puzzle_pool.close()

    def queue_problem(self) -> str | None:
        """Why the worker takes no jobs, or None when its queue loop runs (``/healthz``)."""
        if self.stopping:
            return "the worker is stopping"
        return None if self.taking_jobs else "the queue loop is not running"

    def metrics_server(self, port: int, host: str) -> MetricsServer:
        """/healthz (the database answers, the queue loop runs) and /metrics (with the queue's depth at each scrape)."""

        async def depth() -> None:
            self.metrics.queue_depth(await self.jobs.depth())

        checks = [health.database(self.store.ping), health.known(self.queue_problem)]
        return MetricsServer(port, self.metrics.registry, checks, [depth], role="worker", host=host)

    def stop(self) -> None:
        """SIGTERM: no new job; jobs still thinking are handed back to the queue; stores under way finish."""
        if self.stopping:
            return
        self.stopping = True
        log.info("stopping: %d job(s) still thinking are handed back", len(self._thinking))
        for thinking in list(self._thinking):
            thinking.cancel()
        self.pgq.shutdown.set()

    # -- the jobs --------------------------------------------------------------------------------

    async def turn_job(self, job: Job) -> None:
        taken = time.perf_counter()
        order = queue.decode_turn(job.payload)
        result = await self._handed_back_on_stop(self.computer.play_queued_turn(order.match_id, order.version))
        log.info("match %s at version %s: %s (job %s)", order.match_id, order.version, result, job.id)
        self.metrics.computer_turn(result)
        self.metrics.job_done(queue.TURN, time.perf_counter() - taken)

    async def hint_job(self, job: Job) -> None:
        taken = time.perf_counter()
        order = queue.decode_hint(job.payload)
        if time.time() > order.answer_by:
            return  # nobody waits for it any more
        answer: dict[str, object] = {"request": order.request}
        try:
            answer["turn"] = await self._handed_back_on_stop(self.computer.think_hint(order.match_id, order.user_id))
        except Refusal as refusal:  # not the player's turn any more, say
            answer["refused"] = refusal.reason
        await notify(self.store.pool, HINTS, json.dumps(answer))
        self.metrics.job_done(queue.HINT, time.perf_counter() - taken)

    async def review_job(self, job: Job) -> None:
        taken = time.perf_counter()
        order = queue.decode_review(job.payload)
        stored = await self._handed_back_on_stop(self.reviews.search(order.match_id))
        log.info("match %s: review %s (job %s)", order.match_id, "stored" if stored else "not searched", job.id)
        self.metrics.job_done(queue.REVIEW, time.perf_counter() - taken)

    async def puzzle_job(self, job: Job) -> None:
        """Search a finished match for puzzles, or play a game of the computer against itself for them. A job
        delivered twice stores each puzzle once (the store's uniqueness); a job whose worker died is taken again
        once stale, and its match is not held by a lease of the dead worker's (``JOB_LEASE``)."""
        taken = time.perf_counter()
        order = queue.decode_puzzle(job.payload)
        if order.match_id is not None:
            stored = await self._handed_back_on_stop(self.puzzles.scan(order.match_id, lease=JOB_LEASE))
            log.info("match %s searched for puzzles: %s stored (job %s)", order.match_id, stored, job.id)
        elif order.seed is not None:
            stored = await self._handed_back_on_stop(self.puzzles.grow_shared(SELF_PLAY_GAMES, order.seed))
            log.info("the computer's game %s: %s puzzles stored (job %s)", order.seed, stored, job.id)
        self.metrics.job_done(queue.PUZZLE, time.perf_counter() - taken)

    async def sweep(self, schedule: Schedule) -> None:
        """A computer turn whose job was never sent (its process died between storing the move and sending
        it) is sent now; one already waiting or running is not sent twice (the job's dedupe key)."""
        sent = await self.computer.resume()
        log.debug("sweep: %d computer turns due", sent)

    async def _handed_back_on_stop(self, work: Awaitable[T]) -> T:
        """Run a job's thinking; if the worker stops meanwhile, the job goes back to the queue for another."""
        thinking = asyncio.ensure_future(work)
        self._thinking.add(thinking)
        try:
            return await thinking
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if thinking.cancelled() and self.stopping and (current is None or not current.cancelling()):
                raise RetryRequested(reason="the worker is stopping") from None
            raise
        finally:
            self._thinking.discard(thinking)

    async def _tell_the_bots(self, outcome: Outcome) -> None:
        """The turn is stored: a bot process posts its board (any of them; the posting is claimed)."""
        await notify(self.store.pool, STORED, str(outcome.match.id))


async def run_worker(settings: Settings, concurrency: int, stale_seconds: float) -> None:
    """Run a worker until SIGTERM or Ctrl-C; StoreUnavailable (one line) if the database cannot be used."""
    # its connections: the two queue managers' listeners, their heartbeats and dequeues, and each job's reads and store
    store = await open_store(settings.database, pool_size=concurrency + 5, statement_cache=settings.statement_cache)
    assert isinstance(store, PostgresStore), "the worker runs on PostgreSQL (python -m bot refuses SQLite)"
    try:
        await queue.install(store.pool)
        worker = Worker(store, settings, concurrency, stale_seconds)
        port, host = settings.metrics_port, settings.metrics_host
        server = worker.metrics_server(port, host) if port is not None else None
        if server is not None:
            await server.start()  # a port in use stops the start with one line
        try:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(signum, worker.stop)
            log.info("worker ready on %s: %d search(es) at once", redacted(store.url), concurrency)
            await worker.run()
            log.info("worker stopped")
        finally:
            if server is not None:
                await server.stop()
    finally:
        await store.close()
