"""Start-up time at 100,000 active matches: from `python -m bot` to answering a command.

Builds a SQLite database of --matches active matches (a few real ones of the four games played through
the service, then copied row by row under new ids, their boards marked posted and their reminders days
away, as in a quiet bot), and for PostgreSQL copies it onto a throwaway server (Debian's postgresql
package). For each backend it starts the bot as its own process against the loopback emulator and times
until the bot answers a slash command. Beside it, the baseline in the same run: what the start-up used to do
before connecting, replaying every active match (``verify_all``), timed on the same database.

    .venv/bin/python benchmarks/bench_startup.py [--matches 100000] [--backends sqlite,postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_migrate import clone, play_random_turns  # noqa: E402
from botprocess import BotProcess  # noqa: E402

from bot.domain.clock import ManualClock  # noqa: E402
from bot.migrate_db import migrate  # noqa: E402
from bot.service.matches import MatchService  # noqa: E402
from bot.store import open_store  # noqa: E402
from tests.postgres import start_cluster  # noqa: E402
from tests.racing import NoChallengeLimits  # noqa: E402

GAMES = ("bide", "begird", "playbai", "bump")
TARGET_SECONDS = 5.0


async def played_in_progress(path: Path, distinct: int) -> None:
    """``distinct`` matches of the four games, 20 random turns into play (none finished)."""
    import random

    rng = random.Random(7)
    store = await open_store(str(path))
    clock = ManualClock()
    service = MatchService(store, clock, default_reminder_hours=24)
    service.limits = NoChallengeLimits()
    try:
        for n in range(distinct):
            a, b = (5000 + 2 * n, f"p{2 * n}"), (5001 + 2 * n, f"p{2 * n + 1}")
            match = await service.create(game_id=GAMES[n % 4], creator=a, invited=[b], guild_id=11, channel_id=12)
            await service.accept(match.id, b[0])
            await play_random_turns(service, match.id, 20, rng, lambda: 600.0)
    finally:
        await store.close()


def quiet(path: Path) -> int:
    """As in a bot that has been running: every board posted, no reminder due for days; the active count."""
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM matches WHERE status <> 'active'")  # cascade by hand: only active ones are wanted
        for table in ("seats", "moves", "reminders", "offers", "rated_matches", "refused_notices", "quarantine"):
            db.execute(f"DELETE FROM {table} WHERE match_id NOT IN (SELECT id FROM matches)")
        db.execute("UPDATE matches SET announced_version = version, thread_id = 900000 + id")
        db.execute("UPDATE reminders SET remind_at = ?", (time.time() + 10 * 86400,))
        return int(db.execute("SELECT COUNT(*) FROM matches WHERE status = 'active'").fetchone()[0])


async def time_to_answer(tmp: Path, db_path: Path, url: str) -> float:
    bot = BotProcess(tmp, database_url=url)
    bot.db_path = db_path
    await bot.emu.start()
    bot.guild = bot.emu.create_guild("Bench")
    bot.channel = bot.emu.create_text_channel(bot.guild, "games")
    user = bot.emu.create_user("newcomer")
    started = time.perf_counter()
    await bot.start_process()
    try:
        await bot.emu.wait_until_ready(timeout=300)
        answer = await bot.emu.invoke(user, bot.channel, "games", {}, timeout=60)
        assert answer.text, answer
        return time.perf_counter() - started
    finally:
        await bot.stop()


async def full_check_seconds(target: str) -> float:
    """The baseline: what start-up did before connecting, every active match replayed."""
    store = await open_store(target)
    try:
        service = MatchService(store, ManualClock(), default_reminder_hours=24)
        started = time.perf_counter()
        paused = await service.verify_all()
        assert paused == [], paused
        return time.perf_counter() - started
    finally:
        await store.close()


async def main(args: argparse.Namespace) -> int:
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        source = tmp / "big.sqlite3"
        began = time.perf_counter()
        await played_in_progress(source, args.distinct)
        clone(source, args.matches)
        active = quiet(source)
        print(f"built {active:,} active matches in {time.perf_counter() - began:.0f} s", flush=True)
        server = start_cluster() if "postgres" in backends else None
        try:
            for backend in backends:
                url = ""
                if backend == "postgres":
                    assert server is not None
                    url = server.create_database("startup")
                    await migrate(str(source), url, verify=False)
                ready = await time_to_answer(tmp, source, url)
                baseline = await full_check_seconds(url or str(source))
                rows.append((backend, ready, baseline))
                print(
                    f"{backend}: answering after {ready:.1f} s; the old full check alone: {baseline:.1f} s", flush=True
                )
        finally:
            if server is not None:
                server.remove()
    print()
    print(f"start-up at {active:,} active matches (target: answering within {TARGET_SECONDS:g} s)")
    print(f"{'':<12}{'now: start to first answer':>28}{'before: + replaying every match':>34}")
    for backend, ready, baseline in rows:
        print(f"{backend:<12}{ready:>26.1f} s{ready + baseline:>32.1f} s")
    return 0 if all(ready < TARGET_SECONDS for _, ready, _ in rows) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=40)
    parser.add_argument("--backends", default="sqlite,postgres")
    sys.exit(asyncio.run(main(parser.parse_args())))
