"""PostgreSQL that cannot be used, or goes away under load: one clear line at start-up, the truth for moves
in flight, a pool that reconnects by itself, and nothing acknowledged lost."""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import asyncpg
import pytest

from bot.domain.clock import ManualClock
from bot.domain.errors import Refusal, StorageDown
from bot.domain.replay import replay
from bot.domain.seats import game_of, user_to_move
from bot.service.matches import MatchService
from bot.store import open_store
from bot.store.postgres.store import redacted
from tests import backends, postgres
from tests.postgres import PASSWORD, USER, free_port

LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO) ")
ROOT = Path(__file__).resolve().parent.parent
GUILD, CHANNEL = 9000, 9001


def start_bot(url: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "DISCORD_TOKEN": "not-a-real-token",
        "HEXPLAY_DATABASE_URL": url,
        "HEXPLAY_LOG_LEVEL": "DEBUG",  # nothing may print the password, not even at DEBUG
        "PYTHONPATH": str(ROOT),  # this checkout's code, whatever the venv's editable install points at
    }
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30
    )


def bad_urls(server) -> dict[str, tuple[str, str]]:
    """What the operator got wrong -> (URL, what the one line must say)."""
    base = f"127.0.0.1:{server.port}"
    return {
        "wrong password": (f"postgresql://{USER}:not-{PASSWORD}@{base}/hexplay", "refused the password"),
        "unknown database": (f"postgresql://{USER}:{PASSWORD}@{base}/nowhere", "the database does not exist"),
        "unknown user": (f"postgresql://nobody:{PASSWORD}@{base}/hexplay", "refused the password"),
        "nobody listening": (f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{free_port()}/hexplay", "cannot reach"),
        "unknown host": (f"postgresql://{USER}:{PASSWORD}@no-such-host.invalid/hexplay", "cannot reach"),
        "not a port": (f"postgresql://{USER}:{PASSWORD}@127.0.0.1:port/hexplay", "not a PostgreSQL URL"),
    }


@pytest.mark.parametrize(
    "mistake", ["wrong password", "unknown database", "unknown user", "nobody listening", "unknown host", "not a port"]
)
def test_a_database_that_cannot_be_used_is_one_line_and_a_quick_exit_without_the_password(
    postgres_server, tmp_path, mistake
):
    url, says = bad_urls(postgres_server)[mistake]
    started = time.monotonic()
    done = start_bot(url, tmp_path)
    assert time.monotonic() - started < 10
    assert done.returncode != 0
    lines = [line for line in done.stderr.strip().splitlines() if not LOG_LINE.match(line)]  # DEBUG logs aside
    assert len(lines) == 1 and lines[0].startswith("Hexplay cannot start: ") and says in lines[0], done.stderr
    assert PASSWORD not in done.stdout + done.stderr and "Traceback" not in done.stderr


def test_a_url_of_another_kind_is_refused_without_echoing_it(tmp_path):
    done = start_bot(f"mysql://root:{PASSWORD}@localhost/hexplay", tmp_path)
    assert done.returncode != 0 and "HEXPLAY_DATABASE_URL must start with postgresql://" in done.stderr
    assert PASSWORD not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_password_is_never_shown_where_a_url_is():
    assert redacted(f"postgresql://{USER}:{PASSWORD}@db.example:5433/hexplay") == (
        f"postgresql://{USER}@db.example:5433/hexplay"
    )
    done = subprocess.run([sys.executable, "-m", "bot", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and "HEXPLAY_DATABASE_URL" in done.stdout and "migrate-db" in done.stdout


@pytest.fixture
def restartable_server():
    """A server of this test's own: restarting the session's shared one took every later PostgreSQL test of
    its process down with it whenever a restart failed on a loaded machine (129 errors in one run)."""
    cluster = postgres.cluster_for_a_test()
    try:
        yield cluster
    finally:
        cluster.remove()


async def test_the_server_restarting_under_a_stream_of_moves_loses_nothing_acknowledged(restartable_server):
    """Moves are played in many matches while the server restarts. Each player hears the truth: played, not
    stored, or not known yet; every move acknowledged is in its match's log and every move "not stored" is
    not, every log replays to its stored state, and the pool goes on by itself afterwards."""
    postgres_server = restartable_server
    store = await open_store(postgres_server.url, pool_size=4)
    service = MatchService(store, ManualClock(), default_reminder_hours=24)
    alice, bob = (101, "alice"), (102, "bob")
    told: dict[int, Counter[str]] = {}
    restarted = threading.Event()

    async def player(match_id: int) -> None:
        rng = random.Random(match_id)
        heard = told[match_id]
        while not restarted.is_set() or heard["played"] < heard["played_before"] + 10:
            try:
                current = await service.get(match_id)
            except StorageDown:  # a read while the server is away: the player sees an error, nothing changed
                heard["read failed"] += 1
                await asyncio.sleep(0.05)
                continue
            if current.status != "active":
                return
            game = game_of(current)
            try:
                await service.play(match_id, user_to_move(current, game), rng.choice(game.legal_notations()))
            except Refusal as refusal:
                assert refusal.reason in ("storage_down", "storage_unknown"), refusal
                heard[refusal.reason] += 1
                await asyncio.sleep(0.02)
            except StorageDown:  # its first read failed: nothing was written
                heard["storage_down"] += 1
                await asyncio.sleep(0.02)
            else:
                heard["played"] += 1
                if not restarted.is_set():
                    heard["played_before"] = heard["played"]

    def restart() -> None:
        time.sleep(0.5)
        postgres_server.restart()
        restarted.set()

    try:
        matches = []
        for _ in range(8):
            service.clock.advance(61)
            match = await service.create(
                game_id="bide", creator=alice, invited=[bob], guild_id=GUILD, channel_id=CHANNEL
            )
            await service.accept(match.id, bob[0])
            matches.append(match.id)
            told[match.id] = Counter()
        server_started = await backends.fetch(store, "SELECT pg_postmaster_start_time()")
        restarter = threading.Thread(target=restart)
        restarter.start()
        await asyncio.wait_for(asyncio.gather(*(player(m) for m in matches)), 60)
        restarter.join()

        # it did restart (asked on a connection of its own: a pooled one idle through the restart fails once on
        # its next use, which the store's own reads retry and this check, outside the store, would not)
        fresh = await asyncpg.connect(postgres_server.url)
        try:
            assert [tuple(await fresh.fetchrow("SELECT pg_postmaster_start_time()"))] != server_started
        finally:
            await fresh.close()
        for match_id in matches:
            stored = await service.store.get_match(match_id)
            logged = [m for m in await service.store.moves(match_id) if m.kind == "turn"]
            heard = told[match_id]
            # acknowledged: all there; "not stored": none there; "not known": either
            assert heard["played"] <= len(logged) <= heard["played"] + heard["storage_unknown"], (match_id, heard)
            assert await service.replay_problem(match_id) is None
            assert replay(stored, await service.store.moves(match_id)).to_json() == stored.state
            assert heard["played"] >= heard["played_before"] + 10 or stored.status == "finished"  # it went on
    finally:
        await store.close()
