"""Two bot processes, each with its own connection pool, race turns on one match in PostgreSQL.

Nothing in one process can guard the other: only the store's compare-and-set on the match's version does.
Each trial has both processes read the match, then play 0–5 ms apart at a wall-clock instant they share;
after every trial exactly one turn is stored and the log replays to the stored state.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from pathlib import Path

from bot.domain.clock import ManualClock
from bot.domain.seats import game_of, user_to_move
from bot.service.matches import MatchService
from bot.store import open_store
from tests import backends
from tests.racing import NoChallengeLimits, log_matches_state

ROOT = Path(__file__).resolve().parent.parent
ALICE, BOB = (101, "alice"), (102, "bob")
TRIALS = 120


class Process:
    """A child bot process on the shared database, ordered by JSON lines (``module`` says what it does)."""

    def __init__(self, child: asyncio.subprocess.Process) -> None:
        self.child = child

    @classmethod
    async def start(cls, url: str, module: str = "tests.race_process") -> Process:
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            module,
            url,
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        process = cls(child)
        assert await process.answer() == {"ready": True}
        return process

    def send(self, **order) -> None:
        assert self.child.stdin is not None
        self.child.stdin.write((json.dumps(order) + "\n").encode())

    async def answer(self) -> dict:
        assert self.child.stdout is not None
        line = await asyncio.wait_for(self.child.stdout.readline(), 30)
        assert line, "the child process died"
        return json.loads(line)

    async def stop(self) -> None:
        if self.child.returncode is None and self.child.stdin is not None:
            self.child.stdin.close()
        try:
            await asyncio.wait_for(self.child.wait(), 10)
        except TimeoutError:
            self.child.kill()


async def test_two_processes_racing_turns_on_one_match_store_exactly_one(postgres_server):
    await backends.empty_postgres(postgres_server.url)
    store = await open_store(postgres_server.url)
    service = MatchService(store, ManualClock(), default_reminder_hours=24)
    service.limits = NoChallengeLimits()
    first, second = await asyncio.gather(Process.start(postgres_server.url), Process.start(postgres_server.url))
    rng = random.Random(20)
    match_id = None
    tally = {"same move": 0, "different moves": 0}
    try:
        for trial in range(TRIALS):
            if match_id is None or (await service.get(match_id)).status != "active" or trial % 15 == 0:
                created = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=1, channel_id=2)
                await service.accept(created.id, BOB[0])
                match_id = created.id
            match = await service.get(match_id)
            game = game_of(match)
            mover = user_to_move(match, game)
            legal = game.legal_notations()
            moves = [rng.choice(legal), rng.choice(legal)] if trial % 2 else [rng.choice(legal)] * 2
            tally["same move" if moves[0] == moves[1] else "different moves"] += 1
            logged_before = len(await service.store.moves(match_id))
            gap = (trial % 6) / 1000 + rng.uniform(0, 0.0005)  # 0 to 5 ms, and a little between
            at = time.time() + 0.03
            racers = (first, second) if trial % 4 < 2 else (second, first)  # each process goes first by turns
            racers[0].send(match=match_id, user=mover, move=moves[0], at=at)
            racers[1].send(match=match_id, user=mover, move=moves[1], at=at + gap)
            answers = [await racers[0].answer(), await racers[1].answer()]

            applied = [a for a in answers if a["applied"]]
            assert len(applied) == 1, (trial, gap, answers)
            loser = next(a for a in answers if not a["applied"])
            assert loser["reason"] in ("not_your_turn", "changed_meanwhile"), (trial, answers)
            consistent, logged = await log_matches_state(service, match_id)
            assert consistent and logged == logged_before + 1, (trial, gap, logged_before, logged)
        assert min(tally.values()) > TRIALS // 3, tally
    finally:
        await asyncio.gather(first.stop(), second.stop())
        await store.close()
