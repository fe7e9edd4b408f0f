"""The puzzles' own process pool runs at low priority (ai/worker.py's Thinker(niceness=…), docs/puzzles.md):
a self-play game or a proof there yields the CPU to the bot and to the computer's pool."""

from __future__ import annotations

import asyncio
import os

from ai.worker import Thinker


async def test_the_puzzle_pool_runs_at_low_priority_and_the_computers_does_not():
    mine = os.nice(0)
    background, computer = Thinker(1, niceness=10), Thinker(1)
    try:
        loop = asyncio.get_running_loop()
        assert await loop.run_in_executor(background._executor(), os.nice, 0) == min(19, mine + 10)
        assert await loop.run_in_executor(computer._executor(), os.nice, 0) == mine
    finally:
        background.close()
        computer.close()
