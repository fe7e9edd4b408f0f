"""PostgreSQL storage behind the Store protocol (asyncpg, a connection pool, versioned migrations).

Several bot processes may share the database, so nothing here rests on a lock held in one process:

- every change of a match is a compare-and-set on its version, checked in the statement that makes it
  (the row lock the UPDATE takes makes a second writer wait, then find the version moved on);
- what a pass would act on (a due reminder, a deadline notice, an unposted board, a notice of a pause) is
  claimed with ``UPDATE … RETURNING`` and a lease, so two processes never both act on it;
- read-modify-write of shared rows (an offer's acceptances) locks the row (``FOR UPDATE``); counts that
  decide an insert (challenge limits, a rating settlement) hold a transaction-level advisory lock, which
  also works behind pgbouncer in transaction mode (a session lock would not).

A turn's common path is three round trips: reading the match (one statement, its seats and quarantine
folded in), recording the move (one statement: the version check, the log, the new position, the next
reminder and deadline, the lapsed offers, all in data-modifying CTEs), and recording the posted board.
"""

from __future__ import annotations

import logging
import secrets
from urllib.parse import urlsplit

import asyncpg

from ...domain.errors import StoreUnavailable
from ...domain.model import ConstraintBreach
from .boards import PostgresBoards
from .challenges import PostgresChallenges
from .deadlines import PostgresDeadlines
from .languages import PostgresLanguages
from .lobby import PostgresLobby
from .matches import PostgresMatches
from .migrations import MIGRATIONS, applies
from .offers import PostgresOffers
from .plumbing import DOWN, MIGRATION_LOCK, PostgresPlumbing
from .preferences import PostgresPreferences
from .premoves import PostgresPremoves
from .puzzles import PostgresPuzzles
from .quarantine import PostgresQuarantine
from .ratings import PostgresRatings
from .reminders import PostgresReminders
from .reviews import PostgresReviews
from .shards import PostgresShards
from .tournaments import PostgresTournaments

log = logging.getLogger(__name__)


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    """The pool's reset of a returned connection, which by default costs a round trip per use (RESET ALL,
    UNLISTEN, advisory unlocks). This store changes no session state: its advisory locks are transaction
    locks, it never LISTENs or SETs, and the pool still rolls back a transaction left open."""


def redacted(url: str) -> str:
    """The database URL as it may be shown: no password, ever."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    port = f":{parts.port}" if parts.port else ""
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


def explain(url: str, error: BaseException) -> str:
    """One line for the operator about a database that cannot be used (never the password)."""
    where = redacted(url)
    if isinstance(error, asyncpg.exceptions.InvalidPasswordError):
        return f"PostgreSQL at {where} refused the password (HEXPLAY_DATABASE_URL)"
    if isinstance(error, asyncpg.exceptions.InvalidAuthorizationSpecificationError):
        return f"PostgreSQL at {where} does not know this user: {error}"
    if isinstance(error, asyncpg.exceptions.InvalidCatalogNameError):
        return f"PostgreSQL at {where}: the database does not exist (create it, or fix HEXPLAY_DATABASE_URL)"
    if isinstance(error, (OSError, TimeoutError)):
        return f"cannot reach PostgreSQL at {where} ({getattr(error, 'strerror', None) or type(error).__name__})"
    return f"cannot use PostgreSQL at {where}: {str(error).replace(url, where)}"


class PostgresStore(
    PostgresReviews,
    PostgresMatches,
    PostgresBoards,
    PostgresLobby,
    PostgresChallenges,
    PostgresQuarantine,
    PostgresPremoves,
    PostgresReminders,
    PostgresPreferences,
    PostgresLanguages,
    PostgresOffers,
    PostgresDeadlines,
    PostgresShards,
    PostgresRatings,
    PostgresTournaments,
    PostgresPuzzles,
    PostgresPlumbing,
):
    """The database on a PostgreSQL server, through a pool of connections."""

    shared = True  # any number of bot processes and workers

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.url = url
        self.incarnation = secrets.token_hex(8)  # this process's start: its claims name it (Store.incarnation)

    @classmethod
    async def open(
        cls, url: str, pool_size: int = 10, statement_cache: bool = True, connect_timeout: float = 8.0
    ) -> PostgresStore:
        """Connect, check and migrate; StoreUnavailable says in one line why it cannot be used.

        ``statement_cache`` off (asyncpg's prepared-statement cache) is for pgbouncer in transaction mode,
        where a prepared statement may not be on the server connection the next query lands on.
        """
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=connect_timeout,
                command_timeout=30,
                statement_cache_size=100 if statement_cache else 0,
                reset=_nothing_to_reset,
            )
        except (asyncpg.PostgresError, *DOWN) as error:
            raise StoreUnavailable(explain(url, error)) from None
        except ValueError as error:  # an unreadable URL
            raise StoreUnavailable(f"HEXPLAY_DATABASE_URL is not a PostgreSQL URL ({error})") from None
        store = cls(pool, url)
        try:
            await store._migrate()
        except (asyncpg.PostgresError, *DOWN) as error:
            await pool.close()
            raise StoreUnavailable(explain(url, error)) from None
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self.pool.close()

    async def damage(self) -> str | None:
        return None  # the server checks its own pages (data checksums, if the operator enabled them)

    async def constraint_breaches(self) -> list[ConstraintBreach] | None:
        return []  # the server checks every constraint on every write: no stored row can break one

    async def ping(self) -> None:
        await self.pool.fetchval("SELECT 1")  # once, not retried: a health check wants the answer as it is

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            return int(await conn.fetchval("SELECT version FROM schema_version")) if exists else 0

    async def _migrate(self) -> None:
        """Apply the migrations not yet applied, each in its own transaction, one process at a time."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await conn.fetchval("SELECT version FROM schema_version")
            if current is None:
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            for number, script in applies(current):
                await conn.execute(script)
                await conn.execute("UPDATE schema_version SET version = $1", number)
                log.info("PostgreSQL schema migrated to version %d", number)


__all__ = ["MIGRATIONS", "PostgresStore", "explain", "redacted"]
