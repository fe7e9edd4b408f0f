"""Soak: racing submissions on one match, through the emulator with the real discord.py bot.

Three races, each on a fresh two-player Bide match, at gaps cycling 0–4 ms:

* **double /move**: the player to move sends `/move e5` and then `/move a1`;
* **/move vs Bide button**: `/move e5` and a press of the board's Bide button;
* **resign vs /move**: the opponent confirms a resignation while the player to move sends `/move e5`.

After each trial the stored move log must replay to the stored state, and the number of
applied submissions must equal the number of logged moves. Prints the counts per race.

Run: .venv/bin/python benchmarks/soak_races.py [--trials 120]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.botworld import BotWorld  # noqa: E402
from tests.racing import GAPS_MS, gap_for, log_matches_state, race  # noqa: E402


async def trial(world: BotWorld, kind: str, gap: float) -> tuple[int, bool, int]:
    """(submissions applied, log replays to state, moves logged)."""
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    move = lambda text: lambda: world.emu.invoke(alice, thread, "move", {"move": text})  # noqa: E731
    if kind == "double /move":
        results = await race(move("e5"), move("a1"), gap)
    elif kind == "/move vs Bide button":
        board = next(m for m in world.emu.messages(thread) if m.buttons())
        bide = next(b for b in board.buttons() if b["label"] == "Bide")["custom_id"]
        results = await race(move("e5"), lambda: world.emu.press(alice, board, bide), gap)
    else:
        asked = await world.emu.invoke(bob, thread, "resign", {})
        confirm = asked.response.buttons()[0]["custom_id"]
        results = await race(move("e5"), lambda: world.emu.press(bob, asked.response, confirm), gap)
    applied = sum(1 for r in results if not isinstance(r, BaseException) and
                  ("played" in r.text or "resigned" in r.text) and not _refusal(r.text))
    consistent, logged = await log_matches_state(world.service, match_id)
    return applied, consistent, logged


def _refusal(text: str) -> bool:
    return any(reason in text for reason in ("not your turn", "position changed", "older position", "is over"))


async def run(trials: int) -> int:
    logging.basicConfig(level=logging.ERROR)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        world = await BotWorld(Path(tmp) / "soak.sqlite3").start()
        try:
            for kind in ("double /move", "/move vs Bide button", "resign vs /move"):
                started = time.perf_counter()
                double, broken, mismatched = 0, 0, 0
                for number in range(trials):
                    applied, consistent, logged = await trial(world, kind, gap_for(number))
                    if kind != "resign vs /move" and applied > 1:
                        double += 1
                    if not consistent:
                        broken += 1
                    if applied != logged:
                        mismatched += 1
                failures += double + broken + mismatched
                print(f"{kind}: {trials} trials at gaps {', '.join(f'{g:g}' for g in GAPS_MS)} ms: "
                      f"{double} double-applied, {broken} logs not replaying to the stored state, "
                      f"{mismatched} answers disagreeing with the log ({time.perf_counter() - started:.0f} s)")
            print(f"Discord rule violations: {len(world.emu.violations)}")
            await asyncio.sleep(1)  # let the last announcements land before the bot stops
        finally:
            await world.stop()
    return failures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=120)
    args = parser.parse_args()
    sys.exit(1 if asyncio.run(run(args.trials)) else 0)


if __name__ == "__main__":
    main()
