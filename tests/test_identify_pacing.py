"""Discord allows one IDENTIFY per bucket every 5 seconds, counting every process of the bot. The store paces
them with the time of each bucket's last IDENTIFY, kept in the database: a process killed just after it
identified, and one started at once in its place, must still be spaced by the interval (the kill soak found
restarts identifying 2–4 s after the dead process did, when the pacing lived in a lock the kill released)."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store import open_store
from bot.store.shards import identify_wait
from tests import backends

pytestmark = pytest.mark.both_backends

ROOT = Path(__file__).resolve().parent.parent
INTERVAL = 1.0  # Discord's 5 s, shortened
# The store's clock and this test's are read a moment apart (and PostgreSQL's is the server's own).
CLOCK_TOLERANCE = 0.05

# A process that takes bucket 0, says when (the wall clock), and then hangs until it is killed.
IDENTIFY_THEN_HANG = """
import asyncio, sys, time
from bot.store import open_store

async def main():
    store = await open_store(sys.argv[1])
    await store.pace_identify(0, float(sys.argv[2]))
    print(time.time(), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


async def test_a_process_killed_just_after_it_identified_still_holds_back_the_next_one(database):
    first = subprocess.Popen(
        [sys.executable, "-c", IDENTIFY_THEN_HANG, database, str(INTERVAL)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = await asyncio.wait_for(asyncio.to_thread(first.stdout.readline), 30)  # type: ignore[union-attr]
        identified_at = float(line)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    store = await open_store(database)  # the process started in the killed one's place
    try:
        await store.pace_identify(0, INTERVAL)
        assert time.time() - identified_at >= INTERVAL - CLOCK_TOLERANCE
    finally:
        await store.close()


async def test_identifies_from_many_processes_at_once_are_spaced_by_the_interval(database):
    stores = [await open_store(database) for _ in range(3)]
    try:
        interval = 0.4

        async def identify(store) -> float:
            await store.pace_identify(0, interval)
            return time.monotonic()

        started = time.monotonic()
        times = sorted(await asyncio.gather(*(identify(s) for s in stores for _ in range(2))))
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert min(gaps) >= interval - CLOCK_TOLERANCE, gaps
        assert times[0] - started < interval  # the first goes at once
        # another bucket is not held back by this one's
        before = time.monotonic()
        await stores[0].pace_identify(1, interval)
        assert time.monotonic() - before < interval / 2
    finally:
        for store in stores:
            await store.close()


async def test_a_last_identify_far_ahead_of_the_clock_does_not_hold_starts_back(database):
    """A clock set back by hand leaves a time in the future: beyond one interval it cannot be a real recent
    IDENTIFY, so the next one goes at once instead of waiting for the clock to catch up."""
    store = await open_store(database)
    try:
        await store.pace_identify(0, INTERVAL)
        await backends.execute(store, "UPDATE identify_times SET identified_at = identified_at + 3600")
        before = time.monotonic()
        await store.pace_identify(0, INTERVAL)
        assert time.monotonic() - before < INTERVAL / 2
        (ahead,) = (await backends.fetch(store, "SELECT identified_at FROM identify_times WHERE bucket = 0"))[0]
        assert abs(ahead - time.time()) < 5  # the new time replaced the one ahead of the clock
    finally:
        await store.close()


@pytest.mark.parametrize(
    "ahead, wait",
    [
        (None, 0.0),  # the row has gone: go
        (-INTERVAL - 1, 0.0),  # the last is old
        (-0.25, INTERVAL - 0.25),  # the rest of its interval
        (0.0, INTERVAL),  # just now
        (0.5, INTERVAL),  # ahead of the clock, within an interval: wait in steps of one interval
    ],
)
def test_the_wait_after_a_refused_identify(ahead, wait):
    assert identify_wait(ahead, INTERVAL) == pytest.approx(wait + 0.01)


async def test_a_refused_identify_sleeps_out_the_interval_instead_of_asking_again_and_again(database, backend):
    """A refused IDENTIFY reads how long is left and sleeps that long: a couple of tries, not one every 10 ms
    (the spacing would hold either way; the database would be asked a hundred times a second)."""
    store = await open_store(database)
    try:
        await store.pace_identify(0, 0.5)
        tries = 0
        asks = "_transact" if backend == "sqlite" else "_fetchrow"
        ask = getattr(store, asks)

        async def counted(*args, **kwargs):
            nonlocal tries
            tries += 1
            return await ask(*args, **kwargs)

        setattr(store, asks, counted)
        await store.pace_identify(0, 0.5)
        # SQLite: a refusal, then the try that goes; PostgreSQL: a refusal and its read, then the try that goes
        assert tries <= (3 if backend == "sqlite" else 4), tries
    finally:
        await store.close()
