"""Races on the lifecycle's new writes: an answer to an offer or a claim against the move that lapses it.

Each trial races the two at a gap (event-loop turns, then 0–4 ms); exactly one may apply,
and the stored log must replay to the stored state afterwards.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.domain.clock import ManualClock
from bot.domain.errors import Refusal
from bot.service.matches import MatchService
from bot.service.offers import Offers
from bot.service.timelimits import TimeLimits
from bot.store import open_store
from games import registry
from games.bide import Bide
from tests.racing import NoChallengeLimits, gaps, log_matches_state, race

pytestmark = pytest.mark.both_backends

ALICE, BOB = (101, "alice"), (102, "bob")
GUILD, CHANNEL = 9000, 9001
TRIALS = 30


@pytest.fixture
async def service(database, monkeypatch):
    info = dataclasses.replace(Bide.info, allows_draws=True)  # Bide standing in for a drawable game
    monkeypatch.setattr(Bide, "info", info)
    monkeypatch.setitem(registry.GAMES, "bide", info)
    store = await open_store(database)
    yield MatchService(store, ManualClock(), default_reminder_hours=24)
    await store.close()


async def new_match(service: MatchService, days: float | None = None) -> int:
    service.limits = NoChallengeLimits()  # many trials in one minute: the challenge limits are not tested here
    match = await service.create(
        game_id="bide", creator=ALICE, invited=[BOB], guild_id=GUILD, channel_id=CHANNEL, days_per_move=days
    )
    await service.accept(match.id, BOB[0])
    return match.id


def outcome_of(results):
    applied = [r for r in results if not isinstance(r, BaseException)]
    for error in results:
        if isinstance(error, BaseException):
            assert isinstance(error, Refusal), repr(error)
    return applied


async def test_accepting_a_draw_races_the_makers_move(service):
    offers = Offers(service)
    for trial, gap in enumerate(gaps(TRIALS)):
        match_id = await new_match(service)
        notice = await offers.offer(match_id, ALICE[0], "draw")
        results = await race(
            lambda: offers.answer(match_id, BOB[0], "draw", notice.at_seq, True),
            lambda: service.play(match_id, ALICE[0], "e5"),
            gap,
        )
        applied = outcome_of(results)
        assert len(applied) == 1, (trial, results)
        consistent, logged = await log_matches_state(service, match_id)
        assert consistent and logged == 1, (trial, logged)
        match = await service.get(match_id)
        drawn = match.status == "finished"
        assert drawn == (applied[0] is results[0]), (trial, results)
        assert await service.store.get_offer(match_id, "draw") is None  # answered, or lapsed with the move


async def test_accepting_a_takeback_races_the_accepters_own_move(service):
    offers = Offers(service)
    for trial, gap in enumerate(gaps(TRIALS)):
        match_id = await new_match(service)
        await service.play(match_id, ALICE[0], "e5")
        notice = await offers.offer(match_id, ALICE[0], "undo")
        results = await race(
            lambda: offers.answer(match_id, BOB[0], "undo", notice.at_seq, True),
            lambda: service.play(match_id, BOB[0], "a1"),
            gap,
        )
        assert len(outcome_of(results)) == 1, (trial, results)
        consistent, logged = await log_matches_state(service, match_id)
        assert consistent and logged == 2, (trial, logged)


async def test_a_claim_races_the_late_move(service):
    limits = TimeLimits(service)
    for trial, gap in enumerate(gaps(TRIALS)):
        match_id = await new_match(service, days=1)
        service.clock.advance(25 * 3600)
        results = await race(
            lambda: limits.claim(match_id, BOB[0], 0), lambda: service.play(match_id, ALICE[0], "e5"), gap
        )
        assert len(outcome_of(results)) == 1, (trial, results)
        consistent, logged = await log_matches_state(service, match_id)
        assert consistent and logged == 1, (trial, logged)
