"""Soak: racing submissions on one match, on the service alone and through the emulator with the
real discord.py bot.

Three races, each on a fresh two-player Bide match, at gaps cycling 0–4 ms (on the service,
first 0–35 turns of the event loop, which land the second submission on each await point
of the first):

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

from bot.domain.clock import ManualClock  # noqa: E402
from bot.service.matches import MatchService  # noqa: E402
from bot.store.sqlite import SqliteStore  # noqa: E402
from tests.botworld import BotWorld  # noqa: E402
from tests.racing import GAPS_MS, NoChallengeLimits, gap_for, gaps, log_matches_state, race  # noqa: E402

RACES = ("double /move", "/move vs Bide button", "resign vs /move")


async def trial(world: BotWorld, kind: str, gap: float) -> tuple[int, bool, int]:
    """(submissions applied, log replays to state, moves logged)."""
    alice, bob = world.users[:2]
    world.service.limits = NoChallengeLimits()  # hundreds of alice-bob challenges: the limits are not soaked here
    match_id, thread = await world.start_two_player()
    move = lambda text: lambda: world.emu.invoke(alice, thread, "move", {"move": text})  # noqa: E731
    if kind == "double /move":
        results = await race(move("e5"), move("a1"), gap)
    elif kind == "/move vs Bide button":
        board = next(m for m in world.emu.messages(thread) if m.buttons())
        bide = next(b for b in board.buttons() if b["label"] == "Bide")["custom_id"]
        results = await race(move("e5"), lambda: world.emu.press(alice, board, bide), gap)
    else:
        asked = (await world.emu.invoke(bob, thread, "resign", {})).response
        assert asked is not None  # /resign asks for a confirmation
        confirm = asked.buttons()[0]["custom_id"]
        results = await race(move("e5"), lambda: world.emu.press(bob, asked, confirm), gap)
    applied = sum(
        1
        for r in results
        if not isinstance(r, BaseException) and ("played" in r.text or "resigned" in r.text) and not _refusal(r.text)
    )
    consistent, logged = await log_matches_state(world.service, match_id)
    return applied, consistent, logged


async def service_trial(service: MatchService, kind: str, gap: float | int) -> tuple[int, bool, int]:
    """The same races on the service alone, where an int gap lands on each await point in turn."""
    match = await service.create(game_id="bide", creator=(1, "alice"), invited=[(2, "bob")], guild_id=1, channel_id=1)
    await service.accept(match.id, 2)
    version = (await service.get(match.id)).version
    move = lambda text: lambda: service.play(match.id, 1, text)  # noqa: E731
    if kind == "double /move":
        results = await race(move("e5"), move("a1"), gap)
    elif kind == "/move vs Bide button":
        results = await race(move("e5"), lambda: service.play(match.id, 1, "bide", expected_version=version), gap)
    else:
        results = await race(move("e5"), lambda: service.resign(match.id, 2), gap)
    applied = sum(1 for r in results if not isinstance(r, BaseException))
    consistent, logged = await log_matches_state(service, match.id)
    return applied, consistent, logged


def _refusal(text: str) -> bool:
    return any(reason in text for reason in ("not your turn", "position changed", "older position", "is over"))


def report(where: str, kind: str, outcomes: list[tuple[int, bool, int]], spread: str, seconds: float) -> int:
    double = sum(1 for applied, _, _ in outcomes if kind != "resign vs /move" and applied > 1)
    broken = sum(1 for _, consistent, _ in outcomes if not consistent)
    mismatched = sum(1 for applied, _, logged in outcomes if applied != logged)
    print(
        f"{where}, {kind}: {len(outcomes)} trials at gaps {spread}: {double} double-applied, "
        f"{broken} logs not replaying to the stored state, {mismatched} answers disagreeing with the log "
        f"({seconds:.0f} s)"
    )
    return double + broken + mismatched


async def run(trials: int) -> int:
    logging.basicConfig(level=logging.ERROR)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "service.sqlite3")
        service = MatchService(store, ManualClock(), limits=NoChallengeLimits())  # the limits are not soaked here
        spread = f"0-35 event-loop turns and {', '.join(f'{g:g}' for g in GAPS_MS)} ms"
        for kind in RACES:
            started = time.perf_counter()
            outcomes = [await service_trial(service, kind, gap) for gap in gaps(trials, loop_turns=36)]
            failures += report("service", kind, outcomes, spread, time.perf_counter() - started)
        await store.close()

        world = await BotWorld(Path(tmp) / "soak.sqlite3").start()
        try:
            spread = f"{', '.join(f'{g:g}' for g in GAPS_MS)} ms"
            for kind in RACES:
                started = time.perf_counter()
                outcomes = [await trial(world, kind, gap_for(number)) for number in range(trials)]
                failures += report("through Discord", kind, outcomes, spread, time.perf_counter() - started)
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
