"""SQLite's integrity check of a large file, run beside the bot instead of before it.

``PRAGMA quick_check`` reads every page: about 3.5 s for a 500 MB file (100,000 matches) on this
machine, and linear in the size. Before the store opens, it would make start-up grow with the database;
so above a size the store opens at once and the check runs on a connection of its own that only reads
(``query_only``), in a thread (WAL lets it read while the bot writes). A damaged file is then reported
within seconds of the start, with the sentence the refusal at open would have said, and the runtime stops
the bot (bot/runtime.py): the same outcome as before, a few seconds later. Rows that only break a
constraint are not damage to the file: they are named (breaches.py) and their matches and events set
aside, as at open.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from pathlib import Path

from ...domain.model import ConstraintBreach
from .breaches import find_breaches
from .files import _explain


class IntegrityCheck:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.breaches: list[ConstraintBreach] | None = None  # rows breaking a constraint, once the check ran
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._stopped = False
        self._task = asyncio.ensure_future(asyncio.to_thread(self._check))

    def _check(self) -> str | None:
        try:
            with self._lock:
                if self._stopped:
                    return None
                # Opened for writing but never writes (query_only): a read-only connection's quick_check skips
                # the CHECK constraints, so a row breaking one would go unnoticed beside a large file.
                self._connection = sqlite3.connect(
                    f"file:{self.path}?mode=rw", uri=True, check_same_thread=False, timeout=5
                )
                self._connection.execute("PRAGMA query_only = ON")
            try:
                findings = [str(r[0]) for r in self._connection.execute("PRAGMA quick_check").fetchall()]
                # rows that break a constraint are one row's fault each, not the file's: set aside, not a stop
                breaches = [] if findings == ["ok"] else find_breaches(self._connection, findings)
            finally:
                with self._lock:
                    self._connection.close()
                    self._connection = None
        except sqlite3.Error as error:
            if self._stopped:  # interrupted by close(): not a finding
                return None
            return _explain(self.path, error)
        if breaches is None:
            return _explain(self.path, sqlite3.DatabaseError(f"database disk image is malformed ({findings[0]})"))
        self.breaches = breaches
        return None

    async def result(self) -> str | None:
        """None when the file is sound (or the check was stopped); else the one line for the operator."""
        return await asyncio.shield(self._task)

    async def stop(self) -> None:
        """The store closes: interrupt the check rather than hold the process's exit for seconds."""
        with self._lock:
            self._stopped = True
            if self._connection is not None:
                self._connection.interrupt()
        with contextlib.suppress(Exception):
            await self._task
