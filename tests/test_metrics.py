"""/healthz and Prometheus /metrics of the bot and of a worker, scraped over HTTP as an operator's tools do.

The bot plays through the emulator (on SQLite and on PostgreSQL); the worker takes jobs from a real
PostgreSQL queue. Each scrape is read with prometheus-client's own parser.
"""

from __future__ import annotations

import asyncio
import math
import socket
from itertools import count

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.config import Settings
from bot.domain.errors import CannotListen
from bot.jobs import queue
from bot.jobs.worker import Worker
from bot.observe import health
from bot.observe.metrics import MOVE_BUCKETS, BotMetrics
from bot.observe.server import MetricsServer
from bot.store import open_store
from tests.botworld import BotWorld
from tests.worker_processes import WorkerProcess, empty_queue, until

pytestmark = pytest.mark.both_backends


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url, timeout=aiohttp.ClientTimeout(total=5)) as answer:
        return answer.status, await answer.text()


async def healthz(base: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session, session.get(f"{base}/healthz") as answer:
        return answer.status, await answer.json()


async def scrape(base: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of /metrics: (name, labels) -> value."""
    status, text = await get(f"{base}/metrics")
    assert status == 200, text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


PLAYER_TURNS = {"game": "bide", "source": "player"}
_NAMES = count()


@pytest.fixture
async def observed(database):
    """The bot against the emulator, serving /healthz and /metrics on a free port."""
    world = await BotWorld(database, metrics_port=0).start()
    yield world
    violations = list(world.emu.violations)
    await world.stop()
    assert violations == [], violations


async def test_each_move_is_counted_and_timed_and_the_bot_is_healthy(observed):
    world = observed
    base = await world.metrics_url()
    assert await healthz(base) == (200, {"status": "ok", "role": "bot"})
    before = await scrape(base)
    match_id, thread = await world.start_two_player()
    moves = 0
    for _ in range(3):
        game = await world.game(match_id)
        notation = next(n for n in game.legal_notations() if n != "bide")
        result = await world.emu.invoke(await world.user_to_move(match_id), thread, "move", {"move": notation})
        assert not result.ephemeral, result.text
        moves += 1
    await world.emu.invoke(world.users[2], thread, "move", {"move": "a1"})  # carol is not playing: refused

    async def answered():  # the time is taken as the handler ends, just after its answer reached the emulator
        timed = value(await scrape(base), "hexplay_move_seconds_count") - value(before, "hexplay_move_seconds_count")
        return timed >= moves + 1

    await until(answered, 3, what="four /move answers timed")
    after = await scrape(base)
    turns = value(after, "hexplay_turns_stored_total", **PLAYER_TURNS)
    assert turns - value(before, "hexplay_turns_stored_total", **PLAYER_TURNS) == moves
    assert value(after, "hexplay_turns_stored_total", game="bide", source="computer") == 0
    timed = value(after, "hexplay_move_seconds_count") - value(before, "hexplay_move_seconds_count")
    assert timed == moves + 1  # the refused /move was answered too
    assert value(after, "hexplay_move_seconds_bucket", le="+Inf") == value(after, "hexplay_move_seconds_count")
    assert value(after, "hexplay_move_seconds_bucket", le="10.0") == timed  # each within 10 s, each counted once
    assert ("hexplay_reminders_sent_total", frozenset()) in after  # there, at 0: no reminder fell due
    assert value(after, "hexplay_reminders_sent_total") == 0


async def test_healthz_says_503_and_why_when_the_database_does_not_answer(observed):
    base = await observed.metrics_url()
    assert (await healthz(base))[0] == 200
    assert observed.store is not None and observed.bot is not None
    bot = observed.bot  # the start-up catch-up (on_ready) and check of every match read the store: let them finish
    await until(lambda: bot.verify_task is not None and bot.verify_task.done(), 5, what="the start-up check done")
    await observed.store.close()
    status, body = await healthz(base)
    assert status == 503 and body["status"] == "unhealthy" and body["role"] == "bot"
    assert len(body["reasons"]) == 1 and body["reasons"][0].startswith("the database does not answer"), body


@pytest.mark.sqlite_only
async def test_healthz_says_503_and_why_when_the_gateway_is_gone(observed):
    base = await observed.metrics_url()
    assert (await healthz(base))[0] == 200
    await observed.emu.stop()  # Discord is gone: the bot keeps trying to reconnect

    async def unhealthy():
        status, body = await healthz(base)
        return status == 503 and body

    body = await until(unhealthy, 3, what="/healthz saying 503")
    assert body["reasons"] == ["shard 0 not connected to the gateway"], body


async def test_a_slow_database_is_unhealthy_within_the_bound():
    async def hangs():
        await asyncio.sleep(10)

    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await health.database(hangs, timeout=0.2)() == "the database did not answer within 0.2 s"
    assert loop.time() - started < 1


async def test_a_shard_without_an_answered_heartbeat_has_no_latency_yet():
    metrics = BotMetrics()
    metrics.gateway_latencies({0: 0.042, 1: math.inf, 2: math.nan})
    server = MetricsServer(0, metrics.registry, [], host="127.0.0.1")
    base = f"http://127.0.0.1:{await server.start()}"
    try:
        samples = await scrape(base)
    finally:
        await server.stop()
    latencies = {
        dict(labels)["shard"]: v for (name, labels), v in samples.items() if name.startswith("hexplay_gateway")
    }
    assert latencies == {"0": 0.042}
    assert MOVE_BUCKETS[0] == 0.01 and MOVE_BUCKETS[-1] == 10.0


async def test_a_port_in_use_is_refused_in_one_line_naming_the_setting():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = MetricsServer(port, BotMetrics().registry, [], host="127.0.0.1")
        with pytest.raises(CannotListen) as refused:
            await server.start()
    message = str(refused.value)
    assert message.startswith(f"HEXPLAY_METRICS_PORT {port}: cannot listen") and "\n" not in message, message


@pytest.mark.parametrize(
    ("name", "raw", "says"),
    [("HEXPLAY_METRICS_PORT", raw, "must be a port number") for raw in ["http", "-1", "65536", "80.5", "9" * 30, "²"]]
    + [
        ("HEXPLAY_METRICS_HOST", raw, "must be an IP address")
        for raw in ["my host", "300.1.1.1", "a_b", "-x", "http://0.0.0.0", "0.0.0.0:9100", "x" * 300]
    ],
)
def test_a_bad_metrics_port_or_host_is_refused_with_one_line(monkeypatch, name, raw, says):
    monkeypatch.setenv(name, raw)
    with pytest.raises(SystemExit) as refused:
        Settings.from_env()
    message = str(refused.value)
    assert message.startswith(f"{name} {says}") and "\n" not in message, message


@pytest.mark.parametrize(("raw", "port"), [("", None), ("0", None), (" 9100 ", 9100), ("65535", 65535)])
def test_the_metrics_port_is_off_unless_set(monkeypatch, raw, port):
    monkeypatch.setenv("HEXPLAY_METRICS_PORT", raw)
    assert Settings.from_env().metrics_port == port


def _address_of_this_machine() -> str | None:
    """This machine's address on its network (not loopback), or None if it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: no packet is sent for a UDP connect
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") else address


async def test_health_and_metrics_listen_on_this_machine_only_unless_told(observed):
    """A scrape from the network reads nothing unless HEXPLAY_METRICS_HOST opens it (compose does)."""
    from bot.runtime import metrics_server

    base = await observed.metrics_url()
    assert (await healthz(base))[0] == 200
    server = metrics_server(observed.bot)
    assert server is not None and server.host == "127.0.0.1"
    outside = _address_of_this_machine()
    if outside is None:
        pytest.skip("this machine has no address but loopback")
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(f"http://{outside}:{server.port}/healthz")


@pytest.mark.parametrize(
    ("raw", "host"), [("", "127.0.0.1"), ("0.0.0.0", "0.0.0.0"), ("::", "::"), ("metrics.internal", "metrics.internal")]
)
def test_the_metrics_host_is_loopback_unless_set(monkeypatch, raw, host):
    monkeypatch.setenv("HEXPLAY_METRICS_HOST", raw)
    assert Settings.from_env().metrics_host == host


# -- a worker ------------------------------------------------------------------------------------------


@pytest.fixture
async def worker_store(postgres_server):
    url = postgres_server.create_database(f"metrics_worker_{next(_NAMES)}")
    store = await open_store(url)
    await empty_queue(store)
    try:
        yield store
    finally:
        await store.close()


async def test_a_worker_reports_the_queue_its_jobs_and_its_health(worker_store):
    store = worker_store
    worker = Worker(store, Settings(database_url=store.url), concurrency=1, stale_seconds=2.0)
    server = worker.metrics_server(0, "127.0.0.1")
    base = f"http://127.0.0.1:{await server.start()}"
    sender = queue.JobQueue(store.pool)
    running = None
    try:
        status, body = await healthz(base)
        assert (status, body["reasons"]) == (503, ["the queue loop is not running"])
        for match_id in (7, 8, 9):  # matches that do not exist: a worker takes each job and finds nothing due
            await sender.turn_due(match_id, 3)
        samples = await scrape(base)
        assert value(samples, "hexplay_queue_jobs", kind=queue.TURN, status="queued") == 3
        assert value(samples, "hexplay_queue_jobs", kind=queue.HINT, status="queued") == 0
        assert ("hexplay_queue_jobs", frozenset({"kind": queue.HINT, "status": "queued"}.items())) in samples

        running = asyncio.ensure_future(worker.run())
        await until(lambda: worker.taking_jobs, 5, what="the queue loop running")
        assert await healthz(base) == (200, {"status": "ok", "role": "worker"})

        async def all_taken():
            samples = await scrape(base)
            return value(samples, "hexplay_worker_computer_turns_total", result="not_due") == 3 and samples

        samples = await until(all_taken, 4, what="the three jobs played")
        assert value(samples, "hexplay_job_seconds_count", kind=queue.TURN) == 3
        assert value(samples, "hexplay_worker_computer_turns_total", result="stored") == 0
        await until(lambda: _emptied(base), 3, what="the queue emptied")  # a done job leaves it a moment after
    finally:
        worker.stop()
        if running is not None:
            await asyncio.wait_for(running, 10)
    status, body = await healthz(base)
    assert (status, body["reasons"]) == (503, ["the worker is stopping"])
    await server.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        await healthz(base)


async def _emptied(base: str) -> bool:
    samples = await scrape(base)
    return all(value(samples, "hexplay_queue_jobs", kind=queue.TURN, status=s) == 0 for s in ("queued", "picked"))


async def test_a_worker_process_serves_its_health_until_sigterm(worker_store, tmp_path):
    """``python -m bot worker`` with HEXPLAY_METRICS_PORT: healthy once it takes jobs, gone after a clean stop."""
    with socket.socket() as probe:  # a free port (HEXPLAY_METRICS_PORT=0 means off)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    worker = WorkerProcess(worker_store.url, tmp_path / "logs", env={"HEXPLAY_METRICS_PORT": str(port)})
    base = f"http://127.0.0.1:{port}"
    try:

        async def healthy():
            try:
                return await healthz(base) == (200, {"status": "ok", "role": "worker"})
            except aiohttp.ClientConnectionError:
                return False

        await until(healthy, 15, what="the worker's /healthz answering 200")
        assert "hexplay_worker_computer_turns_total" in (await get(f"{base}/metrics"))[1]
        assert await asyncio.to_thread(worker.terminate, 10) == 0, worker.output()
        with pytest.raises(aiohttp.ClientConnectionError):
            await healthz(base)
    finally:
        worker.stop()
