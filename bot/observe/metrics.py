"""The metrics of one process, each on the process's own registry (prometheus-client).

The bot and a worker count different things; both count the turns they store. Values read from elsewhere
(the queue's depth, the gateway's latency) are gauges set just before a scrape (``server.py`` awaits the
process's refreshers, then renders the registry).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from ..domain.model import MatchRow, MoveRow

# /move, from the interaction received to the answer sent: 10 ms (a refusal) to 10 s (Discord's slowest days).
MOVE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A worker's job: a hint or an easy turn in tenths of a second, a hard turn about 4 s, a stuck one a minute.
JOB_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
# The queue's rows by kind and status: each combination is shown, 0 included, so a graph never has gaps.
JOB_STATUSES = ("queued", "picked")


class ProcessMetrics:
    """What every process counts: the turns it stores, and the depth of the job queue (PostgreSQL)."""

    def __init__(self, job_kinds: Iterable[str] = ()) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.job_kinds = tuple(job_kinds)
        self.turns = Counter(
            "hexplay_turns_stored",
            "Turns stored by this process (a resignation, draw, takeback or time-out is not a turn).",
            ["game", "source"],
            registry=self.registry,
        )
        self.queue_jobs = Gauge(
            "hexplay_queue_jobs",
            "Jobs in the computer players' queue (PostgreSQL), by kind and status, as read at the scrape.",
            ["kind", "status"],
            registry=self.registry,
        )

    def move_stored(self, match: MatchRow, move: MoveRow) -> None:
        """A listener of ``MatchEvents.on_move``: a turn is counted by game and by who played it."""
        if move.kind == "turn":
            source = "computer" if match.is_computer(move.user_id) else "player"
            self.turns.labels(game=match.game, source=source).inc()

    def queue_depth(self, counts: Mapping[tuple[str, str], int]) -> None:
        """The queue as just read: (kind, status) -> jobs. Kinds and statuses no longer there read 0."""
        self.queue_jobs.clear()
        for kind in self.job_kinds:
            for status in JOB_STATUSES:
                self.queue_jobs.labels(kind=kind, status=status).set(0)
        for (kind, status), count in counts.items():
            self.queue_jobs.labels(kind=kind, status=status).set(count)


class BotMetrics(ProcessMetrics):
    """A bot process: its /move answers, its shards' gateway latency, the reminders it sends."""

    def __init__(self, job_kinds: Iterable[str] = ()) -> None:
        super().__init__(job_kinds)
        self.move_seconds = Histogram(
            "hexplay_move_seconds",
            "/move: seconds from the interaction received to the answer sent (refusals included).",
            buckets=MOVE_BUCKETS,
            registry=self.registry,
        )
        self.gateway_latency = Gauge(
            "hexplay_gateway_latency_seconds",
            "Each shard's last heartbeat round trip to Discord's gateway.",
            ["shard"],
            registry=self.registry,
        )
        self.reminders = Counter(
            "hexplay_reminders_sent", "Turn reminders delivered (by DM or in the match).", registry=self.registry
        )

    def move_answered(self, seconds: float) -> None:
        self.move_seconds.observe(seconds)

    def reminder_sent(self) -> None:
        self.reminders.inc()

    def gateway_latencies(self, latencies: Mapping[int, float]) -> None:
        """Shard -> seconds; a shard with no heartbeat answered yet (infinite, or nan) is left out."""
        self.gateway_latency.clear()
        for shard, seconds in latencies.items():
            if math.isfinite(seconds):
                self.gateway_latency.labels(shard=str(shard)).set(seconds)


class WorkerMetrics(ProcessMetrics):
    """A worker process: the computer turns it plays and how long its jobs take."""

    def __init__(self, job_kinds: Iterable[str] = ()) -> None:
        super().__init__(job_kinds)
        self.computer_turns = Counter(
            "hexplay_worker_computer_turns",
            "Computer turn jobs this worker finished, by result (stored; or not: the match had moved on).",
            ["result"],
            registry=self.registry,
        )
        self.job_seconds = Histogram(
            "hexplay_job_seconds",
            "Seconds a job took in this worker, from taken to done, by kind.",
            ["kind"],
            buckets=JOB_BUCKETS,
            registry=self.registry,
        )

    def computer_turn(self, result: str) -> None:
        self.computer_turns.labels(result=result).inc()

    def job_done(self, kind: str, seconds: float) -> None:
        self.job_seconds.labels(kind=kind).observe(seconds)
