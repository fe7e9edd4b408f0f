"""Two bot processes, each with its own connection pool, look at the same Swiss tournament on one PostgreSQL
database when its round's last game ends (issue 37, item 6): each process's pass pairs the next round and
claims the standings after the round that ended, 0–5 ms apart at a wall-clock instant they share. Only the
store decides: the round is stored once, the standings are claimed once (and, recorded, never again, as after
a restart), and a process killed holding the claim leaves it to another once its heartbeat is stale
(``STALE_SECONDS``), long before the claim's lease would end.
"""

from __future__ import annotations

import random
import signal
import time

from bot.domain.clock import STALE_SECONDS, ManualClock
from bot.service.matches import MatchService
from bot.service.tournaments import STANDINGS_LEASE, Tournaments
from bot.store import open_store
from tests import backends
from tests.racing import NoChallengeLimits, log_matches_state
from tests.test_races_processes import Process

GUILD, CHANNEL = 9000, 9001
TRIALS = 24
NOW = 1_800_000_000.0


async def start_looker(url: str) -> Process:
    return await Process.start(url, module="tests.tournament_process")


async def round_one_over(tournaments: Tournaments, organizer: int) -> int:
    """A 4-player Swiss of three rounds whose first round has just ended: its id."""
    tournament = await tournaments.create(
        organizer=organizer, guild_id=GUILD, channel_id=CHANNEL, game_id="bump", fmt="swiss", rounds=3
    )
    for user_id in (1, 2, 3, 4):
        tournament = await tournaments.join(tournament.id, GUILD, (user_id, f"p{user_id}"))
    news = await tournaments.start(tournament.id, GUILD, organizer)
    for outcome in news.started:
        await tournaments.service.resign(outcome.match.id, outcome.match.seats[1].user_id)
    return tournament.id


async def standings_told(store, tournament_id: int) -> int:
    return (await store.get_tournament(tournament_id)).standings_told


async def test_two_processes_store_the_round_once_and_claim_its_standings_once(postgres_server):
    await backends.empty_postgres(postgres_server.url)
    store = await open_store(postgres_server.url)
    service = MatchService(store, ManualClock(NOW), default_reminder_hours=24)
    service.limits = NoChallengeLimits()
    tournaments = Tournaments(service)
    lookers = [await start_looker(postgres_server.url), await start_looker(postgres_server.url)]
    rng = random.Random(37)
    won = {"stored": set(), "claimed": set()}
    try:
        for trial in range(TRIALS):
            tournament_id = await round_one_over(tournaments, organizer=1000 + trial)
            gap = (trial % 6) / 1000 + rng.uniform(0, 0.0005)  # 0 to 5 ms, and a little between
            at = time.time() + 0.05
            racers = lookers if trial % 4 < 2 else lookers[::-1]  # each process goes first by turns
            racers[0].send(tournament=tournament_id, at=at, now=NOW, post=True, shard=lookers.index(racers[0]))
            racers[1].send(tournament=tournament_id, at=at + gap, now=NOW, post=True, shard=lookers.index(racers[1]))
            answers = [await racers[0].answer(), await racers[1].answer()]
            assert sorted(a["stored"] for a in answers) == [0, 2], (trial, gap, answers)
            assert sorted(a["claimed"] for a in answers) == [0, 1], (trial, gap, answers)
            won["stored"].add(next(i for i, a in enumerate(answers) if a["stored"]) ^ (trial % 4 >= 2))
            won["claimed"].add(next(i for i, a in enumerate(answers) if a["claimed"]) ^ (trial % 4 >= 2))
            assert await standings_told(store, tournament_id) == 1
            games = await store.tournament_games(tournament_id)
            assert [g.round for g in games].count(2) == 2, trial  # round 2 once: two tables
            for game in games:
                assert (await log_matches_state(service, game.match_id))[0], (trial, game.match_id)
            for shard, looker in enumerate(lookers):  # looked at again later, as after a restart: nothing more
                looker.send(tournament=tournament_id, at=0, now=NOW + 2 * STANDINGS_LEASE, post=True, shard=shard)
                assert await looker.answer() == {"stored": 0, "claimed": 0}
        assert won == {"stored": {0, 1}, "claimed": {0, 1}}  # each process won some of the races
    finally:
        for looker in lookers:
            await looker.stop()
        await store.close()


async def test_a_process_killed_holding_the_standings_leaves_them_to_another_once_its_heartbeat_is_stale(
    postgres_server,
):
    await backends.empty_postgres(postgres_server.url)
    store = await open_store(postgres_server.url)
    service = MatchService(store, ManualClock(NOW), default_reminder_hours=24)
    service.limits = NoChallengeLimits()
    tournament_id = await round_one_over(Tournaments(service), organizer=1)
    doomed, survivor = await start_looker(postgres_server.url), await start_looker(postgres_server.url)
    try:
        doomed.send(tournament=tournament_id, at=0, now=NOW, post=False, shard=0)  # claims, and dies before posting
        assert await doomed.answer() == {"stored": 2, "claimed": 1}
        doomed.child.send_signal(signal.SIGKILL)
        await doomed.child.wait()
        survivor.send(tournament=tournament_id, at=0, now=NOW + STALE_SECONDS / 2, post=True, shard=1)
        assert await survivor.answer() == {"stored": 0, "claimed": 0}  # its holder beat lately: not taken twice
        survivor.send(tournament=tournament_id, at=0, now=NOW + STALE_SECONDS + 1, post=True, shard=1)
        assert await survivor.answer() == {"stored": 0, "claimed": 1}  # its holder is gone: the survivor posts them
        assert STALE_SECONDS + 1 < STANDINGS_LEASE  # long before the lease would have let them go
        assert await standings_told(store, tournament_id) == 1
    finally:
        await survivor.stop()
        await doomed.stop()
        await store.close()
