"""Start-up against the data folder: one bot process per SQLite file, and a folder it cannot use said plainly."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.domain.errors import StoreUnavailable
from bot.store.sqlite import ProcessLock
from tests.test_startup import ROOT, run_bot

HOLD = """
import sys, time
from bot.store.sqlite import ProcessLock
lock = ProcessLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
time.sleep(60)
"""


def _holder(db: Path) -> subprocess.Popen:
    """Another process holding the database's lock, as a running bot does."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def test_a_second_bot_on_the_same_sqlite_file_is_refused_with_one_line(tmp_path):
    db = tmp_path / "data" / "hexplay.sqlite3"
    holder = _holder(db)
    try:
        done, seconds = run_bot(tmp_path, db)
        assert done.returncode == 1 and seconds < 15
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert f"already using {db}" in lines[0] and f"process {holder.pid}" in lines[0]
        assert "one bot process per SQLite database" in lines[0]
        assert not db.exists() or db.stat().st_size == 0  # refused before it even opened (no migration)
    finally:
        holder.kill()
        holder.wait()


def test_the_lock_is_released_however_the_holder_ends(tmp_path):
    db = tmp_path / "hexplay.sqlite3"
    holder = _holder(db)
    with pytest.raises(StoreUnavailable, match="already using"):
        ProcessLock(db).acquire()
    os.kill(holder.pid, signal.SIGKILL)  # no clean-up runs: the kernel drops the lock
    holder.wait()
    lock = ProcessLock(db)
    lock.acquire()
    assert lock.path.read_text().strip() == str(os.getpid())
    lock.release()
    again = ProcessLock(db)
    again.acquire()  # released on a clean stop too
    again.release()


def _without_root_privileges() -> list[str]:
    """A prefix that makes root obey file permissions (as any operator's account does), or none."""
    if os.geteuid() != 0:
        return []
    drop = "-dac_override,-dac_read_search"
    return ["setpriv", "--bounding-set", drop, "--inh-caps", drop]


def test_a_data_folder_the_bot_cannot_enter_is_refused_with_one_line(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o000)
    try:
        environment = {
            **os.environ,
            "DISCORD_TOKEN": "x",
            "HEXPLAY_DB_PATH": str(folder / "hexplay.sqlite3"),
            "PYTHONPATH": str(ROOT),
            "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10",
        }
        started = time.monotonic()
        done = subprocess.run(
            [*_without_root_privileges(), sys.executable, "-m", "bot"],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 1 and time.monotonic() - started < 15
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert f"cannot use the data folder {folder}" in lines[0] and "Permission denied" in lines[0]
    finally:
        folder.chmod(0o700)


async def test_a_backup_taken_while_the_bot_writes_holds_every_change_a_bare_copy_does_not(tmp_path):
    import shutil

    from bot.store.sqlite import SqliteStore

    db = tmp_path / "hexplay.sqlite3"
    store = await SqliteStore.open(db)
    try:
        async with store.reading() as conn:
            await conn.execute("PRAGMA wal_autocheckpoint = 0")  # as between two of SQLite's checkpoints
        for user in range(50):
            await store.set_preferences(user, 1, await store.get_preferences(user, 1))
        environment = {**os.environ, "HEXPLAY_DB_PATH": str(db), "PYTHONPATH": str(ROOT)}
        copy = tmp_path / "backup.sqlite3"
        done = subprocess.run(
            [sys.executable, "-m", "bot", "backup", str(copy)],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0 and f"Backed up {db} to {copy}" in done.stdout, done.stderr
        again = subprocess.run(
            [sys.executable, "-m", "bot", "backup", str(copy)],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert again.returncode == 1 and "already exists" in again.stderr
        bare = tmp_path / "bare.sqlite3"
        shutil.copyfile(db, bare)  # the main file alone, without its -wal file
    finally:
        await store.close()

    import sqlite3

    def preferences(path):
        with sqlite3.connect(path) as conn:
            try:
                return conn.execute("SELECT COUNT(*) FROM preferences").fetchone()[0]
            except sqlite3.DatabaseError:
                return None

    assert preferences(copy) == 50
    assert preferences(bare) != 50  # what the warning in docs/storage.md is about
    assert not Path(f"{copy}-wal").exists() and (copy.stat().st_mode & 0o077) == 0


# -- a database setting that names something other than a database -------------------------------------------


def _snapshot(*paths: Path) -> dict[str, object]:
    """What a refused start must leave as it was: each path's mode and mtime, and each folder's listing."""
    seen: dict[str, object] = {}
    for path in paths:
        status = path.lstat()
        seen[f"{path} mode"] = stat.S_IMODE(status.st_mode)
        seen[f"{path} mtime"] = status.st_mtime_ns
        if path.is_dir():
            seen[f"{path} listing"] = sorted(os.listdir(path))
    return seen


def _refused(done: subprocess.CompletedProcess, fragment: str) -> None:
    assert done.returncode == 1, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], done.stderr


def test_a_folder_as_the_database_is_refused_and_left_as_it_was(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    folder.chmod(0o755)
    before = _snapshot(tmp_path, folder, folder / "notes.txt")
    done, _ = run_bot(tmp_path, folder)
    _refused(done, f"{folder} is a folder, not a SQLite database")
    assert _snapshot(tmp_path, folder, folder / "notes.txt") == before


def test_a_file_that_is_not_sqlite_is_refused_and_left_as_it_was(tmp_path):
    passwords = tmp_path / "passwd"
    passwords.write_text("root:x:0:0:root:/root:/bin/bash\n")
    passwords.chmod(0o644)
    before = _snapshot(tmp_path, passwords)
    done, _ = run_bot(tmp_path, passwords)
    _refused(done, f"{passwords} is not a SQLite database")
    assert _snapshot(tmp_path, passwords) == before and passwords.read_text().startswith("root:x:0:0")


def test_a_pipe_as_the_database_is_refused_and_left_as_it_was(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe, 0o644)
    before = _snapshot(tmp_path, pipe)
    done, _ = run_bot(tmp_path, pipe)  # never opened: reading it would wait for a writer (run_bot's timeout)
    _refused(done, f"{pipe} is not a regular file")
    assert _snapshot(tmp_path, pipe) == before


def test_a_sqlite_url_without_a_path_is_refused_and_the_working_folder_left_as_it_was(tmp_path):
    (tmp_path / "keep.txt").write_text("x")
    tmp_path.chmod(0o755)
    before = _snapshot(tmp_path)
    done, _ = run_bot(tmp_path, tmp_path / "unused.sqlite3", HEXPLAY_DATABASE_URL="sqlite:///")
    _refused(done, "HEXPLAY_DATABASE_URL")
    assert _snapshot(tmp_path) == before


async def test_an_empty_file_is_taken_as_a_new_database(tmp_path):
    """A start killed between creating the file and SQLite's first write leaves it empty: SQLite reads an
    empty file as an empty database, and so does the next start (its mode stays the owner's)."""
    from bot.store.sqlite import SqliteStore, check_database_path

    db = tmp_path / "hexplay.sqlite3"
    os.close(os.open(db, os.O_CREAT | os.O_WRONLY, 0o600))
    db.chmod(0o640)
    assert check_database_path(db) is False  # present: neither refused nor the bot's to create
    store = await SqliteStore.open(db)
    try:
        await store.set_preferences(1, 2, await store.get_preferences(1, 2))
    finally:
        await store.close()
    assert db.read_bytes().startswith(b"SQLite format 3\x00") and stat.S_IMODE(db.stat().st_mode) == 0o640


# A start with the setting naming a system path runs under an audit hook that ends the process before any
# change outside its own temporary folder (a mode, a folder, a file opened for writing, a SQLite connection),
# so this test can never change the machine it runs on, whatever the code under test does.
GUARDED_START = """
import os, sys
mine = os.getcwd() + os.sep
CHANGES = {"os.chmod", "os.chown", "os.mkdir", "os.utime", "os.rename", "os.remove", "os.truncate", "sqlite3.connect"}

def writes(args):
    if args[0] == os.devnull:  # the subprocess module reads and writes it: no change to anything
        return False
    mode, flags = args[1], args[2]
    return bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND)) or (
        isinstance(mode, str) and any(c in mode for c in "wax+"))

def guard(event, args):
    if event in CHANGES or (event == "open" and writes(args)):
        if args and isinstance(args[0], (str, bytes, os.PathLike)):
            if not os.path.abspath(os.fsdecode(args[0])).startswith(mine):
                os.write(2, f"TOUCHED {event} {args[0]}\\n".encode())
                os._exit(97)

sys.addaudithook(guard)
from bot.__main__ import main
sys.exit(main([]))
"""


@pytest.mark.parametrize(
    "system_path,fragment",
    [
        ("/", "is a folder, not a SQLite database"),
        ("/dev/null", "is not a regular file"),
        ("/etc/passwd", "is not a SQLite database"),
    ],
)
def test_a_system_path_as_the_database_is_refused_before_anything_changes(tmp_path, system_path, fragment):
    path = Path(system_path)
    if not path.exists():
        pytest.skip(f"no {system_path} here")
    beside = [Path(system_path + suffix) for suffix in (".lock", "-journal", "-wal", "-shm")]  # as the bot names them
    assert not any(p.exists() for p in beside), "left by an earlier run: look at it by hand"
    mode = stat.S_IMODE(path.stat().st_mode)
    environment = {
        **os.environ,
        "DISCORD_TOKEN": "x",
        "HEXPLAY_DB_PATH": system_path,
        "PYTHONPATH": str(ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10",
    }
    done = subprocess.run(
        [sys.executable, "-c", GUARDED_START, system_path],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert "TOUCHED" not in done.stderr, done.stderr
    _refused(done, f"{system_path} {fragment}")
    assert stat.S_IMODE(path.stat().st_mode) == mode and not any(p.exists() for p in beside)


async def test_backup_and_migrate_db_refuse_a_source_that_is_not_a_database_and_leave_it_as_it_was(tmp_path):
    from bot.migrate_db import MoveStopped, migrate
    from bot.store.sqlite import backup

    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n")
    notes.chmod(0o644)
    before = _snapshot(tmp_path, notes)
    with pytest.raises(StoreUnavailable, match="is not a SQLite database"):
        backup(notes, tmp_path / "copy.sqlite3")
    with pytest.raises(StoreUnavailable, match="is a folder, not a SQLite database"):
        backup(tmp_path, tmp_path / "copy.sqlite3")
    with pytest.raises(MoveStopped, match="is not a SQLite database"):
        await migrate(str(notes), "postgresql://hexplay@127.0.0.1:9/hexplay")
    assert _snapshot(tmp_path, notes) == before  # no notes.txt.lock, no copy, no mode changed
