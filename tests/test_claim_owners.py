"""Claims name the process start that holds them: a start that is gone holds up nobody (issue 34).

A SIGKILLed process never gives its claims back. They are its restart's at once (on SQLite, where one
process serves the file, any new start's; on PostgreSQL the restart beats for its shards under a new
incarnation), however long their lease had to run. A live holder's claims stay its own, and a release
gives back only what its process holds. (Other processes taking a dead one's claims on PostgreSQL, with
real SIGKILLs: tests/test_claims_processes.py.)
"""

from __future__ import annotations

import pytest

from bot.domain.clock import STALE_SECONDS
from bot.service.matches import MatchService
from bot.service.timelimits import WARNINGS
from bot.service.tournaments import Tournaments
from bot.store import open_store
from tests.racing import NoChallengeLimits

pytestmark = pytest.mark.both_backends

ALICE, BOB = (101, "alice"), (102, "bob")
LEASE = 300.0
DAY = 86400.0


async def timed_match(service: MatchService) -> int:
    """A match in play with one day per move, its opening move stored and its board never posted."""
    service.limits = NoChallengeLimits()
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=1, channel_id=2, days_per_move=1
    )
    await service.accept(match.id, BOB[0])
    await service.play(match.id, ALICE[0], "e5")
    return match.id


async def claim_everything(store, now: float, due: float, boards: list[int]) -> dict[str, list[int]]:
    """Every duty due at store time ``due``, claimed at lease time ``now`` as a timer pass does (the boards of
    ``boards`` one by one, as the catch-up claims them)."""
    return {
        "board": [m for m in boards if await store.claim_announcement(m, now, LEASE)],
        "reminder": [r.match_id for r in await store.claim_due_reminders(due, LEASE, held_at=now)],
        "deadline": await store.claim_deadlines(due, WARNINGS, LEASE, held_at=now),
        "paused": await store.claim_paused_untold(now, LEASE),
    }


async def test_a_killed_starts_claims_are_the_next_starts_at_once(service, database):
    first = service.store
    match_id = await timed_match(service)
    aside = await timed_match(service)
    await first.quarantine(aside, "a test sets it aside", 1.0)
    now = service.clock.lease_now()
    due = now + 2 * DAY  # the reminder and the time-out are due
    await first.beat(now, (1, (0,)))  # (a manual clock: the lease clock's time is the games' time)
    held = await claim_everything(first, now, due, [match_id])
    assert held["board"] == held["deadline"] == [match_id] and held["paused"] == [aside]
    assert match_id in held["reminder"]  # (the reminder of the match set aside too: the pass skips it later)
    # first is SIGKILLed here: nothing is released. Its restart opens the database and beats for its shard.
    restarted = await open_store(database)
    try:
        await restarted.beat(now + 1, (1, (0,)))
        assert await claim_everything(restarted, now + 2, due, [match_id]) == held  # at once, not after 300 s
        assert await claim_everything(restarted, now + 3, due, [match_id]) == {k: [] for k in held}  # its own
    finally:
        await restarted.close()


async def test_a_release_gives_back_only_the_claims_of_its_own_process(service, database, backend):
    store = service.store
    match_id = await timed_match(service)
    now = service.clock.lease_now()
    await store.beat(now, (2, (0,)))
    assert await store.claim_announcement(match_id, now, LEASE)
    other = await open_store(database)  # another live process (on SQLite, a later start: the first is gone)
    try:
        await other.beat(now, (2, (1,)))
        await other.release_announcement(match_id)  # not its claim: nothing happens to it
        assert await store.claim_announcement(match_id, now + 1, LEASE) is False  # still held by its holder
        if backend == "postgres":  # both alive: the holder keeps it while it beats, for the lease at most
            assert await other.claim_announcement(match_id, now + STALE_SECONDS - 1, LEASE) is False
            await store.beat(now + STALE_SECONDS, (2, (0,)))
            assert await other.claim_announcement(match_id, now + 2 * STALE_SECONDS - 1, LEASE) is False
            assert await other.claim_announcement(match_id, now + 2 * STALE_SECONDS + 1, LEASE)  # stopped beating
        else:
            assert await other.claim_announcement(match_id, now + 1, LEASE)  # one process: the new start's
        await store.release_announcement(match_id)  # no longer its own: the taker keeps it
        assert await other.claim_announcement(match_id, now + 2 * STALE_SECONDS + 2, LEASE) is False
        await other.release_announcement(match_id)
        assert await store.claim_announcement(match_id, now + 2 * STALE_SECONDS + 3, LEASE)
    finally:
        await other.close()


async def test_a_new_turn_ends_the_claim_on_the_last_turns_deadline_notices(service):
    """The turn that changes also ends any claim on its old deadline's warning: the new mover's warning
    must not wait out a lease taken for a turn that is over (SQLite kept it; PostgreSQL did not)."""
    store = service.store
    match_id = await timed_match(service)
    match = await store.get_match(match_id)
    warned = match.deadline_at - 3600 + 1  # the one-hour warning of bob's turn is due
    now = service.clock.lease_now()
    assert await store.claim_deadlines(warned, WARNINGS, LEASE, held_at=now) == [match_id]
    service.clock.advance(warned - service.clock.now())
    await service.play(match_id, BOB[0], "d4")  # in time: alice's turn now, with a deadline of its own
    match = await store.get_match(match_id)
    assert await store.claim_deadlines(match.deadline_at + 1, WARNINGS, LEASE, held_at=now + 1) == [match_id]


async def test_a_killed_starts_tournament_claims_are_the_next_starts_at_once(service, database):
    """The two claims of an event (its standings after a Swiss round, the notice to the organizer of an event
    set aside) name their holder too: a killed holder's restart takes them at once, not after their lease."""
    first = service.store
    tournaments = Tournaments(service)
    event = await tournaments.create(organizer=1, guild_id=1, channel_id=2, game_id="bump", fmt="swiss", rounds=3)
    for user_id in (1, 2, 3, 4):
        await tournaments.join(event.id, 1, (user_id, f"p{user_id}"))
    news = await tournaments.start(event.id, 1, 1)
    for outcome in news.started:
        await service.resign(outcome.match.id, outcome.match.seats[1].user_id)
    aside = await tournaments.create(organizer=5, guild_id=1, channel_id=2, game_id="bump", fmt="swiss", rounds=3)
    await first.set_tournament_aside(aside.id, "a test sets it aside", 1.0)
    now = service.clock.lease_now()
    await first.beat(now, (1, (0,)))
    assert await first.claim_tournament_standings(event.id, 1, now, LEASE)
    assert await first.claim_tournaments_aside_untold(now, LEASE) == [(aside.id, 5)]
    # first is SIGKILLed here. Its restart beats for its shard and takes both at once.
    restarted = await open_store(database)
    try:
        await restarted.beat(now + 1, (1, (0,)))
        assert await restarted.claim_tournament_standings(event.id, 1, now + 2, LEASE)
        assert await restarted.claim_tournaments_aside_untold(now + 2, LEASE) == [(aside.id, 5)]
        assert not await restarted.claim_tournament_standings(event.id, 1, now + 3, LEASE)  # its own now
        assert await restarted.claim_tournaments_aside_untold(now + 3, LEASE) == []
    finally:
        await restarted.close()
