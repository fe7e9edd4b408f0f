"""A sqlite3 connection on a thread of its own, for asyncio: stdlib only, no private API of any library.

sqlite3 blocks, so every call runs on one dedicated thread (one connection, used only there). A call is
one trip: a whole function (``call``) runs there in one trip, which is how the store does the work of a
turn at once; a statement (``execute``) fetches its rows there in the same trip.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class Result:
    """A statement's outcome, rows included (fetched on the database thread)."""

    def __init__(self, rows: list[Any], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[Any]:
        return list(self._rows)


class _Statement:
    """``await conn.execute(…)`` or ``async with conn.execute(…) as result``."""

    def __init__(self, connection: SqliteThread, sql: str, params: Iterable[Any]) -> None:
        self._run = connection.call(_execute, connection.raw, sql, tuple(params))

    def __await__(self) -> Generator[Any, None, Result]:
        return self._run.__await__()

    async def __aenter__(self) -> Result:
        return await self._run

    async def __aexit__(self, *exc: object) -> None:
        return None


def _execute(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> Result:
    cursor = conn.execute(sql, params)
    try:
        return Result(cursor.fetchall(), cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


class SqliteThread:
    def __init__(self, executor: ThreadPoolExecutor, raw: sqlite3.Connection) -> None:
        self._executor = executor
        self.raw = raw  # used only on the executor's thread
        self._closed = False

    @classmethod
    async def connect(cls, path: str) -> SqliteThread:
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hexplay-sqlite")
        loop = asyncio.get_running_loop()
        try:
            raw = await loop.run_in_executor(
                executor, lambda: sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            )
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(executor, raw)

    async def call(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` on the database thread: one trip."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)

    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Statement:
        return _Statement(self, sql, params)

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return await (await self.execute(sql, params)).fetchall()

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    async def close(self) -> None:
        """Close the connection and end its thread; closing again does nothing."""
        if self._closed:
            return
        self._closed = True
        try:
            await self.call(self.raw.close)
        finally:
            self._executor.shutdown(wait=True)
