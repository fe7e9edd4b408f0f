"""Tournaments in the store and the service, on SQLite and on a real PostgreSQL server: each change once (a
compare-and-set on the event's version), and the service's rules (forfeits, divisions, tables, inactivity)."""

from __future__ import annotations

import asyncio

import pytest

from bot.domain.clock import STALE_SECONDS, ManualClock
from bot.domain.seats import game_of, user_to_move
from bot.domain.tournament import NewRound
from bot.service.matches import MatchService
from bot.service.ratings import Ratings
from bot.service.timelimits import TimeLimits
from bot.service.tournaments import INACTIVE_DAYS, STANDINGS_LEASE, Tournaments
from bot.store import open_store
from tests.racing import log_matches_state
from tests.said import refused

pytestmark = pytest.mark.both_backends

GUILD, CHANNEL = 9000, 9001
DAY = 86400.0


async def event(tournaments, players, game="bump", fmt="swiss", **options):
    tournament = await tournaments.create(
        organizer=1, guild_id=GUILD, channel_id=CHANNEL, game_id=game, fmt=fmt, **options
    )
    for user_id in players:
        tournament = await tournaments.join(tournament.id, GUILD, (user_id, f"p{user_id}"))
    return tournament


async def test_a_round_is_stored_once_with_its_matches_and_a_stale_version_stores_nothing(service):
    tournaments = Tournaments(service)
    tournament = await event(tournaments, [1, 2, 3, 4], max_players=4)
    store = service.store
    assert not await store.join_tournament(tournament.id, tournament.version, 5, "p5", 0.0)  # full
    assert not await store.join_tournament(tournament.id, tournament.version - 1, 5, "p5", 0.0)  # stale
    news = await tournaments.start(tournament.id, GUILD, 1)
    assert news.round == 1 and len(news.started) == 2
    for outcome in news.started:  # started in the round's transaction: active, clock and reminder set
        assert outcome.match.status == "active" and outcome.match.version == 1
        assert await store.get_reminder(outcome.match.id) is not None
    stale = NewRound(round=2, tables=[], byes=[(2, 1)])
    assert await store.store_round(tournament.id, tournament.version, stale, 0.0) is None
    games = await store.tournament_games(tournament.id)
    assert len(games) == 2 and all(g.round == 1 for g in games)
    assert await store.tournament_of_match(news.started[0].match.id) == tournament.id
    assert await store.claim_tournament_notice(tournament.id, 1)
    assert not await store.claim_tournament_notice(tournament.id, 1)  # told once


@pytest.mark.parametrize("trials", [24])
async def test_two_processes_tending_at_once_advance_the_round_once(service, database, trials):
    """Two processes' passes race to pair round 2, one of them delayed 0 to 5 ms (and each first): the round
    is stored once, with one bye, and every match's stored log replays to its stored state."""
    tournaments = Tournaments(service)
    other_store = await open_store(database)  # a second process on the same database
    try:
        other = Tournaments(MatchService(other_store, ManualClock()))
        winners: set[str] = set()
        for trial in range(trials):
            organizer = 1000 + trial  # each organizer may run three events at a time
            tournament = await tournaments.create(
                organizer=organizer, guild_id=GUILD, channel_id=CHANNEL, game_id="bump", fmt="swiss"
            )
            for user_id in (1, 2, 3, 4, 5):
                tournament = await tournaments.join(tournament.id, GUILD, (user_id, f"p{user_id}"))
            news = await tournaments.start(tournament.id, GUILD, organizer)
            for outcome in news.started:
                await service.resign(outcome.match.id, outcome.match.seats[1].user_id)
            gap = (trial % 6) / 1000  # 0, 1, … 5 ms

            async def late(tend, seconds=gap):
                await asyncio.sleep(seconds)
                return await tend

            here, there = tournaments.tend(tournament.id), other.tend(tournament.id)
            if trial % 2:
                first, second = await asyncio.gather(late(here), there)
            else:
                first, second = await asyncio.gather(here, late(there))
            assert sorted([len(first.started), len(second.started)]) == [0, 2], trial
            winners.add("here" if len(first.started) else "there")
            games = await service.store.tournament_games(tournament.id)
            assert [g.round for g in games if g.match_id is not None].count(2) == 2, trial
            assert [g.round for g in games if g.bye_user_id is not None] == [1, 2], trial  # a bye a round
            for game in games:
                if game.match_id is not None:
                    assert (await log_matches_state(service, game.match_id))[0], (trial, game.match_id)
        assert winners == {"here", "there"}  # each process paired some of the rounds
    finally:
        await other_store.close()


async def test_bad_input_is_refused_with_nothing_stored(service):
    tournaments = Tournaments(service)
    for _ in range(3):
        tournament = await event(tournaments, [])
    with refused(match="already run 3 tournaments"):
        await event(tournaments, [])
    with refused(match="needs at least 2 players"):
        await tournaments.start(tournament.id, GUILD, 1)
    await tournaments.join(tournament.id, GUILD, (2, "p2"))
    with refused(match="already joined"):
        await tournaments.join(tournament.id, GUILD, (2, "p2"))
    with refused(match="Only the organizer can start"):
        await tournaments.start(tournament.id, GUILD, 2)
    with refused(match="Only the organizer or a server manager"):
        await tournaments.cancel(tournament.id, GUILD, 2, manager=False)
    with refused(match="no tournament #"):
        await tournaments.join(tournament.id, GUILD + 1, (3, "p3"))
    before = await service.store.get_tournament(tournament.id)
    assert [p.user_id for p in before.players] == [2] and before.status == "open"
    cancelled = await tournaments.cancel(tournament.id, GUILD, 3, manager=True)  # a server manager may
    assert cancelled.status == "cancelled"


async def test_a_withdrawal_forfeits_the_remaining_games_and_the_played_ones_stand(service):
    tournaments = Tournaments(service)
    tournament = await event(tournaments, [1, 2, 3, 4], fmt="round-robin")
    news = await tournaments.start(tournament.id, GUILD, 1)
    assert len(news.started) == 6  # every pair at once
    played = next(o.match for o in news.started if {s.user_id for s in o.match.seats} == {3, 4})
    await service.resign(played.id, 3)  # 4 beat 3 before withdrawing
    withdrawal = await tournaments.withdraw(tournament.id, GUILD, 4)
    assert len(withdrawal.forfeits) == 2  # the two games of 4 still in play
    with refused(match="already withdrawn"):
        await tournaments.withdraw(tournament.id, GUILD, 4)
    table = await tournaments.standings(tournament.id, GUILD)
    points = {row.user_id: row.points for row in table.rows}
    assert points == {4: 1.0, 1: 1.0, 2: 1.0, 3: 0.0}  # 4's win stands; 1 and 2 won 4's forfeits
    assert next(row for row in table.rows if row.user_id == 4).withdrawn
    assert table.tiebreaks == ("Sonneborn-Berger", "head-to-head", "wins")


async def test_above_ten_players_a_round_robin_plays_in_rating_seeded_divisions(service):
    tournaments = Tournaments(service)
    tournament = await event(tournaments, range(1, 13), fmt="round-robin")
    news = await tournaments.start(tournament.id, GUILD, 1)
    assert len(news.started) == 2 * 15  # two divisions of six, each all-play-all
    games = await service.store.tournament_games(tournament.id)
    by_division = {
        d: {s.user_id for g in games if g.division == d for s in (await service.get(g.match_id)).seats} for d in (1, 2)
    }
    assert by_division[1].isdisjoint(by_division[2]) and len(by_division[1]) == len(by_division[2]) == 6


async def test_bide_plays_at_tables_of_three_or_four(service):
    tournaments = Tournaments(service)
    with refused(match="choose Swiss"):
        await event(tournaments, [], game="bide", fmt="round-robin")
    tournament = await event(tournaments, range(1, 8), game="bide")
    news = await tournaments.start(tournament.id, GUILD, 1)
    assert sorted(len(o.match.seats) for o in news.started) == [3, 4]


async def test_a_player_who_lost_on_time_and_vanished_is_withdrawn_before_the_next_round(service):
    tournaments = Tournaments(service)
    tournament = await event(tournaments, [1, 2, 3, 4], days_per_move=1)
    news = await tournaments.start(tournament.id, GUILD, 1)
    clock = service.clock
    clock.advance(2 * DAY)
    timelimits = TimeLimits(service)
    for outcome in news.started:  # the first mover of each game runs out of time, claimed by the other
        match = outcome.match
        await timelimits.claim(match.id, match.seats[1].user_id, 0)
    clock.advance(INACTIVE_DAYS * DAY)
    advanced = await tournaments.tend(tournament.id)
    assert sorted(advanced.withdrawn) == sorted(o.match.seats[0].user_id for o in news.started)
    stayed = {o.match.seats[1].user_id for o in news.started}
    assert [{s.user_id for s in o.match.seats} for o in advanced.started] == [stayed]  # the two still in


async def test_a_rated_event_feeds_the_servers_ratings_and_an_unrated_one_does_not(service):
    tournaments = Tournaments(service)
    ratings = Ratings(service)
    for rated in (True, False):
        tournament = await event(tournaments, [1, 2], rated=rated)
        news = await tournaments.start(tournament.id, GUILD, 1)
        match = news.started[0].match
        assert match.rated is rated
        for _ in range(2):  # two turns: a game that got going (an earlier end is an abort, never rated)
            mover = await _mover(service, match.id)
            game = game_of(await service.get(match.id))
            await service.play(match.id, mover, game.legal_notations()[0])
        ended = await service.resign(match.id, await _mover(service, match.id))
        assert await ratings.settle(ended.match) is rated
        await service.store.end_tournament(
            tournament.id, (await service.store.get_tournament(tournament.id)).version, "finished", 0.0
        )
    assert len(await service.store.leaderboard(GUILD, "bump")) == 2


async def _mover(service, match_id):
    match = await service.get(match_id)
    return user_to_move(match, game_of(match))


async def test_a_scheduled_event_starts_by_itself_and_one_nobody_came_to_is_called_off(service):
    tournaments = Tournaments(service)
    full = await event(tournaments, [1, 2, 3], start_in_hours=2)
    empty = await event(tournaments, [1], start_in_hours=2)
    assert await tournaments.tend(full.id) is None  # not yet
    assert await service.store.tournaments_to_tend(service.clock.now()) == []
    service.clock.advance(2 * 3600)
    assert await service.store.tournaments_to_tend(service.clock.now()) == [full.id, empty.id]
    started = await tournaments.tend(full.id)
    assert started.round == 1 and len(started.started) == 1 and len(started.byes) == 1
    called_off = await tournaments.tend(empty.id)
    assert called_off.tournament.status == "cancelled" and not called_off.started


async def test_the_standings_after_a_swiss_round_are_claimed_once_and_count_that_round_only(service, database, backend):
    """Issue 37, item 6: the standings after each Swiss round are posted once across processes and restarts. The
    claim goes to one process while it lives; recorded as posted it never comes back; let go, or its holder gone
    (killed while posting: on PostgreSQL its heartbeat stale, on SQLite any later start), the next look takes it
    at once, not after the lease. The table counts the rounds up to the one ended."""
    tournaments = Tournaments(service)
    tournament = await event(tournaments, [1, 2, 3, 4], rounds=3)
    first = await tournaments.start(tournament.id, GUILD, 1)
    assert await tournaments.claim_round_standings(tournament.id) is None  # round 1 under way: nothing ended
    for outcome in first.started:
        await service.resign(outcome.match.id, outcome.match.seats[1].user_id)
    second = await tournaments.tend(tournament.id)
    assert second is not None and second.round == 2
    await service.resign(second.started[0].match.id, second.started[0].match.seats[1].user_id)  # a round-2 game ends

    other_store = await open_store(database)  # another process on the same database
    try:
        other = Tournaments(MatchService(other_store, service.clock))
        await service.store.beat(service.clock.lease_now(), (2, (0,)))  # two live processes, each beating
        await other_store.beat(service.clock.lease_now(), (2, (1,)))
        table = await tournaments.claim_round_standings(tournament.id)
        assert table is not None and table.after_round == 1 and table.through_round == 1 and table.games_left == 0
        assert sum(row.points for row in table.rows) == 2  # round 1's two games; not round 2's
        assert await tournaments.claim_round_standings(tournament.id) is None  # claimed: not twice
        if backend == "postgres":  # (on SQLite a later start is the one process: the earlier one is gone)
            assert await other.claim_round_standings(tournament.id) is None  # its holder lives
        await tournaments.round_standings_posted(tournament.id, 1, posted=False)  # Discord failed: let go
        table = await other.claim_round_standings(tournament.id)
        assert table is not None and table.after_round == 1
        service.clock.advance(STALE_SECONDS + 1)  # the claimer was killed: it beats no more, the first does
        assert STALE_SECONDS + 1 < STANDINGS_LEASE
        await service.store.beat(service.clock.lease_now(), (2, (0,)))
        assert await tournaments.claim_round_standings(tournament.id) is not None  # at once, not after the lease
        await tournaments.round_standings_posted(tournament.id, 1, posted=True)
        service.clock.advance(STANDINGS_LEASE + 1)
        assert await other.claim_round_standings(tournament.id) is None  # posted: never again
        assert await Tournaments(MatchService(other_store, service.clock)).claim_round_standings(tournament.id) is None
        assert not await service.store.claim_tournament_standings(tournament.id, 1, service.clock.lease_now(), 60)
        now = await tournaments.standings(tournament.id, GUILD)
        assert now.after_round == 0 and sum(row.points for row in now.rows) == 3  # as it stands: round 2's game too
    finally:
        await other_store.close()


async def test_a_round_robin_and_a_swiss_first_round_owe_no_standings_between_rounds(service):
    tournaments = Tournaments(service)
    robin = await event(tournaments, [1, 2, 3], fmt="round-robin")
    news = await tournaments.start(robin.id, GUILD, 1)
    for outcome in news.started[:2]:
        await service.resign(outcome.match.id, outcome.match.seats[1].user_id)
    assert await tournaments.claim_round_standings(robin.id) is None  # every round at once: the podium's table
    swiss = await event(tournaments, [1, 2, 3, 4], rounds=1)
    news = await tournaments.start(swiss.id, GUILD, 1)
    for outcome in news.started:
        await service.resign(outcome.match.id, outcome.match.seats[1].user_id)
    ended = await tournaments.tend(swiss.id)
    assert ended is not None and ended.final is not None  # its one round ended it: the podium, nothing between
    assert await tournaments.claim_round_standings(swiss.id) is None
