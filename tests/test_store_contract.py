"""The store's own promises, each read back through its API: what a timer pass, a restart or a
leaderboard relies on. (Isolation between matches is in test_storage_isolation.py.)"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import stat
import time
from pathlib import Path

import pytest

from bot.domain.bank import BankClock
from bot.domain.errors import StorageReadOnly, StoreUnavailable
from bot.domain.model import ExplorationRow, GuildSettings, Preferences, RatingRow
from bot.service.matches import MatchService
from bot.service.offers import Offers
from bot.service.ratings import Ratings
from bot.store.sqlite import SqliteStore
from bot.store.sqlite.files import _explain
from bot.store.sqlite.plumbing import in_transaction

pytestmark = pytest.mark.both_backends

GUILD, OTHER_GUILD, CHANNEL = 9000, 9100, 9001
ALICE, BOB, CAROL = (101, "alice"), (102, "bob"), (103, "carol")
HOUR, DAY = 3600.0, 86400.0


async def active(service: MatchService, players=(ALICE, BOB), guild=GUILD, days=None):
    service.clock.advance(61)  # past the challenge rate limit
    match = await service.create(
        game_id="bide",
        creator=players[0],
        invited=list(players[1:]),
        guild_id=guild,
        channel_id=CHANNEL,
        days_per_move=days,
    )
    for user in players[1:]:
        await service.accept(match.id, user[0])
    return await service.get(match.id)


# -- reminders ------------------------------------------------------------------------------


async def test_a_due_reminder_is_the_stored_row_and_a_snoozed_or_later_one_is_not_due(service):
    store = service.store
    due = await active(service)
    snoozed = await active(service)
    later = await active(service, (CAROL, BOB))
    row = await store.get_reminder(snoozed.id)
    await store.snooze(snoozed.id, ALICE[0], row.ply)
    first = await store.get_reminder(due.id)
    await store.reminder_sent(due.id, first.ply, 5.0, first.remind_at - 1)  # sent once, due again a bit earlier
    now = (await store.get_reminder(later.id)).remind_at - 0.5
    await store.reminder_sent(later.id, first.ply, 6.0, now + 10)
    assert await store.claim_due_reminders(now, 60.0) == [await store.get_reminder(due.id)]
    sent = await store.get_reminder(due.id)
    assert (sent.remind_at, sent.last_sent_at, sent.snoozed) == (first.remind_at - 1, 5.0, False)
    assert (await store.get_reminder(snoozed.id)).snoozed


async def test_withdrawing_an_offer_twice_says_it_was_gone(service):
    match = await active(service)
    await service.play(match.id, ALICE[0], "e5")
    notice = await Offers(service).offer(match.id, ALICE[0], "undo")
    stored = await service.store.get_offer(match.id, "undo")
    assert (stored.match_id, stored.kind, stored.user_id, stored.at_seq) == (match.id, "undo", ALICE[0], notice.at_seq)
    assert await service.store.withdraw_offer(match.id, "undo", notice.at_seq) is True
    assert await service.store.withdraw_offer(match.id, "undo", notice.at_seq) is False


async def test_a_due_reminder_is_claimed_by_one_pass_until_sent_released_or_its_lease_ends(service):
    store = service.store
    match = await active(service)
    row = await store.get_reminder(match.id)
    now = row.remind_at + 1
    assert [r.match_id for r in await store.claim_due_reminders(now, 60.0)] == [match.id]
    assert await store.claim_due_reminders(now, 60.0) == []  # another process's pass finds it held
    assert await store.claim_due_reminders(now + 59, 60.0) == []
    assert [r.match_id for r in await store.claim_due_reminders(now + 60, 60.0)] == [match.id]  # a dead holder
    await store.release_reminder(match.id)  # not delivered: back at once
    assert [r.match_id for r in await store.claim_due_reminders(now + 61, 60.0)] == [match.id]
    assert await store.reminder_sent(match.id, row.ply, now + 61, now + 61 + DAY)  # sent: the claim ends with it
    assert await store.claim_due_reminders(now + 61 + DAY, 60.0) != []


async def test_reminders_are_claimed_most_overdue_first_up_to_a_limit(service):
    store = service.store
    matches = [await active(service) for _ in range(3)]
    rows = [await store.get_reminder(m.id) for m in matches]
    now = max(r.remind_at for r in rows) + 1
    first = await store.claim_due_reminders(now, 60.0, limit=2)
    assert [r.match_id for r in first] == [m.id for m in matches[:2]]  # the most overdue
    assert [r.match_id for r in await store.claim_due_reminders(now, 60.0, limit=2)] == [matches[2].id]
    assert await store.claim_due_reminders(now, 60.0, limit=2) == []


async def test_a_lease_runs_on_the_lease_clock_while_the_games_clock_jumps_days_ahead(service):
    """The sandbox moves the games' clock a day at a press: a reminder or a deadline held by one process must
    stay held, or a second process sends it again. A lease measures whether its holder is alive: wall time."""
    store = service.store
    match = await active(service, days=1)
    row = await store.get_reminder(match.id)
    game, wall = row.remind_at + 1, 1_000.0
    assert [r.match_id for r in await store.claim_due_reminders(game, 60.0, held_at=wall)] == [match.id]
    assert await store.claim_due_reminders(game + 3 * DAY, 60.0, held_at=wall + 1) == []  # still held
    assert [r.match_id for r in await store.claim_due_reminders(game + 3 * DAY, 60.0, held_at=wall + 60)] == [
        match.id
    ]  # its holder gone a minute: taken over
    deadline = match.deadline_at + 1
    assert await store.claim_deadlines(deadline, ((1, HOUR),), 60.0, held_at=wall) == [match.id]
    assert await store.claim_deadlines(deadline + 3 * DAY, ((1, HOUR),), 60.0, held_at=wall + 1) == []
    assert await store.claim_deadlines(deadline + 3 * DAY, ((1, HOUR),), 60.0, held_at=wall + 60) == [match.id]


async def test_boards_and_notices_of_pauses_are_claimed_by_one_process_at_a_time(service):
    store = service.store
    match = await active(service)  # started: its first board is not posted yet
    assert await store.unannounced() == [(match.id, match.updated_at)]
    assert await store.claim_announcement(match.id, 10.0, 60.0)
    assert not await store.claim_announcement(match.id, 10.0, 60.0)
    assert not await store.claim_announcement(match.id, 20.0, 60.0)
    await store.release_announcement(match.id)
    assert await store.claim_announcement(match.id, 20.0, 60.0)
    await store.mark_announced(match.id, match.version, 1, 2)
    assert not await store.claim_announcement(match.id, 200.0, 60.0)  # posted: nothing to claim
    await store.quarantine(match.id, "broken", 1.0)
    assert await store.claim_paused_untold(10.0, 60.0) == [match.id]
    assert await store.claim_paused_untold(10.0, 60.0) == []
    await store.release_paused_notice(match.id)
    assert await store.claim_paused_untold(11.0, 60.0) == [match.id]
    await store.quarantine_told(match.id)
    assert await store.claim_paused_untold(1000.0, 60.0) == []


# -- heartbeat, outages, vacations, deadlines --------------------------------------------------


async def test_the_heartbeat_only_moves_forward_and_an_outage_gives_running_clocks_their_time(service):
    store = service.store
    assert await store.last_seen() is None
    await store.beat(100.0)
    await store.beat(90.0)  # a late writer never moves it back
    assert await store.last_seen() == 100.0
    timed = await active(service, days=2)
    untimed = await active(service)
    gap_start = timed.deadline_at - HOUR
    assert await store.record_outage(gap_start, gap_start + 600) == 1
    assert (await store.get_match(timed.id)).deadline_at == timed.deadline_at + 600
    assert (await store.get_match(untimed.id)).deadline_at is None
    assert await store.outages() == [(gap_start, gap_start + 600)]
    assert await store.last_seen() == gap_start + 600
    # an outage after the deadline had passed gives nothing back
    assert await store.record_outage(timed.deadline_at + 700, timed.deadline_at + 800) == 0


async def test_vacation_days_are_counted_from_a_date_and_only_for_that_player(service):
    store = service.store
    await store.add_vacation(ALICE[0], 10 * DAY, 12 * DAY)
    await store.add_vacation(ALICE[0], 20 * DAY, 21 * DAY)
    await store.add_vacation(BOB[0], 20 * DAY, 30 * DAY)
    assert await store.vacation_seconds_since(ALICE[0], 0) == 3 * DAY
    assert await store.vacation_seconds_since(ALICE[0], 15 * DAY) == 1 * DAY
    assert await store.vacation_seconds_since(CAROL[0], 0) == 0.0
    assert await store.vacation_until(ALICE[0], 11 * DAY) == 12 * DAY
    assert await store.vacation_until(ALICE[0], 12 * DAY) is None  # it ended


async def test_deadline_warnings_come_at_their_level_once_and_a_set_aside_match_gets_none(service):
    store = service.store
    warnings = ((2, HOUR), (1, 24 * HOUR))

    async def deadline_candidates(now, warnings):  # claimed, and given back for the next question
        claimed = await store.claim_deadlines(now, warnings, 60.0)
        for match_id in claimed:
            await store.release_deadline(match_id)
        return claimed

    one_day = await active(service, days=1)
    three_days = await active(service, days=3)
    d1, d3 = one_day.deadline_at, three_days.deadline_at
    assert await deadline_candidates(d1 - 23 * HOUR, warnings) == []  # a one-day limit gets no 24 h warning
    assert await deadline_candidates(d1 - 0.5 * HOUR, warnings) == [one_day.id]
    # a day before the three-day deadline: its warning, and the one-day match's time-out, earliest first
    assert await deadline_candidates(d3 - 23 * HOUR, warnings) == [one_day.id, three_days.id]
    assert await store.set_deadline_notice(three_days.id, three_days.version, 1)
    assert not await store.set_deadline_notice(three_days.id, three_days.version, 1)  # never twice
    assert await deadline_candidates(d3 - 23 * HOUR, warnings) == [one_day.id]
    assert await store.set_deadline_notice(one_day.id, one_day.version, 3)
    assert await deadline_candidates(d3 - 23 * HOUR, warnings) == []
    assert await deadline_candidates(d3 - 0.5 * HOUR, warnings) == [three_days.id]
    await store.quarantine(three_days.id, "broken", 1.0)
    assert await deadline_candidates(d3 + 1, warnings) == []
    # an extension is refused for a turn that is no longer the one read
    assert not await store.extend_deadline(three_days.id, three_days.version - 1, HOUR)
    assert (await store.get_match(three_days.id)).deadline_at == d3


async def test_the_request_budget_of_a_second_is_shared_by_every_ask_and_never_overdrawn(service):
    """Every process of the bot takes its bulk requests from one budget per wall-clock second."""
    store = service.store
    assert await store.grant_requests(1_000, 3, 5) == 3
    assert await store.grant_requests(1_000, 3, 5) == 2  # what is left of that second
    assert await store.grant_requests(1_000, 1, 5) == 0
    assert await store.grant_requests(1_001, 4, 5) == 4  # a new second, a new budget
    assert await store.grant_requests(1_001, 2, 5) == 1


# -- ratings and server settings ------------------------------------------------------------------


def rating(user, mu, sigma=2.0, games=1, guild=GUILD, game="bide"):
    return RatingRow(guild, game, user[0], user[1], mu, sigma, games, 1, 0, 0)


async def test_a_match_is_rated_once_and_the_leaderboard_ranks_by_conservative_skill(service):
    store = service.store
    first, second = await active(service), await active(service)
    rows = [rating(ALICE, 30.0, 5.0), rating(BOB, 25.0, 1.0), rating(CAROL, 20.0, 1.0, games=0)]
    fresh = {ALICE[0]: None, BOB[0]: None}
    assert await store.settle_rating(first.id, True, rows, 10.0, fresh) == "settled"
    assert await store.settle_rating(first.id, True, [rating(ALICE, 99.0)], 11.0, {ALICE[0]: 1}) == "already"
    # computed from ratings that another settlement has changed since: refused, nothing written
    assert await store.settle_rating(second.id, True, [rating(ALICE, 77.0, games=1)], 11.5, fresh) == "stale"
    assert (await store.ratings_of(GUILD, "bide", [ALICE[0]]))[ALICE[0]].mu == 30.0
    await store.settle_rating(
        second.id, True, [rating(ALICE, 50.0, guild=OTHER_GUILD), rating(BOB, 40.0, game="begird")], 12.0, {}
    )
    board = await store.leaderboard(GUILD, "bide")
    assert [(r.user_id, r.skill) for r in board] == [(BOB[0], 22.0), (ALICE[0], 15.0)]  # carol has no games
    mine = await store.ratings_of(GUILD, "bide", [ALICE[0], CAROL[0]])
    assert sorted(mine) == [ALICE[0], CAROL[0]] and mine[ALICE[0]].mu == 30.0
    assert [(r.game, r.mu) for r in await store.ratings_of_user(GUILD, BOB[0])] == [("begird", 40.0), ("bide", 25.0)]


async def test_finished_matches_not_yet_rated_are_found_at_start_up(service):
    first = await active(service)
    second = await active(service)
    await service.resign(second.id, BOB[0])
    service.clock.advance(1)
    await service.resign(first.id, BOB[0])
    assert await service.store.unrated_finished_ids() == [second.id, first.id]  # in the order they ended
    await Ratings(service).catch_up()
    assert await service.store.unrated_finished_ids() == []


async def test_server_settings_round_trip_and_lists_stay_in_their_server(service):
    store = service.store
    assert await store.guild_settings(GUILD) == GuildSettings()
    await store.set_guild_settings(GUILD, GuildSettings(5, 2.0, 6.0), 1.0)
    await store.set_guild_settings(GUILD, GuildSettings(7, None, 8.0), 2.0)
    assert await store.guild_settings(GUILD) == GuildSettings(7, None, 8.0)
    every = GuildSettings(7, 1.5, 8.0, BankClock(72 * 3600, 36 * 3600, 120 * 3600), False, "fr", True)
    await store.set_guild_settings(GUILD, every, 3.0)  # every setting stored is the one read back
    assert await store.guild_settings(GUILD) == every
    assert await store.guild_settings(OTHER_GUILD) == GuildSettings()
    older = await active(service)
    newer = await active(service)
    await active(service, guild=OTHER_GUILD)
    set_aside = await active(service)
    await store.quarantine(set_aside.id, "broken", 1.0)
    await service.play(older.id, ALICE[0], "e5")  # the latest change first
    assert [m.id for m in await store.active_matches_of_guild(GUILD)] == [older.id, newer.id]
    assert [m.id for m in await store.active_matches_of_guild(GUILD, limit=1)] == [older.id]


# -- opening -------------------------------------------------------------------------------------


async def test_a_file_that_is_not_a_database_is_refused_with_a_clear_reason(tmp_path):
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not a database, just text" * 200)
    with pytest.raises(StoreUnavailable) as refused:
        await SqliteStore.open(path)
    assert str(refused.value) == (
        f"{path} is not a SQLite database or is damaged (it does not begin as one), so Hexplay left it as it was: "
        "set HEXPLAY_DB_PATH to the bot's database, or restore a backup of it"
    )


async def test_opening_again_keeps_the_schema_version_and_the_data(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    path = tmp_path / "again.sqlite3"
    store = await SqliteStore.open(path)
    try:
        version = await store.schema_version()
        await store.beat(5.0)
    finally:
        await store.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == version and await store.last_seen() == 5.0
    finally:
        await store.close()


async def test_a_database_left_readable_by_others_is_left_so_and_the_log_says_how_to_fix_it(tmp_path, caplog):
    """The bot never changes the mode of a file it did not create (an operator's restored backup, say):
    SQLite gives the -wal and -shm files the database's own mode, and the log names the chmod."""
    db = tmp_path / "shared" / "hexplay.sqlite3"
    store = await SqliteStore.open(db)
    try:
        await store.beat(1.0)  # a write: the -wal and -shm files exist
    finally:
        await store.close()
    db.chmod(0o644)
    db.parent.chmod(0o755)
    with caplog.at_level(logging.WARNING):
        store = await SqliteStore.open(db)
    try:
        await store.beat(2.0)
        modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm"))}
        assert modes == {db.name: 0o644, f"{db.name}-wal": 0o644, f"{db.name}-shm": 0o644}, modes
        assert stat.S_IMODE(db.parent.stat().st_mode) == 0o755
        assert await store.last_seen() == 2.0
    finally:
        await store.close()
    warned = [r.getMessage() for r in caplog.records if "can be read by other users" in r.getMessage()]
    assert len(warned) == 1 and f"chmod 600 {db}" in warned[0], warned


DAMAGED = "/data/h.db is not a SQLite database or is damaged: restore a backup or move it away, then start again"
READ_ONLY = (
    "/data/h.db is read-only (the file or its folder): Hexplay must write to it; fix its permissions "
    "or set HEXPLAY_DB_PATH to a writable place"
)


@pytest.mark.parametrize(
    "error, text",
    [
        ("file is not a database", DAMAGED),
        ("database disk image is malformed", DAMAGED),
        ("database is corrupt", DAMAGED),
        ("attempt to write a readonly database", READ_ONLY),
        ("read-only file system", READ_ONLY),
        ("disk I/O error", "cannot use the database /data/h.db: disk I/O error"),
    ],
)
def test_each_database_problem_is_explained_in_one_line_for_the_operator(error, text):
    assert _explain(Path("/data/h.db"), sqlite3.OperationalError(error)) == text


def _damaged_database(path: Path) -> bool:
    """A database that opens but whose integrity check fails (an index page overwritten)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size=1024")
    db.execute("CREATE TABLE t (a INTEGER, b TEXT)")
    db.execute("CREATE INDEX t_b ON t (b)")
    db.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"v{i:05d}") for i in range(2000)])
    db.commit()
    db.close()
    data = bytearray(path.read_bytes())
    start = len(data) - 3 * 1024 + 100
    data[start : start + 100] = b"z" * 100
    path.write_bytes(data)
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    finally:
        db.close()


async def test_a_database_that_fails_its_integrity_check_is_refused(tmp_path):
    path = tmp_path / "damaged.sqlite3"
    if not _damaged_database(path):
        pytest.skip("this SQLite did not notice the damage")
    with pytest.raises(StoreUnavailable) as refused:
        await SqliteStore.open(path)
    assert str(refused.value) == (
        f"{path} is not a SQLite database or is damaged: restore a backup or move it away, then start again"
    )


async def test_an_in_memory_store_leaves_no_file_behind(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = await SqliteStore.open(":memory:")
    try:
        await store.beat(1.0)
        assert await store.last_seen() == 1.0
    finally:
        await store.close()
    assert list(tmp_path.iterdir()) == []


async def test_rated_and_hints_read_back_as_they_were_stored(service):
    rated = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    service.clock.advance(61)
    casual = await service.create(
        game_id="bide", creator=BOB, invited=[ALICE], guild_id=GUILD, channel_id=CHANNEL, rated=False, hints=True
    )
    for match, flags in ((rated, (True, False)), (casual, (False, True))):
        row = await service.store.get_match(match.id)
        assert (row.rated, row.hints) == flags


async def test_open_lobbies_are_counted_per_creator_and_server(service):
    for _ in range(2):
        await service.create(game_id="bide", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, players=3)
    await service.create(game_id="bide", creator=BOB, invited=[], guild_id=GUILD, channel_id=CHANNEL, players=3)
    await service.create(game_id="bide", creator=ALICE, invited=[], guild_id=OTHER_GUILD, channel_id=CHANNEL, players=3)
    assert await service.store.open_lobbies(ALICE[0], GUILD) == 2
    assert await service.store.open_lobbies(BOB[0], GUILD) == 1


@pytest.mark.parametrize(
    "global_hours, server_hours, guild_setting",
    [(None, None, None), (5.0, None, None), (5.0, 2.0, None), (None, None, 7.0), (5.0, None, 7.0), (None, 3.0, 7.0)],
)
async def test_a_reminder_is_timed_in_the_moves_transaction_as_the_schedule_says(
    service, global_hours, server_hours, guild_setting
):
    """The store times the next reminder itself (no extra trip): the same rule as Schedule.reminder_delay."""
    from bot.domain.model import Preferences

    store = service.store
    if global_hours is not None:
        await store.set_preferences(BOB[0], 0, Preferences(delay_hours=global_hours))
    if server_hours is not None:
        await store.set_preferences(BOB[0], GUILD, Preferences(delay_hours=server_hours))
    if guild_setting is not None:
        await store.set_guild_settings(GUILD, GuildSettings(reminder_hours=guild_setting), 1.0)
    match = await active(service)
    await service.play(match.id, ALICE[0], "e5")
    stored = await store.get_reminder(match.id)
    assert stored.user_id == BOB[0]
    assert stored.remind_at - service.clock.now() == await service.schedule.reminder_delay(BOB[0], GUILD)


async def test_two_matches_of_the_same_players_ending_at_once_both_count(service):
    """Each settlement reads the players' ratings and writes only if they are unchanged: never one lost."""
    first, second = await active(service), await active(service)
    for match in (first, second):
        for user, move in ((ALICE, "e5"), (BOB, "d4"), (ALICE, "bide"), (BOB, "bide")):
            match = (await service.play(match.id, user[0], move)).match
    ratings = Ratings(service)
    for match in (first, second):
        await service.resign(match.id, BOB[0])
    ended = [await service.store.get_match(m.id) for m in (first, second)]
    assert all(await asyncio.gather(*(ratings.settle(m) for m in ended)))
    rows = await service.store.ratings_of(GUILD, "bide", [ALICE[0], BOB[0]])
    assert (rows[ALICE[0]].games, rows[ALICE[0]].wins, rows[BOB[0]].losses) == (2, 2, 2)


@pytest.mark.sqlite_only
async def test_a_database_that_refuses_writes_refuses_each_write_whole_with_sqlites_reason(service):
    """The operator's log quotes the reason (bot/chat/failures.py); nothing of the refused write is stored."""
    store = service.store
    match = await active(service)
    async with store.reading() as db:
        await db.execute("PRAGMA query_only = 1")  # SQLite answers SQLITE_READONLY, as for a read-only file
    with pytest.raises(StorageReadOnly, match="^attempt to write a readonly database$"):
        await store.grant_requests(1_000, 1, 5)  # one trip to the database thread
    board = ExplorationRow(match.id, BOB[0], match.version, {}, ["e5"], 1)
    with pytest.raises(StorageReadOnly, match="^attempt to write a readonly database$"):
        await store.put_exploration(board, 1.0)  # a transaction of the store's async API
    async with store.reading() as db:
        await db.execute("PRAGMA query_only = 0")  # the operator makes it writable again
    assert await store.get_exploration(match.id, BOB[0]) is None
    assert await store.grant_requests(1_000, 5, 5) == 5  # the refused ask took nothing


def test_a_write_refused_inside_a_transaction_rolls_it_all_back_with_sqlites_reason(tmp_path):
    """A write refused after the transaction began (not only at its BEGIN) is the same refusal."""
    conn = sqlite3.connect(tmp_path / "refusing.sqlite3", isolation_level=None)
    try:
        conn.execute("CREATE TABLE t (x INTEGER)")

        def work(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO t VALUES (1)")
            db.execute("PRAGMA query_only = 1")  # from here SQLite refuses writes: SQLITE_READONLY
            db.execute("INSERT INTO t VALUES (2)")

        with pytest.raises(StorageReadOnly, match="^attempt to write a readonly database$"):
            in_transaction(conn, work)
        conn.execute("PRAGMA query_only = 0")
        assert not conn.in_transaction
        assert conn.execute("SELECT COUNT(*) FROM t").fetchone() == (0,)
    finally:
        conn.close()


# -- 64-bit ids ------------------------------------------------------------------------------

HUGE = 2**63 - 1  # the largest a BIGINT holds; Discord's snowflakes are 64-bit and fit below it


async def test_ids_near_two_to_the_sixty_third_are_stored_and_read_back_exactly(service):
    store = service.store
    big_guild, big_channel, big_thread, big_message = HUGE, HUGE - 1, HUGE - 2, HUGE - 3
    alice, bob = (HUGE - 4, "alice"), (HUGE - 5, "bob")
    service.clock.advance(61)
    match = await service.create(
        game_id="bide", creator=alice, invited=[bob], guild_id=big_guild, channel_id=big_channel
    )
    await service.accept(match.id, bob[0])
    await store.update_match_fields(match.id, thread_id=big_thread, lobby_message_id=big_message)
    await service.play(match.id, alice[0], "e5")
    await store.set_preferences(bob[0], big_guild, Preferences(delay_hours=5.0))
    read = await store.get_match(match.id)
    assert (read.guild_id, read.channel_id, read.thread_id, read.lobby_message_id, read.creator_id) == (
        big_guild,
        big_channel,
        big_thread,
        big_message,
        alice[0],
    )
    assert [s.user_id for s in read.seats] == [alice[0], bob[0]]
    assert (await store.match_by_thread(big_thread)).id == match.id
    assert [m.id for m in await store.matches_of_user(bob[0], big_guild, ("active",))] == [match.id]
    assert (await store.moves(match.id))[0].user_id == alice[0]
    assert (await store.get_reminder(match.id)).user_id == bob[0]
    assert (await store.get_preferences(bob[0], big_guild)).delay_hours == 5.0
    assert await store.match_by_thread(2**63) is None and await store.get_match(2**64 + 5) is None  # past 64 bits


async def test_a_large_files_integrity_check_runs_beside_the_store_and_reports_the_same_line(tmp_path, monkeypatch):
    """Start-up must not grow with the file: above a size the check runs after opening, on its own connection."""
    monkeypatch.setattr(SqliteStore, "check_at_open_bytes", 0)
    sound = await SqliteStore.open(tmp_path / "sound.sqlite3")
    try:
        assert await sound.damage() is None
    finally:
        await sound.close()
    path = tmp_path / "damaged.sqlite3"
    if not _damaged_database(path):
        pytest.skip("this SQLite did not notice the damage")
    store = await SqliteStore.open(path)  # opens at once: the check is not in the way
    try:
        assert await store.damage() == (
            f"{path} is not a SQLite database or is damaged: restore a backup or move it away, then start again"
        )
    finally:
        await store.close()


async def test_the_bot_on_a_large_damaged_file_stops_with_the_refusals_line(tmp_path, monkeypatch):
    from bot.config import Settings
    from bot.runtime import run
    from emulator import DiscordEmulator

    path = tmp_path / "damaged.sqlite3"
    if not _damaged_database(path):
        pytest.skip("this SQLite did not notice the damage")
    monkeypatch.setattr(SqliteStore, "check_at_open_bytes", 0)
    emu = DiscordEmulator(bot_token="t")
    await emu.start()
    try:
        settings = Settings(token="t", db_path=str(path), api_base_url=emu.api_base_url, gateway_url=emu.gateway_url)
        with pytest.raises(StoreUnavailable) as refused:
            await asyncio.wait_for(run(settings), 30)
        assert "is not a SQLite database or is damaged" in str(refused.value)
    finally:
        await emu.stop()


class JumpingClock:
    """The sandbox's clock: the games' time jumps ahead at a press, the wall clock (leases) does not."""

    def __init__(self, start: float) -> None:
        self.wall, self.jumped = start, 0.0

    def now(self) -> float:
        return self.wall + self.jumped

    def lease_now(self) -> float:
        return self.wall


async def test_two_processes_passes_do_not_both_send_a_reminder_when_the_games_clock_jumps(service):
    from bot.service.timelimits import TimeLimits

    match = await active(service, days=1)
    clock = JumpingClock(service.clock.now())
    first, second = (MatchService(service.store, clock, default_reminder_hours=24) for _ in range(2))
    clock.jumped = 2 * DAY  # the reminder and the time-out are due
    assert [job.match.id for job in await first.due_reminders()] == [match.id]
    assert [job.match.id for job in await TimeLimits(first).due()] == [match.id]
    clock.jumped = 5 * DAY  # a press of "+3 days" while the first process still sends them
    assert await second.due_reminders() == []
    assert await TimeLimits(second).due() == []


def test_the_sandbox_clock_moves_the_games_time_and_never_the_leases(tmp_path):
    from bot.domain.clock import OffsetFileClock

    offset = tmp_path / "offset"
    offset.write_text(str(3 * DAY))
    clock = OffsetFileClock(str(offset))
    assert abs(clock.now() - time.time() - 3 * DAY) < 5
    assert abs(clock.lease_now() - time.time()) < 5
