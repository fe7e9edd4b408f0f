"""The database's files: private modes, the one-process lock, and online backups."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

from ...domain.errors import StoreUnavailable

log = logging.getLogger(__name__)


# The first 16 bytes of every SQLite database file (sqlite.org/fileformat.html, "The Database Header").
SQLITE_HEADER = b"SQLite format 3\x00"


def check_database_path(path: Path) -> bool:
    """Whether ``path`` is absent (True: the bot may create it, and its folder); False for a SQLite database.

    Anything else is StoreUnavailable with one line for the operator, before anything is created beside
    the path or changed: a folder, a device, a pipe or a file that does not begin as a SQLite database
    (``HEXPLAY_DB_PATH=/`` must never reach a chmod, a ``.lock`` or a ``-journal``). An empty file is an
    empty database, as SQLite reads it (a first start killed before SQLite's first write leaves one).
    """
    try:
        status = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):
            raise StoreUnavailable(
                f"{path} is a symbolic link to nothing: set HEXPLAY_DB_PATH to the database file itself"
            ) from None
        return True
    except NotADirectoryError:
        raise StoreUnavailable(f"{path.parent} is not a folder: set HEXPLAY_DB_PATH to a file in a folder") from None
    except OSError as error:
        raise _unusable_folder(path, error) from None
    if stat.S_ISDIR(status.st_mode):
        raise StoreUnavailable(
            f"{path} is a folder, not a SQLite database: set HEXPLAY_DB_PATH to a file in it, "
            f"such as {path / 'hexplay.sqlite3'}"
        )
    if not stat.S_ISREG(status.st_mode):
        raise StoreUnavailable(
            f"{path} is not a regular file (a device, a pipe or a socket), so not a SQLite database: "
            "set HEXPLAY_DB_PATH to a database file"
        )
    if status.st_size == 0:
        return False
    try:
        with open(path, "rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise StoreUnavailable(
            f"cannot read {path} ({error.strerror or error}): fix its permissions or set HEXPLAY_DB_PATH to "
            "a place Hexplay may read and write"
        ) from None
    if header != SQLITE_HEADER:
        raise StoreUnavailable(
            f"{path} is not a SQLite database or is damaged (it does not begin as one), so Hexplay left it as it "
            "was: set HEXPLAY_DB_PATH to the bot's database, or restore a backup of it"
        )
    return False


def _unusable_folder(path: Path, error: OSError) -> StoreUnavailable:
    return StoreUnavailable(
        f"cannot use the data folder {path.parent} ({error.strerror or error}): fix its permissions "
        "or set HEXPLAY_DB_PATH to a place Hexplay may read and write"
    )


def _create_private(path: Path) -> None:
    """Create the folder (0700) and the file (0600) that are missing; never change what exists.

    The mode of a file or folder Hexplay did not create is its owner's to choose. SQLite gives the
    ``-wal`` and ``-shm`` files the database file's own mode, so a database created here stays private.
    """
    try:
        if not path.parent.exists():
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass
    except OSError as error:
        raise _unusable_folder(path, error) from None


def warn_if_shared(path: Path) -> None:
    """An existing database other users can read is left so (not the bot's to change), and said once in the log."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return
    if mode & 0o077:
        log.warning(
            "%s can be read by other users (mode %o): it holds user ids and server data; `chmod 600 %s` "
            "makes it private (Hexplay never changes the mode of a file it did not create)",
            path,
            mode,
            path,
        )


class ProcessLock:
    """The one bot process per SQLite file: an exclusive lock on ``<database>.lock``, held for the process's life.

    Two processes on one file would run two gateways and two sets of timers (every reminder twice).
    ``flock`` is released by the kernel however the process ends (SIGKILL included), so a crash never
    leaves a stale lock behind; the pid written in the file only names the holder in the refusal.
    """

    def __init__(self, database: str | Path) -> None:
        self.database = Path(database)
        self.path = Path(f"{database}.lock")
        self._file: Any = None

    def acquire(self) -> None:
        """Take the lock, or raise StoreUnavailable naming the process that holds it (or saying why the
        database path cannot be one: nothing is created beside what is not a database)."""
        try:
            import fcntl
        except ImportError:  # not a POSIX system: nothing to lock with, as before
            return
        check_database_path(self.database)
        _create_private(self.path)
        try:
            handle = open(self.path, "r+", encoding="utf-8")  # noqa: SIM115  (held open: closing it drops the lock)
        except OSError as error:
            raise StoreUnavailable(f"cannot use the lock file {self.path}: {error.strerror or error}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = handle.read().strip()
            handle.close()
            who = f"process {holder}" if holder.isdigit() else "another process"
            raise StoreUnavailable(
                f"another Hexplay bot ({who}) is already using {str(self.path)[:-5]}: one bot process per SQLite "
                "database; stop the other one first, or give this one its own HEXPLAY_DB_PATH"
            ) from None
        handle.truncate(0)
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file releases the lock
            self._file = None


def backup(database: str | Path, target: str | Path) -> int:
    """Copy the database, with everything its ``-wal`` file holds, to a new file; returns its size in bytes.

    SQLite's online backup: safe while the bot runs (it reads a consistent snapshot), unlike copying the
    files, where a copy of the main file without its ``-wal`` file loses every change since the last
    checkpoint. The copy is a single self-contained file (no ``-wal``), private like the original.
    """
    database, target = Path(database), Path(target)
    if check_database_path(database):
        raise StoreUnavailable(f"there is no database at {database}")
    if target.exists():
        raise StoreUnavailable(f"{target} already exists: give a new file name for the backup")
    try:
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        source = sqlite3.connect(database)
        try:
            copy = sqlite3.connect(target)
            try:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, readable with nothing beside it
            finally:
                copy.close()
        finally:
            source.close()
    except (OSError, sqlite3.Error) as error:
        target.unlink(missing_ok=True)
        raise StoreUnavailable(f"cannot back up {database} to {target}: {error}") from None
    return target.stat().st_size


def _explain(path: Path, error: Exception) -> str:
    text = str(error)
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return f"{path} is not a SQLite database or is damaged: restore a backup or move it away, then start again"
    if "readonly" in text or "read-only" in text:
        return (
            f"{path} is read-only (the file or its folder): Hexplay must write to it; fix its permissions "
            "or set HEXPLAY_DB_PATH to a writable place"
        )
    return f"cannot use the database {path}: {text}"
