"""The SQLite store: one file in WAL mode, one connection, migrations as numbered .sql files."""

from .files import ProcessLock, backup, check_database_path
from .store import SqliteStore

__all__ = ["ProcessLock", "SqliteStore", "backup", "check_database_path"]
