"""A match's life, measured in CPU (time.process_time): the parts that run often or at scale.

* autocomplete while a Bide release is owed (every choice is a whole turn, completed by search);
* the time-limit pass over many running matches (how long one minute's check costs);
* settling the ratings of a finished match (OpenSkill, with the log read back);
* the start-up outage recovery (one UPDATE over every running clock).

Run: .venv/bin/python benchmarks/bench_lifecycle.py [--matches 500]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.chat.words.moves import move_choices  # noqa: E402
from bot.domain.clock import ManualClock  # noqa: E402
from bot.service.matches import MatchService  # noqa: E402
from bot.service.ratings import Ratings  # noqa: E402
from bot.service.suggestions import suggest_moves  # noqa: E402
from bot.service.timelimits import TimeLimits  # noqa: E402
from bot.store.sqlite import SqliteStore  # noqa: E402
from games import new_game  # noqa: E402
from tests.racing import NoChallengeLimits  # noqa: E402


def cpu(label: str, runs: int, work) -> float:
    start = time.process_time()
    for _ in range(runs):
        work()
    per = (time.process_time() - start) / runs
    print(f"{label}: {per * 1000:.2f} ms CPU each ({runs} runs)")
    return per


def owed_release_position(side: int, hand: int):
    """A Bide position where the player to move owes a release of ``hand`` discs."""
    game = new_game("bide", 2, {"side": side})
    for _ in range(hand - 1):
        game.play_turn("bide")
        game.play_turn("bide")
    cells = [n for n in game.legal_notations() if n != "bide"][:hand]
    game.play_turn(",".join(cells))
    return game


async def bench_service(matches: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "bench.sqlite3")
        clock = ManualClock()
        service = MatchService(store, clock)
        # The bench makes many matches at once: stub the per-player challenge limit out.
        service.limits = NoChallengeLimits()
        limits, ratings = TimeLimits(service), Ratings(service)
        ids = []
        for i in range(matches):
            match = await service.create(
                game_id="bide",
                creator=(10 + 2 * i, "a"),
                invited=[(11 + 2 * i, "b")],
                guild_id=1,
                channel_id=2,
                days_per_move=3,
            )
            await service.accept(match.id, 11 + 2 * i)
            ids.append(match.id)
        clock.advance(2.5 * 86400)  # every clock within 24 h of its deadline: each pass has work
        start = time.process_time()
        jobs = await limits.due()
        print(
            f"time-limit pass over {matches} running matches: {(time.process_time() - start) * 1000:.1f} ms CPU "
            f"({len(jobs)} warnings due)"
        )
        start = time.process_time()
        for job in jobs:
            await limits.done(job)
        print(f"recording {len(jobs)} warnings as sent: {(time.process_time() - start) * 1000:.1f} ms CPU")
        start = time.process_time()
        quiet = await limits.due()
        print(f"the next pass, nothing due: {(time.process_time() - start) * 1000:.1f} ms CPU ({len(quiet)} due)")
        start = time.process_time()
        await store.record_outage(clock.now() - 3600, clock.now())
        print(f"outage recovery over {matches} running clocks: {(time.process_time() - start) * 1000:.1f} ms CPU")
        settled = ids[: min(100, matches)]
        for match_id in settled:
            a = (await service.get(match_id)).seats[0].user_id
            b = (await service.get(match_id)).seats[1].user_id
            await service.play(match_id, a, "d4")
            await service.play(match_id, b, "a1")
        start = time.process_time()
        for match_id in settled:
            await service.resign(match_id, (await service.get(match_id)).seats[0].user_id)
        resign_cpu = time.process_time() - start
        again = 0.0
        for match_id in settled:
            match = await service.get(match_id)
            t = time.process_time()
            await ratings.settle(match)  # the bench's service has no finish hook: this is the first settle
            again += time.process_time() - t
        print(f"resigning a match after two turns (no rating hook): {resign_cpu / len(settled) * 1000:.2f} ms CPU each")
        print(f"rating settle of a finished match: {again / len(settled) * 1000:.2f} ms CPU each")
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=500)
    args = parser.parse_args()
    for side, hand in ((5, 2), (5, 4), (6, 6)):
        game = owed_release_position(side, hand)
        assert game.owed[game.to_move - 1], "the position must owe a release"
        cpu(
            f"autocomplete, owed release of {game.hands[game.to_move - 1]} (side {side})",
            20,
            lambda g=game: move_choices(suggest_moves(g, "")),  # the choices and their words, as /move shows them
        )
    asyncio.run(bench_service(args.matches))
    return 0


if __name__ == "__main__":
    sys.exit(main())
