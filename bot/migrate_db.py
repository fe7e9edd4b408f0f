"""`python -m bot migrate-db --from PATH --to URL`: a SQLite database moved onto PostgreSQL, then proved.

Every table is copied in batches (COPY, in one transaction that locks the target's tables, so a bot started
on the target too early waits rather than writes), with a progress bar and counts. Then every copied match is
replayed on the target from its copied log and compared with its copied state, and every table's row count
with the source's. Nothing is dropped quietly: a value PostgreSQL cannot hold (a damaged row) stops the move,
names the row, and leaves the target as it was.

Refused (exit 2, one line, nothing written): a target that already holds matches, a source that a running
bot holds open, a source that is not there. Exit 1: the move failed, or a copied match differs.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import asyncpg

from .domain.clock import SystemClock
from .domain.errors import StoreUnavailable
from .service.matches import MatchService
from .store import is_postgres, sqlite_path
from .store.postgres import PostgresStore
from .store.postgres.store import explain
from .store.sqlite import ProcessLock, SqliteStore, check_database_path

BATCH = 5000  # rows per COPY: large enough to stream, small enough for a steady progress bar
REFUSED, FAILED = 2, 1


class MoveStopped(Exception):
    """The move cannot go on; ``code`` is the exit status (REFUSED: nothing was written)."""

    def __init__(self, line: str, code: int = FAILED) -> None:
        super().__init__(line)
        self.code = code


@dataclass
class MoveReport:
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows copied
    differ: list[tuple[int, str]] = field(default_factory=list)  # (match id, why) for each copied match that differs
    already_set_aside: int = 0  # matches the source had set aside (their data is copied as it was)
    copy_seconds: float = 0.0
    verify_seconds: float = 0.0

    @property
    def matches(self) -> int:
        return self.rows.get("matches", 0)

    @property
    def moves(self) -> int:
        return self.rows.get("moves", 0)

    def last_line(self) -> str:
        return f"{self.matches:,} matches, {self.moves:,} moves copied; {len(self.differ):,} differ"


class Progress:
    """A bar on a terminal (redrawn in place), one line per step elsewhere (a log file, a pipe)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self._last = -1

    def update(self, label: str, done: int, total: int) -> None:
        if not self.live:
            return
        percent = 100 * done // total if total else 100
        if percent == self._last:
            return
        self._last = percent
        filled = percent // 5
        self.stream.write(f"\r  {label:<18} [{'#' * filled}{'.' * (20 - filled)}] {percent:3d}% {done:,}/{total:,}")
        self.stream.flush()

    def finish(self, label: str, line: str) -> None:
        self._last = -1
        self.stream.write(("\r\033[K" if self.live else "") + f"  {label:<18} {line}\n")
        self.stream.flush()


# -- the source --------------------------------------------------------------------------------------------


def _source_tables(source: sqlite3.Connection) -> dict[str, list[str]]:
    """Table -> columns, in the order the tables were made (parents before the rows that point at them)."""
    names = [
        row[0]
        for row in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
    ]
    return {name: [row[1] for row in source.execute(f'PRAGMA table_info("{name}")')] for name in names}


def _batches(source: sqlite3.Connection, table: str, columns: list[str]) -> Iterator[list[tuple[Any, ...]]]:
    cursor = source.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid")
    while batch := cursor.fetchmany(BATCH):
        yield batch


# -- values PostgreSQL can hold --------------------------------------------------------------------------


class _Unfit(ValueError):
    pass


def _whole(value: Any) -> int:
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise _Unfit


def _real(value: Any) -> float:
    if isinstance(value, (int, float)):
        return float(value)
    raise _Unfit


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise _Unfit from None
    raise _Unfit


_CONVERT = {"bigint": _whole, "integer": _whole, "double precision": _real, "text": _text}


def _fitted(row: tuple[Any, ...], converters: list[Any]) -> tuple[Any, ...]:
    return tuple(None if value is None else convert(value) for value, convert in zip(row, converters, strict=True))


def _describe(table: str, columns: list[str], row: tuple[Any, ...], converters: list[Any]) -> str:
    key = f"match {row[columns.index('match_id')]}" if "match_id" in columns else f"{table} row"
    if table == "matches":
        key = f"match {row[0]}"
    for column, value, convert in zip(columns, row, converters, strict=True):
        if value is None:
            continue
        try:
            convert(value)
        except _Unfit:
            return f"{key}: {table}.{column} holds {value!r:.40}, which PostgreSQL cannot store there"
    return f"{key}: a row of {table} cannot be stored"


# -- the move ----------------------------------------------------------------------------------------------


async def _refuse_a_used_target(connection: asyncpg.Connection) -> None:
    if await connection.fetchval("SELECT to_regclass('matches') IS NOT NULL"):
        held = await connection.fetchval("SELECT COUNT(*) FROM matches")
        if held:
            raise MoveStopped(
                f"the target database already holds {held:,} matches: migrate-db copies into an empty database "
                "only (nothing written)",
                REFUSED,
            )


async def _target_columns(connection: asyncpg.Connection) -> dict[str, dict[str, str]]:
    rows = await connection.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'"
    )
    found: dict[str, dict[str, str]] = {}
    for row in rows:
        found.setdefault(row["table_name"], {})[row["column_name"]] = row["data_type"]
    return found


async def _copy(source: sqlite3.Connection, target: PostgresStore, progress: Progress) -> dict[str, int]:
    found = _source_tables(source)
    # matches first: every other table's rows point at a match (a migration that rebuilt a table moved it)
    tables = {
        name: found[name] for name in sorted(found, key=lambda name: name != "matches") if name != "schema_version"
    }
    copied: dict[str, int] = {}
    problems: list[str] = []
    async with target.pool.acquire() as connection, connection.transaction():
        await connection.execute(f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE")
        await _refuse_a_used_target(connection)  # again, under the lock: no bot slipped in since the first look
        kinds = await _target_columns(connection)
        for table, columns in tables.items():
            missing = [c for c in columns if c not in kinds.get(table, {})]
            if missing:
                raise MoveStopped(f"the target's {table} table has no column {missing[0]} (a schema out of step)")
            converters = [_CONVERT[kinds[table][c]] for c in columns]
            total = source.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            done = 0
            for batch in _batches(source, table, columns):
                records = []
                for row in batch:
                    try:
                        records.append(_fitted(row, converters))
                    except _Unfit:
                        problems.append(_describe(table, columns, row, converters))
                if records and not problems:
                    await connection.copy_records_to_table(table, records=records, columns=columns)
                done += len(batch)
                progress.update(table, done, total)
            copied[table] = done
            progress.finish(table, f"{done:,} rows")
        if problems:
            shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
            raise MoveStopped(
                f"{len(problems)} value(s) PostgreSQL cannot store, nothing written: {shown}. "
                "Repair or delete those rows in the SQLite file (the bot sets such a match aside), then run again"
            )
        # ids were copied as they were: new rows of every table with a generated id continue after the highest
        generated = await connection.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
        )
        for table, column in generated:
            if table in tables:
                await connection.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), COALESCE(MAX({column}), 0) + 1,"
                    f" false) FROM {table}"
                )
    return copied


async def _verify(source: sqlite3.Connection, target: PostgresStore, report: MoveReport, progress: Progress) -> None:
    """Each copied match in play or over replayed on the target; each table counted on both sides."""
    service = MatchService(target, SystemClock())
    set_aside = {row[0] for row in source.execute("SELECT match_id FROM quarantine")}
    report.already_set_aside = len(set_aside)
    # a match in play or over has a position its log must rebuild; a lobby has none yet
    played = "SELECT id FROM matches WHERE status IN ('active', 'finished') ORDER BY id"
    ids = [record["id"] for record in await target.pool.fetch(played)]
    for done, match_id in enumerate(ids, start=1):
        problem = await service.replay_problem(match_id)
        if problem is not None and match_id not in set_aside:
            report.differ.append((match_id, problem))
        progress.update("replaying", done, len(ids))
    progress.finish("replaying", f"{len(ids):,} matches, {len(report.differ):,} differ")
    for table, count in report.rows.items():
        held = await target.pool.fetchval(f"SELECT COUNT(*) FROM {table}")
        if held != count:
            report.differ.append((0, f"the target's {table} holds {held} rows, the source {count}"))


async def migrate(
    source_path: str, target_url: str, stream: IO[str] = sys.stderr, *, verify: bool = True
) -> MoveReport:
    """Copy, then prove (``verify``: benchmarks that build huge databases skip the replay); MoveStopped says
    why not (its code is the exit status)."""
    source_path = sqlite_path(source_path)
    if not is_postgres(target_url):
        raise MoveStopped("--to must be a PostgreSQL URL (postgresql://user:password@host:port/dbname)", REFUSED)
    try:
        absent = check_database_path(Path(source_path))  # before a .lock is made beside what is not a database
    except StoreUnavailable as error:
        raise MoveStopped(str(error), REFUSED) from None
    if absent:
        raise MoveStopped(f"there is no SQLite database at {source_path}", REFUSED)
    lock = ProcessLock(source_path)
    try:
        lock.acquire()  # a running bot holds it: its moves would be left behind
    except StoreUnavailable as error:
        raise MoveStopped(f"{error} (stop it first)", REFUSED) from None
    try:
        return await _migrate_locked(source_path, target_url, Progress(stream), verify)
    finally:
        lock.release()


async def _migrate_locked(source_path: str, target_url: str, progress: Progress, verify: bool) -> MoveReport:
    try:
        connection = await asyncpg.connect(target_url, timeout=8)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise MoveStopped(explain(target_url, error)) from None
    except ValueError as error:
        raise MoveStopped(f"--to is not a PostgreSQL URL ({error})", REFUSED) from None
    try:
        await _refuse_a_used_target(connection)  # before anything, even the schema, is written
    finally:
        await connection.close()
    try:
        await (await SqliteStore.open(source_path)).close()  # checked, and brought to the latest schema
        target = await PostgresStore.open(target_url)
    except StoreUnavailable as error:
        raise MoveStopped(str(error)) from None
    report = MoveReport()
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    try:
        started = time.perf_counter()
        report.rows = await _copy(source, target, progress)
        report.copy_seconds = time.perf_counter() - started
        started = time.perf_counter()
        if verify:
            await _verify(source, target, report, progress)
        report.verify_seconds = time.perf_counter() - started
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise MoveStopped(explain(target_url, error)) from None
    finally:
        source.close()
        await target.close()
    return report
