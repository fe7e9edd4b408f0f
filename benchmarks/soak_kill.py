"""Soak: `kill -9` the bot again and again while players move; nothing acknowledged is lost, no board doubles,
and every board is posted soon after the last kill.

The bot runs as its own process (`python -m bot`, as in production) against the emulator in this process: on
SQLite one process; on PostgreSQL (`--backend postgres`, a throwaway cluster) `--bots` processes, each running
one shard of as many, with a server on each shard. Players of several two-player Bide matches play random legal
turns with `/move` in their threads; every ~1–3 s a bot process (any one) is killed with SIGKILL and started
again, while the other processes go on serving their servers. A move is *acknowledged* when its player saw the
public board answering `/move`.

After the last kill (and its restart) the players stop, and the soak waits for every match in the database to
have its latest board posted: that must take at most ``--within`` seconds (30) from the last kill. Then it
checks, from the database and the emulator's messages, every match the database holds:

* lost acknowledged moves: acknowledged but not in the match's move log;
* duplicate boards: a move whose board was posted in the thread more than once;
* unseen positions: a match whose latest logged move's board never appeared, or that never got its first board
  (an intermediate board may be superseded: when a bot was down, the simulated players move on the stored
  position, and the catch-up then shows the latest board only);
* logs that do not replay to the stored state.

Run: .venv/bin/python benchmarks/soak_kill.py [--kills 35] [--matches 6] [--backend postgres --bots 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from emulator import DiscordEmulator  # noqa: E402
from emulator.errors import EmulatorError  # noqa: E402
from emulator.models import Channel  # noqa: E402
from emulator.sharding import ShardingRules  # noqa: E402
from games import load_state, new_game  # noqa: E402
from tests.backends import postgres_sql  # noqa: E402
from tests.postgres import start_cluster  # noqa: E402

TOKEN = "soak-token"
LINE = re.compile(r"\*\*(?P<name>[^*]+)\*\* \(\w+\) (?:played `(?P<notation>[^`]+)`|resigned)")
POSTED_WITHIN = 30.0  # seconds after the last kill by which every match's latest board must be posted


class Database:
    """The soak's reads of the bot's database: the SQLite file (read-only) or the PostgreSQL database."""

    def __init__(self, sqlite_path: Path | None = None, url: str = "") -> None:
        self.sqlite_path = sqlite_path
        self.url = url
        self._pool: asyncpg.Pool | None = None  # the players read at once

    async def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """The rows of one query written SQLite's way (``?`` placeholders)."""
        if self.url:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=4)
            return [tuple(r) for r in await self._pool.fetch(postgres_sql(sql), *params)]
        with sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute(sql, params).fetchall()

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()


class Soak:
    def __init__(self, tmp: Path, matches: int, seed: int, bots: int, url: str = "") -> None:
        self.postgres = bool(url)
        self.bots = bots  # processes, each running one shard of ``bots`` (one unsharded process on SQLite)
        sharding = ShardingRules(max_concurrency=bots) if self.postgres else None
        self.emu = DiscordEmulator(bot_token=TOKEN, sharding=sharding)
        self.tmp = tmp
        self.sqlite_path = tmp / "soak.sqlite3"
        self.url = url
        self.db = Database(None, url) if url else Database(self.sqlite_path)
        self.matches = matches
        self.rng = random.Random(seed)
        self.processes: list[subprocess.Popen | None] = [None] * bots
        self.up = [asyncio.Event() for _ in range(bots)]  # each process serving its shard's server
        self.acknowledged: list[tuple[int, int, str]] = []  # (match, ply, notation)
        self.pairs = 0
        self.stopping = False
        self.moving = 0  # /move interactions under way (their board posts with their answer)
        self.errors: list[str] = []
        self.settled_in: float | None = None  # seconds from the last kill to every latest board posted
        self.unposted_at_bound: list[int] = []  # matches still without their latest board at the bound

    # -- the bot processes ---------------------------------------------------------------

    async def start_bot(self, index: int) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": self.emu.api_base_url,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "HEXPLAY_DEV_GUILD_IDS": ",".join(str(guild.id) for guild, _ in self.servers),
            "HEXPLAY_DB_PATH": str(self.sqlite_path),
            "HEXPLAY_DATABASE_URL": self.url,
            "HEXPLAY_LOG_LEVEL": os.environ.get("SOAK_LOG_LEVEL", "ERROR"),
            "PYTHONPATH": str(ROOT),
        }
        command = [sys.executable, "-m", "bot"]
        if self.postgres:
            command += ["--shard-count", str(self.bots), "--shard-ids", str(index)]
        with open(self.tmp / f"bot-{index}.log", "a") as log:  # the bot keeps its own copy; ours closes
            self.processes[index] = subprocess.Popen(
                command, cwd=self.tmp, env=env, stdout=subprocess.DEVNULL, stderr=log
            )
        shard = (index, self.bots) if self.postgres else None
        await self.emu.wait_until_ready(timeout=90, shard=shard)
        probe = self.emu.create_user(f"probe{time.monotonic_ns()}")
        _, channel = self.servers[index]
        for _ in range(150):  # serving: it answers a command in its server
            try:
                await self.emu.invoke(probe, channel, "games", {}, timeout=5)
                break
            except EmulatorError:
                await asyncio.sleep(0.2)
        self.up[index].set()

    async def kill_bot(self, index: int) -> None:
        self.up[index].clear()
        process = self.processes[index]
        assert process is not None
        process.send_signal(signal.SIGKILL)
        process.wait()
        for _ in range(200):  # the emulator sees its session go
            if not any(s.shard_id == index for s in self.emu.gateway_sessions()):
                break
            await asyncio.sleep(0.01)

    # -- players -------------------------------------------------------------------------

    async def open_match(self) -> tuple[int, Channel, list, int]:
        while True:
            server = self.pairs % self.bots
            await self.up[server].wait()
            a = self.emu.create_user(f"p{self.pairs}a")
            b = self.emu.create_user(f"p{self.pairs}b")
            self.pairs += 1
            _, channel = self.servers[server]
            try:
                lobby = await self.emu.invoke(a, channel, "play", {"game": "bide", "opponent": b}, timeout=5)
                challenge = lobby.response
                assert challenge is not None, lobby  # the bot answers /play with the challenge
                accept = next(x for x in challenge.buttons() if x["label"] == "Accept")
                match_id = int(accept["custom_id"].rsplit(":", 1)[1])
                await self.emu.press(b, challenge, accept["custom_id"], timeout=5)
                for _ in range(500):
                    thread_id = await self.thread_id(match_id)
                    if thread_id and any(m.attachments for m in self.emu.messages(thread_id)):
                        return match_id, self.emu.channel(thread_id), [a, b], server
                    await asyncio.sleep(0.01)
            except (EmulatorError, StopIteration, AttributeError):
                await asyncio.sleep(0.2)
            # no thread with a board within 5 s: the players give up on it (the bot must still open it)

    async def thread_id(self, match_id: int) -> int | None:
        rows = await self.db.rows("SELECT thread_id FROM matches WHERE id = ?", match_id)
        return rows[0][0] if rows else None

    async def unposted(self) -> list[int]:
        """Matches in play or finished whose latest board is not posted."""
        rows = await self.db.rows(
            "SELECT id FROM matches WHERE announced_version < version AND status IN ('active', 'finished')"
            " AND id NOT IN (SELECT match_id FROM quarantine) ORDER BY id"
        )
        return [r[0] for r in rows]

    async def stored_game(self, match_id: int):
        [(state,)] = await self.db.rows("SELECT state FROM matches WHERE id = ?", match_id)
        return load_state(json.loads(state))

    async def player(self, first: tuple[int, Channel, list, int]) -> None:
        opened: tuple[int, Channel, list, int] | None = first
        while not self.stopping:
            match_id, thread, users, server = opened or await self.open_match()
            opened = None
            while not self.stopping:
                await self.up[server].wait()
                game = await self.stored_game(match_id)  # the truth after any kill
                if game.is_over:
                    break
                user = users[game.to_move - 1]
                choice = self.rng.choice([n for n in game.legal_notations() if n != "bide"] or ["bide"])
                ply = game.ply
                self.moving += 1
                try:
                    result = await self.emu.invoke(user, thread, "move", {"move": choice}, timeout=4)
                except EmulatorError as error:
                    self.errors.append(str(error))
                    await asyncio.sleep(0.1)
                    continue  # the bot died under it: the fate of the move is unknown, not acknowledged
                finally:
                    self.moving -= 1
                if not result.ephemeral and result.response is not None and result.response.attachments:
                    self.acknowledged.append((match_id, ply, choice))
                else:
                    self.errors.append(result.text or repr(result))
                await asyncio.sleep(self.rng.uniform(0.0, 0.1))

    # -- the run -------------------------------------------------------------------------------

    async def run(self, kills: int, within: float) -> dict[str, int]:
        await self.emu.start()
        self.servers = []
        for index in range(self.bots):  # a server on each shard (the guild ids Discord's formula puts there)
            guild = self.emu.create_guild(f"Soak {index}", shard=(index, self.bots))
            self.servers.append((guild, self.emu.create_text_channel(guild, "games")))
        for index in range(self.bots):
            await self.start_bot(index)
        opened = [await self.open_match() for _ in range(self.matches)]  # before the kills begin
        players = [asyncio.create_task(self.player(match)) for match in opened]
        started = time.perf_counter()
        last_kill = 0.0
        for _ in range(kills):
            await asyncio.sleep(self.rng.uniform(1.0, 3.0))
            index = self.rng.randrange(self.bots)
            await self.kill_bot(index)
            last_kill = time.monotonic()
            await self.start_bot(index)
        self.stopping = True  # players finish the move under way
        await self.settle(last_kill, within)
        await asyncio.sleep(1)  # a board posted after its record (none should be) would show up now
        for task in players:
            if task.done() and task.exception() is not None:
                print(f"a player stopped: {task.exception()!r}")
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for process in self.processes:
            assert process is not None
            process.terminate()
            process.wait(15)
        figures = await self.check()
        figures["seconds"] = int(time.perf_counter() - started)
        await self.db.close()
        await self.emu.stop()
        return figures

    async def settle(self, last_kill: float, within: float) -> None:
        """Wait for every match's latest board (at most 3 × ``within``); how long it took from the last kill."""
        said = 0.0
        while time.monotonic() - last_kill < 3 * within:
            unposted = await self.unposted()
            if os.environ.get("SOAK_KEEP") and time.monotonic() - said > 2:
                said = time.monotonic()
                print(f"    {said - last_kill:.1f} s after the last kill: unposted {unposted}, moving {self.moving}")
            if not unposted and not self.moving:
                self.settled_in = time.monotonic() - last_kill
                return
            if time.monotonic() - last_kill > within and not self.unposted_at_bound:
                self.unposted_at_bound = unposted
            await asyncio.sleep(0.1)
        self.unposted_at_bound = self.unposted_at_bound or await self.unposted()

    async def check(self) -> dict[str, int]:
        logged = {tuple(r) for r in await self.db.rows("SELECT match_id, ply, notation FROM moves")}
        lost = sum(1 for move in self.acknowledged if move not in logged)
        duplicates = missing = broken = unseen = strays = 0
        matches = await self.db.rows(
            "SELECT id, thread_id, channel_id, state, game, players, options FROM matches"
            " WHERE status IN ('active', 'finished') ORDER BY id"
        )
        for match_id, thread_id, channel_id, state, game_name, seats, options in matches:
            moves = await self.db.rows(
                "SELECT notation, kind, user_id FROM moves WHERE match_id = ? ORDER BY seq", match_id
            )
            # a board is (player, notation): two players may play the same cell one after the other
            expected = [(self.emu.store.users[user].name, notation) for notation, _, user in moves]
            home = thread_id or channel_id
            shown = [m for m in self.emu.messages(home) if m.attachments] if home else []
            if thread_id is None or not shown:
                unseen += 1  # the match never got its thread and first board
                continue
            posted, said = [], []
            for message in shown:
                found = LINE.search(message.content)
                if found:
                    posted.append((found.group("name"), found.group("notation") or "resign"))
                    said.append(message.content[:90].replace("\n", " "))
            # boards come in log order: a board repeating the previous one is a duplicate
            i = 0
            for notation in posted:
                if i < len(expected) and notation == expected[i]:
                    i += 1
                elif 0 < i <= len(expected) and notation == expected[i - 1]:
                    duplicates += 1
                    if os.environ.get("SOAK_KEEP"):
                        twice = [text for text, board in zip(said, posted, strict=True) if board == notation]
                        print(f"    match {match_id}: a board posted twice: {twice}")
                else:
                    later = next((k for k in range(i, len(expected)) if expected[k] == notation), None)
                    if later is None:
                        strays += 1  # a board for a turn that is not in the log
                    else:
                        missing += later - i
                        i = later + 1
            missing += max(0, len(expected) - i)
            if expected and (not posted or posted[-1] != expected[-1]):
                unseen += 1  # the match's latest position was never shown
            replay = new_game(game_name, seats, json.loads(options))
            for notation, kind, _ in moves:
                replay.play_turn(notation) if kind == "turn" else None
            if json.dumps(replay.to_json(), sort_keys=True) != json.dumps(json.loads(state), sort_keys=True):
                broken += 1
        return {
            "kills": 0,
            "acknowledged": len(self.acknowledged),
            "logged": len(logged),
            "lost": lost,
            "duplicates": duplicates,
            "missing": missing,
            "broken": broken,
            "unseen": unseen,
            "strays": strays,
            "matches": len(matches),
        }


async def main_async(kills: int, matches: int, seed: int, backend: str, bots: int, within: float) -> int:
    cluster = start_cluster() if backend == "postgres" else None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if os.environ.get("SOAK_KEEP"):
                tmp = os.environ["SOAK_KEEP"]
                Path(tmp).mkdir(parents=True, exist_ok=True)
            url = cluster.create_database("soak_kill") if cluster is not None else ""
            soak = Soak(Path(tmp), matches, seed, bots if cluster is not None else 1, url)
            figures = await soak.run(kills, within)
    finally:
        if cluster is not None:
            cluster.remove()
    figures["kills"] = kills
    layout = f"{soak.bots} bot processes on PostgreSQL" if soak.postgres else "one bot process on SQLite"
    print(
        f"kill -9 soak ({layout}): {figures['kills']} kills of `python -m bot` in {figures['seconds']} s, "
        f"{figures['matches']} matches, {figures['acknowledged']} acknowledged moves ({figures['logged']} logged)"
    )
    print(f"  lost acknowledged moves: {figures['lost']}")
    print(f"  duplicate boards: {figures['duplicates']}; boards of turns not in the log: {figures['strays']}")
    late = soak.settled_in is None or soak.settled_in > within
    if soak.settled_in is not None:
        print(f"  every match's latest board posted {soak.settled_in:.1f} s after the last kill (bound {within:.0f} s)")
    if soak.unposted_at_bound:
        late_ones = soak.unposted_at_bound
        print(f"  matches whose latest board was not posted {within:.0f} s after the last kill: {late_ones}")
    print(f"  matches whose latest position was never posted: {figures['unseen']}")
    print(
        f"  boards skipped because a later turn's board superseded them (a bot was down, and the "
        f"players' simulated clients moved on the stored position before the restart's catch-up): "
        f"{figures['missing']}"
    )
    print(f"  logs not replaying to the stored state: {figures['broken']}")
    print(f"  Discord rule violations: {len(soak.emu.violations)}")
    for violation in soak.emu.violations[:10]:
        print(f"    {violation}")
    faults = figures["lost"] + figures["duplicates"] + figures["unseen"] + figures["broken"] + figures["strays"]
    return faults + int(late)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=35)
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--bots", type=int, default=2, help="bot processes on PostgreSQL (one shard each)")
    parser.add_argument("--within", type=float, default=POSTED_WITHIN, help="seconds after the last kill")
    args = parser.parse_args()
    failures = asyncio.run(main_async(args.kills, args.matches, args.seed, args.backend, args.bots, args.within))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
