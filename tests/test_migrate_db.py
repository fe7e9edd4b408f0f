"""`python -m bot migrate-db`: every row of every table moved from SQLite onto a real PostgreSQL server,
every copied match proved by replay, and the refusals that keep a live bot's data safe."""

from __future__ import annotations

import asyncio
import json
import math
import os
import sqlite3
import subprocess
import sys
from itertools import count
from pathlib import Path

import asyncpg
import pytest

from bot.domain.clock import ManualClock
from bot.domain.model import GuildSettings, Preferences
from bot.domain.puzzles import AttemptEnd, NewPuzzle, PuzzlePlayerRow
from bot.migrate_db import migrate
from bot.service.matches import MatchService
from bot.service.offers import Offers
from bot.service.ratings import Ratings
from bot.service.tournaments import Tournaments
from bot.store import open_store
from bot.store.sqlite import ProcessLock
from tests.postgres import PASSWORD

GUILD, CHANNEL = 9000, 9001
HUGE = 2**63 - 1  # the largest id a BIGINT holds (Discord's ids are below it)
ALICE, BOB, CAROL, DAN = (101, "alice"), (102, "bob"), (103, "carol"), (HUGE - 7, "dan ∂")
ROOT = Path(__file__).resolve().parent.parent
_NAMES = count(1)


@pytest.fixture
def target(postgres_server) -> str:
    """A new, empty database on the test server: each test has its own target."""
    return postgres_server.create_database(f"move_{os.getpid()}_{next(_NAMES)}")


async def fill(path: Path) -> dict[str, int]:
    """A source that uses every table, ids near 2^63 included; its match ids by role."""
    store = await open_store(str(path))
    service = MatchService(store, ManualClock(), default_reminder_hours=24)
    ids = {}

    async def started(a, b, guild=GUILD):
        service.clock.advance(61)
        match = await service.create(game_id="bide", creator=a, invited=[b], guild_id=guild, channel_id=CHANNEL)
        await service.accept(match.id, b[0])
        return match.id

    try:
        ids["played"] = await started(ALICE, BOB)
        for user, cell in ((ALICE, "e5"), (BOB, "e4"), (ALICE, "d5")):
            await service.play(ids["played"], user[0], cell)
        await Offers(service).offer(ids["played"], ALICE[0], "undo")
        ids["huge"] = await started(CAROL, DAN, guild=HUGE)
        await service.play(ids["huge"], CAROL[0], "e5")
        await service.add_premove(ids["huge"], CAROL[0], "e4; d5")  # conditional moves, and an analysis board
        await service.explore(ids["played"], ALICE[0], turn="a1")
        ids["finished"] = await started(BOB, CAROL)
        for user, cell in ((BOB, "e5"), (CAROL, "e4"), (BOB, "d5"), (CAROL, "d4")):
            await service.play(ids["finished"], user[0], cell)
        await service.resign(ids["finished"], CAROL[0])
        await Ratings(service).catch_up()
        ids["set_aside"] = await started(ALICE, CAROL)
        await store.quarantine(ids["set_aside"], "its stored state differs from what its move log replays to", 5.0)
        service.clock.advance(61)
        ids["lobby"] = (
            await service.create(game_id="bump", creator=DAN, invited=[ALICE], guild_id=GUILD, channel_id=CHANNEL)
        ).id
        await store.set_preferences(DAN[0], HUGE, Preferences(reminders=True, delay_hours=6.5, via="ping"))
        shared = GuildSettings(HUGE - 1, 2.0, 12.0, language="fr", share_puzzles=True)
        await store.set_guild_settings(HUGE, shared, 7.0)
        await store.see_guild_language(HUGE, "en", 7.5)
        await store.see_player_language(DAN[0], "fr", 7.5)
        await store.choose_player_language(DAN[0], "en", 7.6)
        await store.block(ALICE[0], DAN[0], 8.0)
        await store.add_vacation(BOB[0], 10.0, 86410.5)
        await store.beat(1000.0)
        await store.record_outage(1000.0, 1500.0)
        await store.count_refused_try(ids["played"], "reminder", 3)
        await store.grant_requests(1_700_000_000, 5, 20)
        await store.pace_identify(0, 5.5)  # the bucket's last IDENTIFY (migration 0025)
        service.clock.advance(61)
        tournaments = Tournaments(service)
        event = await tournaments.create(
            organizer=ALICE[0], guild_id=GUILD, channel_id=CHANNEL, game_id="bump", fmt="swiss"
        )
        for player in (ALICE, BOB, CAROL):  # three: one match and a bye
            await tournaments.join(event.id, GUILD, player)
        [started] = (await tournaments.start(event.id, GUILD, ALICE[0])).started
        ids["tournament_game"] = started.match.id
        await store.set_tournament_aside(event.id, "its stored row cannot be read (options …)", 9.5)
        await store.claim_review(ids["finished"], 5, 9.0, 60.0)
        await store.save_review(ids["finished"], {"review": {"players": 2, "accuracy": {"1": 87.5}}})
        await fill_puzzles(store, ids["finished"])
    finally:
        await store.close()
    return ids


async def fill_puzzles(store, match_id: int) -> None:
    """Puzzles (docs/puzzles.md): a searched match's two puzzles, an attempt solved, a player's rating, a server's
    daily setting, a day's post and the next day's held by a claim."""
    assert await store.claim_puzzle_scan(match_id, 9.0, 60.0)
    found = [NewPuzzle("bide", {"format": 1, "ply": ply}, 1500.5 + ply, ply) for ply in (2, 3)]
    assert await store.finish_puzzle_scan(match_id, GUILD, found, 9.5) == 2
    puzzle = await store.pick_puzzle(GUILD, DAN[0], 1500.0, None)
    attempt = await store.start_puzzle_attempt(puzzle.id, DAN[0], GUILD, 10.0)
    end = AttemptEnd(
        PuzzlePlayerRow(DAN[0], 1620.25, 240.5, 0.06, solved=1, streak=1, best_streak=1), 120.25, -80.5, 300.0
    )
    assert await store.advance_puzzle_attempt(
        puzzle.id, DAN[0], attempt.version, ["e5"], status="solved", end=end, now=11.0
    )
    await store.set_daily_puzzle(HUGE, CHANNEL, 9)
    await store.set_daily_puzzle(GUILD, CHANNEL, 23)
    daily = await store.claim_daily_puzzle(GUILD, "2026-11-28", CHANNEL, 12.0, 60.0)
    await store.daily_puzzle_posted(GUILD, daily.day, HUGE - 3)
    held = await store.claim_daily_puzzle(GUILD, "2026-11-29", CHANNEL, 13.0, 60.0)  # a claim named by its start
    assert held is not None and held.puzzle_id != daily.puzzle_id


def sqlite_rows(path: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(path) as db:
        names = [
            r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")
        ]
        return {n: sorted(db.execute(f"SELECT * FROM {n}").fetchall(), key=repr) for n in names}


async def postgres_rows(url: str, tables) -> dict[str, list[tuple]]:
    connection = await asyncpg.connect(url)
    try:
        return {t: sorted((tuple(r) for r in await connection.fetch(f"SELECT * FROM {t}")), key=repr) for t in tables}
    finally:
        await connection.close()


async def matches_in(url: str) -> int:
    """Matches the database holds (0 when not even the schema was written)."""
    connection = await asyncpg.connect(url)
    try:
        if not await connection.fetchval("SELECT to_regclass('matches') IS NOT NULL"):
            return 0
        return int(await connection.fetchval("SELECT COUNT(*) FROM matches"))
    finally:
        await connection.close()


def same(left, right) -> bool:
    if isinstance(left, float) or isinstance(right, float):
        return math.isclose(left, right, rel_tol=0, abs_tol=0) if None not in (left, right) else left == right
    return left == right and type(left) is type(right)


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


async def test_every_row_of_every_table_is_copied_exactly_and_the_bot_carries_on_there(tmp_path, target):
    source = tmp_path / "hexplay.sqlite3"
    ids = await fill(source)
    before = sqlite_rows(source)
    empty = sorted(t for t, rows in before.items() if not rows and t != "schema_version")
    assert empty == [], f"the source must use every table, to prove each is copied: {empty}"

    report = await migrate(str(source), target)

    assert report.differ == []
    assert report.last_line() == f"{len(before['matches'])} matches, {len(before['moves'])} moves copied; 0 differ"
    assert report.already_set_aside == 1  # copied as it was, and not counted as a difference
    tables = [t for t in before if t != "schema_version"]
    after = await postgres_rows(target, tables)
    for table in tables:
        assert len(after[table]) == len(before[table]), table
        for old, new in zip(before[table], after[table], strict=True):
            assert all(same(a, b) for a, b in zip(old, new, strict=True)), (table, old, new)
    assert sqlite_rows(source) == before  # the source is left as it was

    store = await open_store(target)  # the bot on the new database: it goes on where it was
    try:
        service = MatchService(store, ManualClock(3_000_000_000.0), default_reminder_hours=24)
        assert await service.verify_all() == []  # the set-aside match stays aside, nothing else is
        assert (await service.get(ids["huge"])).seats[1].user_id == HUGE - 7
        await service.play(ids["played"], BOB[0], "d4")
        newer = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
        assert newer.id == max(ids.values()) + 1  # new ids continue after the copied ones
        later = await Tournaments(service).create(
            organizer=BOB[0], guild_id=GUILD, channel_id=CHANNEL, game_id="bump", fmt="swiss"
        )
        assert later.id == 2  # and so do new tournaments' ids
    finally:
        await store.close()


async def test_a_copied_match_whose_log_does_not_replay_is_counted_and_named(tmp_path, target):
    source = tmp_path / "hexplay.sqlite3"
    ids = await fill(source)
    with sqlite3.connect(source) as db:  # damaged after the bot last checked it: not set aside yet
        [(state,)] = db.execute("SELECT state FROM matches WHERE id = ?", (ids["played"],))
        broken = json.loads(state)
        broken["position"]["board"] = {}
        db.execute("UPDATE matches SET state = ? WHERE id = ?", (json.dumps(broken), ids["played"]))
    report = await migrate(str(source), target)
    assert [match_id for match_id, _ in report.differ] == [ids["played"]]
    assert report.last_line().endswith("; 1 differ")


async def test_a_value_postgresql_cannot_hold_stops_the_move_names_the_row_and_writes_nothing(tmp_path, target):
    source = tmp_path / "hexplay.sqlite3"
    ids = await fill(source)
    with sqlite3.connect(source) as db:
        db.execute("PRAGMA ignore_check_constraints = ON")
        db.execute("UPDATE seats SET user_id = 'x' WHERE match_id = ? AND seat = 1", (ids["lobby"],))
    done = run_cli("migrate-db", "--from", str(source), "--to", target)
    assert done.returncode == 1, done
    assert f"match {ids['lobby']}: seats.user_id holds 'x'" in done.stderr
    assert await matches_in(target) == 0  # the copy was one transaction


async def test_the_command_line_copies_refuses_a_second_copy_and_never_shows_the_password(tmp_path, target):
    source = tmp_path / "hexplay.sqlite3"
    await fill(source)
    first = run_cli("migrate-db", "--from", str(source), f"--to={target}")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[-1] == "6 matches, 9 moves copied; 0 differ"
    assert "rows" in first.stderr and "replaying" in first.stderr  # the counts, table by table
    again = run_cli("migrate-db", "--from", str(source), "--to", target)
    assert again.returncode == 2
    assert again.stderr.strip().splitlines() == [
        "migrate-db: the target database already holds 6 matches: migrate-db copies into an empty database only "
        "(nothing written)."
    ]
    assert await matches_in(target) == 6
    for done in (first, again):
        assert PASSWORD not in done.stdout + done.stderr


async def test_a_source_a_running_bot_holds_is_refused(tmp_path, target):
    source = tmp_path / "hexplay.sqlite3"
    await fill(source)
    lock = ProcessLock(source)
    lock.acquire()  # as the running bot holds it
    try:
        done = run_cli("migrate-db", "--from", str(source), "--to", target)
    finally:
        lock.release()
    assert done.returncode == 2 and "already using" in done.stderr and "stop it first" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert await matches_in(target) == 0


@pytest.mark.parametrize(
    "args, code, says",
    [
        (["--from", "missing.sqlite3", "--to", "postgresql://u:hunter2@127.0.0.1:9/x"], 2, "no SQLite database"),
        (["--from", "a", "--to", "mysql://u:hunter2@h/x"], 2, "must be a PostgreSQL URL"),
        (["--from", "a", "--tox", "postgresql://u:hunter2@h/x"], 2, "usage: python -m bot migrate-db"),
        (["--from", "a"], 2, "usage: python -m bot migrate-db"),
    ],
)
def test_wrong_arguments_get_one_line_and_no_password(args, code, says):
    done = run_cli("migrate-db", *args)
    assert done.returncode == code and says in done.stderr, done
    assert "hunter2" not in done.stdout + done.stderr and len(done.stderr.strip().splitlines()) == 1


async def test_an_unreachable_target_is_one_line_without_the_password(tmp_path):
    source = tmp_path / "hexplay.sqlite3"
    await fill(source)
    started = asyncio.get_running_loop().time()
    done = run_cli("migrate-db", "--from", str(source), "--to", "postgresql://u:hunter2@127.0.0.1:9/x")
    assert done.returncode == 1 and "cannot reach PostgreSQL at postgresql://u@127.0.0.1:9/x" in done.stderr, done
    assert "hunter2" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert asyncio.get_running_loop().time() - started < 10
