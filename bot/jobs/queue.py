"""The job queue on PostgreSQL (PgQueuer, on asyncpg): its schema, the jobs, and sending them.

Four kinds of job: a computer's turn (the match and the version it is for: played only if the match is
still at that version), a hint (answered by NOTIFY to the bot process that waits for it), a post-game
review (stored in the reviews table, whose progress the bot process that waits for it reads) and a puzzle
search (a finished match's, or one game of the computer against itself: docs/puzzles.md), the least urgent. The queue's
tables live in a schema of their own (``hexplay_jobs``), installed by PgQueuer's own installer at start
(once, under an advisory lock, whichever processes start together), outside the bot's numbered
migrations: they are PostgreSQL's alone, and SQLite has no queue.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import asdict, dataclass

import asyncpg
from pgqueuer.adapters.drivers.asyncpg import AsyncpgDriver, AsyncpgPoolDriver
from pgqueuer.adapters.persistence.qb import QueryBuilderEnvironment, QueryQueueBuilder, QuerySchedulerBuilder
from pgqueuer.adapters.persistence.queries import Queries
from pgqueuer.domain.settings import DBSettings
from pgqueuer.domain.types import Channel
from pgqueuer.ports.driver import Driver

from ..domain.errors import Refusal

SCHEMA = "hexplay_jobs"
WAKE_UPS = Channel("hexplay_jobs")  # PgQueuer's own NOTIFY channel: a job was queued or changed
TURN, HINT, SWEEP, REVIEW = "computer_turn", "hint", "computer_turn_sweep", "review"
PUZZLE = "puzzle_search"
# A hint has a player waiting on it; a turn's player is a computer; a review of a finished game can wait;
# a puzzle search has nobody waiting on it at all.
HINT_PRIORITY, TURN_PRIORITY, REVIEW_PRIORITY, PUZZLE_PRIORITY = 10, 0, -10, -20
_INSTALL_LOCK = 7_357_101  # transaction-level advisory lock: processes starting together install once


def queue_settings() -> DBSettings:
    return DBSettings(db_schema=SCHEMA, channel=WAKE_UPS)


def queries(driver: Driver) -> Queries:
    """PgQueuer's statements over ``driver``, for the queue in Hexplay's schema (not PgQueuer's default)."""
    settings = queue_settings()
    return Queries(
        driver,
        qbe=QueryBuilderEnvironment(settings),
        qbq=QueryQueueBuilder(settings),
        qbs=QuerySchedulerBuilder(settings),
    )


async def install(pool: asyncpg.Pool) -> None:
    """Create the queue's schema if it is not there, and bring it up to this PgQueuer's (idempotent)."""
    async with pool.acquire() as connection:
        on_connection = queries(AsyncpgDriver(connection))
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", _INSTALL_LOCK)
            if not await on_connection.schema_is_installed():
                await on_connection.install()
        await on_connection.apply_upgrade()  # nothing to do unless PgQueuer was upgraded (its own lock)


@dataclass(frozen=True)
class TurnOrder:
    """Play the computer's turn of this match if it is still at this version."""

    match_id: int
    version: int

    def dedupe_key(self) -> str:
        return f"turn:{self.match_id}:{self.version}"  # one job waiting or running per turn


@dataclass(frozen=True)
class HintOrder:
    """The hint for this player's turn in this match, answered by NOTIFY under ``request``."""

    request: str
    match_id: int
    user_id: int
    answer_by: float
    """Wall-clock seconds after which nobody waits for it (a worker then skips it)."""


@dataclass(frozen=True)
class ReviewOrder:
    """Search and store the post-game review of this finished match."""

    match_id: int

    def dedupe_key(self) -> str:
        return f"review:{self.match_id}"  # one job waiting or running per match


@dataclass(frozen=True)
class PuzzleOrder:
    """Search this finished match for puzzles (``match_id``), or play one game of the computer against itself
    with this ``seed`` for the shared puzzles (``match_id`` None)."""

    match_id: int | None = None
    seed: int | None = None

    def dedupe_key(self) -> str:
        # one job waiting or running per match; one game against itself at a time (its seed does not matter)
        return f"puzzle:match:{self.match_id}" if self.match_id is not None else "puzzle:self_play"


def encode(order: TurnOrder | HintOrder | ReviewOrder | PuzzleOrder) -> bytes:
    return json.dumps(asdict(order)).encode()


def decode_turn(payload: bytes | None) -> TurnOrder:
    return TurnOrder(**json.loads(payload or b"{}"))


def decode_hint(payload: bytes | None) -> HintOrder:
    return HintOrder(**json.loads(payload or b"{}"))


def decode_review(payload: bytes | None) -> ReviewOrder:
    return ReviewOrder(**json.loads(payload or b"{}"))


def decode_puzzle(payload: bytes | None) -> PuzzleOrder:
    return PuzzleOrder(**json.loads(payload or b"{}"))


class JobQueue:
    """What a process sends to the workers (bot.service.computer.ComputerJobs): turns, and hints it waits for."""

    hint_wait = 20.0  # seconds a /hint waits for a worker's answer before saying none came

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.queries = queries(AsyncpgPoolDriver(pool))
        self._hints: dict[str, asyncio.Future[dict[str, str]]] = {}

    async def turn_due(self, match_id: int, version: int) -> None:
        order = TurnOrder(match_id, version)
        await self.queries.enqueue(
            TURN, encode(order), priority=TURN_PRIORITY, dedupe_key=order.dedupe_key(), on_conflict="skip"
        )

    async def hint(self, match_id: int, user_id: int) -> str:
        """Ask a worker for the hint and wait (bounded) for its answer (``hint_answered``, from a NOTIFY)."""
        request = uuid.uuid4().hex
        answer: asyncio.Future[dict[str, str]] = asyncio.get_running_loop().create_future()
        self._hints[request] = answer
        try:
            order = HintOrder(request, match_id, user_id, time.time() + self.hint_wait)
            await self.queries.enqueue(HINT, encode(order), priority=HINT_PRIORITY)
            said = await asyncio.wait_for(answer, self.hint_wait)
        except TimeoutError:
            raise Refusal("hint_unavailable") from None
        finally:
            del self._hints[request]
        if "turn" not in said:  # the match moved on before a worker took it
            raise Refusal("hint_unavailable")
        return said["turn"]

    async def review_due(self, match_id: int) -> int:
        """Have a worker search the match's review (a job already waiting for it is not doubled); how many
        review jobs wait before it."""
        order = ReviewOrder(match_id)
        await self.queries.enqueue(
            REVIEW, encode(order), priority=REVIEW_PRIORITY, dedupe_key=order.dedupe_key(), on_conflict="skip"
        )
        waiting = await self.pool.fetchval(
            f"SELECT count(*) FROM {SCHEMA}.pgqueuer WHERE entrypoint = $1 AND status = 'queued'", REVIEW
        )
        return max(0, int(waiting or 0) - 1)

    async def puzzle_scan_due(self, match_id: int) -> None:
        """Have a worker search this finished match for puzzles (a job already waiting for it is not doubled)."""
        await self._puzzle(PuzzleOrder(match_id=match_id))

    async def self_play_due(self, seed: int) -> None:
        """Have a worker play one game of the computer against itself for the shared puzzles (one at a time)."""
        await self._puzzle(PuzzleOrder(seed=seed))

    async def _puzzle(self, order: PuzzleOrder) -> None:
        await self.queries.enqueue(
            PUZZLE, encode(order), priority=PUZZLE_PRIORITY, dedupe_key=order.dedupe_key(), on_conflict="skip"
        )

    async def depth(self) -> dict[tuple[str, str], int]:
        """The jobs in the queue now: (kind, status) -> how many (a finished job leaves the table)."""
        rows = await self.pool.fetch(
            f"SELECT entrypoint, status::text, count(*) FROM {SCHEMA}.pgqueuer GROUP BY entrypoint, status"
        )
        return {(str(kind), str(status)): int(count) for kind, status, count in rows}

    def hint_answered(self, payload: str) -> None:
        """A worker's NOTIFY: the answer to a hint, perhaps one this process waits for."""
        said = json.loads(payload)
        waiting = self._hints.get(str(said.get("request")))
        if waiting is not None and not waiting.done():
            waiting.set_result(said)
