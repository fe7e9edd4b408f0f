"""The sandbox (`make run` without a token): start-up, idle CPU, and a turn through the page's API.

CPU is read from /proc for both processes (the sandbox: emulator + web face; the bot), so the
figures are CPU seconds, not wall time on a shared machine.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.sandbox_process import SandboxProcess

TICKS = os.sysconf("SC_CLK_TCK")


def cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def wait(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.01)
    raise SystemExit("timed out")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        started = time.monotonic()
        sandbox = SandboxProcess(Path(folder) / "data")
        call: Callable[..., Any] = sandbox.call  # JSON answers, read as the sandbox's API documents them
        ready = time.monotonic() - started
        try:
            bot = sandbox.bot_pid()
            pids = {"sandbox": sandbox.process.pid, "bot": bot}
            print(
                f"start-up to the printed URL: {ready:.2f} s wall; CPU so far: "
                + ", ".join(f"{name} {cpu(pid):.2f} s" for name, pid in pids.items())
            )
            before = {name: cpu(pid) for name, pid in pids.items()}
            time.sleep(10)
            print(
                "idle for 10 s (reminders checked every 2 s): "
                + ", ".join(f"{name} {cpu(pid) - before[name]:.3f} s CPU" for name, pid in pids.items())
            )

            games = next(c["id"] for c in call("/api/state?user=alice")["channels"] if not c["thread"])
            call("/api/send", {"user": "alice", "channel": games, "text": "/play game:bide opponent:bob"})
            lobby = wait(lambda: [m for m in call(f"/api/messages?user=bob&channel={games}") if m["components"]])[0]
            accept = next(
                c["custom_id"] for row in lobby["components"] for c in row["components"] if c["label"] == "Accept"
            )
            call("/api/press", {"user": "bob", "message": lobby["id"], "custom_id": accept})
            thread = wait(lambda: [c for c in call("/api/state?user=alice")["channels"] if c["thread"]])[0]["id"]
            wait(lambda: call(f"/api/messages?user=alice&channel={thread}"))

            turns, players = 20, ("alice", "bob")
            before = {name: cpu(pid) for name, pid in pids.items()}
            walls, suggests = [], []
            for turn in range(turns):
                user = players[turn % 2]
                began = time.monotonic()
                choices = call("/api/suggest", {"user": user, "channel": thread, "text": "/move move:"})
                suggests.append(time.monotonic() - began)
                count = len(call(f"/api/messages?user=alice&channel={thread}"))
                began = time.monotonic()
                answer = call("/api/send", {"user": user, "channel": thread, "text": choices["items"][0]["text"]})
                assert answer.get("ok"), answer
                wait(lambda count=count: len(call(f"/api/messages?user=alice&channel={thread}")) > count)
                walls.append(time.monotonic() - began)
            used = {name: (cpu(pid) - before[name]) / turns for name, pid in pids.items()}
            print(f"{turns} Bide turns through the page's API (autocomplete, then /move with its first suggestion):")
            print(f"  autocomplete answer: median {sorted(suggests)[len(suggests) // 2] * 1000:.0f} ms wall")
            print(
                f"  /move to board visible: median {sorted(walls)[len(walls) // 2] * 1000:.0f} ms wall, "
                f"max {max(walls) * 1000:.0f} ms"
            )
            print(
                "  CPU per turn (incl. the autocomplete and the polling here): "
                + ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in used.items())
            )
        finally:
            sandbox.interrupt()
            sandbox.kill()


if __name__ == "__main__":
    main()
