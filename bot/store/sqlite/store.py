"""SQLite storage behind the Store protocol (stdlib sqlite3 on its own thread, WAL, versioned migrations).

Every change of a match happens in one transaction, and a turn is applied
only if the match still has the version its player saw (optimistic
concurrency: ``UPDATE … WHERE id = ? AND version = ?`` checked by rowcount),
so two players acting at the same instant can never both apply.

There is one connection, so a read on it while a write transaction is open
would see that transaction's half-written rows (a bumped version beside the
old state). Reads and transactions therefore take the same lock: a read sees
only committed data.

Each trip to the connection's thread is a thread switch plus an event-loop wake-up (on a
busy machine, a wait for a core). The calls made on every turn (reading a match, recording
a move, marking its board shown) therefore run as one function on that thread, in one trip
(:meth:`SqliteStore._run`); a statement fetches its rows in the same trip (thread.py).
"""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from pathlib import Path

from ...domain.errors import StorageReadOnly, StoreUnavailable
from ...domain.model import ConstraintBreach
from .boards import SqliteBoards
from .breaches import find_breaches
from .challenges import SqliteChallenges
from .deadlines import SqliteDeadlines
from .files import _create_private, _explain, check_database_path, warn_if_shared
from .integrity import IntegrityCheck
from .languages import SqliteLanguages
from .lobby import SqliteLobby
from .matches import SqliteMatches
from .migrations import MIGRATIONS
from .offers import SqliteOffers
from .plumbing import SqlitePlumbing
from .preferences import SqlitePreferences
from .premoves import SqlitePremoves
from .puzzles import SqlitePuzzles
from .quarantine import SqliteQuarantine
from .ratings import SqliteRatings
from .reminders import SqliteReminders
from .reviews import SqliteReviews
from .shards import SqliteShards
from .thread import SqliteThread
from .tournaments import SqliteTournaments


async def _user_version(db: SqliteThread) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


class SqliteStore(
    SqliteReviews,
    SqliteMatches,
    SqliteBoards,
    SqliteLobby,
    SqliteChallenges,
    SqliteQuarantine,
    SqlitePremoves,
    SqliteReminders,
    SqlitePreferences,
    SqliteLanguages,
    SqliteOffers,
    SqliteDeadlines,
    SqliteShards,
    SqliteRatings,
    SqliteTournaments,
    SqlitePuzzles,
    SqlitePlumbing,
):
    """The database. One connection; reads and write transactions are serialised by one lock."""

    shared = False  # one process per file (ProcessLock)
    # Below this the integrity check runs before the store opens (a 64 MB file: ~0.5 s); above, beside it.
    check_at_open_bytes = 64 * 1024 * 1024

    def __init__(self, connection: SqliteThread) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task | None = None
        self._integrity: IntegrityCheck | None = None
        self._breaches: list[ConstraintBreach] | None = []  # rows the check at open found breaking a constraint
        self.incarnation = secrets.token_hex(8)  # this start: the one process the file serves

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Open (creating if needed) and check the database; StoreUnavailable says why it cannot be used.

        A path that is neither absent nor a SQLite database is refused before anything is created or changed.
        The files it creates are private (0600, a new folder 0700): they hold user ids and server data.
        """
        path = Path(path)
        if str(path) != ":memory:":
            if check_database_path(path):
                _create_private(path)
            else:
                warn_if_shared(path)
        try:
            connection = await SqliteThread.connect(str(path))
        except sqlite3.Error as error:
            raise StoreUnavailable(f"cannot open the database {path}: {error}") from None
        store = cls(connection)
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute("PRAGMA synchronous=NORMAL")
            await connection.execute("PRAGMA foreign_keys=ON")
            await connection.execute("PRAGMA busy_timeout=5000")
            if _bytes(path) <= cls.check_at_open_bytes:
                findings = [str(r[0]) for r in await store._all("PRAGMA quick_check")]
                if findings != ["ok"]:  # rows that break a constraint set their match or event aside; else damage
                    store._breaches = await store._run(find_breaches, findings)
                    if store._breaches is None:
                        raise sqlite3.DatabaseError(f"database disk image is malformed ({findings[0]})")
            else:  # reads the whole file (seconds per GB): start-up must not grow with the database
                store._integrity = IntegrityCheck(path)
            await store._migrate()
            async with store.transaction() as db:  # a read-only file fails here, not at the first move
                await db.execute(f"PRAGMA user_version = {await _user_version(db)}")
        except (sqlite3.Error, StorageReadOnly) as error:
            await connection.close()  # else its thread keeps the process alive
            raise StoreUnavailable(_explain(path, error)) from None
        return store

    async def close(self) -> None:
        if self._integrity is not None:
            await self._integrity.stop()
        await self._db.close()

    async def damage(self) -> str | None:
        """A large file's integrity check, run after opening on a connection of its own: what it found."""
        return None if self._integrity is None else await self._integrity.result()

    async def constraint_breaches(self) -> list[ConstraintBreach] | None:
        """Rows quick_check found breaking a CHECK or NOT NULL constraint (bot/store/sqlite/breaches.py): at open,
        or for a large file once its check beside the bot finished (None until then: ``damage()`` waits)."""
        if self._integrity is None:
            return list(self._breaches or [])
        return self._integrity.breaches

    async def ping(self) -> None:
        await self._one("SELECT 1")

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            async with self.transaction() as db:
                for statement in script.split(";"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")


def _bytes(path: Path) -> int:
    try:
        return path.stat().st_size if str(path) != ":memory:" else 0
    except OSError:
        return 0
