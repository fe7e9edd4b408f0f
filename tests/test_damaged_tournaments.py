"""Damage confined to one tournament: a row of an event that cannot be read sets that event aside (issue 34, 5).

Before, an unreadable tournament row failed every pass over the events (36 tracebacks in 75 s), nobody was
told, and /tournament standings answered "something went wrong … look at the match". Now the first look sets
the event aside, once (one ERROR line, no traceback), every later pass leaves it out, its organizer is told
once, /tournament answers that it is paused, the other events go on, and a repaired event is back in play at
the next start. Each kind of row is damaged in turn: the event's own, a player's, a game's.
"""

from __future__ import annotations

import logging

import pytest

from bot.domain.errors import TournamentPaused
from bot.service.tournaments import Tournaments
from tests.backends import execute
from tests.said import refusal_text, refused

pytestmark = pytest.mark.both_backends

GUILD, CHANNEL = 9000, 9001
ORGANIZER = 1
NOT_JSON = "{not json"

# (table, column, value, key column): a value that cannot be used, in either backend.
DAMAGE = [
    ("tournaments", "options", NOT_JSON, "id"),
    ("tournaments", "options", "[5]", "id"),
    ("tournaments", "game", "chess", "id"),
]
# SQLite keeps whatever was written, whatever the declared type (a damaged disk, a hand-edited file knows no
# constraints): each kind of row of an event.
SQLITE_ONLY_DAMAGE = [
    ("tournaments", "guild_id", "x", "id"),
    ("tournaments", "status", "playing", "id"),
    ("tournaments", "version", "x", "id"),
    ("tournaments", "organizer_id", "x", "id"),
    ("tournament_players", "joined_at", "x", "tournament_id"),
    ("tournament_players", "name", b"\xff", "tournament_id"),
    ("tournament_games", "round", "x", "tournament_id"),
    ("tournament_games", "match_id", None, "tournament_id"),  # neither a match nor a bye
]


async def running_event(tournaments: Tournaments, players: list[int]):
    event = await tournaments.create(
        organizer=ORGANIZER, guild_id=GUILD, channel_id=CHANNEL, game_id="begird", fmt="swiss"
    )
    for user_id in players:
        await tournaments.join(event.id, GUILD, (user_id, f"p{user_id}"))
    await tournaments.start(event.id, GUILD, ORGANIZER)
    return event.id


async def damage(store, tournament_id: int, table: str, column: str, value, key: str) -> None:
    """One value of the event's rows replaced (on SQLite with its CHECK constraints off, as damage knows none)."""
    sqlite = store.__class__.__name__ == "SqliteStore"
    if sqlite:
        await execute(store, "PRAGMA ignore_check_constraints = ON")
    await execute(store, f"UPDATE {table} SET {column} = ? WHERE {key} = ?", value, tournament_id)
    if sqlite:
        await execute(store, "PRAGMA ignore_check_constraints = OFF")


async def check_set_aside_once(service, caplog, table, column, value, key):
    tournaments = Tournaments(service)
    damaged = await running_event(tournaments, [1, 2, 3, 4])
    healthy = await running_event(tournaments, [5, 6, 7, 8])
    await damage(service.store, damaged, table, column, value, key)
    caplog.set_level(logging.INFO, logger="bot")

    # three passes over the events: the damaged one is set aside at the first, said once, never a traceback
    for _ in range(3):
        for tournament_id in await service.store.tournaments_to_tend(service.clock.now()):
            await tournaments.tend(tournament_id)
    said = [r for r in caplog.records if f"tournament {damaged} set aside" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.ERROR, [r.getMessage() for r in caplog.records]
    assert not any(r.exc_info for r in caplog.records), "a damaged event must be set aside, not crash a pass"
    assert await service.store.tournaments_set_aside() == [damaged]
    assert damaged not in await service.store.tournaments_to_tend(service.clock.now())

    # asked for, it answers that it is paused; the other event is served
    with pytest.raises(TournamentPaused) as paused:
        await tournaments.standings(damaged, GUILD)
    assert "is paused" in refusal_text(paused.value) and "look at the match" not in refusal_text(paused.value)
    with refused(match="is paused"):
        await tournaments.resolve(GUILD, damaged, ("running",))
    assert [t.id for t in await tournaments._of_guild(GUILD, ("running",))] == [healthy]
    assert (await tournaments.standings(healthy, GUILD)).tournament.id == healthy

    # its organizer is told once (the claim is the store's: one process, once)
    untold = await tournaments.aside_untold()
    organizer = None if (table, column) == ("tournaments", "organizer_id") else ORGANIZER
    assert untold == [(damaged, organizer)]
    assert await tournaments.aside_untold() == []  # claimed: nobody else tells it meanwhile
    await tournaments.aside_told(damaged)
    service.clock.advance(3600)
    assert await tournaments.aside_untold() == []
    return tournaments, damaged


@pytest.mark.parametrize("table,column,value,key", DAMAGE, ids=[f"{t}.{c}={v!r}" for t, c, v, _ in DAMAGE])
async def test_an_unreadable_event_is_set_aside_once_and_the_others_go_on(service, caplog, table, column, value, key):
    await check_set_aside_once(service, caplog, table, column, value, key)


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    "table,column,value,key", SQLITE_ONLY_DAMAGE, ids=[f"{t}.{c}={v!r}" for t, c, v, _ in SQLITE_ONLY_DAMAGE]
)
async def test_an_event_whose_stored_value_has_the_wrong_type_is_set_aside(service, caplog, table, column, value, key):
    await check_set_aside_once(service, caplog, table, column, value, key)


async def test_a_repaired_event_is_back_in_play_at_the_next_start(service, caplog):
    tournaments, damaged = await check_set_aside_once(service, caplog, "tournaments", "options", NOT_JSON, "id")
    assert await tournaments.recheck_set_aside() == [damaged]  # still unreadable: stays aside
    await execute(service.store, "UPDATE tournaments SET options = ? WHERE id = ?", "{}", damaged)
    assert await tournaments.recheck_set_aside(keep=frozenset({damaged})) == [damaged]  # a check still finds it
    assert await tournaments.recheck_set_aside() == []
    assert (await tournaments.standings(damaged, GUILD)).tournament.id == damaged
