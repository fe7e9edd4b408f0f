"""The PostgreSQL store: a server several bot processes share, through asyncpg's connection pool."""

from .store import PostgresStore, explain, redacted

__all__ = ["PostgresStore", "explain", "redacted"]
