"""Three bot processes, each with its own connection pool, take the background duties of one PostgreSQL database.

Every process runs every timer pass; only the database decides who acts. In each trial the processes claim
the same kind of duty within 0–4 ms of each other: every due duty goes to exactly one of them. A process
SIGKILLed while it holds claims loses them when their lease ends, and another process takes them then.
"""

from __future__ import annotations

import random
import signal
import time

import pytest

from bot.domain.clock import ManualClock
from bot.service.matches import MatchService
from bot.store import open_store
from tests.racing import NoChallengeLimits
from tests.test_races_processes import Process

ALICE, BOB = (101, "alice"), (102, "bob")
KINDS = ("reminders", "deadlines", "unannounced", "paused")
TRIALS = 15  # per kind
FAR = 10**11  # a store time when every reminder and deadline is due


async def start_claimer(url: str) -> Process:
    return await Process.start(url, module="tests.claim_process")


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


async def release(store, kind: str, ids: list[int]) -> None:
    release_one = {
        "reminders": store.release_reminder,
        "deadlines": store.release_deadline,
        "unannounced": store.release_announcement,
        "paused": store.release_paused_notice,
    }[kind]
    for match_id in ids:
        await release_one(match_id)


async def test_processes_claiming_at_once_each_duty_goes_to_exactly_one(duties):
    url, store, due = duties
    claimers = [await start_claimer(url) for _ in range(3)]
    rng = random.Random(21)
    try:
        for kind in KINDS:
            claimers[0].send(kind=kind, now=FAR, lease=300, at=0)  # what one process alone takes: the due set
            alone = sorted((await claimers[0].answer())["ids"])
            assert set(due[kind]) <= set(alone)
            await release(store, kind, alone)
            for trial in range(TRIALS):
                at = time.time() + 0.05
                for claimer in claimers:
                    claimer.send(kind=kind, now=FAR, lease=300, at=at + rng.uniform(0, 0.004))
                got = [(await claimer.answer())["ids"] for claimer in claimers]
                taken = [match_id for ids in got for match_id in ids]
                assert sorted(taken) == alone, f"{kind} trial {trial}: {got}"  # each once, none lost
                await release(store, kind, taken)
    finally:
        for claimer in claimers:
            await claimer.stop()


async def test_a_killed_process_claims_pass_to_another_when_their_lease_ends(duties):
    url, _, due = duties
    doomed, survivor = await start_claimer(url), await start_claimer(url)
    held: dict[str, list[int]] = {}
    try:
        for kind in KINDS:
            doomed.send(kind=kind, now=FAR, lease=60, at=0)
            held[kind] = sorted((await doomed.answer())["ids"])
            assert set(due[kind]) <= set(held[kind])
        doomed.child.send_signal(signal.SIGKILL)
        await doomed.child.wait()
        for kind in KINDS:
            survivor.send(kind=kind, now=FAR + 30, lease=60, at=0)  # the lease still runs: not taken twice
            assert (await survivor.answer())["ids"] == []
            survivor.send(kind=kind, now=FAR + 61, lease=60, at=0)  # it ended: the survivor does the work
            assert sorted((await survivor.answer())["ids"]) == held[kind]
    finally:
        await survivor.stop()
        await doomed.stop()
