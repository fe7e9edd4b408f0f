"""Running a test on both storage backends, and reaching under the Store API where a test must.

A module opts in with ``pytestmark = pytest.mark.both_backends``: its tests that use the ``database``
fixture (directly or through ``service`` or ``world``) then run once on SQLite and once on a real
PostgreSQL server (tests/postgres.py), started once per session and emptied before each test.

``execute`` and ``fetch`` run raw SQL on either store, written SQLite's way (``?`` placeholders):
the tests that damage a row or count what was stored need it; the bot never does.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.store.postgres import PostgresStore

_PLACEHOLDER = re.compile(r"\?")


def postgres_sql(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, …`` (the tests' SQL has no ``?`` inside strings)."""
    numbers = iter(range(1, 1000))
    return _PLACEHOLDER.sub(lambda _: f"${next(numbers)}", sql)


async def fetch(store: Any, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    if isinstance(store, PostgresStore):
        return [tuple(record) for record in await store.pool.fetch(postgres_sql(sql), *params)]
    return [tuple(row) for row in await store._db.execute_fetchall(sql, params)]


async def execute(store: Any, sql: str, *params: Any) -> int:
    """Run one statement outside any transaction of the store's; the rows it touched."""
    if isinstance(store, PostgresStore):
        status = await store.pool.execute(postgres_sql(sql), *params)
        return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0
    result = await store._db.execute(sql, params)
    return result.rowcount


async def empty_postgres(url: str) -> None:
    """Every table emptied and every id counter reset: a fresh database, its schema kept (faster than a new one)."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("SET lock_timeout = '5s'")  # a store a test forgot to close fails loudly, not for ever
        tables = [
            row["tablename"]
            for row in await connection.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_version'"
            )
        ]
        if tables:
            await connection.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
    finally:
        await connection.close()


@asynccontextmanager
async def transaction(store: Any) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    """An open write transaction of the store's own kind; yields ``run(sql, *params)`` inside it."""
    if isinstance(store, PostgresStore):
        async with store.pool.acquire() as connection, connection.transaction():

            async def run_postgres(sql: str, *params: Any) -> Any:
                return await connection.execute(postgres_sql(sql), *params)

            yield run_postgres
        return
    async with store.transaction() as db:

        async def run_sqlite(sql: str, *params: Any) -> Any:
            return await db.execute(sql, params)

        yield run_sqlite
