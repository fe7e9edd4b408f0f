"""A row that breaks one of the schema's constraints sets its match or event aside, and the bot starts (issue 34,
item 4).

SQLite's integrity check (``PRAGMA quick_check``) reports such a row ("CHECK constraint failed in matches"),
and the bot used to refuse to start, telling the operator to restore a backup of a file whose only fault was
one row. Now the row is found (bot/store/sqlite/breaches.py) and treated as an unreadable row is: its match or
event is paused and its players or organizer told once, everything else is served, and once repaired it is
back in play at the next start. Rows are damaged with CHECK constraints off, as a hand edit or a damaged page
that still parses would leave them.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from bot.domain.clock import ManualClock
from bot.domain.errors import StoreUnavailable
from bot.service.matches import MatchService
from bot.service.tournaments import Tournaments
from bot.store.sqlite import SqliteStore
from bot.store.sqlite.breaches import check_expressions, find_breaches
from tests.botworld import BotWorld

GUILD, CHANNEL = 9000, 9001
ALICE, BOB, CAROL, DAN = (101, "alice"), (102, "bob"), (103, "carol"), (104, "dan")


def break_rules(path, *statements: tuple[str, tuple]) -> None:
    """Run ``statements`` on the closed file with its CHECK constraints off (as damage knows none)."""
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA ignore_check_constraints = ON")
        for sql, params in statements:
            db.execute(sql, params)
        db.commit()
    finally:
        db.close()


async def a_database(path) -> tuple[int, int, int]:
    """Two matches in play and a tournament, in a file closed afterwards: (broken, healthy, tournament)."""
    store = await SqliteStore.open(path)
    try:
        service = MatchService(store, ManualClock(), default_reminder_hours=24)
        ids = []
        for a, b in ((ALICE, BOB), (CAROL, DAN)):
            lobby = await service.create(game_id="bide", creator=a, invited=[b], guild_id=GUILD, channel_id=CHANNEL)
            ids.append((await service.accept(lobby.id, b[0])).match.id)
        tournament = await Tournaments(service).create(
            organizer=ALICE[0], guild_id=GUILD, channel_id=CHANNEL, game_id="begird", fmt="swiss"
        )
    finally:
        await store.close()
    return ids[0], ids[1], tournament.id


@pytest.mark.parametrize("check_beside", [False, True], ids=["checked at open", "a large file checked beside"])
async def test_a_row_breaking_a_constraint_is_named_with_its_match_or_event_and_the_file_opens(
    tmp_path, monkeypatch, check_beside
):
    if check_beside:
        monkeypatch.setattr(SqliteStore, "check_at_open_bytes", 0)
    path = tmp_path / "hexplay.sqlite3"
    broken, healthy, tournament = await a_database(path)
    break_rules(
        path,
        ("UPDATE matches SET deadline_notice = 7 WHERE id = ?", (broken,)),
        ("UPDATE tournaments SET rounds = -1 WHERE id = ?", (tournament,)),
        ("INSERT INTO heartbeat (id, last_seen) VALUES (2, 0)", ()),  # the bot's own bookkeeping: neither's
    )
    store = await SqliteStore.open(path)  # refused before: "restore a backup or move it away"
    try:
        assert await store.damage() is None
        breaches = await store.constraint_breaches()
        found = {(b.table, b.match_id, b.tournament_id, b.rule) for b in breaches}
        assert found == {
            ("matches", broken, None, "CHECK (deadline_notice BETWEEN 0 AND 3)"),
            ("tournaments", None, tournament, "CHECK (rounds >= 0)"),
            ("heartbeat", None, None, "CHECK (id = 1)"),
        }
        assert healthy not in {b.match_id for b in breaches}
    finally:
        await store.close()


async def test_damage_that_is_not_a_constraint_is_still_refused(tmp_path):
    """A finding quick_check words otherwise (a damaged page) is the file's fault: opening refuses, as before."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (a INTEGER CHECK (a > 0))")
    assert find_breaches(db, ["*** in database main ***\nPage 3: btreeInitPage() returns error code 11"]) is None
    assert find_breaches(db, ["CHECK constraint failed in t"]) is None  # named, but no row shows it: not one row's


def test_check_expressions_are_read_past_strings_names_and_comments():
    sql = (
        "CREATE TABLE t (a TEXT CHECK (a IN ('x)', 'check(')), -- a check (in a comment)\n"
        ' "check" INTEGER DEFAULT 0, b REAL CHECK(b IS NULL OR (b > 0 AND b < 1)), /* CHECK (c) */'
        " CONSTRAINT both CHECK ((a IS NULL) <> (b IS NULL)))"
    )
    assert check_expressions(sql) == [
        "a IN ('x)', 'check(')",
        "b IS NULL OR (b > 0 AND b < 1)",
        "(a IS NULL) <> (b IS NULL)",
    ]


async def test_the_bot_starts_pauses_the_broken_match_once_and_serves_the_others(tmp_path, caplog):
    world = await BotWorld(tmp_path / "hexplay.sqlite3").start()
    try:
        alice, bob, carol, _dave = world.users
        broken_id, broken_thread = await world.start_two_player()
        healthy_id, healthy_thread = await world.start_two_player(a=2, b=3)
        await world.stop_bot()
        break_rules(world.db_path, ("UPDATE matches SET deadline_notice = 7 WHERE id = ?", (broken_id,)))
        caplog.set_level(logging.INFO, logger="bot")
        await world.start_bot()  # refused before, with "restore a backup or move it away"

        async def told():
            while not [m for m in world.emu.messages(broken_thread) if "is paused" in m.content]:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(told(), 10)
        refused = await world.emu.invoke(alice, broken_thread, "move", {"move": "e5"})
        assert refused.ephemeral and "paused" in refused.text
        assert not (await world.emu.invoke(carol, healthy_thread, "move", {"move": "e5"})).ephemeral
        said = [r for r in caplog.records if f"match {broken_id} set aside" in r.getMessage()]
        assert len(said) == 1 and "CHECK (deadline_notice BETWEEN 0 AND 3)" in said[0].getMessage()

        await world.restart_bot()  # the row still breaks its rule: still paused, not told again
        await asyncio.sleep(0.3)
        assert len([m for m in world.emu.messages(broken_thread) if "is paused" in m.content]) == 1
        assert (await world.emu.invoke(alice, broken_thread, "move", {"move": "e5"})).ephemeral

        await world.stop_bot()  # the operator repairs the row: back in play at the next start
        break_rules(world.db_path, ("UPDATE matches SET deadline_notice = 0 WHERE id = ?", (broken_id,)))
        await world.start_bot()
        assert not (await world.emu.invoke(alice, broken_thread, "move", {"move": "e5"})).ephemeral
        assert healthy_id != broken_id and bob.id != alice.id
    finally:
        violations = list(world.emu.violations)
        await world.stop()
    assert violations == []


async def test_on_a_large_file_the_bot_starts_and_sets_the_match_aside_once_its_check_ends(tmp_path, monkeypatch):
    """Above ``check_at_open_bytes`` the check runs beside the bot (bot/runtime.py): it used to stop the bot."""
    from bot.config import Settings
    from bot.runtime import run
    from emulator import DiscordEmulator

    path = tmp_path / "hexplay.sqlite3"
    broken, _, _ = await a_database(path)
    break_rules(path, ("UPDATE matches SET deadline_notice = 7 WHERE id = ?", (broken,)))
    monkeypatch.setattr(SqliteStore, "check_at_open_bytes", 0)
    emu = DiscordEmulator(bot_token="t")
    await emu.start()
    running = None
    try:
        settings = Settings(token="t", db_path=str(path), api_base_url=emu.api_base_url, gateway_url=emu.gateway_url)
        running = asyncio.create_task(run(settings))

        def set_aside() -> list[int]:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                return [r[0] for r in db.execute("SELECT match_id FROM quarantine")]
            finally:
                db.close()

        for _ in range(300):
            assert not running.done(), running.exception() if running.done() else None
            if set_aside():
                break
            await asyncio.sleep(0.1)
        assert set_aside() == [broken]
    finally:
        if running is not None:
            running.cancel()  # a clean stop, as SIGTERM's
            with pytest.raises((asyncio.CancelledError, StoreUnavailable)):
                await running
        await emu.stop()
