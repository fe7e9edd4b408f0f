"""`python -m sandbox --guilds 2 --bot-processes 2 --workers 1 --database-url URL`: the layout of many machines.

Two servers on two shards, a bot process per shard and a computer-player worker, on a throwaway
PostgreSQL database. The page's API lists the servers and the processes; a game against the computer
in the second server is answered by the worker; a bot process killed with SIGKILL is started again by
the sandbox's supervisor, connects again, and its server plays on.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

from bot.domain.seats import game_of
from bot.store import open_store
from tests.sandbox_process import ROOT, SandboxProcess

COMPUTER_SAYS = "🤖 Hexplay"


def _wait(predicate, timeout: float = 20.0, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout} s")


def _state(sandbox: SandboxProcess, guild: str = "") -> dict:
    return sandbox.call(f"/api/state?user=alice&guild={guild}")  # type: ignore[return-value]


def _played(sandbox: SandboxProcess, thread: str, who: str) -> list[dict]:
    messages = sandbox.call(f"/api/messages?user=alice&channel={thread}")
    return [m for m in messages if who in m["content"] and "played" in m["content"] and m["attachments"]]  # type: ignore[union-attr]


def _legal_move(url: str, thread: str) -> str:
    async def read() -> str:
        store = await open_store(url, pool_size=1)
        try:
            match = await store.match_by_thread(int(thread))
            assert match is not None
            return game_of(match).legal_notations()[0]
        finally:
            await store.close()

    return asyncio.run(read())


def test_two_servers_two_bot_processes_and_a_worker_and_a_killed_process_comes_back(postgres_server, tmp_path):
    url = postgres_server.create_database("sandbox_fleet")
    data = tmp_path / "data"
    sandbox = SandboxProcess(data, "--guilds", "2", "--bot-processes", "2", "--workers", "1", "--database-url", url)
    sandbox.keep_reading()
    try:
        state = _wait(
            lambda: (s := _state(sandbox)) and all(p["connected"] for p in s["processes"]) and s,
            60,
            "every process connected",
        )
        assert [g["name"] for g in state["guilds"]] == ["Hexplay Sandbox", "Hexplay Sandbox 2"]
        processes = {p["name"]: p for p in state["processes"]}
        assert [(p["role"], p["shard_ids"], p["shard_count"]) for p in processes.values()] == [
            ("bot", [0], 2),
            ("bot", [1], 2),
            ("worker", [], None),
        ]
        assert all(p["pid"] and p["restarts"] == 0 for p in processes.values())
        second = state["guilds"][1]["id"]
        assert _state(sandbox, "2")["guild"]["id"] == second  # by position or by id
        assert _state(sandbox, second)["guild"]["name"] == "Hexplay Sandbox 2"

        # A game against the computer in the second server (its #games, the default channel of the guild)
        answer = sandbox.call(
            "/api/send", {"user": "alice", "guild": "2", "text": "/play game:bide computer:easy options:side=4"}
        )
        assert answer == {"ok": True, "errors": []}, answer
        thread = _wait(lambda: [c["id"] for c in _state(sandbox, "2")["channels"] if c["thread"]], 20, "the thread")[0]
        assert thread not in [c["id"] for c in _state(sandbox, "1")["channels"]], "the thread is in server 2 only"
        answer = sandbox.call(
            "/api/send",
            {"user": "alice", "guild": "2", "channel": thread, "text": f"/move move:{_legal_move(url, thread)}"},
        )
        assert answer == {"ok": True, "errors": []}, answer
        _wait(lambda: _played(sandbox, thread, COMPUTER_SAYS), 30, "the computer's answer and its board")
        _wait(lambda: "at version" in (data / "logs" / "worker-0.log").read_text(), 10, "the worker's turn logged")

        # The bot process of shard 1 (server 2) dies; the supervisor starts it again and it connects
        killed = processes["bot-1"]["pid"]
        os.kill(killed, 9)
        again = _wait(
            lambda: (p := _state(sandbox)["processes"][1])["restarts"] == 1 and p["connected"] and p,
            15,
            "bot-1 restarted and connected",
        )
        assert again["pid"] != killed and again["exits"][0]["status"] == -9
        assert any("[bot-1] exited with status -9" in line for line in sandbox.lines), sandbox.lines[-20:]
        assert all(p["connected"] and p["restarts"] == 0 for p in _state(sandbox)["processes"] if p["name"] != "bot-1")

        # ... and the second server plays on: a move answered, its board posted, the computer's reply
        answer = sandbox.call(
            "/api/send",
            {"user": "alice", "guild": "2", "channel": thread, "text": f"/move move:{_legal_move(url, thread)}"},
        )
        assert answer == {"ok": True, "errors": []}, answer
        _wait(lambda: len(_played(sandbox, thread, "**alice**")) == 2, 15, "alice's second move posted")
        _wait(lambda: len(_played(sandbox, thread, COMPUTER_SAYS)) == 2, 30, "the computer's second answer")
        status, output = sandbox.interrupt()
        assert status == 0 and "Sandbox stopped" in output, output
    finally:
        sandbox.kill()


def test_several_processes_or_workers_without_postgresql_are_refused_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    for options in (["--bot-processes", "2"], ["--workers", "1"]):
        done = subprocess.run(
            [sys.executable, "-m", "sandbox", "--sandbox", "--data", str(tmp_path), "--port", "0", *options],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0 and "need PostgreSQL" in done.stderr, done
        assert len(done.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "sandbox.lock").exists(), "refused before starting anything"
