"""The database's files: private modes, the one-process lock, and online backups."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from ...domain.errors import StoreUnavailable


def _private_files(path: Path) -> None:
    """Create the folder 0700 if missing; make the database and its -wal/-shm files 0600.

    A folder that cannot be made, entered or read is StoreUnavailable with one line for the operator.
    """
    try:
        if not path.parent.exists():
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        missing = not path.exists()
    except OSError as error:
        raise StoreUnavailable(
            f"cannot use the data folder {path.parent} ({error.strerror or error}): fix its permissions "
            "or set HEXPLAY_DB_PATH to a place Hexplay may read and write"
        ) from None
    if missing:
        try:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))  # SQLite gives -wal/-shm the same mode
        except OSError:
            return  # sqlite reports the problem itself
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            if name.exists() and name.stat().st_mode & 0o077:
                name.chmod(0o600)
        except OSError:
            pass  # not ours to change (read-only file system): opening will say what is wrong


class ProcessLock:
    """The one bot process per SQLite file: an exclusive lock on ``<database>.lock``, held for the process's life.

    Two processes on one file would run two gateways and two sets of timers (every reminder twice).
    ``flock`` is released by the kernel however the process ends (SIGKILL included), so a crash never
    leaves a stale lock behind; the pid written in the file only names the holder in the refusal.
    """

    def __init__(self, database: str | Path) -> None:
        self.path = Path(f"{database}.lock")
        self._file: Any = None

    def acquire(self) -> None:
        """Take the lock, or raise StoreUnavailable naming the process that holds it."""
        try:
            import fcntl
        except ImportError:  # not a POSIX system: nothing to lock with, as before
            return
        _private_files(self.path)
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
    if not database.is_file():
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


def _explain(path: Path, error: sqlite3.Error) -> str:
    text = str(error)
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return f"{path} is not a SQLite database or is damaged: restore a backup or move it away, then start again"
    if "readonly" in text or "read-only" in text:
        return (
            f"{path} is read-only (the file or its folder): Hexplay must write to it; fix its permissions "
            "or set HEXPLAY_DB_PATH to a writable place"
        )
    return f"cannot use the database {path}: {text}"
