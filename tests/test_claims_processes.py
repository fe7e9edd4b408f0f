"""Three bot processes, each with its own connection pool, take the background duties of one PostgreSQL database.

Every process runs every timer pass; only the database decides who acts. In each trial the processes claim
the same kind of duty within 0–4 ms of each other: every due duty goes to exactly one of them. A process
SIGKILLed while it holds claims holds up nobody for long: another process takes them once its heartbeat is
``STALE_SECONDS`` old (long before their lease ends), and its own restart at once.
"""

from __future__ import annotations

import random
import signal
import time

import pytest

from bot.domain.clock import STALE_SECONDS, ManualClock
from bot.service.matches import MatchService
from bot.store import open_store
from tests.racing import NoChallengeLimits
from tests.test_races_processes import Process

ALICE, BOB = (101, "alice"), (102, "bob")
KINDS = ("reminders", "deadlines", "unannounced", "paused")
TRIALS = 15  # per kind
FAR = 10**11  # a store time when every reminder and deadline is due
LEASE = 300  # far longer than a heartbeat may be missed: a claim freed early was freed by its holder's death


async def start_claimer(url: str, shard: int | None = None, shards: int = 3, at: float = FAR) -> Process:
    """A claiming process; with ``shard``, it runs that shard of ``shards`` and beats for it at ``at``."""
    claimer = await Process.start(url, module="tests.claim_process")
    if shard is not None:
        await beat(claimer, shard, shards, at)
    return claimer


async def beat(claimer: Process, shard: int, shards: int, at: float) -> None:
    claimer.send(kind="beat", now=at, shards=[shards, [shard]])
    assert await claimer.answer() == {"beat": True}


@pytest.fixture
async def duties(postgres_server):
    """12 timed matches in play (a reminder and a deadline each, their boards never posted), 4 set aside."""
    url = postgres_server.create_database(f"claims_{random.randrange(10**9)}")
    store = await open_store(url)
    service = MatchService(store, ManualClock(), default_reminder_hours=24)
    service.limits = NoChallengeLimits()
    playing, aside = [], []
    try:
        for n in range(16):
            match = await service.create(
                game_id="bide", creator=ALICE, invited=[BOB], guild_id=1, channel_id=2, days_per_move=1
            )
            await service.accept(match.id, BOB[0])
            await service.play(match.id, ALICE[0], "e5")
            if n < 12:
                playing.append(match.id)
            else:
                await store.quarantine(match.id, "a test sets it aside", 1.0)
                aside.append(match.id)
        yield url, store, {"reminders": playing, "deadlines": playing, "unannounced": playing, "paused": aside}
    finally:
        await store.close()


async def release(claimer: Process, kind: str, ids: list[int]) -> None:
    claimer.send(kind="release", duty=kind, ids=ids)
    assert await claimer.answer() == {"released": True}


async def claim(claimer: Process, kind: str, now: float, at: float = 0) -> list[int]:
    claimer.send(kind=kind, now=now, lease=LEASE, at=at)
    return (await claimer.answer())["ids"]


async def test_processes_claiming_at_once_each_duty_goes_to_exactly_one(duties):
    url, _, due = duties
    claimers = [await start_claimer(url, shard) for shard in range(3)]
    rng = random.Random(21)
    try:
        for kind in KINDS:
            alone = await claim(claimers[0], kind, FAR)  # what one process alone takes: the due set
            assert set(due[kind]) <= set(alone)
            await release(claimers[0], kind, alone)
            for trial in range(TRIALS):
                at = time.time() + 0.05
                for claimer in claimers:
                    claimer.send(kind=kind, now=FAR, lease=LEASE, at=at + rng.uniform(0, 0.004))
                got = [(await claimer.answer())["ids"] for claimer in claimers]
                taken = [match_id for ids in got for match_id in ids]
                assert sorted(taken) == alone, f"{kind} trial {trial}: {got}"  # each once, none lost
                for claimer, ids in zip(claimers, got, strict=True):
                    await release(claimer, kind, ids)
    finally:
        for claimer in claimers:
            await claimer.stop()


async def killed_holding_every_duty(url: str, due: dict[str, list[int]]) -> dict[str, list[int]]:
    """A process (shard 0 of 2, beating at FAR) that claims every due duty, then is SIGKILLed."""
    doomed = await start_claimer(url, shard=0, shards=2)
    held = {}
    try:
        for kind in KINDS:
            held[kind] = await claim(doomed, kind, FAR)
            assert set(due[kind]) <= set(held[kind])
    finally:
        doomed.child.send_signal(signal.SIGKILL)
        await doomed.child.wait()
    return held


async def test_a_killed_process_claims_pass_to_another_once_its_heartbeat_is_stale(duties):
    url, _, due = duties
    held = await killed_holding_every_duty(url, due)
    survivor = await start_claimer(url, shard=1, shards=2)
    try:
        for kind in KINDS:  # its heartbeat is still fresh: it may be alive, so nothing is taken twice
            assert await claim(survivor, kind, FAR + STALE_SECONDS - 1) == []
        for kind in KINDS:  # gone: the survivor does the work, long before the lease would have ended
            assert await claim(survivor, kind, FAR + STALE_SECONDS + 1) == held[kind]
    finally:
        await survivor.stop()


async def test_a_killed_process_claims_are_its_restarts_at_once(duties):
    url, _, due = duties
    held = await killed_holding_every_duty(url, due)
    other = await start_claimer(url, shard=1, shards=2)
    restarted = await start_claimer(url, shard=0, shards=2, at=FAR + 1)  # its shard, under a new incarnation
    try:
        for kind in KINDS:
            assert await claim(restarted, kind, FAR + 2) == held[kind]
            assert await claim(other, kind, FAR + STALE_SECONDS) == []  # the restart beats (its old self would not)
    finally:
        await restarted.stop()
        await other.stop()
