"""Start-up against the data folder: one bot process per SQLite file, and a folder it cannot use said plainly."""

from __future__ import annotations

import os
import signal
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
