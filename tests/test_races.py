"""One turn per submission: racing submissions on one match apply exactly once.

Each trial races two operations at a gap from 0 to 4 ms and then checks that the
stored move log replays to the stored state. benchmarks/soak_races.py runs the same
trials a hundred times and more.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.domain.errors import Refusal
from bot.service.matches import MatchService
from tests import backends
from tests.racing import NoChallengeLimits, gap_for, gaps, log_matches_state, race
from tests.said import refusal_text

pytestmark = pytest.mark.both_backends

ALICE, BOB = (101, "alice"), (102, "bob")
GUILD, CHANNEL = 9000, 9001
LOSER_REASONS = ("not your turn", "position changed", "older position")


async def new_match(service: MatchService) -> int:
    service.limits = NoChallengeLimits()  # dozens of alice-bob challenges: the limits are not tested here
    match = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL)
    await service.accept(match.id, BOB[0])
    return match.id


def split(results):
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    for error in refused:
        assert isinstance(error, Refusal), repr(error)
    return applied, refused


@pytest.mark.parametrize("second", ["move", "button"])
async def test_double_submitted_turn_applies_once(service, second):
    for trial, gap in enumerate(gaps(45, loop_turns=36)):
        match_id = await new_match(service)
        version = (await service.get(match_id)).version
        other = (
            (lambda: service.play(match_id, ALICE[0], "a1"))
            if second == "move"
            else (lambda: service.play(match_id, ALICE[0], "bide", expected_version=version))
        )
        results = await race(lambda: service.play(match_id, ALICE[0], "e5"), other, gap)
        applied, refused = split(results)
        assert len(applied) == 1 and len(refused) == 1, (trial, results)
        assert any(reason in refusal_text(refused[0]) for reason in LOSER_REASONS), refusal_text(refused[0])
        consistent, logged = await log_matches_state(service, match_id)
        assert consistent and logged == 1, (trial, logged)


async def test_a_read_never_sees_an_open_transaction(service):
    """The cause of double turns: on the one connection, a read saw a bumped version beside the old state."""
    match_id = await new_match(service)
    before = await service.store.get_match(match_id)

    async def two_step_write():
        async with backends.transaction(service.store) as run:
            await run("UPDATE matches SET version = version + 1 WHERE id = ?", match_id)
            await asyncio.sleep(0.05)  # the read below is issued while this transaction is open
            await run("UPDATE matches SET updated_at = 12345 WHERE id = ?", match_id)

    writer = asyncio.create_task(two_step_write())
    await asyncio.sleep(0.01)
    seen = await service.store.get_match(match_id)
    await writer
    # all of it or none of it: SQLite's one connection waits for the commit, PostgreSQL reads the snapshot before it
    assert (seen.version, seen.updated_at) in [(before.version + 1, 12345), (before.version, before.updated_at)]


async def test_the_store_alone_refuses_a_stale_turn(service):
    """Without the service's per-match lock (two services, one store), the conditional update still holds."""
    other = MatchService(service.store, service.clock, default_reminder_hours=24)
    for trial, gap in enumerate(gaps(45, loop_turns=36)):
        match_id = await new_match(service)
        results = await race(
            lambda: service.play(match_id, ALICE[0], "e5"), lambda: other.play(match_id, ALICE[0], "a1"), gap
        )
        applied, refused = split(results)
        assert len(applied) == 1 and len(refused) == 1, (trial, results)
        assert any(reason in refusal_text(refused[0]) for reason in LOSER_REASONS), refusal_text(refused[0])
        consistent, logged = await log_matches_state(service, match_id)
        assert consistent and logged == 1


async def test_resign_racing_the_opponents_move_keeps_log_and_state_together(service):
    for trial, gap in enumerate(gaps(45, loop_turns=36)):
        match_id = await new_match(service)
        results = await race(
            lambda: service.play(match_id, ALICE[0], "e5"), lambda: service.resign(match_id, BOB[0]), gap
        )
        applied, _ = split(results)
        consistent, logged = await log_matches_state(service, match_id)
        assert consistent and logged == len(applied), (trial, results, logged)
        assert isinstance(results[1], Refusal) is False  # bob may resign on any turn: it always lands
        assert (await service.get(match_id)).status == "finished"


# -- through Discord (the emulator and the real discord.py client) ------------------------------


async def test_double_submitted_move_through_discord_applies_once(world):
    alice = world.users[0]
    for trial in range(9):
        world.clock.advance(60)  # challenges are limited to 3 a minute per player
        match_id, thread = await world.start_two_player()
        results = await race(
            lambda: world.emu.invoke(alice, thread, "move", {"move": "e5"}),
            lambda: world.emu.invoke(alice, thread, "move", {"move": "a1"}),
            gap_for(trial),
        )
        public = [r for r in results if not r.ephemeral]
        private = [r for r in results if r.ephemeral]
        assert len(public) == 1 and len(private) == 1, [r.text for r in results]
        assert any(reason in private[0].text for reason in LOSER_REASONS), private[0].text
        consistent, logged = await log_matches_state(world.service, match_id)
        assert consistent and logged == 1


async def test_resign_confirmation_racing_a_move_through_discord(world):
    alice, bob = world.users[:2]
    for trial in range(9):
        world.clock.advance(60)  # challenges are limited to 3 a minute per player
        match_id, thread = await world.start_two_player()
        asked = await world.emu.invoke(bob, thread, "resign", {})
        confirm = asked.response.buttons()[0]["custom_id"]
        results = await race(
            lambda: world.emu.press(bob, asked.response, confirm),
            lambda: world.emu.invoke(alice, thread, "move", {"move": "e5"}),
            gap_for(trial),
        )
        assert "resigned" in results[0].text, results[0].text
        consistent, logged = await log_matches_state(world.service, match_id)
        moved = not results[1].ephemeral
        assert consistent and logged == 1 + moved, (trial, logged, results[1].text)


@pytest.mark.sqlite_only  # one connection: PostgreSQL's reads take another of the pool's
async def test_a_store_read_inside_a_transaction_is_refused_not_a_hang(service):
    match_id = await new_match(service)
    with pytest.raises(RuntimeError, match="inside a transaction"):
        async with service.store.transaction():
            await service.store.get_match(match_id)
    assert (await service.store.get_match(match_id)).id == match_id  # the lock was released
