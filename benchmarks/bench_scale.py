"""Load and faults on the layout of many machines: 4 bot processes, 2 workers, one PostgreSQL (issue 21, item 7).

A throwaway PostgreSQL cluster (tests/postgres.py), the emulator in this process, and
sandbox/fleet.py's supervisor running 4 ``python -m bot --shard-count 4 --shard-ids k-k`` processes and
2 ``python -m bot worker`` processes (restarted when they die, as compose would). 40 guilds (10 per
shard), 400 matches of the four games (bide, begird, playbai, bump; 50 against the easy computer;
half with a time limit of 3 days per move) opened by ``/play`` (and Accept) through the emulator.

Then, for ``--seconds``: simulated players send ``/move`` interactions (a random legal turn, read from
the stored position) in three quarters of the matches; the other quarter is left waiting, so that with
the bot's clock moved forward (the clock offset file, 96 hours over the run) turn reminders,
time-limit warnings and time-outs fall due. Half-way it SIGKILLs one bot process and one worker; the
supervisor starts them again. At the end it waits for the boards and jobs still under way, stops the
processes, and counts, from the database and the emulator's record:

* acknowledged moves lost: a /move answered with its public board whose turn is not in the log;
* turns applied twice: a (match, ply) twice among the logged turns, or a log that does not replay to
  the stored state (every match is replayed, as tests/racing.py ``log_matches_state`` does);
* reminders sent twice: two reminder DMs for one (match, ply) (their Snooze button says which);
  time-limit notices sent twice: two warnings of one level, or two time-out notices, for one (match, ply);
* computer turns played twice: a (match, ply) twice among the computer's turns, or a (match, version)
  the workers' logs say they stored twice;
* boards posted twice: a match's thread showing the board of one logged turn (or its opening board)
  more than once.

* late first answers: an interaction (/play, Accept, /move) whose first answer reached Discord after its
  3 seconds (refused with 10062 Unknown interaction: the player saw "the application did not respond").

Each must be 0 (exit status 1 otherwise). It also prints turns/s, /move latency (p50/p95/p99, from the
interaction to its board), the first answers' latency (p99, slowest) and the interactions never answered
(their shard's process was killed), the restarts, 429s and Discord rule violations.

``--cpu-load N`` runs N processes that only burn CPU beside everything, at the bot's own priority (issue 34,
item 3: answers were late on a busy machine). ``--baseline REV`` runs the same scenario first on the code of git
revision REV (its tree, run by this virtual environment) and prints the two side by side.

Run: .venv/bin/python benchmarks/bench_scale.py [--seconds 120] [--quick] [--cpu-load 2] [--baseline REV]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.domain.clock import SystemClock  # noqa: E402
from bot.domain.seats import game_of, user_to_move  # noqa: E402
from bot.jobs import queue  # noqa: E402
from bot.service.matches import MatchService  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.store.postgres import PostgresStore  # noqa: E402
from emulator import DiscordEmulator  # noqa: E402
from emulator.errors import EmulatorError  # noqa: E402
from emulator.interactions import AUTOCOMPLETE  # noqa: E402
from emulator.models import Channel  # noqa: E402
from emulator.sharding import ShardingRules  # noqa: E402
from sandbox.clockfile import ClockFile  # noqa: E402
from sandbox.fleet import Fleet, layout  # noqa: E402
from tests.postgres import start_cluster  # noqa: E402
from tests.racing import log_matches_state  # noqa: E402

GAMES = ("bide", "begird", "playbai", "bump")
TOKEN = "scale-token"
HOUR = 3600.0
CLOCK_HOURS = 96.0  # the bot's clock runs this far ahead over the run: reminders at 24 h, a 3-day limit runs out
CLOCK_STEP = 3.0  # seconds between two clock advances
REMINDER_GAP = 12.0  # hours: two reminders of one turn closer than this (the delay is 24 h) are one sent twice
PASSES = {"bide", "pass"}  # turns that only pass: chosen only when nothing else is legal
BOARD = re.compile(r"\*\*(?P<name>[^*]+)\*\* \(\w+\) (?:played `(?P<notation>[^`]+)`|resigned)")
STORED = re.compile(r"match (?P<match>\d+) at version (?P<version>\d+): stored")
SNOOZE = re.compile(r"^hx:snooze:(?P<match>\d+):(?P<ply>\d+)$")
CLAIM = re.compile(r"^hx:claim:(?P<match>\d+):(?P<ply>\d+)$")


def custom_ids(message: Any) -> list[str]:
    return [
        item["custom_id"]
        for row in message.components or []
        for item in row.get("components") or []
        if item.get("custom_id")
    ]


WAITED = re.compile(r"\(waiting (?P<count>\d+) (?P<unit>days|h|min)")


def waited_hours(text: str) -> float:
    """How long the turn had waited when the reminder was written (its text says so, in the bots' clock)."""
    found = WAITED.search(text)
    if found is None:
        return float("nan")
    return int(found["count"]) * {"days": 24.0, "h": 1.0, "min": 1 / 60}[found["unit"]]


def twice_within(sent: list[float], gap: float) -> int:
    """Reminders of one (match, ply) whose waiting times are closer than ``gap`` hours: one due reminder sent
    twice (the next reminder of the same turn is due a whole delay, 24 h, after the last; the text rounds
    to the hour, or to the day past 48 h, so two in a row differ by 24 h or more, give or take that)."""
    ordered = sorted(sent)
    return sum(1 for a, b in itertools.pairwise(ordered) if b - a < gap)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class Scale:
    def __init__(self, args: argparse.Namespace, folder: Path, url: str, code: Path | None = None) -> None:
        self.args = args
        self.folder = folder
        self.url = url
        self.code = code  # the tree the processes run (another revision's), or None for this one
        self.rng = random.Random(args.seed)
        self.emu = DiscordEmulator(
            bot_token=TOKEN, default_timeout=20.0, sharding=ShardingRules(max_concurrency=args.bot_processes)
        )
        self.clock = ClockFile(folder / "clock")
        self.acknowledged: list[tuple[int, int, str]] = []  # (match, ply, notation) answered with its board
        self.latencies: list[float] = []
        self.refused = 0  # answered privately (a stale position: another move was first, or the bot said no)
        self.failed = 0  # no answer (the process of its shard was down, or too slow)
        self.in_flight: set[int] = set()
        self.stopping = False
        self.kills: list[str] = []
        self.matches: list[int] = []
        self.examples: list[str] = []
        self.board_examples: list[str] = []
        self.unsettled = ""  # what was still waiting when the run gave up waiting

    # ---------------------------------------------------------------- setting up

    async def start(self) -> None:
        store = await open_store(self.url, pool_size=8)
        assert isinstance(store, PostgresStore)
        self.store = store
        await queue.install(self.store.pool)
        self.service = MatchService(self.store, SystemClock(), default_reminder_hours=24)
        await self.emu.start()
        self.users = [self.emu.create_user(f"player{i}") for i in range(self.args.players)]
        shards = self.args.bot_processes
        self.channels: list[Channel] = []
        for index in range(self.args.guilds):
            guild = self.emu.create_guild(f"server {index}", shard=(index % shards, shards))
            self.channels.append(self.emu.create_text_channel(guild, "games"))
        self.fleet = Fleet(
            layout(
                self.emu,
                self.url,
                self.clock.path,
                bot_processes=self.args.bot_processes,
                workers=self.args.workers,
                worker_stale_seconds=3.0,
                reminder_check_seconds=2.0,
                log_level="WARNING",
                extra_env={"HEXPLAY_DATABASE_POOL_SIZE": "6"},
            ),
            emu=self.emu,
            log_dir=self.folder / "logs",
            echo=self._echo if self.args.verbose else None,
            cwd=self.code,
        )
        started = time.perf_counter()
        await self.fleet.start()
        await self.fleet.wait_connected(180)
        self.say(f"{len(self.fleet.children)} processes connected in {time.perf_counter() - started:.1f} s")

    def _echo(self, name: str, line: str) -> None:
        print(f"    [{name}] {line}", file=sys.stderr, flush=True)

    def say(self, text: str) -> None:
        print(text, flush=True)

    async def open_matches(self) -> None:
        started = time.perf_counter()
        gate = asyncio.Semaphore(16)

        async def one(k: int) -> None:
            async with gate:
                await self._open(k)

        await asyncio.gather(*(one(k) for k in range(self.args.matches)))
        rows = await self.store.pool.fetch("SELECT id FROM matches WHERE status = 'active' ORDER BY id")
        self.matches = [row["id"] for row in rows]
        await self._until_quiet(120)
        self.say(
            f"{len(self.matches)} matches opened by /play in {time.perf_counter() - started:.1f} s "
            f"(threads and first boards posted)"
        )

    async def _open(self, k: int) -> None:
        channel = self.channels[k % len(self.channels)]
        game = GAMES[k % len(GAMES)]
        # each player makes at most 3 challenges a minute (the bot's own limit): 200 players, two challenges each
        half = len(self.users) // 2
        creator = self.users[k % len(self.users)]
        options: dict[str, Any] = {"game": game}
        if k % 2:
            options["days"] = 3
        if k < self.args.computer:
            options["computer"] = "easy"
        else:
            options["opponent"] = self.users[(k + half) % len(self.users)]
        for attempt in range(5):
            try:
                lobby = await self.emu.invoke(creator, channel, "play", options, timeout=20)
                if "computer" in options:
                    await lobby.wait_for(lambda r: bool(r.messages) or r.ephemeral, 20)
                    return
                challenge = lobby.response
                accept = next((b for b in challenge.buttons() if b["label"] == "Accept"), None) if challenge else None
                if accept is None:
                    raise EmulatorError(f"/play answered {lobby.text!r}")
                assert challenge is not None
                await self.emu.press(options["opponent"], challenge, accept["custom_id"], timeout=20)
                return
            except EmulatorError as error:
                if attempt == 4:
                    raise RuntimeError(f"match {k} could not be opened: {error}") from None
                await asyncio.sleep(1)

    async def _until_quiet(self, timeout: float) -> bool:
        """Until every stored change's board is posted, every match has its thread and no job waits."""
        give_up = time.monotonic() + timeout
        while time.monotonic() < give_up:
            waiting = await self.store.pool.fetchval(
                "SELECT count(*) FROM matches WHERE status IN ('active', 'finished')"
                " AND (announced_version < version OR thread_id IS NULL)"
            )
            jobs = await self.store.pool.fetchval(f"SELECT count(*) FROM {queue.SCHEMA}.pgqueuer")
            if waiting == 0 and jobs == 0:
                return True
            await asyncio.sleep(0.5)
        rows = await self.store.pool.fetch(
            "SELECT m.id, m.status, m.version, m.announced_version, m.thread_id IS NULL AS threadless,"
            " (SELECT kind FROM moves v WHERE v.match_id = m.id ORDER BY seq DESC LIMIT 1) AS last_kind"
            " FROM matches m WHERE status IN ('active', 'finished')"
            " AND (announced_version < version OR thread_id IS NULL) ORDER BY id LIMIT 8"
        )
        held = await self.store.pool.fetch(
            f"SELECT entrypoint, status, count(*) FROM {queue.SCHEMA}.pgqueuer GROUP BY 1, 2 ORDER BY 1, 2"
        )
        self.unsettled = f"  not settled: {[dict(r) for r in rows]}; jobs {[tuple(r) for r in held]}"
        return False

    # ---------------------------------------------------------------- the run

    async def player(self, mine: list[int]) -> None:
        """One simulated client: a turn in the next of its matches whose player to move is a person."""
        while not self.stopping:
            moved = False
            for match_id in mine:
                if self.stopping:
                    return
                if await self.move(match_id):
                    moved = True
            if not moved:
                await asyncio.sleep(0.2)

    async def move(self, match_id: int) -> bool:
        match = await self.store.get_match(match_id)
        if match is None or match.status != "active" or match.thread_id is None:
            return False
        game = game_of(match)
        mover = user_to_move(match, game)
        if game.is_over or mover is None or match.is_computer(mover) or match.announced_version < match.version:
            return False  # the computer's turn, or its board not shown yet: a player waits for it
        user = self.emu.store.users.get(mover)
        if user is None:
            return False
        legal = game.legal_notations()
        choice = self.rng.choice([n for n in legal if n not in PASSES] or legal)
        ply = game.ply
        started = time.perf_counter()
        try:
            result = await self.emu.invoke(user, match.thread_id, "move", {"move": choice}, timeout=15)
            await result.wait_for(lambda r: bool(r.messages) or bool(r.errors), 15)
        except EmulatorError:
            self.failed += 1
            await asyncio.sleep(0.3)
            return False  # its fate is unknown: not acknowledged
        boards = [m for m in result.messages if m.attachments]
        if not result.ephemeral and boards:
            self.latencies.append(time.perf_counter() - started)
            self.acknowledged.append((match_id, ply, choice))
        else:
            self.refused += 1
        return True

    async def advance_clock(self, seconds: float) -> None:
        step = CLOCK_HOURS * HOUR * CLOCK_STEP / seconds
        while not self.stopping:
            await asyncio.sleep(CLOCK_STEP)
            self.clock.advance(step)

    async def faults(self, seconds: float) -> None:
        await asyncio.sleep(seconds / 2)
        for name in ("bot-1", "worker-0"):
            pid = self.fleet.kill(name)
            self.kills.append(f"{name} (pid {pid})")
            self.say(f"  t={seconds / 2:.0f} s: SIGKILL {name} (pid {pid})")
        started = time.perf_counter()
        killed = [self.fleet.child(name) for name in ("bot-1", "worker-0")]
        while not (all(c.restarts for c in killed) and self.fleet.all_connected()):
            await asyncio.sleep(0.1)
        self.say(f"  both started again by the supervisor and connected after {time.perf_counter() - started:.1f} s")

    async def run(self) -> dict[str, Any]:
        seconds = self.args.seconds
        playing = [m for i, m in enumerate(self.matches) if i % 4 != 3]  # a quarter left waiting
        clients = self.args.clients
        shares = [playing[i::clients] for i in range(clients)]
        turns_before = await self._turns()
        started = time.perf_counter()
        tasks = [asyncio.create_task(self.player(share)) for share in shares if share]
        clock = asyncio.create_task(self.advance_clock(seconds))
        fault = asyncio.create_task(self.faults(seconds))
        await asyncio.sleep(seconds)
        self.stopping = True
        await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.perf_counter() - started
        turns = await self._turns() - turns_before
        clock.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await clock
        await fault
        quiet = await self._until_quiet(60)
        await asyncio.sleep(3)  # a reminder pass or two after the last move
        return {"elapsed": elapsed, "turns": turns, "quiet": quiet}

    async def _turns(self) -> int:
        return int(await self.store.pool.fetchval("SELECT count(*) FROM moves WHERE kind = 'turn'"))

    # ---------------------------------------------------------------- the counts

    async def counts(self) -> dict[str, int]:
        pool = self.store.pool
        logged = {
            (r["match_id"], r["ply"], r["notation"])
            for r in await pool.fetch("SELECT match_id, ply, notation FROM moves WHERE kind = 'turn'")
        }
        lost = sum(1 for move in self.acknowledged if move not in logged)
        twice = await pool.fetchval(
            "SELECT count(*) FROM (SELECT match_id, ply FROM moves WHERE kind = 'turn'"
            " GROUP BY match_id, ply HAVING count(*) > 1) AS t"
        )
        computer_twice = await pool.fetchval(
            "SELECT count(*) FROM (SELECT match_id, ply FROM moves WHERE kind = 'turn' AND user_id < 0"
            " GROUP BY match_id, ply HAVING count(*) > 1) AS t"
        )
        stored: collections.Counter[tuple[int, int]] = collections.Counter()
        for log in (self.folder / "logs").glob("worker-*.log"):
            for hit in STORED.finditer(log.read_text(errors="replace")):
                stored[(int(hit["match"]), int(hit["version"]))] += 1
        computer_stored_twice = sum(1 for n in stored.values() if n > 1)
        all_ids = [r["id"] for r in await pool.fetch("SELECT id FROM matches WHERE status IN ('active', 'finished')")]
        broken = 0
        for match_id in all_ids:
            consistent, _ = await log_matches_state(self.service, match_id)
            broken += not consistent
        reminders: dict[tuple[int, int], list[tuple[float, str]]] = collections.defaultdict(list)
        notices: collections.Counter[tuple[str, int, int | str]] = collections.Counter()
        for user in self.users:
            for message in self.emu.dms(user):
                for custom_id in custom_ids(message):
                    snooze = SNOOZE.match(custom_id)
                    if snooze:
                        key = (int(snooze["match"]), int(snooze["ply"]))
                        reminders[key].append((waited_hours(message.content), message.content[:120]))
        boards_twice = 0
        for match_id in all_ids:
            row = await pool.fetchrow("SELECT thread_id FROM matches WHERE id = $1", match_id)
            if row is None or row["thread_id"] is None:
                continue
            messages = [m for m in self.emu.messages(row["thread_id"]) if m.author_id == self.emu.bot.id]
            for message in messages:
                for custom_id in custom_ids(message):
                    claim = CLAIM.match(custom_id)
                    if claim:
                        notices[("out of time", int(claim["match"]), int(claim["ply"]))] += 1
            boards_twice += await self._boards_twice(match_id, messages)
        for user in self.users:
            for message in self.emu.dms(user):
                if not any(SNOOZE.match(c) for c in custom_ids(message)):
                    notices[("dm", user.id, message.content)] += 1  # a warning: the same words twice is twice
        self.examples = [
            f"match {key[0]} ply {key[1]}: " + " | ".join(text for _, text in sorted(sent))
            for key, sent in reminders.items()
            if twice_within([w for w, _ in sent], REMINDER_GAP)
        ][:3]
        return {
            "acknowledged moves lost": lost,
            "turns applied twice": int(twice),
            "logs not replaying to the stored state": broken,
            "reminders sent twice for one match and ply": sum(
                twice_within([w for w, _ in sent], REMINDER_GAP) for sent in reminders.values()
            ),
            "time-limit notices sent twice": sum(1 for n in notices.values() if n > 1),
            "computer turns played twice": int(computer_twice) + computer_stored_twice,
            "boards posted twice": boards_twice,
            "_reminders": sum(len(sent) for sent in reminders.values()),
            "_notices": sum(notices.values()),
            "_computer_turns": sum(stored.values()),
            "_matches": len(all_ids),
        }

    def first_answers(self) -> dict[str, Any]:
        """Every interaction's first answer as the emulator saw it (Discord's rule: within 3 s)."""
        deadline = self.emu.interaction_deadline
        results = [p.result for p in self.emu.interactions.by_id.values() if p.type != AUTOCOMPLETE]
        answered = [r.latency for r in results if r.latency is not None]
        late = [r for r in results if r.latency is not None and r.latency > deadline]
        return {
            "interactions": len(results),
            "late": len(late),
            "unanswered": sum(1 for r in results if r.latency is None),
            "p99": percentile(answered, 0.99),
            "slowest": max(answered, default=float("nan")),
            "examples": [f"{r.latency:.2f} s: {r.errors[:1]}" for r in late[:3]],
        }

    async def _boards_twice(self, match_id: int, messages: list[Any]) -> int:
        """Boards of one logged turn (or the opening board) posted more than once in the match's thread."""
        moves = await self.store.moves(match_id)
        expected = [
            ("computer" if m.user_id < 0 else self.emu.store.users[m.user_id].name, m.notation)
            for m in moves
            if m.kind == "turn"
        ]
        posted = []
        sources = []  # for an example: how each board came (an answer to a command, or a message of its own)
        openings = 0
        for message in messages:
            if not message.attachments:
                continue
            if " begins" in message.content.split("\n", 1)[0]:
                openings += 1
            found = BOARD.search(message.content)
            if found:
                name = "computer" if found["name"].startswith("🤖") else found["name"]
                posted.append((name, found["notation"] or "resign"))
                how = "answer" if message.interaction_id or message.webhook_id else "message"
                sources.append(f"{how} {message.created_at:%H:%M:%S.%f} {message.content.splitlines()[-1][:60]!r}")
        duplicates = max(0, openings - 1)
        if openings > 1:
            self.board_examples.append(f"match {match_id}: {openings} opening boards")
        # A turn's board may be missing (a later board superseded it) and a player may repeat a turn (Bump's
        # pieces are bumped back), so boards are compared as counts: more boards of a (player, turn) than the
        # log has of it is a board posted twice.
        logged = collections.Counter(expected)
        for board, shown in collections.Counter(posted).items():
            extra = shown - logged[board]
            if extra > 0:
                duplicates += extra
                match = await self.store.get_match(match_id)
                shard = (match.guild_id >> 22) % self.args.bot_processes if match else "?"
                seen = [source for b, source in zip(posted, sources, strict=True) if b == board]
                self.board_examples.append(
                    f"match {match_id} (shard {shard}): {board} logged {logged[board]}x, shown {shown}x: {seen}"
                )
        return duplicates

    async def stop(self) -> None:
        await self.fleet.stop()
        await self.store.close()
        await self.emu.stop()


def cpu_hogs(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that only burn CPU, at this process's priority (the bot's processes have it too)."""
    code = "while True: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


def revision_tree(revision: str, folder: Path) -> Path:
    """The tree of a git revision, extracted (git archive) into ``folder``: the code a baseline run runs."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


async def one_run(args: argparse.Namespace, label: str, code: Path | None) -> tuple[int, dict[str, Any]]:
    """The whole scenario once, on a fresh PostgreSQL cluster: (failed counts, figures for a side-by-side)."""
    cluster = start_cluster()
    hogs = cpu_hogs(args.cpu_load)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder:
            scale = Scale(args, Path(folder), cluster.url, code)
            print(f"-- {label}", flush=True)
            try:
                await scale.start()
                await scale.open_matches()
                run = await scale.run()
                counts = await scale.counts()
                restarts = {c.spec.name: c.restarts for c in scale.fleet.children if c.restarts}
                error_lines = [
                    f"{log.stem}: {line}"
                    for log in sorted((Path(folder) / "logs").glob("*.log"))
                    for line in log.read_text(errors="replace").splitlines()
                    if " ERROR " in line
                ]
                errors = len(error_lines)
            finally:
                await scale.stop()
            answers = scale.first_answers()
            counts["late first answers (after Discord's 3 s)"] = answers["late"]
            figures = scale.latencies
            print(
                f"turns/s: {run['turns'] / run['elapsed']:.1f} ({run['turns']} turns logged in {run['elapsed']:.0f} s, "
                f"people's and the computer's)"
            )
            print(
                f"/move: {len(figures)} acknowledged, p50 {percentile(figures, 0.5) * 1000:.0f} ms, "
                f"p95 {percentile(figures, 0.95) * 1000:.0f} ms, p99 {percentile(figures, 0.99) * 1000:.0f} ms "
                f"(mean {statistics.fmean(figures) * 1000 if figures else 0:.0f} ms); {scale.refused} answered "
                f"privately, {scale.failed} unanswered (their shard's process down or too slow)"
            )
            print(
                f"first answers: {answers['interactions']} interactions, {answers['late']} late (after 3 s), "
                f"{answers['unanswered']} never answered (their process killed); p99 {answers['p99']:.2f} s, "
                f"slowest {answers['slowest']:.2f} s"
            )
            for example in answers["examples"]:
                print(f"  late: {example}")
            print(
                f"faults: SIGKILL {', '.join(scale.kills)}; restarts by the supervisor: {restarts}; "
                f"settled afterwards: {'yes' if run['quiet'] else 'NO'}"
            )
            if scale.unsettled:
                print(scale.unsettled[:1500])
            print(
                f"background: {counts['_reminders']} reminders, {counts['_notices']} time-limit notices, "
                f"{counts['_computer_turns']} computer turns stored by workers, {counts['_matches']} matches checked; "
                f"429s: {len(scale.emu.rate_limit_hits)}; Discord rule violations: {len(scale.emu.violations)}; "
                f"ERROR lines in the processes' logs: {errors}"
            )
            for violation in sorted(
                {re.sub(r"/interactions/\d+/[^/]+/", "/interactions/…/", v) for v in scale.emu.violations}
            )[:5]:
                print(f"  violation: {violation[:200]}")
            for example in scale.examples:
                print(f"  reminders twice: {example.replace(chr(10), ' ')}")
            for example in scale.board_examples[:3]:
                print(f"  boards twice: {example}")
            scopes = collections.Counter(f"{hit.scope} {hit.bucket}" for hit in scale.emu.rate_limit_hits)
            print(f"  429s by scope and bucket: {dict(scopes.most_common(5))}")
            for line in error_lines[:5]:
                print(f"  ERROR line: {line[:200]}")
            bad = 0
            for name, value in counts.items():
                if name.startswith("_"):
                    continue
                print(f"  {name}: {value}")
                bad += value
            print("all counts 0" if bad == 0 else f"FAILED: {bad} in the counts above", flush=True)
            side = {
                "late first answers": str(answers["late"]),
                "never answered": str(answers["unanswered"]),
                "first answer p99 / slowest": f"{answers['p99']:.2f} / {answers['slowest']:.2f} s",
                "/move to its board p50 / p99": (
                    f"{percentile(figures, 0.5) * 1000:.0f} / {percentile(figures, 0.99) * 1000:.0f} ms"
                ),
                "/move acknowledged": str(len(figures)),
                "other counts not 0": str(bad - answers["late"]),
            }
            return bad, side
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        cluster.remove()


async def main_async(args: argparse.Namespace) -> int:
    print(
        f"bench_scale: {args.bot_processes} bot processes (shard k of {args.bot_processes} each), "
        f"{args.workers} workers, one PostgreSQL; {args.guilds} guilds, {args.matches} matches "
        f"({', '.join(GAMES)}; {args.computer} against the easy computer), {args.clients} simulated "
        f"clients for {args.seconds:g} s, the clock {CLOCK_HOURS:g} h ahead by the end; "
        f"{args.cpu_load} CPU hogs beside them",
        flush=True,
    )
    if not args.baseline:
        bad, _ = await one_run(args, "this tree", None)
        return 0 if bad == 0 else 1
    with tempfile.TemporaryDirectory(prefix="bench-scale-base-") as base:
        code = revision_tree(args.baseline, Path(base))
        _, before = await one_run(args, f"baseline: {args.baseline}", code)
    bad, after = await one_run(args, "this tree", None)
    print(f"\n{'':32} {'baseline ' + args.baseline[:12]:>22} {'this tree':>22}")
    for name in after:
        print(f"{name:32} {before[name]:>22} {after[name]:>22}")
    return 0 if bad == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="how long players move (default 120)")
    parser.add_argument("--quick", action="store_true", help="30 s of moves")
    parser.add_argument("--guilds", type=int, default=40)
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--computer", type=int, default=50, help="matches against the easy computer")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--clients", type=int, default=24, help="simulated clients sending /move at once")
    parser.add_argument("--bot-processes", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="print the processes' warnings")
    parser.add_argument("--cpu-load", type=int, default=0, help="processes burning CPU beside the bot's (default 0)")
    parser.add_argument("--baseline", default="", help="a git revision to run first, for a side-by-side")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 30.0
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
