"""The service layer without Discord: lobbies, moves, concurrency, restarts, reminders."""

import asyncio
import json
from pathlib import Path

import pytest

from bot.domain.clock import ManualClock
from bot.domain.errors import Refusal
from bot.domain.replay import replay
from bot.domain.seats import game_of
from bot.service.lobby import parse_options
from bot.service.matches import MatchService
from bot.store import open_store
from bot.store.sqlite import SqliteStore
from bot.store.sqlite.migrations import MIGRATIONS
from tests.backends import execute, fetch
from tests.racing import NoChallengeLimits, gaps, race
from tests.said import lobby_text, refused, said, words

pytestmark = pytest.mark.both_backends

ALICE, BOB, CAROL, DAN = (101, "alice"), (102, "bob"), (103, "carol"), (104, "dan")
GUILD, CHANNEL = 9000, 9001


@pytest.fixture
async def env(database):
    clock = ManualClock()
    store = await open_store(database)
    service = MatchService(store, clock, default_reminder_hours=24)
    yield service, clock, database
    await service.store.close()


async def started_match(service, players=(ALICE, BOB), options=None):
    match = await service.create(
        game_id="bide",
        creator=players[0],
        invited=list(players[1:]),
        guild_id=GUILD,
        channel_id=CHANNEL,
        options_text=options,
    )
    outcome = None
    for user in players[1:]:
        outcome = await service.accept(match.id, user[0])
    assert outcome is not None and outcome.started
    return outcome.match


async def test_store_creates_its_schema_in_wal_mode_on_sqlite(env):
    service, _, path = env
    assert await service.store.schema_version() == len(MIGRATIONS)
    if isinstance(service.store, SqliteStore):
        assert Path(path).exists()
        assert await fetch(service.store, "PRAGMA journal_mode") == [("wal",)]


async def test_two_player_challenge_accept_and_play(env):
    service, _, _ = env
    match = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    assert match.status == "lobby" and "invited" in lobby_text(match)
    with refused(match="not been invited|not invited"):
        await service.accept(match.id, CAROL[0])
    outcome = await service.accept(match.id, BOB[0])
    assert outcome.started and outcome.mention_user_id == ALICE[0]
    played = await service.play(match.id, ALICE[0], "E5")
    assert "played `e5`" in said(played) and played.mention_user_id == BOB[0]
    assert played.match.version == outcome.match.version + 1


async def test_refusals_are_clear(env):
    service, _, _ = env
    match = await started_match(service)
    with refused(match="not your turn.*bob|not your turn"):
        await service.play(match.id, BOB[0], "e5")
    with refused(match="not a player"):
        await service.play(match.id, CAROL[0], "e5")
    with refused(match="not a legal move: .*no row z"):
        await service.play(match.id, ALICE[0], "z9")
    with refused(match="no match #999"):
        await service.play(999, ALICE[0], "e5")
    await service.resign(match.id, BOB[0])
    with refused(match="is over"):
        await service.play(match.id, ALICE[0], "e5")


async def test_illegal_move_changes_nothing(env):
    service, _, _ = env
    match = await started_match(service)
    await service.play(match.id, ALICE[0], "e5")
    before = await service.get(match.id)
    with refused():
        await service.play(match.id, BOB[0], "e5")
    after = await service.get(match.id)
    assert after.state == before.state and after.version == before.version
    assert len(await service.store.moves(match.id)) == 1


async def test_simultaneous_moves_apply_exactly_once(env):
    service, _, _ = env
    match = await started_match(service)
    results = await asyncio.gather(
        service.play(match.id, ALICE[0], "e5"), service.play(match.id, ALICE[0], "a1"), return_exceptions=True
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    answer = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(answer) == 1
    assert len(await service.store.moves(match.id)) == 1


async def test_a_turn_decided_on_an_out_of_date_read_is_decided_again_and_stored_once(env):
    """/move plays on the read that found the match (one trip fewer); a read the match has left since is
    never what the turn is stored on: it is decided again on the match as it is."""
    service, _, _ = env
    match = await started_match(service)
    alice_saw = await service.get(match.id)  # alice to move
    await service.play(match.id, ALICE[0], "e5")
    bob_saw = await service.get(match.id)
    # bob's read is from before alice moved: it says "not your turn", the match says otherwise
    await service.play(match.id, BOB[0], "e4", seen=alice_saw)
    # alice's read is two turns old: decided on it, the store's compare-and-set refuses it, so it is decided anew
    outcome = await service.play(match.id, ALICE[0], "d5", seen=alice_saw)
    assert [m.notation for m in await service.store.moves(match.id)] == ["e5", "e4", "d5"]
    assert outcome.match.version == bob_saw.version + 2
    assert replay(outcome.match, await service.store.moves(match.id)).to_json() == outcome.match.state
    with refused(match="not your turn"):  # a read that is current decides alone
        await service.play(match.id, ALICE[0], "c5", seen=await service.get(match.id))
    with refused(match="not your turn"):  # and an old one that says yes is asked again
        await service.play(match.id, ALICE[0], "c5", seen=alice_saw)
    assert len(await service.store.moves(match.id)) == 3


async def test_stale_button_version_is_refused(env):
    service, _, _ = env
    match = await started_match(service)
    version = match.version
    await service.play(match.id, ALICE[0], "bide", expected_version=version)
    await service.play(match.id, BOB[0], "e5")
    with refused(match="older position"):
        await service.play(match.id, ALICE[0], "bide", expected_version=version)


async def test_restart_keeps_matches_lobbies_and_reminders(env, tmp_path):
    service, clock, path = env
    match = await started_match(service)
    await service.play(match.id, ALICE[0], "e5")
    lobby = await service.create(game_id="bide", creator=CAROL, invited=[DAN], guild_id=GUILD, channel_id=CHANNEL)
    await service.store.close()
    store = await open_store(path)
    service.store = store  # the fixture closes the live store even if an assertion below fails
    again = MatchService(store, clock)
    assert await again.verify_all() == []
    reloaded = await again.get(match.id)
    assert game_of(reloaded).position()["board"] != {}
    assert (await again.get(lobby.id)).status == "lobby"
    assert (await store.get_reminder(match.id)).user_id == BOB[0]
    await again.accept(lobby.id, DAN[0])


async def test_a_state_that_disagrees_with_its_log_is_set_aside_not_rewritten(env):
    service, _, _ = env
    match = await started_match(service)
    await service.play(match.id, ALICE[0], "e5")
    await service.play(match.id, BOB[0], "e4")
    game = game_of(await service.get(match.id))
    rebuilt = replay(match, await service.store.moves(match.id))
    assert rebuilt.to_json() == game.to_json()
    # corrupt the stored state: start-up verification sets the match aside and leaves the data as it is
    broken = game.to_json()
    broken["position"]["board"] = {}
    await execute(service.store, "UPDATE matches SET state = ? WHERE id = ?", json.dumps(broken), match.id)
    assert await service.verify_all() == [match.id]
    assert (await service.store.get_match(match.id)).state == broken
    with refused(match="paused"):
        await service.play(match.id, ALICE[0], "d5")
    # once an operator repairs it, the next start-up puts it back in play
    await execute(service.store, "UPDATE matches SET state = ? WHERE id = ?", json.dumps(game.to_json()), match.id)
    assert await service.verify_all() == []
    await service.play(match.id, ALICE[0], "d5")


async def test_multiplayer_lobby_join_and_start(env):
    service, _, _ = env
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, players=4
    )
    assert "3 open seats" in lobby_text(match)
    with refused(match="at least 2"):
        await service.start(match.id, ALICE[0])
    await service.join(match.id, BOB)
    with refused(match="already seated"):
        await service.join(match.id, BOB)
    with refused(match="Only the player who created"):
        await service.start(match.id, BOB[0])
    outcome = await service.join(match.id, CAROL)
    assert not outcome.started
    outcome = await service.start(match.id, ALICE[0])
    assert outcome.started and outcome.game.players == 3


async def test_lobby_fills_and_starts_by_itself(env):
    service, _, _ = env
    match = await service.create(game_id="bide", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL)
    outcome = await service.join(match.id, BOB)
    assert outcome.started and outcome.game.players == 2


async def test_decline_cancels_a_two_player_challenge(env):
    service, _, _ = env
    match = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    outcome = await service.decline(match.id, BOB[0])
    assert "declined" in said(outcome)
    with refused(match="no match"):
        await service.accept(match.id, BOB[0])


async def test_bad_lobby_requests(env):
    service, _, _ = env
    with refused(match="unknown game"):
        await service.create(game_id="chess", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL)
    with refused(match="side cannot be"):
        await service.create(
            game_id="bide", creator=ALICE, invited=[], guild_id=GUILD, channel_id=CHANNEL, options_text="side=9"
        )
    with refused(match="yourself"):
        await service.create(game_id="bide", creator=ALICE, invited=[ALICE], guild_id=GUILD, channel_id=CHANNEL)
    with refused(match="key=value"):
        parse_options("side")
    assert parse_options("side=4") == {"side": "4"}


async def test_resolve_finds_the_match(env):
    service, _, _ = env
    first = await started_match(service)
    assert (await service.resolve(ALICE[0], GUILD, 1, None)).id == first.id
    second = await started_match(service, players=(BOB, ALICE))
    # alice must move in `first` only (bob moves first in `second`)
    assert (await service.resolve(ALICE[0], GUILD, 1, None)).id == first.id
    await service.play(second.id, BOB[0], "e5")
    with refused(match="several matches"):
        await service.resolve(ALICE[0], GUILD, 1, None)
    assert (await service.resolve(ALICE[0], GUILD, 1, second.id)).id == second.id
    with refused(match="no match in progress"):
        await service.resolve(CAROL[0], GUILD, 1, None)


async def test_suggestions_filter_explain_and_continue_a_release(env):
    service, _, _ = env
    match = await started_match(service)
    game = game_of(match)
    first = words(service).suggestions(match, game, ALICE[0], "")
    assert len(first) == 25 and first[0][1] == "bide" and first[1][1] == "e5"
    assert all(len(name) <= 100 and len(value) <= 100 for name, value in first)
    only_d = words(service).suggestions(match, game, ALICE[0], "d")
    assert only_d and all(value.startswith("d") for _, value in only_d)
    assert "value" in only_d[0][0]
    # a hand of two: after "e5," the autocomplete continues the release
    await service.play(match.id, ALICE[0], "bide")
    await service.play(match.id, BOB[0], "bide")
    match = await service.get(match.id)
    game = game_of(match)
    cont = words(service).suggestions(match, game, ALICE[0], "e5,")
    assert cont[0] == ("e5 — end the turn here", "e5")
    assert all(value.startswith("e5,") for _, value in cont[1:])
    wrong = words(service).suggestions(match, game, ALICE[0], "q1,")
    assert wrong[0][0].startswith("✗ q1")
    theirs = words(service).suggestions(match, game, BOB[0], "")
    assert theirs[0][0].startswith("Not your turn")


async def test_preview_changes_nothing(env):
    service, _, _ = env
    match = await started_match(service)
    png, line = await words(service).preview(match.id, ALICE[0], "e5")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and "Preview" in line
    assert game_of(await service.get(match.id)).position()["board"] == {}


async def test_history_and_gif(env):
    service, _, _ = env
    match = await started_match(service)
    for user, move in ((ALICE, "e5"), (BOB, "d4"), (ALICE, "bide")):
        await service.play(match.id, user[0], move)
    _, lines = await words(service).history(match.id)
    assert lines == ["1. **alice** (Red): e5", "2. **bob** (Blue): d4", "3. **alice** (Red): bide"]
    gif = await service.history_gif(match.id)
    assert gif[:6] in (b"GIF89a", b"GIF87a")


async def test_reminders_fire_after_the_delay_only_for_the_player_to_move(env):
    service, clock, _ = env
    match = await started_match(service)
    assert await service.due_reminders() == []
    clock.advance(23 * 3600)
    assert await service.due_reminders() == []
    clock.advance(2 * 3600)
    jobs = await service.due_reminders()
    assert [j.user_id for j in jobs] == [ALICE[0]]
    assert "your turn" in words(service).text(jobs[0]) and f"#{match.id}" in words(service).text(jobs[0])
    await service.reminder_done(jobs[0])
    assert await service.due_reminders() == []  # at most once per delay
    clock.advance(24 * 3600)
    assert [j.user_id for j in await service.due_reminders()] == [ALICE[0]]
    await service.play(match.id, ALICE[0], "e5")
    assert await service.due_reminders() == []  # the move reset the schedule, now for bob
    clock.advance(25 * 3600)
    jobs = await service.due_reminders()
    assert [j.user_id for j in jobs] == [BOB[0]] and "played `e5`" in words(service).text(jobs[0])


async def test_snooze_and_preferences(env):
    service, clock, _ = env
    match = await started_match(service)
    prefs = await service.set_preferences(ALICE[0], GUILD, reminders=None, delay_hours=2, via="ping")
    assert "2 h" in words(service).describe_preferences(prefs) and "ping" in words(service).describe_preferences(prefs)
    with refused(match="between 1 hour"):
        await service.set_preferences(ALICE[0], GUILD, reminders=None, delay_hours=0.1, via=None)
    match2 = await started_match(service, players=(ALICE, CAROL))
    clock.advance(3 * 3600)
    jobs = await service.due_reminders()
    assert {j.match.id for j in jobs} == {match2.id} and jobs[0].via == "ping"
    # the first match's reminder was scheduled before the preference changed (24 h)
    assert await service.snooze(match2.id, ALICE[0], 0)
    assert await service.due_reminders() == []
    with refused(match="out of date"):
        await service.snooze(match2.id, ALICE[0], 5)
    await service.set_preferences(ALICE[0], GUILD, reminders=False, delay_hours=None, via=None)
    clock.advance(30 * 3600)
    assert await service.due_reminders() == []
    assert match.id


async def test_move_log_keeps_what_was_typed_who_and_when(env):
    service, clock, _ = env
    match = await started_match(service)
    clock.advance(60)
    await service.play(match.id, ALICE[0], " E5 ")
    [logged] = await service.store.moves(match.id)
    assert (logged.notation, logged.entered, logged.user_id, logged.seat, logged.ply) == ("e5", " E5 ", ALICE[0], 1, 0)
    assert logged.created_at == clock.now()
    assert [e["kind"] for e in logged.events] == ["place", "draw"]


async def test_invited_player_pressing_join_accepts(env):
    service, _, _ = env
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, players=3
    )
    outcome = await service.join(match.id, BOB)
    assert "accepted" in said(outcome) and not outcome.started
    assert all(s.accepted for s in outcome.match.seats)


async def test_a_match_is_checked_on_its_first_use_after_a_restart_not_at_start_up(env):
    """Start-up does not replay every match: a fresh service (a restart) checks each on first use, and a
    match whose log does not lead to its position is set aside then, never served; the slow background
    pass finds the ones nobody touched."""
    service, clock, _ = env
    service.limits = NoChallengeLimits()
    broken, untouched, healthy = [await started_match(service) for _ in range(3)]
    for match in (broken, untouched, healthy):
        await service.play(match.id, ALICE[0], "e5")
    for match in (broken, untouched):
        state = (await service.get(match.id)).state
        state["position"]["board"] = {}
        await execute(service.store, "UPDATE matches SET state = ? WHERE id = ?", json.dumps(state), match.id)
    restarted = MatchService(service.store, clock, default_reminder_hours=24)
    assert await service.store.quarantined_ids() == []  # nothing is read at start
    with refused(match="paused"):
        await restarted.play(broken.id, BOB[0], "e4")
    assert await service.store.quarantined_ids() == [broken.id]
    await restarted.play(healthy.id, BOB[0], "e4")
    told = []

    async def tell() -> None:
        told.append(await service.store.quarantined_ids())

    assert await restarted.verify_in_background(per_second=1000, on_set_aside=tell) == 1
    assert told == [[broken.id, untouched.id]]
    assert await restarted.verify_in_background(per_second=1000) == 0  # checked once per process


async def test_a_first_check_racing_another_process_s_move_never_sets_a_healthy_match_aside(env):
    """The match and its log are two reads: a move stored between them must not look like damage."""
    service, clock, _ = env
    service.limits = NoChallengeLimits()
    for trial, gap in enumerate(gaps(30, loop_turns=20)):
        match = await started_match(service)
        fresh = MatchService(service.store, clock, default_reminder_hours=24)  # another process, nothing checked
        results = await race(lambda: service.play(match.id, ALICE[0], "e5"), lambda: fresh.get(match.id), gap)
        assert not any(isinstance(r, BaseException) for r in results), (trial, results)
        assert await service.store.quarantined_ids() == [], trial
