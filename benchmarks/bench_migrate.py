"""`python -m bot migrate-db` on a large SQLite database, and what a match and a move cost on disk on each backend.

Builds a SQLite database of --matches matches (default 10,000): --distinct real matches are played with random
legal turns through the service (all four games; finished, resigned and still active ones), then copied row by
row under new ids up to the count. Then it starts a throwaway PostgreSQL server (Debian's postgresql package,
as the tests do), times the move onto it (copy, then replay of every match), and measures sizes: bytes per
move (the moves table and its indexes, per row) and per match (every other table, per match) on both.

    .venv/bin/python benchmarks/bench_migrate.py [--matches 10000] [--distinct 60]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from ai.turns import random_actions  # noqa: E402
from bot.domain.clock import ManualClock  # noqa: E402
from bot.domain.seats import game_of, user_to_move  # noqa: E402
from bot.migrate_db import migrate  # noqa: E402
from bot.service.matches import MatchService  # noqa: E402
from bot.service.ratings import Ratings  # noqa: E402
from bot.store import open_store  # noqa: E402
from tests.postgres import start_cluster  # noqa: E402
from tests.racing import NoChallengeLimits  # noqa: E402

GAMES = ("bide", "begird", "playbai", "bump")
MATCH_TABLES = ("seats", "moves", "reminders", "offers", "quarantine", "rated_matches", "refused_notices")


async def play_distinct(path: Path, distinct: int, rng: random.Random) -> None:
    store = await open_store(str(path))
    clock = ManualClock()
    service = MatchService(store, clock, default_reminder_hours=24)
    service.limits = NoChallengeLimits()
    try:
        for n in range(distinct):
            a, b = (1000 + 2 * n, f"player{2 * n}"), (1001 + 2 * n, f"player{2 * n + 1}")
            match = await service.create(game_id=GAMES[n % 4], creator=a, invited=[b], guild_id=7, channel_id=8)
            await service.accept(match.id, b[0])
            await play_random_turns(service, match.id, rng.randint(10, 90), rng, lambda: rng.uniform(60, 86400))
            current = await service.get(match.id)
            if current.status == "active" and n % 3 == 0:
                await service.resign(match.id, a[0])
        await Ratings(service).catch_up()
    finally:
        await store.close()


async def play_random_turns(
    service: MatchService, match_id: int, plies: int, rng: random.Random, pause: Callable[[], float]
) -> None:
    """Up to ``plies`` whole random turns (any game), the clock moved ``pause()`` seconds before each."""
    for _ in range(plies):
        current = await service.get(match_id)
        game = game_of(current)
        if game.is_over:
            break
        service.clock.advance(pause())  # type: ignore[attr-defined]  # a ManualClock
        turn = game.format_turn(random_actions(game.copy(), rng))
        await service.play(match_id, user_to_move(current, game), turn)


def clone(path: Path, total: int) -> tuple[int, int]:
    """Copies of the played matches under new ids until there are ``total``; (matches, moves)."""
    db = sqlite3.connect(path)
    with db:
        template = [r[0] for r in db.execute("SELECT id FROM matches ORDER BY id")]
        columns = {t: [c[1] for c in db.execute(f"PRAGMA table_info({t})")] for t in ("matches", *MATCH_TABLES)}
        rows = {
            t: {
                m: db.execute(f"SELECT * FROM {t} WHERE {'id' if t == 'matches' else 'match_id'} = ?", (m,)).fetchall()
                for m in template
            }
            for t in columns
        }
        next_id = max(template) + 1
        while next_id <= total:
            source = template[(next_id - 1) % len(template)]
            for table, cols in columns.items():
                key = cols.index("id" if table == "matches" else "match_id")
                copies = [tuple(next_id if i == key else v for i, v in enumerate(row)) for row in rows[table][source]]
                if copies:
                    marks = ", ".join("?" * len(cols))
                    db.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", copies)
            next_id += 1
    matches = db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    moves = db.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return matches, moves


def sqlite_sizes(path: Path) -> dict[str, int]:
    """Bytes per table, its indexes included (SQLite's dbstat)."""
    db = sqlite3.connect(path)
    try:
        indexes = dict(db.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'").fetchall())
        sizes: dict[str, int] = {}
        for name, size in db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            table = indexes.get(name, name)
            sizes[table] = sizes.get(table, 0) + size
        return sizes
    finally:
        db.close()


async def postgres_sizes(url: str) -> dict[str, int]:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("VACUUM ANALYZE")
        rows = await connection.fetch(
            "SELECT tablename, pg_total_relation_size(quote_ident(tablename)) FROM pg_tables"
            " WHERE schemaname = 'public'"
        )
        return {r[0]: int(r[1]) for r in rows}
    finally:
        await connection.close()


def per_item(sizes: dict[str, int], matches: int, moves: int) -> tuple[float, float]:
    per_move = sizes.get("moves", 0) / moves
    rest = sum(v for k, v in sizes.items() if k not in ("moves", "schema_version", "sqlite_schema"))
    return rest / matches, per_move


async def main(args: argparse.Namespace) -> int:
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "big.sqlite3"
        started = time.perf_counter()
        await play_distinct(source, args.distinct, rng)
        matches, moves = clone(source, args.matches)
        print(
            f"built {matches:,} matches, {moves:,} moves in {time.perf_counter() - started:.1f} s "
            f"({source.stat().st_size / 1e6:.1f} MB of SQLite)",
            flush=True,
        )
        server = start_cluster()
        try:
            url = server.create_database("moved")
            started = time.perf_counter()
            report = await migrate(str(source), url)
            total = time.perf_counter() - started
            print(report.last_line())
            print(
                f"migrate-db, {matches:,} matches: {total:.1f} s in all (copy {report.copy_seconds:.1f} s, "
                f"replay check {report.verify_seconds:.1f} s)"
            )
            lite = per_item(sqlite_sizes(source), matches, moves)
            postgres = per_item(await postgres_sizes(url), matches, moves)
            print()
            print(f"{'bytes on disk':<40}{'SQLite':>10}{'PostgreSQL':>12}")
            print(f"{'per match (all but the move log)':<40}{lite[0]:>10.0f}{postgres[0]:>12.0f}")
            print(f"{'per move (the log, with its index)':<40}{lite[1]:>10.0f}{postgres[1]:>12.0f}")
            print(f"(averages over {matches:,} matches of {moves / matches:.0f} logged moves on average)")
        finally:
            server.remove()
    return 0 if not report.differ else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=60)
    sys.exit(asyncio.run(main(parser.parse_args())))
