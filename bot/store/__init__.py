"""Where the bot keeps its data: the Store protocol (base.py) and its two implementations.

``open_store`` picks one from the database setting: a ``postgresql://`` URL is a PostgreSQL server
(postgres/: asyncpg and a connection pool, for one bot process or many); anything else is a SQLite
file (sqlite/: the embedded default, one bot process), given as a path or as ``sqlite:///path``.
"""

from __future__ import annotations

from .base import Store

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str) -> str:
    """The file a SQLite target names: ``sqlite:///data/h.db`` is ``data/h.db``, ``sqlite:////srv/h.db`` is absolute."""
    return target.removeprefix("sqlite:///") if target.startswith("sqlite:///") else target


async def open_store(target: str, *, pool_size: int = 10, statement_cache: bool = True) -> Store:
    """Open (creating and migrating if needed) the store the target names; StoreUnavailable says why not."""
    if is_postgres(target):
        from .postgres import PostgresStore

        return await PostgresStore.open(target, pool_size=pool_size, statement_cache=statement_cache)
    from .sqlite import SqliteStore

    return await SqliteStore.open(sqlite_path(target))


__all__ = ["Store", "is_postgres", "open_store", "sqlite_path"]
