"""`python -m sandbox`: starts the bot as its own process, stops cleanly on Ctrl-C, and continues where it left off."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.sandbox_process import ROOT, SandboxProcess


def _wait(predicate, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def _games(sandbox: SandboxProcess, user: str) -> str:
    state = sandbox.call(f"/api/state?user={user}")
    return next(c["id"] for c in state["channels"] if not c["thread"])


def test_ctrl_c_stops_bot_and_closes_database_then_restart_continues(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = SandboxProcess(data)
    try:
        assert any("DISCORD_TOKEN" in line for line in first.lines), first.lines  # how to use real Discord
        bot_pid = first.bot_pid()
        games = _games(first, "alice")
        answer = first.call("/api/send", {"user": "alice", "channel": games, "text": "/play game:bide opponent:bob"})
        assert answer == {"ok": True, "errors": []}
        lobby = _wait(lambda: [m for m in first.call(f"/api/messages?user=bob&channel={games}") if m["components"]])[0]
        accept = next(
            c["custom_id"] for row in lobby["components"] for c in row["components"] if c["label"] == "Accept"
        )
        assert first.call("/api/press", {"user": "bob", "message": lobby["id"], "custom_id": accept})["ok"]
        thread = _wait(lambda: [c for c in first.call("/api/state?user=alice")["channels"] if c["thread"]])[0]
        _wait(lambda: first.call(f"/api/messages?user=alice&channel={thread['id']}"))
        status, output = first.interrupt()
    finally:
        first.kill()
    assert status == 0, output
    assert "Sandbox stopped" in output
    assert not Path(f"/proc/{bot_pid}").exists(), "the bot process outlived the sandbox"
    database = data / "sandbox.sqlite3"
    assert database.exists() and not Path(f"{database}-wal").exists(), "the bot did not close its database"
    shared = [p for p in [data, *data.rglob("*")] if p.stat().st_mode & 0o077]  # the DMs are the players' own
    assert shared == [], shared

    second = SandboxProcess(data)
    try:
        assert any("continuing where you left off" in line for line in second.lines), second.lines
        twin = subprocess.run(
            [sys.executable, "-m", "sandbox", "--sandbox", "--data", str(data), "--port", "0"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert twin.returncode != 0 and "Another sandbox is already running" in twin.stderr, twin
        channels = second.call("/api/state?user=alice")["channels"]
        assert thread["id"] in [c["id"] for c in channels]
        lobby_again = next(
            m for m in second.call(f"/api/messages?user=alice&channel={games}") if m["id"] == lobby["id"]
        )
        assert lobby_again["used"] == {"user": "alice", "command": "/play"}  # "alice used /play" is kept
        before = second.call(f"/api/messages?user=alice&channel={thread['id']}")
        assert before and before[0]["attachments"], "the match's first board was not kept"
        # The restarted bot still knows the match of this thread: the move lands in it.
        answer = second.call("/api/send", {"user": "alice", "channel": thread["id"], "text": "/move move:e5"})
        assert answer == {"ok": True, "errors": []}, answer
        after = _wait(
            lambda: [m for m in second.call(f"/api/messages?user=bob&channel={thread['id']}") if "e5" in m["content"]]
        )
        assert after[0]["attachments"][0]["type"] == "image/png"
    finally:
        second.interrupt()
        second.kill()


def test_with_a_token_make_run_is_the_bot_on_discord(tmp_path: Path) -> None:
    """`python -m sandbox` hands over to `python -m bot` when DISCORD_TOKEN is set (here: refused at once)."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": "x",
        "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10",
        "HEXPLAY_DB_PATH": str(tmp_path / "db.sqlite3"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "sandbox"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert "Sandbox" not in done.stdout
    assert done.returncode != 0  # the bot could not reach "Discord" at a closed port


def test_a_bot_that_dies_stops_the_sandbox_with_the_reason(tmp_path: Path) -> None:
    sandbox = SandboxProcess(tmp_path / "data")
    try:
        os.kill(sandbox.bot_pid(), 9)
        output, _ = sandbox.process.communicate(timeout=30)
    finally:
        sandbox.kill()
    assert sandbox.process.returncode == 1
    assert "The bot stopped unexpectedly (status -9)" in output and "Sandbox stopped" in output
    assert (tmp_path / "data" / "sandbox-discord.json").exists()
