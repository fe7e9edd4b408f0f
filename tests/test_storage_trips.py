"""A turn's storage work goes to the database thread in a few whole trips (issue 10), and the
one-trip calls keep the store's guarantees: one transaction, the version check, committed reads."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from bot.domain.clock import ManualClock
from bot.domain.errors import VersionConflict
from bot.domain.model import GuildSettings, MoveRow, OfferRow, Preferences, ReminderPlan
from bot.domain.seats import game_of
from bot.service.matches import MatchService
from bot.store import Store, open_store
from bot.store.sqlite import SqliteStore
from tests import backends
from tests.pgwire import CountingProxy

pytestmark = pytest.mark.both_backends

ALICE, BOB = (101, "alice"), (102, "bob")
GUILD, CHANNEL = 9000, 9001
TABLES = ("matches", "seats", "moves", "reminders", "offers")


async def started(service: MatchService) -> int:
    match = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    await service.accept(match.id, BOB[0])
    return match.id


async def snapshot(store: Store) -> dict[str, list[tuple]]:
    return {table: await backends.fetch(store, f"SELECT * FROM {table} ORDER BY 1, 2") for table in TABLES}


def count_trips(store: SqliteStore, monkeypatch) -> list[str]:
    """Every trip to the database thread (each statement or whole function is one)."""
    trips: list[str] = []
    real = store._db.call

    async def counted(fn, *args, **kwargs):
        trips.append(getattr(fn, "__name__", repr(fn)))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(store._db, "call", counted)
    return trips


@pytest.mark.sqlite_only
async def test_a_turn_makes_few_trips_to_the_database_thread(service, monkeypatch):
    """Finding the match by its thread, playing (read, reminder delay, the move's transaction) and
    recording the posted board: five trips. Each statement on its own was about sixty."""
    match_id = await started(service)
    await service.store.update_match_fields(match_id, thread_id=555)
    trips = count_trips(service.store, monkeypatch)
    found = await service.resolve(ALICE[0], GUILD, 555, None)
    outcome = await service.play(found.id, ALICE[0], "e5")
    await service.store.mark_announced(match_id, outcome.match.version, 555, 1)
    assert len(trips) <= 5, trips


async def test_a_turn_on_postgresql_makes_at_most_three_round_trips_to_the_server(postgres_server):
    """Counted on the wire: finding the match by its thread (the match, its seats and its quarantine in one
    statement), playing (the version check, the log, the position, the reminder, the lapsed offers in one
    statement) and recording the posted board."""
    await backends.empty_postgres(postgres_server.url)
    proxy = await CountingProxy("127.0.0.1", postgres_server.port).start()
    store = await open_store(proxy.url(postgres_server.url))
    try:
        service = MatchService(store, ManualClock(), default_reminder_hours=24)
        for _ in range(2):  # the second turn is the common path: the pool is warm, its statements prepared
            match_id = await started(service)
            await store.update_match_fields(match_id, thread_id=555 + match_id)
            proxy.reset()
            found = await service.resolve(ALICE[0], GUILD, 555 + match_id, None)
            outcome = await service.play(found.id, ALICE[0], "e5", seen=found)  # as /move does
            await store.mark_announced(match_id, outcome.match.version, 555 + match_id, 1)
            service.clock.advance(61)
        assert proxy.trips <= 3, dict(proxy.kinds)
    finally:
        await store.close()
        await proxy.stop()


async def test_a_turn_after_every_conditional_move_was_followed_makes_three_round_trips_again(postgres_server):
    """A match where conditional moves were once stored looks for them after each move (two more trips) only
    while some are left: once followed or cleared, its turns cost what any turn costs."""
    await backends.empty_postgres(postgres_server.url)
    proxy = await CountingProxy("127.0.0.1", postgres_server.port).start()
    store = await open_store(proxy.url(postgres_server.url))
    try:
        service = MatchService(store, ManualClock(), default_reminder_hours=24)
        match_id = await started(service)
        await store.update_match_fields(match_id, thread_id=555)
        await service.add_premove(match_id, BOB[0], "e5; d4")
        await service.play(match_id, ALICE[0], "c3")  # not the turn the line expected: cleared
        for mover in (BOB, ALICE):  # the second turn is the common path (statements prepared)
            service.clock.advance(61)
            proxy.reset()
            found = await service.resolve(mover[0], GUILD, 555, None)
            outcome = await service.play(found.id, mover[0], a_cell(found), seen=found)
            await store.mark_announced(match_id, outcome.match.version, 555, 1)
        assert proxy.trips <= 3, dict(proxy.kinds)
    finally:
        await store.close()
        await proxy.stop()


def a_cell(match) -> str:
    """A legal turn of the match's position that places a disc on one cell."""
    return next(n for n in game_of(match).legal_notations() if n != "bide" and "," not in n)


async def test_record_move_returns_the_match_as_committed_and_the_offers_it_lapsed(service):
    match_id = await started(service)
    store = service.store
    match = await store.get_match(match_id)
    await store.make_offer(match_id, match.version, OfferRow(match_id, "draw", BOB[0], 0, [BOB[0]], 1.0))
    await store.set_offer_message(match_id, "draw", 0, 77, 88)
    outcome = await service.play(match_id, ALICE[0], "e5")
    assert outcome.lapsed_offers == ((77, 88),)
    assert outcome.match == await store.get_match(match_id)  # what was committed, read in the same trip
    assert outcome.match.version == match.version + 1 and await store.get_offer(match_id, "draw") is None


async def test_a_stale_move_writes_nothing(service):
    match_id = await started(service)
    store = service.store
    match = await store.get_match(match_id)
    before = await snapshot(store)
    move = MoveRow(0, 0, 1, ALICE[0], "turn", "e5", [], 0.0, entered="e5")
    with pytest.raises(VersionConflict):
        await store.record_move(
            match_id,
            match.version - 1,
            move=move,
            state=match.state,
            finished=False,
            result=None,
            turn_changed=True,
            resigned_seat=None,
            reminder=ReminderPlan(BOB[0], 1, GUILD, 24.0),
            now=9.0,
        )
    assert await snapshot(store) == before  # rolled back whole, the lock released
    await store.record_move(
        match_id,
        match.version,
        move=move,
        state=match.state,
        finished=False,
        result=None,
        turn_changed=True,
        resigned_seat=None,
        reminder=ReminderPlan(BOB[0], 1, GUILD, 24.0),
        now=9.0,
    )
    assert len((await snapshot(store))["moves"]) == 1


async def test_a_failing_step_rolls_the_whole_move_back(service):
    """The version is bumped first; a later statement failing (a move kind the table's CHECK refuses)
    must take the bump back with it, or the match would be stuck on a version nobody saw."""
    match_id = await started(service)
    store = service.store
    match = await store.get_match(match_id)
    before = await snapshot(store)
    move = MoveRow(0, 0, 1, ALICE[0], "bogus", "e5", [], 0.0)
    with pytest.raises((sqlite3.IntegrityError, asyncpg.exceptions.CheckViolationError)):
        await store.record_move(
            match_id,
            match.version,
            move=move,
            state=match.state,
            finished=False,
            result=None,
            turn_changed=True,
            resigned_seat=None,
            reminder=None,
            now=9.0,
        )
    assert await snapshot(store) == before
    assert (await service.play(match_id, ALICE[0], "e5")).match.version == match.version + 1  # nothing stuck


@pytest.mark.parametrize(
    "global_hours, server_row_hours, server_default",
    [
        (None, None, None),
        (3.0, None, None),
        (3.0, "row", None),
        (None, 7.0, 2.0),
        (3.0, 7.0, 2.0),
        (None, None, 2.0),
    ],
)
async def test_reminder_hours_read_in_one_query_as_preferences_and_settings_give_them(
    service, global_hours, server_row_hours, server_default
):
    store = service.store
    user = ALICE[0]
    if global_hours is not None:
        await store.set_preferences(user, 0, Preferences(delay_hours=global_hours))
    if server_row_hours is not None:  # a server row wins whole, even with no delay of its own
        await store.set_preferences(
            user, GUILD, Preferences(delay_hours=None if server_row_hours == "row" else server_row_hours)
        )
    if server_default is not None:
        await store.set_guild_settings(GUILD, GuildSettings(reminder_hours=server_default), 1.0)
    expected = (
        (await store.get_preferences(user, GUILD)).delay_hours,
        (await store.guild_settings(GUILD)).reminder_hours,
    )
    assert await store.reminder_hours(user, GUILD) == expected
