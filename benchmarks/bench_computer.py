"""Bot latency for people while the computer thinks (issue 11).

The bot runs as its own process (`python -m bot`, as in production; the computer thinks in
its process pool, one worker by default) against an emulator in this process. Ten
two-player Bide matches between people are played with paced moves (exponential think
time), twice:

* **alone**: nothing else happens;
* **computer thinking**: meanwhile, in other matches, players face the computer at
  ``--level`` (hard by default) on the standard Bide board and answer at once, so a search
  is running nearly all the time.

Prints the 50th/95th/99th percentile time from a person's /move to the bot's response with
the new picture, in each phase; and the computer's seconds per turn (from the person's
move in its match to the computer's board).

Run: .venv/bin/python benchmarks/bench_computer.py [--matches 10] [--turns 20] [--think 1.0]
     [--computer-matches 1] [--level hard]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from botprocess import BotProcess, percentile  # noqa: E402

from emulator.models import Channel, User  # noqa: E402
from games import load_state  # noqa: E402


def figures(ms: list[float]) -> str:
    return (
        f"p50 {percentile(ms, 50):.0f} ms, p95 {percentile(ms, 95):.0f} ms, p99 {percentile(ms, 99):.0f} ms "
        f"(mean {statistics.mean(ms):.0f} ms, {len(ms)} moves)"
    )


class Bench(BotProcess):
    def __init__(self, tmp: Path, people: int) -> None:
        super().__init__(tmp)
        self.people = people

    async def start(self) -> None:
        await super().start()
        self.users = [self.emu.create_user(f"player{i}") for i in range(self.people)]

    async def computer_match(self, person, level: str):
        known = {t.id for t in self.emu.threads(self.channel)}
        result = await self.emu.invoke(person, self.channel, "play", {"game": "bide", "computer": level})
        if result.ephemeral:
            raise RuntimeError(result.text)
        return await self.new_thread(known)

    def state_of(self, thread_id: int):
        with sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True) as db:
            row = db.execute("SELECT state, status FROM matches WHERE thread_id = ?", (thread_id,)).fetchone()
        return load_state(json.loads(row[0])), row[1]

    async def play_matches(
        self, matches: list[tuple[Channel, User, User]], turns: int, think: float, latencies: list[float]
    ) -> None:
        await asyncio.gather(
            *(
                self.play_people(*m, random.Random(i), turns, think, latencies, timeout=30)
                for i, m in enumerate(matches)
            )
        )

    async def play_computer(self, thread, person, rng, stop: asyncio.Event, seconds: list[float]) -> None:
        """The person answers at once, so the computer is (nearly) always thinking."""
        while not stop.is_set():
            game, status = self.state_of(thread.id)
            if status != "active":
                return
            legal = [n for n in game.legal_notations() if n != "bide"] or game.legal_notations()
            posted = asyncio.ensure_future(
                self.emu.wait_for_message(
                    thread, check=lambda m: bool(m.attachments) and m.content.startswith("**🤖"), timeout=60
                )
            )
            start = time.perf_counter()
            result = await self.emu.invoke(person, thread, "move", {"move": rng.choice(legal)}, timeout=30)
            if result.ephemeral:
                posted.cancel()
                raise RuntimeError(result.text)
            if "is thinking" not in (result.response.content if result.response else ""):
                posted.cancel()
                return  # the game ended on the person's move
            await posted
            seconds.append(time.perf_counter() - start)


async def run(matches: int, turns: int, think: float, computer_matches: int, level: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(Path(tmp), 4 * matches + computer_matches)
        await bench.start()
        try:
            users = bench.users
            for phase in (
                "alone",
                f"computer thinking ({computer_matches} match{'es' * (computer_matches != 1)} at {level})",
            ):
                offset = 0 if phase == "alone" else 2 * matches
                pairs = []
                for i in range(matches):
                    a, b = users[offset + 2 * i], users[offset + 2 * i + 1]
                    pairs.append((await bench.people_match(a, b), a, b))
                stop = asyncio.Event()
                computer_seconds: list[float] = []
                tasks = []
                if phase != "alone":
                    for j in range(computer_matches):
                        person = users[4 * matches + j]
                        thread = await bench.computer_match(person, level)
                        tasks.append(
                            asyncio.ensure_future(
                                bench.play_computer(thread, person, random.Random(100 + j), stop, computer_seconds)
                            )
                        )
                    await asyncio.sleep(1.0)  # the first search is under way
                latencies: list[float] = []
                started = time.perf_counter()
                await bench.play_matches(pairs, turns, think, latencies)
                wall = time.perf_counter() - started
                stop.set()
                print(f"{phase}: {len(latencies)} moves by people in {wall:.1f} s")
                print(f"  /move -> response with picture: {figures(latencies)}")
                if tasks:
                    await asyncio.wait(tasks, timeout=30)
                    if computer_seconds:
                        print(
                            f"  computer at {level}: {len(computer_seconds)} turns, person's move -> computer's "
                            f"board mean {statistics.mean(computer_seconds):.2f} s, "
                            f"p95 {percentile(computer_seconds, 95):.2f} s (its search ran through the phase)"
                        )
        finally:
            print(
                f"Discord rule violations: {len(bench.emu.violations)}; "
                f"429 rate-limit answers: {len(bench.emu.rate_limit_hits)}"
            )
            await bench.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--computer-matches", type=int, default=1)
    parser.add_argument("--level", default="hard")
    args = parser.parse_args()
    asyncio.run(run(args.matches, args.turns, args.think, args.computer_matches, args.level))


if __name__ == "__main__":
    main()
