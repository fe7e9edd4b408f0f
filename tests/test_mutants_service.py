"""Rules of the match service's features that `make mutation` of 2026-11-28 found unpinned (docs/testing.md).

The features of bot/service/ a match is played through: core (storing a move, finding a match), the lobby,
play (the Activity's tapped turns), history (looking back, boards a stop left unposted), preferences and the
background check. Each test is named for the rule it pins; its docstring names the mutants it kills. Fast
tests only, on a real SQLite file and a manual clock, like tests/test_mutants_bot.py.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.domain.bank import BankClock
from bot.domain.clock import ManualClock
from bot.domain.errors import StorageDown
from bot.domain.seats import game_of
from bot.service.guilds import Guilds
from bot.service.matches import MatchService
from bot.service.timelimits import TimeLimits
from bot.service.turn_builder import MAX_ACTIONS
from bot.service.verify import BACKGROUND_CHECKS_PER_SECOND
from bot.store.sqlite import SqliteStore
from games import Event
from games.interface import plain
from tests.racing import NoChallengeLimits
from tests.said import refused, said

GUILD, CHANNEL = 9000, 9001
ALICE, BOB = (101, "alice"), (102, "bob")
HOUR = 3600.0


@pytest.fixture
async def service(tmp_path):
    store = await SqliteStore.open(tmp_path / "hexplay.sqlite3")
    service = MatchService(store, ManualClock(), default_reminder_hours=24)
    service.limits = NoChallengeLimits()  # these tests make many challenges; the limits have their own tests
    try:
        yield service
    finally:
        await store.close()


async def started(service: MatchService, **options):
    """A Bide match in play, alice (Red, to move first) against bob."""
    lobby = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, **options
    )
    await service.accept(lobby.id, BOB[0])
    return await service.get(lobby.id)


async def against_the_computer(service: MatchService, **options):
    lobby = await service.create(
        game_id="bide", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, **options
    )
    outcome = await service.start_if_ready(lobby.id)
    assert outcome is not None
    return outcome.match


# -- storing a move whose answer was lost (bot/service/core.py) --------------------------------------------


async def test_a_move_stored_before_the_databases_answer_was_lost_is_told_as_played(service, monkeypatch):
    """core ``_stored_once`` 11: the log, read after the lost answer, shows the move at the next version."""
    match = await started(service)
    record = service.store.record_move

    async def stored_then_cut_off(*args, **kwargs):
        await record(*args, **kwargs)
        raise StorageDown("the connection dropped before the commit's answer came back")

    monkeypatch.setattr(service.store, "record_move", stored_then_cut_off)
    played = await service.play(match.id, ALICE[0], "e5")
    assert "played `e5`" in said(played) and played.match.version == match.version + 1
    assert [move.notation for move in await service.store.moves(match.id)] == ["e5"]


async def test_a_move_the_database_never_stored_is_said_not_stored_and_may_be_played_again(service, monkeypatch):
    """core ``_stored_once`` 17: the refusal is "storage_down", worded for the player."""
    match = await started(service)
    record = service.store.record_move

    async def cut_off(*args, **kwargs):
        raise StorageDown("the connection dropped before the write")

    monkeypatch.setattr(service.store, "record_move", cut_off)
    with refused(match=r"^Your move was \*\*not\*\* stored: the bot's database is not answering right now\."):
        await service.play(match.id, ALICE[0], "e5")
    assert await service.store.moves(match.id) == []
    monkeypatch.setattr(service.store, "record_move", record)  # the database answers again
    assert "played `e5`" in said(await service.play(match.id, ALICE[0], "e5"))


# -- finding a match (bot/service/core.py) ----------------------------------------------------------------


async def test_a_player_in_many_matches_is_shown_ten_of_them_to_choose_from(service):
    """core ``resolve`` 75: the refusal lists ten matches at most, so its sentence stays one short message."""
    ids = [(await started(service)).id for _ in range(11)]  # alice is to move in all eleven
    with refused(match=r"^You are in several matches \(") as raised:
        await service.resolve(ALICE[0], GUILD, CHANNEL, None)
    listed = raised.value.facts["matches"]
    assert isinstance(listed, list) and len(listed) == 10
    assert {match.id for match in listed} < set(ids)


# -- the lobby (bot/service/lobby.py) -----------------------------------------------------------------------


async def test_with_a_bank_clock_every_person_starts_with_a_full_bank_and_the_computer_has_none(service):
    """lobby ``_start`` 18: the computer has no clock, so its seat stores no bank."""
    match = await against_the_computer(service, computer="easy", clock_text="72h+36h max 120h")
    assert match.clock == BankClock(72 * HOUR, 36 * HOUR, 120 * HOUR)
    assert [(seat.name, seat.bank) for seat in match.seats] == [("alice", 72 * HOUR), ("Hexplay (easy)", None)]


async def test_several_computer_seats_are_numbered_from_one(service):
    """lobby ``create`` 166."""
    lobby = await service.create(
        game_id="bide", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, computer="easy", computers=2
    )
    assert [seat.name for seat in lobby.seats] == ["alice", "Hexplay 1 (easy)", "Hexplay 2 (easy)"]


async def test_a_match_that_names_no_time_control_gets_the_servers_default(service):
    """lobby ``create`` 32 (the server's bank clock) and 33 (the server's days per move)."""
    guilds = Guilds(service)
    await guilds.configure(GUILD, is_admin=True, clock_text="48h+24h max 96h")
    clocked = await started(service)
    assert (clocked.clock, clocked.days_per_move) == (BankClock(48 * HOUR, 24 * HOUR, 96 * HOUR), None)
    await guilds.configure(GUILD, is_admin=True, clock_text="off", days_per_move=3)
    daily = await started(service)
    assert (daily.clock, daily.days_per_move) == (None, 3)
    own = await started(service, days_per_move=5)  # a match's own time control wins over the default
    assert (own.clock, own.days_per_move) == (None, 5)


# -- a turn built by tapping (bot/service/play.py) -------------------------------------------------------------


def shouted(template: str, /, **fields: object) -> str:
    """A ``say`` that is not the engines' English, to see which one labels the actions."""
    return plain(template, **fields).upper()


async def test_the_actions_a_tapped_turn_offers_are_labelled_in_the_words_it_is_given(service):
    """play ``tapped`` 45: the labels come through ``say`` (the viewer's language in the Activity)."""
    match = await started(service)
    _, state, english = await service.tapped(match.id, ALICE[0], match.version, [], plain)
    _, _, loud = await service.tapped(match.id, ALICE[0], match.version, [], shouted)
    assert state.game.to_move == 1 and len(english) == len(game_of(match).legal_notations())
    assert [action.label for action in loud] == [action.label.upper() for action in english]
    assert any(action.label != action.label.upper() for action in english)


async def test_a_tapped_turn_longer_than_any_turn_is_refused_in_the_builders_words(service):
    """play ``tapped`` 28, 30, 31: the refusal is "builder_says", with the builder's reason."""
    match = await started(service)
    with refused(match=rf"^Turn builder: a turn has at most {MAX_ACTIONS} actions\.$"):
        await service.tapped(match.id, ALICE[0], match.version, ["e5"] * (MAX_ACTIONS + 1), plain)


# -- looking back (bot/service/history.py) ------------------------------------------------------------------


async def test_a_board_rebuilt_after_a_stop_shows_the_last_turn_as_posted_live(service):
    """history ``_rebuilt`` 67: the rebuilt announcement carries the turn's events (drawn on the board)."""
    match = await started(service)
    played = await service.play(match.id, ALICE[0], "e5")
    rebuilt = await service.missed(match.id)
    assert played.events and rebuilt.events == played.events
    assert said(rebuilt) == said(played)


async def test_a_conditional_answer_and_the_turn_it_answered_are_both_posted_after_a_stop_oldest_first(service):
    """history ``missed_turns`` 13: both boards are owed when neither was posted."""
    match = await started(service)
    await service.add_premove(match.id, BOB[0], "e5; d4")
    await service.play(match.id, ALICE[0], "e5")  # bob's d4 answers at once; a stop comes before either post
    owed = await service.missed_turns(match.id)
    assert [outcome.changes[0].notation for outcome in owed] == ["e5", "d4"]
    assert [outcome.changes[0].conditional for outcome in owed] == [False, True]
    assert [outcome.mention_user_id for outcome in owed] == [None, ALICE[0]]  # bob answered already: no ping
    assert owed[0].match.version == owed[1].match.version - 1


async def test_a_lobby_has_no_position_to_look_at(service):
    """history ``position_at`` 10: the refusal is "not_started"."""
    lobby = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    with refused(match=rf"^Bide #{lobby.id} has not started yet\.$"):
        await service.position_at(lobby.id, 0)


async def test_the_position_at_each_ply_is_the_one_its_moves_led_to(service):
    """history ``position_at`` 38 (a ply below 0 is the start) and 45 (the events of the move that led there)."""
    match = await started(service)
    e5 = await service.play(match.id, ALICE[0], "e5")
    await service.play(match.id, BOB[0], "d4")
    start = game_of(match).to_json()
    for ply in (0, -3):
        at_start = await service.position_at(match.id, ply)
        assert (at_start.ply, at_start.plies, at_start.move, at_start.events) == (0, 2, None, [])
        assert at_start.game.to_json() == start
    first = await service.position_at(match.id, 1)
    assert first.ply == 1 and first.move is not None and first.move.notation == "e5"
    assert first.game.to_json() == e5.game.to_json()
    assert first.events == list(e5.events) and all(isinstance(event, Event) for event in first.events)
    assert first.events


# -- reminder preferences (bot/service/preferences.py) ----------------------------------------------------------


async def test_quiet_hours_take_a_time_zone_and_off_clears_it(service):
    """preferences ``set_preferences`` 8 ("off" is not a zone), 9 (a zone is kept), 20 (the refusal's reason)."""
    others_unchanged = {"reminders": None, "delay_hours": None, "via": None}
    kept = await service.set_preferences(ALICE[0], GUILD, **others_unchanged, quiet_zone="Europe/Paris")
    assert kept.quiet_zone == "Europe/Paris"
    assert (await service.preferences(ALICE[0], GUILD)).quiet_zone == "Europe/Paris"
    cleared = await service.set_preferences(ALICE[0], GUILD, **others_unchanged, quiet_zone="off")
    assert cleared.quiet_zone is None and (await service.preferences(ALICE[0], GUILD)).quiet_zone is None
    with refused(match=r"^Quiet hours need your time zone: give `quiet_zone` too"):
        await service.set_preferences(ALICE[0], GUILD, **others_unchanged, quiet_hours="22:00-08:00")


# -- the background check (bot/service/verify.py) ---------------------------------------------------------------


@pytest.mark.parametrize("per_second", [4.0, None])
async def test_the_background_check_paces_itself_at_its_rate(service, monkeypatch, per_second):
    """verify ``verify_in_background`` 22: one match every 1/rate seconds (the default rate without one)."""
    for _ in range(3):
        await started(service)
    fresh = MatchService(service.store, service.clock)  # a new process: none of them checked yet
    pauses: list[float] = []
    sleep = asyncio.sleep

    async def timed(seconds: float, *args: object) -> None:
        pauses.append(seconds)
        await sleep(0)

    monkeypatch.setattr(asyncio, "sleep", timed)
    assert await fresh.verify_in_background(per_second) == 0
    assert pauses == [1 / (per_second or BACKGROUND_CHECKS_PER_SECOND)] * 3


async def test_a_bank_clocks_first_turn_is_warned_a_day_before_the_bank_runs_out(service):
    """lobby ``_start`` 62: the first turn's allowance is the mover's bank (72 h), so a day before it runs out the
    mover is warned, as on any later turn (without it the first turn counted as a turn of 0 s: no warning)."""
    match = await started(service, clock_text="72h+36h max 120h")
    assert match.turn_allowance == 72 * HOUR and match.deadline_at is not None
    job = await TimeLimits(service)._job(match.id, match.deadline_at - 23 * HOUR)
    assert job is not None and (job.level, job.user_id) == (1, ALICE[0])
