"""/move while a worker proves puzzles (issue 36: "a /move must be no slower while it runs"), on PostgreSQL.

Starts a throwaway PostgreSQL server (as the tests do) and one real worker process (`python -m bot worker
--concurrency 1`), makes --matches finished standard-board Begird games (the computer's against itself: long
scans), then plays person moves in another match through the service (what a bot process does for /move:
read, check, store in one transaction) and times each, alternately with the worker idle and with it proving
the finished games' puzzles (their jobs queued, one picked and still running when the phase ends). Printed side
by side: wall seconds per move (what a player waits: the CPU is shared) and this process's CPU seconds.

    .venv/bin/python benchmarks/bench_puzzles_workers.py [--matches 3] [--moves 30] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ai.puzzles import self_play_game  # noqa: E402
from bot.domain.seats import game_of, user_to_move  # noqa: E402
from bot.jobs import queue  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.store.postgres import PostgresStore  # noqa: E402
from tests.postgres import start_cluster  # noqa: E402
from tests.racing import NoChallengeLimits  # noqa: E402
from tests.worker_processes import WorkerProcess, empty_queue, jobs, system_service  # noqa: E402

ALICE, BOB = (101, "alice"), (102, "bob")


async def finished_games(service, count: int) -> list[int]:
    ids = []
    for seed in range(count):
        _, turns = self_play_game("begird", seed)
        match = await service.create(
            game_id="begird", creator=ALICE, invited=[BOB], guild_id=1, channel_id=2, options_text=""
        )
        await service.accept(match.id, BOB[0])
        for notation in turns:
            row = await service.get(match.id)
            await service.play(match.id, user_to_move(row, game_of(row)), notation)
        ids.append(match.id)
    return ids


class Mover:
    """Person moves in a standard-board Begird match (a new one when it ends), chosen by a seeded random."""

    def __init__(self, service) -> None:
        self.service = service
        self.match_id: int | None = None
        self.choose = random.Random(7)

    async def timed_move(self) -> tuple[float, float]:
        if self.match_id is None or (await self.service.get(self.match_id)).status != "active":
            match = await self.service.create(
                game_id="begird", creator=ALICE, invited=[BOB], guild_id=1, channel_id=2, options_text=""
            )
            await self.service.accept(match.id, BOB[0])
            self.match_id = match.id
        row = await self.service.get(self.match_id)
        game = game_of(row)
        notation = self.choose.choice(game.legal_notations())
        wall, cpu = time.perf_counter(), time.process_time()
        await self.service.play(self.match_id, user_to_move(row, game), notation)  # what /move stores
        return time.perf_counter() - wall, time.process_time() - cpu


async def phase(mover: Mover, moves: int) -> list[tuple[float, float]]:
    timed = []
    for _ in range(moves):
        timed.append(await mover.timed_move())
        await asyncio.sleep(0.05)  # a player's pace, not a flood
    return timed


async def picked(store) -> bool:
    return any(status == "picked" and kind == queue.PUZZLE for _, status, kind, _ in await jobs(store))


async def main(args: argparse.Namespace) -> None:
    results: dict[str, list[tuple[float, float]]] = {"idle": [], "proving": []}
    with tempfile.TemporaryDirectory(prefix="bench-puzzle-workers-") as scratch:
        cluster = start_cluster()
        worker = None
        try:
            url = cluster.create_database("bench_puzzle_workers")
            store = await open_store(url)
            assert isinstance(store, PostgresStore)
            service = system_service(store)
            service.limits = NoChallengeLimits()
            await empty_queue(store)
            worker = WorkerProcess(url, Path(scratch) / "logs", stale_seconds=30)
            sender = queue.JobQueue(store.pool)
            mover = Mover(service)
            for _ in range(args.rounds):
                ids = await finished_games(service, args.matches)
                await asyncio.sleep(2)  # the worker idle
                results["idle"] += await phase(mover, args.moves)
                for match_id in ids:
                    await sender.puzzle_scan_due(match_id)
                while not await picked(store):
                    await asyncio.sleep(0.05)
                await asyncio.sleep(1)  # its puzzle pool started, proving
                results["proving"] += await phase(mover, args.moves)
                if not await picked(store):
                    print("  (the proofs ended before the phase did: raise --matches)", flush=True)
                while await jobs(store):  # the round's searches finish before the next idle phase
                    await asyncio.sleep(0.2)
                stored = await store.pool.fetchval("SELECT count(*) FROM puzzles")
                print(f"  round done: {stored} puzzles stored so far", flush=True)
            await store.close()
        finally:
            if worker is not None:
                worker.stop()
            cluster.remove()
    print()
    print(f"/move (service.play) with a worker idle vs proving puzzles, {len(results['idle'])} moves each")
    print(f"{'worker':>8} {'wall p50':>9} {'p95':>7} {'max':>7} {'cpu p50':>8} {'cpu p95':>8}")
    for name, timed in results.items():
        wall = sorted(w for w, _ in timed)
        cpu = sorted(c for _, c in timed)

        def p(values: list[float], q: float) -> float:
            return values[min(len(values) - 1, int(q * len(values)))]

        print(
            f"{name:>8} {statistics.median(wall):>9.4f} {p(wall, 0.95):>7.4f} {wall[-1]:>7.4f}"
            f" {statistics.median(cpu):>8.4f} {p(cpu, 0.95):>8.4f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3, help="finished games searched per round")
    parser.add_argument("--moves", type=int, default=30, help="timed moves per phase")
    parser.add_argument("--rounds", type=int, default=2, help="idle and proving phases, alternated")
    asyncio.run(main(parser.parse_args()))
