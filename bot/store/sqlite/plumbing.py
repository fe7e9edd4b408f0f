"""The SQLite store's plumbing, shared by its parts (one file per feature, as bot/store/ has their protocols):
the connection, its lock, a transaction, and the SQL every part uses (a claim, a version bump).

There is one connection, so a read on it while a write transaction is open would see that
transaction's half-written rows (a bumped version beside the old state). Reads and transactions
therefore take the same lock: a read sees only committed data.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from ...domain.errors import StorageFull, StorageReadOnly, VersionConflict
from ...domain.model import MatchRow, ReminderPlan
from ..reminders import reminder_at_sql
from ..rows import MATCH_COLUMNS, match_from, seat_from
from .thread import SqliteThread


def _full(error: sqlite3.Error) -> bool:
    return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL


def _read_only(error: sqlite3.Error) -> bool:
    """SQLITE_READONLY or one of its extended codes: SQLite refused the write as a whole, nothing of it is stored."""
    return (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF == sqlite3.SQLITE_READONLY


T = TypeVar("T")

BUMP_VERSION = "UPDATE matches SET version = version + 1, updated_at = ? WHERE id = ? AND version = ? AND status = ?"


def in_transaction(conn: sqlite3.Connection, work: Callable[..., T], *args: Any) -> T:
    """``work(conn, *args)`` in one transaction: committed if it returns, rolled back if it raises."""
    try:
        conn.execute("BEGIN IMMEDIATE")  # a database that refuses writes refuses this already
    except sqlite3.Error as error:
        if _read_only(error):
            raise StorageReadOnly(str(error)) from None
        raise
    try:
        result = work(conn, *args)
        conn.execute("COMMIT")
    except BaseException as error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error) and _full(error):
            raise StorageFull(str(error)) from None
        if isinstance(error, sqlite3.Error) and _read_only(error):
            raise StorageReadOnly(str(error)) from None
        raise
    return result


_INSERT_REMINDER = (
    f"INSERT INTO reminders (match_id, user_id, ply, remind_at) VALUES (?, ?, ?, {reminder_at_sql('?', '?', '?', '?')})"
)


def set_reminder_now(conn: sqlite3.Connection, match_id: int, plan: ReminderPlan | None, now: float) -> None:
    """Replace the match's reminder with the one the new position calls for, timed in this transaction."""
    conn.execute("DELETE FROM reminders WHERE match_id = ?", (match_id,))
    if plan is not None:
        conn.execute(
            _INSERT_REMINDER,
            (match_id, plan.user_id, plan.ply, now, plan.user_id, plan.guild_id, plan.guild_id, plan.default_hours),
        )


def bump_version_now(conn: sqlite3.Connection, match_id: int, expected: int, now: float, status: str) -> int:
    if conn.execute(BUMP_VERSION, (now, match_id, expected, status)).rowcount != 1:
        raise VersionConflict(match_id)
    return expected + 1


def lease_time(now: float, held_at: float | None) -> float:
    """The lease clock's time: ``held_at`` when given, else the game's ``now`` (one clock, as in tests)."""
    return now if held_at is None else held_at


def read_match(conn: sqlite3.Connection, match_id: int) -> MatchRow | None:
    """The match, its seats and its quarantine as of one moment (on the database thread)."""
    row = conn.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        return None
    match = match_from(row)
    for seat_row in conn.execute(
        "SELECT seat, user_id, name, accepted, resigned, computer, bank FROM seats WHERE match_id = ? ORDER BY seat",
        (match_id,),
    ):
        seat, problem = seat_from(seat_row)
        match.seats.append(seat)
        if problem is not None:
            match.damage = (match.damage + "; " if match.damage else "") + f"a seat cannot be read ({problem})"
    quarantined = conn.execute("SELECT reason FROM quarantine WHERE match_id = ?", (match_id,)).fetchone()
    match.quarantine = quarantined[0] if quarantined else match.damage
    return match


class SqlitePlumbing:
    """The connection and its lock; every part of SqliteStore is one of these."""

    _db: SqliteThread
    _lock: asyncio.Lock
    _owner: asyncio.Task | None
    incarnation: str

    @asynccontextmanager
    async def _holding(self) -> AsyncIterator[None]:
        """The lock; taking it again in the task that holds it would wait forever, so that is refused."""
        if self._lock.locked() and self._owner is asyncio.current_task():
            raise RuntimeError("a Store method was called inside a transaction: use the transaction's connection")
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                yield
            finally:
                self._owner = None

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[SqliteThread]:
        """The connection for reads, never while a transaction is open on it."""
        async with self._holding():
            yield self._db

    async def _all(self, query: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self.reading() as db:
            try:
                return list(await db.execute_fetchall(query, tuple(params)))  # one trip to the database thread
            except OverflowError:  # a number past SQLite's 64 bits (a forged id) is in no row
                return []

    async def _one(self, query: str, params: Iterable[Any] = ()) -> Any | None:
        rows = await self._all(query, params)
        return rows[0] if rows else None

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(connection, *args)`` on the database thread in one trip, holding the lock."""
        async with self._holding():
            return await self._db.call(work, self._db.raw, *args)

    async def _transact(self, work: Callable[..., T], *args: Any) -> T:
        """``work(connection, *args)`` as one transaction, in one trip to the database thread."""
        return await self._run(in_transaction, work, *args)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteThread]:
        async with self._holding():
            try:
                await self._db.execute("BEGIN IMMEDIATE")  # a database that refuses writes refuses this already
                try:
                    yield self._db
                except BaseException:
                    if self._db.in_transaction:  # SQLite already rolled back after some errors (a full disk)
                        await self._db.execute("ROLLBACK")
                    raise
                else:
                    await self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if _full(error):
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    raise StorageFull(str(error)) from None
                if _read_only(error):
                    raise StorageReadOnly(str(error)) from None
                raise

    async def _release(self, table: str, claim: str, key: str, value: int) -> None:
        """Give back the claim (columns ``claim``_until and ``claim``_by) of one row, if this start holds it."""
        async with self.transaction() as db:
            await db.execute(
                f"UPDATE {table} SET {claim}_until = NULL, {claim}_by = NULL WHERE {key} = ? AND {claim}_by = ?",
                (value, self.incarnation),
            )

    async def _bump_version(self, db: SqliteThread, match_id: int, expected: int, now: float, status: str) -> int:
        cursor = await db.execute(BUMP_VERSION, (now, match_id, expected, status))
        if cursor.rowcount != 1:
            raise VersionConflict(match_id)
        return expected + 1
