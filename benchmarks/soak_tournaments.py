"""Soak: two processes run Swiss tournaments on one PostgreSQL database while one is `kill -9`ed again and again.

Each process, in a loop, ends a random game of a random event's current round (a resignation) and tends
that event (pairs and starts the next round once the last game ended, or ends the event), as the bot's
tournament pass does after a game. Every 0.3–1.2 s one of the two processes is killed with SIGKILL and
started again. At the end (both killed, then one clean process tending every event to its end) it checks:

* each round of each event paired exactly once: every player at one table or the bye, one bye at most;
* no match started twice: every match in the database belongs to exactly one table of one event;
* no rematch, and every event finished with its rounds;
* every match's stored log replays to its stored state.

Run: .venv/bin/python benchmarks/soak_tournaments.py [--seconds 40] [--events 6]   (needs Debian's postgresql)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from soak_premoves import kill_again_and_again  # noqa: E402

from bot.domain.clock import SystemClock  # noqa: E402
from bot.domain.errors import Refusal, VersionConflict  # noqa: E402
from bot.service.matches import MatchService  # noqa: E402
from bot.service.tournaments import Tournaments  # noqa: E402
from bot.store import open_store  # noqa: E402
from tests import backends  # noqa: E402
from tests.postgres import start_cluster  # noqa: E402
from tests.racing import log_matches_state  # noqa: E402

GUILD, CHANNEL, PLAYERS, ROUNDS = 1, 2, 7, 3


async def child(url: str, seed: int, events: int) -> None:
    store = await open_store(url, pool_size=2)
    service = MatchService(store, SystemClock(), default_reminder_hours=24)
    tournaments = Tournaments(service)
    rng = random.Random(seed)
    try:
        for event in range(1, events + 1):  # what the bot's start-up pass does
            await tournaments.tend(event)
        print(json.dumps({"ready": True}), flush=True)
        while True:
            event = rng.randint(1, events)
            games = await store.tournament_games(event)
            playing = []
            for game in games:
                if game.match_id is not None:
                    match = await service.get(game.match_id)
                    if match.status == "active":
                        playing.append(match)
            if playing:
                match = rng.choice(playing)
                with contextlib.suppress(Refusal, VersionConflict):  # the other process ended it first
                    await service.resign(match.id, rng.choice(match.seats).user_id)
            news = await tournaments.tend(event)
            if news is not None and news.round:
                print(json.dumps({"event": event, "round": news.round}), flush=True)
    finally:
        await store.close()


async def soak(seconds: float, events: int, seed: int) -> int:
    cluster = start_cluster()
    try:
        url = cluster.create_database("soak_tournaments")
        store = await open_store(url)
        service = MatchService(store, SystemClock(), default_reminder_hours=24)
        tournaments = Tournaments(service)
        for event in range(events):
            organizer = 1000 + event
            tournament = await tournaments.create(
                organizer=organizer, guild_id=GUILD, channel_id=CHANNEL, game_id="bump", fmt="swiss", rounds=ROUNDS
            )
            for user_id in range(1, PLAYERS + 1):
                await tournaments.join(tournament.id, GUILD, (user_id, f"p{user_id}"))
            await tournaments.start(tournament.id, GUILD, organizer)
        await store.close()

        rng = random.Random(seed)
        kills, *_ = await kill_again_and_again(url, events, seconds, rng, __file__)

        store = await open_store(url)
        service = MatchService(store, SystemClock(), default_reminder_hours=24)
        tournaments = Tournaments(service)
        problems: list[str] = []
        try:
            for event in range(1, events + 1):  # one clean process plays every event to its end
                for _ in range(100):
                    await tournaments.tend(event)
                    if (await tournaments.get(event)).status == "finished":
                        break
                    for game in await store.tournament_games(event):
                        if game.match_id is not None and (await service.get(game.match_id)).status == "active":
                            match = await service.get(game.match_id)
                            await service.resign(match.id, match.seats[0].user_id)
            rounds_in_kills = 0
            owners: dict[int, list[tuple[int, int]]] = {}
            for event in range(1, events + 1):
                tournament = await tournaments.get(event)
                if tournament.status != "finished":
                    problems.append(f"event {event} is {tournament.status}")
                games = await store.tournament_games(event)
                met: set[frozenset[int]] = set()
                for number in range(1, ROUNDS + 1):
                    seated: list[int] = []
                    tables = [g for g in games if g.round == number]
                    byes = [g.bye_user_id for g in tables if g.bye_user_id is not None]
                    for game in tables:
                        if game.match_id is None:
                            continue
                        owners.setdefault(game.match_id, []).append((event, number))
                        users = [s.user_id for s in (await service.get(game.match_id)).seats]
                        seated += users
                        pair = frozenset(users)
                        if pair in met:
                            problems.append(f"event {event} round {number}: a rematch {sorted(pair)}")
                        met.add(pair)
                    if sorted(seated + byes) != list(range(1, PLAYERS + 1)) or len(byes) > 1:
                        problems.append(f"event {event} round {number}: seated {sorted(seated)} byes {byes}")
                rounds_in_kills += max((g.round for g in games), default=0)
            [(total,)] = await backends.fetch(store, "SELECT COUNT(*) FROM matches")
            problems += [f"match {m} started {len(o)} times" for m, o in owners.items() if len(o) != 1]
            if total != len(owners):
                problems.append(f"{total} matches in the database, {len(owners)} at tournament tables")
            for match_id in owners:
                if not (await log_matches_state(service, match_id))[0]:
                    problems.append(f"match {match_id}: its log does not replay")
        finally:
            await store.close()
        print(
            f"soak_tournaments: {seconds:.0f} s, {events} Swiss events of {PLAYERS} players and {ROUNDS} rounds, "
            f"2 processes, {kills} SIGKILLs; {len(owners)} matches at {rounds_in_kills} rounds' tables"
        )
        print(f"problems: {len(problems)}" + "".join(f"\n  {p}" for p in problems[:10]))
        return 1 if problems else 0
    finally:
        cluster.remove()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        asyncio.run(child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
        sys.exit(0)
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--events", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    sys.exit(asyncio.run(soak(arguments.seconds, arguments.events, arguments.seed)))
