"""Soak: `kill -9` the bot again and again while players move; nothing acknowledged is lost, no board doubles.

The bot runs as its own process (`python -m bot`, as in production) against the emulator in
this process. Players of several two-player Bide matches play random legal turns with
`/move` in their threads; every ~0.3–1.5 s the bot is killed with SIGKILL and started
again. A move is *acknowledged* when its player saw the public board answering `/move`.

At the end (after one clean start so missed boards are posted) it checks, from the
database and the emulator's messages:

* lost acknowledged moves: acknowledged but not in the match's move log;
* duplicate boards: a move whose board was posted in the thread more than once;
* unseen positions: a match whose latest logged move's board never appeared (an
  intermediate board may be superseded: when the bot was down, the simulated players
  move on the stored position, and the catch-up then shows the latest board only);
* logs that do not replay to the stored state.

Run: .venv/bin/python benchmarks/soak_kill.py [--kills 35] [--matches 6]
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from emulator import DiscordEmulator  # noqa: E402
from emulator.errors import EmulatorError  # noqa: E402
from emulator.models import Channel  # noqa: E402
from games import load_state, new_game  # noqa: E402

TOKEN = "soak-token"
LINE = re.compile(r"\*\*(?P<name>[^*]+)\*\* \(\w+\) (?:played `(?P<notation>[^`]+)`|resigned)")


class Soak:
    def __init__(self, tmp: Path, matches: int, seed: int) -> None:
        self.emu = DiscordEmulator(bot_token=TOKEN)
        self.tmp = tmp
        self.db = tmp / "soak.sqlite3"
        self.matches = matches
        self.rng = random.Random(seed)
        self.process: subprocess.Popen | None = None
        self.up = asyncio.Event()
        self.acknowledged: list[tuple[int, int, str]] = []  # (match, ply, notation)
        self.threads: dict[int, Channel] = {}
        self.pairs = 0
        self.stopping = False
        self.errors: list[str] = []

    # -- the bot process ---------------------------------------------------------------

    async def start_bot(self) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": self.emu.api_base_url,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "HEXPLAY_DEV_GUILD_IDS": str(self.guild.id),
            "HEXPLAY_DB_PATH": str(self.db),
            "HEXPLAY_LOG_LEVEL": os.environ.get("SOAK_LOG_LEVEL", "ERROR"),
            "PYTHONPATH": str(ROOT),
        }
        with open(self.tmp / "bot.log", "a") as log:  # the bot keeps its own copy; ours closes (no leak per restart)
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=self.tmp, env=env, stdout=subprocess.DEVNULL, stderr=log
            )
        await self.emu.wait_until_ready(timeout=60)
        probe = self.emu.create_user(f"probe{time.monotonic_ns()}")
        for _ in range(60):  # serving: it answers a command
            try:
                await self.emu.invoke(probe, self.channel, "games", {}, timeout=5)
                break
            except EmulatorError:
                await asyncio.sleep(0.2)
        self.up.set()

    async def kill_bot(self) -> None:
        self.up.clear()
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        for _ in range(200):
            if not self.emu.bot_connected:
                break
            await asyncio.sleep(0.01)

    # -- players -------------------------------------------------------------------------

    async def open_match(self) -> tuple[int, Channel, list]:
        while True:
            await self.up.wait()
            a = self.emu.create_user(f"p{self.pairs}a")
            b = self.emu.create_user(f"p{self.pairs}b")
            self.pairs += 1
            try:
                lobby = await self.emu.invoke(a, self.channel, "play", {"game": "bide", "opponent": b}, timeout=5)
                challenge = lobby.response
                assert challenge is not None, lobby  # the bot answers /play with the challenge
                accept = next(x for x in challenge.buttons() if x["label"] == "Accept")
                match_id = int(accept["custom_id"].rsplit(":", 1)[1])
                await self.emu.press(b, challenge, accept["custom_id"], timeout=5)
                for _ in range(500):
                    thread_id = self.thread_id(match_id)
                    if thread_id and any(m.attachments for m in self.emu.messages(thread_id)):
                        return match_id, self.emu.channel(thread_id), [a, b]
                    await asyncio.sleep(0.01)
            except (EmulatorError, StopIteration, AttributeError):
                await asyncio.sleep(0.2)

    def thread_id(self, match_id: int) -> int | None:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5) as db:
            row = db.execute("SELECT thread_id FROM matches WHERE id = ?", (match_id,)).fetchone()
        return row[0] if row else None

    def unannounced(self) -> int:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5) as db:
            return db.execute(
                "SELECT COUNT(*) FROM matches WHERE announced_version < version AND status IN ('active', 'finished')"
            ).fetchone()[0]

    def stored_game(self, match_id: int):
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5) as db:
            row = db.execute("SELECT state FROM matches WHERE id = ?", (match_id,)).fetchone()
        return load_state(json.loads(row[0]))

    async def player(self, first: tuple[int, Channel, list]) -> None:
        opened: tuple[int, Channel, list] | None = first
        while not self.stopping:
            match_id, thread, users = opened or await self.open_match()
            opened = None
            self.threads[match_id] = thread
            while not self.stopping:
                await self.up.wait()
                game = self.stored_game(match_id)  # the truth after any kill
                if game.is_over:
                    break
                user = users[game.to_move - 1]
                choice = self.rng.choice([n for n in game.legal_notations() if n != "bide"] or ["bide"])
                ply = game.ply
                try:
                    result = await self.emu.invoke(user, thread, "move", {"move": choice}, timeout=4)
                except EmulatorError as error:
                    self.errors.append(str(error))
                    await asyncio.sleep(0.1)
                    continue  # the bot died under it: the fate of the move is unknown, not acknowledged
                if not result.ephemeral and result.response is not None and result.response.attachments:
                    self.acknowledged.append((match_id, ply, choice))
                else:
                    self.errors.append(result.text or repr(result))
                await asyncio.sleep(self.rng.uniform(0.0, 0.1))

    # -- the run -------------------------------------------------------------------------------

    async def run(self, kills: int) -> dict[str, int]:
        await self.emu.start()
        self.guild = self.emu.create_guild("Soak")
        self.channel = self.emu.create_text_channel(self.guild, "games")
        await self.start_bot()
        opened = [await self.open_match() for _ in range(self.matches)]  # before the kills begin
        players = [asyncio.create_task(self.player(match)) for match in opened]
        started = time.perf_counter()
        for _ in range(kills):
            await asyncio.sleep(self.rng.uniform(1.0, 3.0))
            await self.kill_bot()
            await self.start_bot()
        self.stopping = True
        await asyncio.sleep(2)  # players finish their last move
        for _ in range(300):  # the last start posts the missed boards
            if not self.unannounced():
                break
            await asyncio.sleep(0.2)
        for task in players:
            if task.done() and task.exception() is not None:
                print(f"a player stopped: {task.exception()!r}")
            elif os.environ.get("SOAK_KEEP"):
                task.print_stack()
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        assert self.process is not None
        self.process.terminate()
        self.process.wait(15)
        if os.environ.get("SOAK_KEEP"):
            print("first errors:", self.errors[:3])
        figures = self.check()
        figures["seconds"] = int(time.perf_counter() - started)
        await self.emu.stop()
        return figures

    def check(self) -> dict[str, int]:
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        logged = {(m, p, n) for m, p, n in db.execute("SELECT match_id, ply, notation FROM moves")}
        lost = sum(1 for move in self.acknowledged if move not in logged)
        duplicates = missing = broken = unseen = strays = 0
        for match_id, thread in self.threads.items():
            moves = db.execute(
                "SELECT notation, kind, user_id FROM moves WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
            # a board is (player, notation): two players may play the same cell one after the other
            expected = [(self.emu.store.users[user].name, notation) for notation, _, user in moves]
            posted = []
            for message in self.emu.messages(thread):
                found = LINE.search(message.content) if message.attachments else None
                if found:
                    posted.append((found.group("name"), found.group("notation") or "resign"))
                    if os.environ.get("SOAK_KEEP"):
                        print("   ", match_id, message.id, repr(message.content[:60]))
            if os.environ.get("SOAK_KEEP"):
                print(match_id, "logged", expected)
                print(match_id, "posted", posted)
            # boards come in log order: a board repeating the previous one is a duplicate
            i = 0
            for notation in posted:
                if i < len(expected) and notation == expected[i]:
                    i += 1
                elif 0 < i <= len(expected) and notation == expected[i - 1]:
                    duplicates += 1
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
            state = db.execute("SELECT state, game, players, options FROM matches WHERE id = ?", (match_id,)).fetchone()
            replay = new_game(state[1], state[2], json.loads(state[3]))
            for notation, kind, _ in moves:
                replay.play_turn(notation) if kind == "turn" else None
            if json.dumps(replay.to_json(), sort_keys=True) != json.dumps(json.loads(state[0]), sort_keys=True):
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
            "matches": len(self.threads),
        }


async def main_async(kills: int, matches: int, seed: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        if os.environ.get("SOAK_KEEP"):
            tmp = os.environ["SOAK_KEEP"]
            Path(tmp).mkdir(parents=True, exist_ok=True)
        soak = Soak(Path(tmp), matches, seed)
        figures = await soak.run(kills)
        figures["kills"] = kills
        print(
            f"kill -9 soak: {figures['kills']} kills of `python -m bot` in {figures['seconds']} s, "
            f"{figures['matches']} matches, {figures['acknowledged']} acknowledged moves "
            f"({figures['logged']} logged)"
        )
        print(f"  lost acknowledged moves: {figures['lost']}")
        print(f"  duplicate boards: {figures['duplicates']}; boards of turns not in the log: {figures['strays']}")
        print(f"  matches whose latest position was never posted: {figures['unseen']}")
        print(
            f"  boards skipped because a later turn's board superseded them (the bot was down, and the "
            f"players' simulated clients moved on the stored position before the restart's catch-up): "
            f"{figures['missing']}"
        )
        print(f"  logs not replaying to the stored state: {figures['broken']}")
        print(f"  Discord rule violations: {len(soak.emu.violations)}")
        for violation in soak.emu.violations[:10]:
            print(f"    {violation}")
        return figures["lost"] + figures["duplicates"] + figures["unseen"] + figures["broken"] + figures["strays"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=35)
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(1 if asyncio.run(main_async(args.kills, args.matches, args.seed)) else 0)


if __name__ == "__main__":
    main()
