"""The PostgreSQL store's plumbing, shared by its parts (one file per feature, as bot/store/ has their
protocols): the pool, a transaction, reads tried again after a lost connection, and the SQL every part
uses (reading a match in one statement, a claim, a version bump).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from ...domain.errors import StorageDown, StorageFull, VersionConflict
from ...domain.model import MatchRow
from ..rows import MATCH_COLUMNS, match_from, seat_from

# Advisory lock keys (transaction-level): migrations, challenge counts, rating settlements.
MIGRATION_LOCK, CHALLENGE_LOCK, RATING_LOCK = 7_357_001, 7_357_002, 7_357_003

_BIGINT = (-(2**63), 2**63)

# A read that met a dead connection is tried again after these pauses (well inside Discord's 3 s to answer).
_READ_RETRY_PAUSES = (0.05, 0.3)

# The match, its seats (a JSON array of rows) and its quarantine, in one statement.
_SEATS_JSON = (
    "(SELECT json_agg(json_build_array(s.seat, s.user_id::text, s.name, s.accepted, s.resigned, s.computer, s.bank)"
    " ORDER BY s.seat) FROM seats s WHERE s.match_id = m.id)"
)

READ_MATCH = (
    f"SELECT {', '.join('m.' + c.strip() for c in MATCH_COLUMNS.split(','))}, {_SEATS_JSON},"
    " (SELECT q.reason FROM quarantine q WHERE q.match_id = m.id) FROM matches m"
)

_COLUMN_COUNT = len(MATCH_COLUMNS.split(","))

# Failures of the connection or the server (not of a statement): the operation did not complete.
DOWN = (
    OSError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    # a connection the server closed while it was still reading the error: nothing was sent on it
    asyncpg.exceptions.InternalClientError,
    TimeoutError,
)


def match_row(record: Any) -> MatchRow:
    """A match read by READ_MATCH: its columns, then its seats as JSON, then its quarantine reason."""
    values = list(record)
    match = match_from(values[:_COLUMN_COUNT])
    for seat_values in json.loads(values[_COLUMN_COUNT] or "[]"):
        seat_values[1] = int(seat_values[1])  # a 64-bit id travels as text: JSON numbers are doubles elsewhere
        seat, problem = seat_from(seat_values)
        match.seats.append(seat)
        if problem is not None:
            match.damage = (match.damage + "; " if match.damage else "") + f"a seat cannot be read ({problem})"
    reason = values[_COLUMN_COUNT + 1]
    match.quarantine = reason if reason is not None else match.damage
    return match


def rows_touched(status: str) -> int:
    """Rows an INSERT/UPDATE/DELETE touched, from its status ("UPDATE 1")."""
    return int(status.rsplit(" ", 1)[-1]) if status and status[-1].isdigit() else 0


def in_range(*numbers: int) -> bool:
    return all(_BIGINT[0] <= n < _BIGINT[1] for n in numbers)


async def bump_version(db: asyncpg.Connection, match_id: int, expected: int, now: float, status: str) -> int:
    done = await db.execute(
        "UPDATE matches SET version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3 AND status = $4",
        now,
        match_id,
        expected,
        status,
    )
    if rows_touched(done) != 1:
        raise VersionConflict(match_id)
    return expected + 1


class PostgresPlumbing:
    """The pool; every part of PostgresStore is one of these."""

    pool: asyncpg.Pool
    incarnation: str

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection in a transaction: committed if the block returns, rolled back if it raises."""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                yield conn
        except asyncpg.exceptions.DiskFullError as error:
            raise StorageFull(str(error)) from None
        except DOWN as error:
            raise await self._down(error) from None

    async def _down(self, error: BaseException) -> StorageDown:
        """The server went away (or restarted): every pooled connection is replaced at its next use, so one
        failure, not one per connection, is what a restart costs."""
        await self.pool.expire_connections()
        return StorageDown(str(error) or type(error).__name__)

    async def _fetch(self, query: str, *params: Any) -> list[Any]:
        """Rows of one statement. One that only reads is tried again on a fresh connection after a failure of
        the connection (a server restart takes the pooled ones with it); one that writes is not: its answer may
        have been lost after it committed, and the caller finds out which (MatchCore._stored_once)."""
        pauses = _READ_RETRY_PAUSES if query.startswith("SELECT") else ()
        for pause in (*pauses, None):
            try:
                return list(await self.pool.fetch(query, *params))
            except DOWN as error:
                down = await self._down(error)
                if pause is None:
                    raise down from None
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def _fetchrow(self, query: str, *params: Any) -> Any | None:
        rows = await self._fetch(query, *params)
        return rows[0] if rows else None

    async def _execute(self, query: str, *params: Any) -> str:
        try:
            return str(await self.pool.execute(query, *params))
        except asyncpg.exceptions.DiskFullError as error:
            raise StorageFull(str(error)) from None
        except DOWN as error:
            raise await self._down(error) from None

    async def _matches(self, ids: Iterable[int]) -> list[MatchRow]:
        ids = list(ids)
        if not ids:
            return []
        rows = await self._fetch(READ_MATCH + " WHERE m.id = ANY($1::bigint[])", ids)
        by_id = {row[0]: match_row(row) for row in rows}
        return [by_id[i] for i in ids if i in by_id]

    async def _release(self, table: str, claim: str, key: str, value: int) -> None:
        """Give back the claim (columns ``claim``_until and ``claim``_by) of one row, if this process holds it."""
        await self._execute(
            f"UPDATE {table} SET {claim}_until = NULL, {claim}_by = NULL WHERE {key} = $1 AND {claim}_by = $2",
            value,
            self.incarnation,
        )
