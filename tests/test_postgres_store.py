"""The two schemas are one: the same tables, columns, kinds and NOT NULLs on SQLite and PostgreSQL, at the
same version; and PostgreSQL's migration is safe when several bot processes start at once."""

from __future__ import annotations

import asyncio
import sqlite3
from itertools import count

import asyncpg

from bot.store import open_store
from bot.store.postgres.migrations import LATEST
from bot.store.sqlite.migrations import MIGRATIONS as SQLITE_MIGRATIONS

KINDS = {"INTEGER": "whole", "REAL": "real", "TEXT": "text", "bigint": "whole", "integer": "whole"}
KINDS |= {"double precision": "real", "text": "text"}
_NAMES = count(1)


def sqlite_schema(path) -> dict[str, list[tuple[str, str, bool]]]:
    with sqlite3.connect(path) as db:
        tables = [
            r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        ]
        return {
            t: [(c[1], KINDS[c[2]], bool(c[3]) or bool(c[5])) for c in db.execute(f"PRAGMA table_info({t})")]
            for t in tables
        }


async def postgres_schema(url: str) -> dict[str, list[tuple[str, str, bool]]]:
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position"
        )
    finally:
        await connection.close()
    found: dict[str, list[tuple[str, str, bool]]] = {}
    for row in rows:
        found.setdefault(row["table_name"], []).append(
            (row["column_name"], KINDS[row["data_type"]], row["is_nullable"] == "NO")
        )
    return found


async def test_both_backends_hold_the_same_tables_and_columns_at_the_same_version(postgres_server, tmp_path):
    path = tmp_path / "hexplay.sqlite3"
    await (await open_store(str(path))).close()
    url = postgres_server.create_database(f"schema_{next(_NAMES)}")
    store = await open_store(url)
    try:
        assert await store.schema_version() == LATEST == len(SQLITE_MIGRATIONS)
    finally:
        await store.close()
    assert await postgres_schema(url) == sqlite_schema(path)


async def test_bot_processes_starting_together_on_an_empty_database_migrate_it_once(postgres_server):
    url = postgres_server.create_database(f"together_{next(_NAMES)}")
    stores = await asyncio.gather(*(open_store(url, pool_size=1) for _ in range(4)))
    try:
        assert {await s.schema_version() for s in stores} == {LATEST}
        versions = await stores[0].pool.fetch("SELECT version FROM schema_version")
        assert [r["version"] for r in versions] == [LATEST]
    finally:
        await asyncio.gather(*(s.close() for s in stores))
