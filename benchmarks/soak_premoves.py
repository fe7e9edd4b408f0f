"""Soak: two processes play conditional moves on one PostgreSQL database while one is `kill -9`ed again and again.

Each process plays random Bide matches as both players: before alice moves, bob stores conditional answers to
a few of her legal turns (`/premove`), and alice mostly plays one of them, so the answer is played at once by
the process that stored her move. Every 0.3–1.2 s one of the two processes is killed with SIGKILL and started
again; a process that starts follows the conditional moves a stop left behind, as the bot's start-up does, and
each live process looks for them twice a second (matches unchanged for a second), as every bot process's look
does: both processes may follow the same lines at once. A move is *acknowledged* when `play` returned in a
process that printed it.

At the end (both processes killed, then one clean start-up's catch-up) it checks from the database:

* lost acknowledged moves: acknowledged but not in the match's move log at that ply;
* conditional moves left behind: lines still stored for a position the match has moved past;
* logs that do not replay to the stored state;
* and counts the conditional answers played.

Run: .venv/bin/python benchmarks/soak_premoves.py [--seconds 40] [--matches 8]   (needs Debian's postgresql)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.domain.clock import SystemClock  # noqa: E402
from bot.domain.errors import Refusal, VersionConflict  # noqa: E402
from bot.domain.seats import game_of, user_to_move  # noqa: E402
from bot.service.matches import MatchService  # noqa: E402
from bot.store import open_store  # noqa: E402
from tests.postgres import start_cluster  # noqa: E402
from tests.racing import NoChallengeLimits, log_matches_state  # noqa: E402

ALICE, BOB = (101, "alice"), (102, "bob")


LOOK_EVERY = 0.5  # seconds between a live process's looks for conditional moves left behind
SETTLE = 1.0  # a match changed more recently is left to the process that stored its move


async def look(service: MatchService) -> None:
    """What every bot process's look does for conditional moves (bot/chat/relay.py), on a shorter clock."""
    while True:
        await asyncio.sleep(LOOK_EVERY)
        followed = await service.follow_left_conditionals(changed_by=time.time() - SETTLE)
        answered = [[o.match.id, o.answered.changes[0].notation] for o in followed if o.answered is not None]
        if followed:
            print(json.dumps({"looked": len(followed), "acked": answered}), flush=True)


async def child(url: str, seed: int, matches: int) -> None:
    store = await open_store(url, pool_size=3)
    service = MatchService(store, SystemClock(), default_reminder_hours=24)
    rng = random.Random(seed)
    looking = None
    try:
        caught_up = await service.follow_left_conditionals()  # what the bot's start-up does
        print(json.dumps({"caught_up": len(caught_up)}), flush=True)
        looking = asyncio.ensure_future(look(service))
        while True:
            match_id = rng.randint(1, matches)
            match = await service.get(match_id)
            if match.status != "active":
                continue
            game = game_of(match)
            mover = user_to_move(match, game)
            turns = game.legal_notations()
            try:
                if mover == ALICE[0]:
                    theirs = rng.sample(turns, min(3, len(turns)))
                    for turn in theirs:
                        after = game.copy()
                        after.play_turn(turn)
                        if not after.is_over:
                            await service.add_premove(
                                match_id, BOB[0], f"{turn}; {rng.choice(after.legal_notations())}"
                            )
                    played = rng.choice(theirs) if rng.random() < 0.8 else rng.choice(turns)
                else:
                    played = rng.choice(turns)
                outcome = await service.play(match_id, mover, played)
            except (Refusal, VersionConflict):
                continue  # the other process moved first: read again
            acked = [(match_id, played)]
            if outcome.answered is not None:
                acked.append((match_id, outcome.answered.changes[0].notation))
            print(json.dumps({"acked": acked, "ply": outcome.game.ply if outcome.game else None}), flush=True)
    finally:
        if looking is not None:
            looking.cancel()
        await store.close()


def spawn(url: str, seed: int, matches: int, log: list, script: str = __file__) -> subprocess.Popen:
    # read at the end (a pipe would fill and stall the child), closed with the soak's process
    out = tempfile.TemporaryFile("w+")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, script, "--child", url, str(seed), str(matches)],
        stdout=out,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    log.append((process, out))
    return process


async def kill_again_and_again(
    url: str, count: int, seconds: float, rng: random.Random, script: str
) -> tuple[int, list[tuple[int, str]], int, int]:
    """Two child processes of ``script`` on ``url``; one of them SIGKILLed and started again every 0.3–1.2 s for
    ``seconds``, then both. (kills, acknowledged (match, notation) pairs, lines followed at start-ups, lines
    followed by a live process's look)."""
    started: list = []
    live = [spawn(url, rng.randrange(10**9), count, started, script) for _ in range(2)]
    kills = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(rng.uniform(0.3, 1.2))
        k = rng.randrange(2)
        live[k].send_signal(signal.SIGKILL)
        kills += 1
        live[k] = spawn(url, rng.randrange(10**9), count, started, script)
    for process in live:
        process.send_signal(signal.SIGKILL)
    acked: list[tuple[int, str]] = []
    caught_up = looked = 0
    for process, out in started:
        process.wait()
        out.seek(0)
        for line in out.read().splitlines():
            if line.endswith("}"):  # a line cut by the kill is not an acknowledgement
                message = json.loads(line)
                acked.extend(tuple(a) for a in message.get("acked", ()))
                caught_up += message.get("caught_up", 0)
                looked += message.get("looked", 0)
    return kills, acked, caught_up, looked


async def soak(seconds: float, matches: int, seed: int) -> int:
    cluster = start_cluster()
    try:
        url = cluster.create_database("soak_premoves")
        store = await open_store(url)
        service = MatchService(store, SystemClock(), default_reminder_hours=24)
        service.limits = NoChallengeLimits()
        for _ in range(matches):
            match = await service.create(game_id="bide", creator=ALICE, invited=[BOB], guild_id=1, channel_id=2)
            await service.accept(match.id, BOB[0])
        await store.close()

        rng = random.Random(seed)
        kills, acked, caught_up_by_starts, looked = await kill_again_and_again(url, matches, seconds, rng, __file__)
        store = await open_store(url)
        service = MatchService(store, SystemClock(), default_reminder_hours=24)
        try:
            caught_up = len(await service.follow_left_conditionals())  # one clean start-up
            logs = {m: await store.moves(m) for m in range(1, matches + 1)}
            logged = {m: [mv.notation for mv in log] for m, log in logs.items()}
            conditional = sum(mv.conditional for log in logs.values() for mv in log)
            lost = [a for a in acked if a[1] not in logged[a[0]]]
            left = await store.premoves_left_behind()
            bad = [m for m in range(1, matches + 1) if not (await log_matches_state(service, m))[0]]
        finally:
            await store.close()
        moves = sum(len(v) for v in logged.values())
        print(
            f"soak_premoves: {seconds:.0f} s, {matches} matches, 2 processes, {kills} SIGKILLs; {moves} moves logged, "
            f"{conditional} played as conditional answers, {len(acked)} acknowledged; lines a stop left behind, "
            f"followed at a restart: {caught_up_by_starts}, by a live process's look: {looked}, "
            f"at the last start: {caught_up}"
        )
        print(f"lost acknowledged: {len(lost)}   lines left behind: {len(left)}   logs that do not replay: {len(bad)}")
        return 1 if lost or left or bad else 0
    finally:
        cluster.remove()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        asyncio.run(child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
        sys.exit(0)
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    sys.exit(asyncio.run(soak(arguments.seconds, arguments.matches, arguments.seed)))
