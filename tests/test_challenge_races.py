"""Two bot processes race challenges for the last place in a challenge limit, on one PostgreSQL database.

The rule that judges a challenge lives in the service (bot/service/challenge_limits.py, ``first_broken_rule``); the
store reads the counts and records the challenge. Atomicity is the store's: the rule runs inside the transaction
that reads the counts and inserts the challenge, under an advisory lock, so the second challenge waits for the
first to commit and then counts it. Each trial leaves one place in a limit (the challenger's pace in the server, or
the same person challenged too often), has both processes ask 0–5 ms apart at a wall-clock instant they share, and
checks exactly one is admitted, the other refused by that limit, and the stored records say the same.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.service.challenge_limits import CAPS, Challenge, StoredChallengeLimits
from bot.store import open_store
from tests import backends
from tests.test_races_processes import Process

TRIALS = 60
GUILD = 4000
NOW = 1_000_000.0  # the game time both processes judge at (each trial's challenger is new)


async def test_two_processes_racing_for_the_last_place_in_a_limit_admit_exactly_one(postgres_server):
    await backends.empty_postgres(postgres_server.url)
    store = await open_store(postgres_server.url)
    limits = StoredChallengeLimits(store)
    first, second = await asyncio.gather(
        Process.start(postgres_server.url, "tests.challenge_process"),
        Process.start(postgres_server.url, "tests.challenge_process"),
    )
    rng = random.Random(38)
    tally = {"rate": 0, "same_player": 0}
    try:
        for trial in range(TRIALS):
            challenger = 10_000 + trial
            if trial % 2:  # one place left in the challenger's pace in the server (challenges of anyone)
                limit, taken = "rate", CAPS.per_window - 1
                orders = [[20_000 + 2 * trial], [20_001 + 2 * trial]]
                earlier = [[30_000 + 10 * trial + i] for i in range(taken)]
            else:  # one place left in how often one person is challenged by this challenger (any server)
                limit, taken = "same_player", CAPS.same_player - 1
                target = 20_000 + 2 * trial
                orders = [[target], [target]]
                earlier = [[target]] * taken
            for i, invited in enumerate(earlier):  # spread over the window, so none has aged out at NOW
                guild = GUILD if limit == "rate" else GUILD + 1 + i  # other servers: not this server's pace
                when = NOW - (CAPS.window if limit == "rate" else CAPS.same_player_window) / 2 + i
                assert await limits.admit(Challenge(guild, challenger, tuple((u, "x") for u in invited)), when) is None
            gap = (trial % 6) / 1000 + rng.uniform(0, 0.0005)  # 0 to 5 ms, and a little between
            at = time.time() + 0.03
            racers = (first, second) if trial % 4 < 2 else (second, first)  # each process goes first by turns
            racers[0].send(guild=GUILD, challenger=challenger, invited=orders[0], now=NOW, at=at)
            racers[1].send(guild=GUILD, challenger=challenger, invited=orders[1], now=NOW, at=at + gap)
            answers = [(await racers[0].answer())["refused"], (await racers[1].answer())["refused"]]

            assert sorted(answers, key=str) == sorted([limit, None], key=str), (trial, gap, answers)
            tally[limit] += 1
            recorded = await backends.fetch(
                store,
                "SELECT COUNT(*) FROM challenge_events WHERE challenger_id = ? AND invited_id = 0 AND guild_id = ?",
                challenger,
                GUILD,
            )
            assert recorded[0][0] == (CAPS.per_window if limit == "rate" else 1), (trial, recorded)
        assert min(tally.values()) == TRIALS // 2, tally
    finally:
        await asyncio.gather(first.stop(), second.stop())
        await store.close()


@pytest.mark.both_backends
async def test_challenges_at_once_in_one_process_take_the_last_place_once(database):
    """The same on either backend within one process: many challenges at once for the last places of the
    challenger's pace; exactly as many are admitted as there were places."""
    store = await open_store(database)
    try:
        limits = StoredChallengeLimits(store)
        for round_number in range(10):
            challenger = 50_000 + round_number
            at_once = [Challenge(GUILD, challenger, ((60_000 + 10 * round_number + i, "x"),)) for i in range(6)]
            answers = await asyncio.gather(*(limits.admit(challenge, NOW) for challenge in at_once))
            assert [a.rule for a in answers if a is not None] == ["rate"] * (6 - CAPS.per_window), answers
    finally:
        await store.close()
