"""Computer turns per minute with one worker and with two, on one PostgreSQL (issue 21: adding a worker adds capacity).

Starts a throwaway PostgreSQL server (as the tests do), creates --matches matches of a person against the
computer at --level, each with the computer to move, and queues their turns; then starts W real worker
processes (`python -m bot worker --concurrency 1`) and times until every turn is stored. Done for W = 1
and W = 2 (fresh matches each time), twice in alternation, and printed side by side. A worker also counts
its start-up (its process pool), as a worker started on demand would.

    .venv/bin/python benchmarks/bench_workers.py [--matches 24] [--level medium] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.domain.seats import game_of, user_to_move  # noqa: E402
from bot.jobs import queue  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.store.postgres import PostgresStore  # noqa: E402
from tests.postgres import start_cluster  # noqa: E402
from tests.racing import NoChallengeLimits  # noqa: E402
from tests.worker_processes import WorkerProcess, empty_queue, jobs, system_service  # noqa: E402


async def computer_turns_due(service, count: int, level: str, first_user: int) -> list[int]:
    """``count`` matches, each with the computer to move (the person opened, or the computer seat opens)."""
    ids = []
    for n in range(count):
        person = (first_user + n, f"player{first_user + n}")
        match = await service.create(
            game_id="bide", creator=person, invited=[], guild_id=1, channel_id=2, options_text="", computer=level
        )
        await service.start_if_ready(match.id)
        current = await service.get(match.id)
        if user_to_move(current, game_of(current)) == person[0]:
            current = (await service.play(match.id, person[0], game_of(current).legal_notations()[n])).match
        await service.mark_announced(match.id, current.version, 2, 3)  # nobody posts boards here
        ids.append(match.id)
    return ids


async def one_run(url: str, workers: int, count: int, level: str, first_user: int, logs: Path) -> float:
    """Seconds from starting ``workers`` worker processes until the computer has played in every match."""
    store = await open_store(url)
    assert isinstance(store, PostgresStore)
    service = system_service(store)
    service.limits = NoChallengeLimits()
    await empty_queue(store)
    try:
        ids = await computer_turns_due(service, count, level, first_user)
        sender = queue.JobQueue(store.pool)
        for match_id in ids:
            match = await store.get_match(match_id)
            assert match is not None
            await sender.turn_due(match_id, match.version)
        assert len(await jobs(store)) == count
        started = time.perf_counter()
        fleet = [WorkerProcess(url, logs, concurrency=1, stale_seconds=30) for _ in range(workers)]
        try:
            while True:
                left = await store.pool.fetchval(
                    "SELECT count(*) FROM matches m WHERE m.id = ANY($1::bigint[]) AND NOT EXISTS "
                    "(SELECT 1 FROM moves v WHERE v.match_id = m.id AND v.user_id < 0)",
                    ids,
                )
                if left == 0:
                    break
                if time.perf_counter() - started > 900:
                    raise SystemExit(f"{left} turns still not played after 15 minutes:\n{fleet[0].output()[-2000:]}")
                await asyncio.sleep(0.05)
            took = time.perf_counter() - started
            shares = [worker.output().count(": stored") for worker in fleet]
            print(f"  {workers} worker(s): {count} turns in {took:.1f} s (turns stored by each: {shares})", flush=True)
            return took
        finally:
            for worker in fleet:
                worker.stop()
    finally:
        await store.close()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-workers-") as scratch:
        cluster = start_cluster()
        try:
            url = cluster.create_database("bench_workers")
            store = await open_store(url)  # creates the schema once
            await store.close()
            seconds: dict[int, list[float]] = {1: [], 2: []}
            first_user = 10_000
            for _ in range(args.rounds):
                for workers in (1, 2):
                    took = await one_run(url, workers, args.matches, args.level, first_user, Path(scratch) / "logs")
                    first_user += args.matches
                    seconds[workers].append(took)
        finally:
            cluster.remove()
    per_minute = {w: args.matches * 60 / statistics.median(s) for w, s in seconds.items()}
    print()
    print(f"computer turns per minute, level {args.level}, {args.matches} turns per run (median of {args.rounds})")
    print(f"{'workers':>8} {'turns/min':>10} {'vs 1':>6}")
    for workers, rate in per_minute.items():
        print(f"{workers:>8} {rate:>10.1f} {rate / per_minute[1]:>5.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=24, help="computer turns per run")
    parser.add_argument("--level", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument("--rounds", type=int, default=2, help="runs of each worker count, alternated")
    asyncio.run(main(parser.parse_args()))
