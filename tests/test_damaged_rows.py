"""Damage confined to one match: an unreadable value in any column of its rows sets that match aside.

Nothing else stops: start-up, the reminder and time-limit passes, the lists (/games, /games all,
/profile) and every other match go on; the damaged match's players are told once. Each column of
one match's rows is damaged in turn, with CHECK constraints off so that even a status no
migration would let in is tried (a damaged disk or a hand-edited file knows no constraints).
"""

from __future__ import annotations

import logging

import pytest

from bot.domain.clock import ManualClock
from bot.domain.errors import DamagedMatch
from bot.service.guilds import Guilds
from bot.service.matches import MatchService
from bot.service.offers import Offers
from bot.service.ratings import Ratings
from bot.service.timelimits import TimeLimits
from bot.store.sqlite import SqliteStore
from tests.said import refusal_text, refused

ALICE, BOB, CAROL, DAN = (101, "alice"), (102, "bob"), (103, "carol"), (104, "dan")
GUILD, CHANNEL = 9000, 9001
DAY = 86400.0

NOT_JSON = "{not json"
# (table, column, stored value): every column of the match's rows that a value can damage.
DAMAGE = [
    ("matches", "game", "chess"),
    ("matches", "game", 5),
    ("matches", "options", NOT_JSON),
    ("matches", "options", "[5]"),
    ("matches", "options", '{"side": 99}'),
    ("matches", "options", '{"colour": "red"}'),
    ("matches", "players", "x"),
    ("matches", "guild_id", "x"),
    ("matches", "channel_id", "x"),
    ("matches", "thread_id", "x"),
    ("matches", "lobby_message_id", "x"),
    ("matches", "board_channel_id", "x"),
    ("matches", "board_message_id", "x"),
    ("matches", "creator_id", "x"),
    ("matches", "status", "playing"),
    ("matches", "state", NOT_JSON),
    ("matches", "state", "{}"),
    ("matches", "state", '"text"'),
    ("matches", "state", '{"game": "bump"}'),
    ("matches", "version", "x"),
    ("matches", "created_at", "x"),
    ("matches", "updated_at", "x"),
    ("matches", "turn_started_at", "x"),
    ("matches", "result", NOT_JSON),
    ("matches", "announced_version", "x"),
    ("matches", "days_per_move", "x"),
    ("matches", "deadline_at", "x"),
    ("matches", "deadline_notice", "x"),
    ("matches", "rated", "x"),
    ("matches", "hints", "x"),
    ("seats", "seat", "x"),
    ("seats", "user_id", "x"),
    ("seats", "name", b"\xff"),
    ("seats", "accepted", "x"),
    ("seats", "resigned", "x"),
    ("moves", "events", NOT_JSON),
    ("moves", "events", '{"a": 1}'),
    ("moves", "events", "[5]"),
    ("moves", "ply", "x"),
    ("moves", "seat", "x"),
    ("moves", "notation", b"\xff"),
    ("moves", "created_at", "x"),
]


@pytest.fixture
async def world(tmp_path):
    clock = ManualClock()
    store = await SqliteStore.open(tmp_path / "hexplay.sqlite3")
    service = MatchService(store, clock, default_reminder_hours=24)
    yield service, clock
    await store.close()


async def started(service, a, b):
    lobby = await service.create(
        game_id="bide", creator=a, invited=[b], guild_id=GUILD, channel_id=CHANNEL, days_per_move=1
    )
    outcome = await service.accept(lobby.id, b[0])
    await service.play(lobby.id, a[0], "e5")
    return outcome.match.id


async def damage(store, match_id, table, column, value):
    """One value of one row of the match (its last seat, its last move) replaced by ``value``."""
    key = "id" if table == "matches" else "match_id"
    async with store.transaction() as db:
        await db.execute("PRAGMA ignore_check_constraints = ON")
        await db.execute(
            f"UPDATE {table} SET {column} = ? WHERE rowid = (SELECT rowid FROM {table}"
            f" WHERE {key} = ? ORDER BY rowid DESC LIMIT 1)",
            (value, match_id),
        )
        await db.execute("PRAGMA ignore_check_constraints = OFF")


@pytest.mark.parametrize("table,column,value", DAMAGE, ids=[f"{t}.{c}={v!r}" for t, c, v in DAMAGE])
async def test_a_damaged_column_sets_its_match_aside_and_every_pass_goes_on(world, table, column, value, caplog):
    service, clock = world
    store = service.store
    damaged = await started(service, ALICE, BOB)
    healthy = await started(service, CAROL, DAN)
    await damage(store, damaged, table, column, value)
    caplog.set_level(logging.ERROR, logger="bot")

    # start-up and the periodic passes: nothing raises, the healthy match is still served
    await service.verify_all()
    clock.advance(DAY - 1800)  # inside the last hour of the one-day time limit
    warned = {job.match.id for job in await TimeLimits(service).due()}
    assert healthy in warned and damaged not in warned
    clock.advance(3600)  # past the 24 h reminder delay, and out of time
    reminded = {job.match.id for job in await service.due_reminders()}
    assert healthy in reminded and damaged not in reminded
    timed_out = {job.match.id for job in await TimeLimits(service).due()}
    assert healthy in timed_out and damaged not in timed_out
    await Ratings(service).catch_up()
    for user in (ALICE, BOB, CAROL, DAN):
        await service.my_matches(user[0], GUILD)
        await Ratings(service).profile(GUILD, user[0])
    assert healthy in [m.id for m in await Guilds(service).server_matches(GUILD)]

    # the damaged match is paused, and says so; the other one plays on
    with refused(match="is paused"):
        await service.get(damaged)
    assert damaged in await store.quarantined_ids() and healthy not in await store.quarantined_ids()
    assert damaged in await store.claim_paused_untold(clock.now(), 60.0)  # the bot tells its players once
    assert (await service.play(healthy, DAN[0], "bide")).match.version > 0
    assert any(f"match {damaged} set aside" in r.getMessage() for r in caplog.records)
    assert not any(r.exc_info for r in caplog.records), "a damaged match must be set aside, not crash a pass"


async def test_an_unreadable_offer_pauses_its_match_only(world):
    service, _ = world
    damaged = await started(service, ALICE, BOB)
    healthy = await started(service, CAROL, DAN)
    offers = Offers(service)
    await service.play(damaged, BOB[0], "bide")
    notice = await offers.offer(damaged, BOB[0], "undo")
    await damage(service.store, damaged, "offers", "accepted", NOT_JSON)
    with pytest.raises(DamagedMatch) as raised:
        await offers.answer(damaged, ALICE[0], "undo", notice.at_seq, True)
    assert "paused" in refusal_text(await service.paused_by(raised.value))
    with refused(match="is paused"):
        await service.get(damaged)
    assert (await service.play(healthy, DAN[0], "bide")).match.version > 0


async def test_a_repaired_row_is_put_back_in_play_at_the_next_start(world):
    service, _ = world
    damaged = await started(service, ALICE, BOB)
    await damage(service.store, damaged, "matches", "version", "x")
    assert damaged in await service.verify_all()
    await damage(service.store, damaged, "matches", "version", 3)  # the operator restores the value
    assert damaged not in await service.verify_all()
    assert (await service.get(damaged)).version == 3
