"""A small supervisor for the processes of a sharded layout: bot shards and computer-player workers.

The sandbox's ``--bot-processes P --workers W`` starts them with it, and ``benchmarks/bench_scale.py``
reuses it. Each child is a real ``python -m bot --shard-count N --shard-ids a-b`` or
``python -m bot worker`` process; one that dies (SIGKILL, a crash) is started again after a short
pause, as compose's ``restart: always`` would: one second after a run of 10 s or more, doubling
after shorter runs (a crash loop backs off, up to half a minute). Every exit and restart is recorded.

Whether a bot process is connected is read from the emulator's gateway sessions (a ready session for
each of its shards); a worker is connected once it said so (its "worker ready" log line) since its last
start. The children's output is kept in a file per process when ``log_dir`` is given, and lines of
level WARNING and above (with what follows them, a traceback) are handed to ``echo``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from emulator import DiscordEmulator

from .activity import handed_down
from .private import open_private, private_folder

RESTART_DELAY = 1.0  # seconds before a child that ran long enough is started again
STEADY_RUN = 10.0  # a run this long resets the back-off
MAX_RESTART_DELAY = 30.0
WORKER_READY = "worker ready on"  # bot/jobs/worker.py's INFO line once it takes jobs
QUIET_LEVELS = (" DEBUG ", " INFO ")  # log lines not echoed (the bot's format: "time LEVEL name: message")


@dataclass(frozen=True)
class ChildSpec:
    """One supervised process: what it runs and what it is."""

    name: str  # "bot-0", "worker-1": unique in its fleet
    role: str  # "bot" or "worker"
    argv: tuple[str, ...]  # the arguments after ``python``
    env: Mapping[str, str]
    shard_ids: tuple[int, ...] = ()  # a bot's shards (of ``shard_count``)
    shard_count: int | None = None
    pass_fds: tuple[int, ...] = ()  # sockets handed down (a bot's Activity server: HEXPLAY_ACTIVITY_FD)


@dataclass
class Exit:
    pid: int
    status: int | None  # the exit status, -9 for SIGKILL
    at: float  # wall-clock seconds
    ran: float  # seconds it had been running


@dataclass
class Child:
    spec: ChildSpec
    process: asyncio.subprocess.Process | None = None
    started_at: float = 0.0  # monotonic
    restarts: int = 0
    exits: list[Exit] = field(default_factory=list)
    said_ready: bool = False  # a worker's ready line since its last start
    tail: deque[str] = field(default_factory=lambda: deque(maxlen=40))  # its last lines of output

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None


def _die_with_parent() -> None:
    """Linux: the child gets SIGTERM if the supervisor dies without stopping it (e.g. SIGKILL)."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Fleet:
    def __init__(
        self,
        specs: Iterable[ChildSpec],
        *,
        emu: DiscordEmulator | None = None,
        log_dir: Path | None = None,
        echo: Callable[[str, str], None] | None = None,
        restart_delay: float = RESTART_DELAY,
        cwd: Path | None = None,
    ) -> None:
        self.children = [Child(spec) for spec in specs]
        names = [c.spec.name for c in self.children]
        if len(set(names)) != len(names):
            raise ValueError(f"child names must be unique: {names}")
        self.emu = emu
        self.log_dir = log_dir
        self.echo = echo
        self.restart_delay = restart_delay
        self.cwd = cwd
        self.listeners: list[Callable[[], None]] = []  # called after a child starts or exits
        self._stopping = False
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ running

    async def start(self) -> None:
        """Start every child (all at once, as compose does) and supervise them until :meth:`stop`."""
        if self.log_dir is not None:
            private_folder(self.log_dir)
        for child in self.children:
            await self._launch(child)
        self._tasks = [asyncio.create_task(self._supervise(child)) for child in self.children]

    async def _launch(self, child: Child) -> None:
        child.said_ready = False
        child.process = await asyncio.create_subprocess_exec(
            sys.executable,
            *child.spec.argv,
            env=dict(child.spec.env),
            cwd=self.cwd,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,  # the terminal's Ctrl-C reaches the supervisor, which stops them in order
            preexec_fn=_die_with_parent,
            pass_fds=child.spec.pass_fds,
        )
        child.started_at = time.monotonic()
        self._changed()

    async def _supervise(self, child: Child) -> None:
        delay = self.restart_delay
        while True:
            process = child.process
            assert process is not None
            await self._pump(child, process)
            status = await process.wait()
            ran = time.monotonic() - child.started_at
            child.exits.append(Exit(process.pid, status, time.time(), ran))
            child.said_ready = False
            self._changed()
            if self._stopping:
                return
            delay = self.restart_delay if ran >= STEADY_RUN else min(delay * 2, MAX_RESTART_DELAY)
            self._say(child, f"exited with status {status} after {ran:.0f} s; starting it again in {delay:g} s")
            await asyncio.sleep(delay)
            if self._stopping:
                return
            child.restarts += 1
            await self._launch(child)

    async def _pump(self, child: Child, process: asyncio.subprocess.Process) -> None:
        """Read the child's output until it closes: kept, written to its log file, echoed if loud."""
        assert process.stdout is not None
        log: BinaryIO | None = None
        if self.log_dir is not None:
            log = open_private(self.log_dir / f"{child.spec.name}.log", "ab")  # closed below
            log.write(f"--- pid {process.pid} started {time.strftime('%H:%M:%S')}\n".encode())
        loud = True  # lines before any log line (a one-line refusal on stderr) are shown
        try:
            while True:
                raw = await process.stdout.readline()
                if not raw:
                    return
                if log is not None:
                    log.write(raw)
                    log.flush()
                line = raw.decode(errors="replace").rstrip()
                child.tail.append(line)
                if WORKER_READY in line:
                    child.said_ready = True
                    self._changed()
                level_line = any(f" {level} " in line for level in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
                if level_line:
                    loud = not any(quiet in line for quiet in QUIET_LEVELS)
                if loud and self.echo is not None and line:
                    self.echo(child.spec.name, line)
        finally:
            if log is not None:
                log.close()

    def _say(self, child: Child, text: str) -> None:
        if self.echo is not None:
            self.echo(child.spec.name, text)

    def _changed(self) -> None:
        for listener in list(self.listeners):
            with contextlib.suppress(Exception):  # a listener never breaks the supervision
                listener()

    async def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM to every child (a bot finishes its interactions in flight, a worker hands its jobs back),
        SIGKILL to any still running after ``timeout``; no restarts from now on."""
        self._stopping = True
        for child in self.children:
            if child.alive:
                assert child.process is not None
                with contextlib.suppress(ProcessLookupError):
                    child.process.send_signal(signal.SIGTERM)
        waits = [c.process.wait() for c in self.children if c.process is not None]
        try:
            await asyncio.wait_for(asyncio.gather(*waits), timeout)
        except TimeoutError:
            for child in self.children:
                if child.alive:
                    assert child.process is not None
                    with contextlib.suppress(ProcessLookupError):
                        child.process.kill()
            await asyncio.gather(*(c.process.wait() for c in self.children if c.process is not None))
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5)

    # ------------------------------------------------------------------ faults

    def child(self, name: str) -> Child:
        found = next((c for c in self.children if c.spec.name == name), None)
        if found is None:
            raise KeyError(f"no process named {name!r} (there are {[c.spec.name for c in self.children]})")
        return found

    def kill(self, name: str, signum: int = signal.SIGKILL) -> int:
        """Send ``signum`` (SIGKILL: a crash) to a child; its pid. The supervisor starts it again."""
        child = self.child(name)
        if not child.alive or child.pid is None:
            raise RuntimeError(f"{name} is not running")
        os.kill(child.pid, signum)
        return child.pid

    # ------------------------------------------------------------------ state

    def connected(self, child: Child) -> bool:
        """A bot: alive with a ready gateway session for each of its shards; a worker: alive and said ready."""
        if not child.alive:
            return False
        if child.spec.role != "bot":
            return child.said_ready
        if self.emu is None:
            return True
        ready = {
            (s.shard_id, s.shard_count) for s in self.emu.gateway_sessions() if s.ready
        }  # an unsharded bot is (0, 1)
        count = child.spec.shard_count or 1
        ids = child.spec.shard_ids or (0,)
        return all((shard, count) in ready for shard in ids)

    def all_connected(self) -> bool:
        return all(self.connected(c) for c in self.children)

    async def wait_connected(self, timeout: float = 90.0) -> None:
        """Until every child is connected; RuntimeError if one keeps dying or it takes too long."""
        give_up = time.monotonic() + timeout
        while not self.all_connected():
            crashed = [c for c in self.children if len(c.exits) >= 3 and not self.connected(c)]
            if crashed:
                last = "\n".join(list(crashed[0].tail)[-15:])
                raise RuntimeError(f"{crashed[0].spec.name} keeps exiting; its last output:\n{last}")
            if time.monotonic() > give_up:
                waiting = [c.spec.name for c in self.children if not self.connected(c)]
                raise RuntimeError(f"not connected within {timeout:g} s: {', '.join(waiting)}")
            await asyncio.sleep(0.1)

    def snapshot(self) -> list[dict[str, Any]]:
        """Each process as the sandbox's /api/state lists it."""
        return [
            {
                "name": c.spec.name,
                "pid": c.pid,
                "role": c.spec.role,
                "shard_ids": list(c.spec.shard_ids),
                "shard_count": c.spec.shard_count,
                "alive": c.alive,
                "connected": self.connected(c),
                "restarts": c.restarts,
                "exits": [
                    {"pid": e.pid, "status": e.status, "at": e.at, "ran_seconds": round(e.ran, 1)} for e in c.exits
                ],
            }
            for c in self.children
        ]


# ---------------------------------------------------------------------- the layout


def shard_ranges(shard_count: int, processes: int) -> list[tuple[int, ...]]:
    """``shard_count`` shards split into ``processes`` contiguous ranges, as even as they go."""
    if not 1 <= processes <= shard_count:
        raise ValueError(f"{processes} processes cannot share {shard_count} shards")
    base, extra = divmod(shard_count, processes)
    ranges, first = [], 0
    for index in range(processes):
        size = base + (1 if index < extra else 0)
        ranges.append(tuple(range(first, first + size)))
        first += size
    return ranges


def bot_environment(
    emu: DiscordEmulator,
    database_url: str,
    clock_file: Path,
    *,
    reminder_check_seconds: float = 2.0,
    log_level: str = "WARNING",
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of a bot process pointed at the emulator (every variable the bot reads from .env is
    set, so a real token or database in .env never reaches it)."""
    return {
        **os.environ,
        "DISCORD_TOKEN": emu.bot_token,
        "DISCORD_API_BASE_URL": emu.api_base_url,
        "DISCORD_GATEWAY_URL": emu.gateway_url,
        "HEXPLAY_DB_PATH": str(clock_file.with_name("unused-by-postgres.sqlite3")),
        "HEXPLAY_DATABASE_URL": database_url,
        "HEXPLAY_DEV_GUILD_IDS": "",
        "HEXPLAY_REMINDER_CHECK_SECONDS": str(reminder_check_seconds),
        "HEXPLAY_CLOCK_OFFSET_FILE": str(clock_file),
        "HEXPLAY_LOG_LEVEL": log_level,
        "HEXPLAY_SHARD_COUNT": "",  # given on the command line
        "HEXPLAY_SHARD_IDS": "",
        "HEXPLAY_ACTIVITY_PORT": "",  # each bot process gets its own (layout)
        "HEXPLAY_ACTIVITY_FD": "",
        "HEXPLAY_ACTIVITY_HOST": "127.0.0.1",
        "HEXPLAY_ACTIVITY_PAGE": "",
        "DISCORD_CLIENT_SECRET": emu.client_secret,
        "PYTHONUNBUFFERED": "1",
        **(extra or {}),
    }


def layout(
    emu: DiscordEmulator,
    database_url: str,
    clock_file: Path,
    *,
    bot_processes: int,
    workers: int,
    shard_count: int | None = None,
    worker_concurrency: int = 1,
    worker_stale_seconds: float = 5.0,
    reminder_check_seconds: float = 2.0,
    log_level: str = "WARNING",
    extra_env: Mapping[str, str] | None = None,
    activity_sockets: list[socket.socket] | None = None,
) -> list[ChildSpec]:
    """P bot processes, each ``python -m bot --shard-count N --shard-ids a-b`` for its range of the N shards
    (N = P unless given), and W ``python -m bot worker`` processes, all on one PostgreSQL database."""
    count = shard_count or bot_processes
    env = bot_environment(
        emu,
        database_url,
        clock_file,
        reminder_check_seconds=reminder_check_seconds,
        log_level=log_level,
        extra=extra_env,
    )
    specs = []
    for index, ids in enumerate(shard_ranges(count, bot_processes)):
        span = f"{ids[0]}-{ids[-1]}"
        argv = ("-m", "bot", "--shard-count", str(count), "--shard-ids", span)
        if activity_sockets:  # each bot its own Activity server, on a socket the supervisor holds and hands down
            held = activity_sockets[index]
            specs.append(
                ChildSpec(f"bot-{index}", "bot", argv, {**env, **handed_down(held)}, ids, count, (held.fileno(),))
            )
        else:
            specs.append(ChildSpec(f"bot-{index}", "bot", argv, env, ids, count))
    worker_env = {
        **env,
        "HEXPLAY_LOG_LEVEL": "INFO",  # its ready line says it is connected (INFO lines are not echoed)
        "HEXPLAY_WORKER_STALE_SECONDS": str(worker_stale_seconds),
    }
    work = ("-m", "bot", "worker", "--concurrency", str(worker_concurrency))
    specs.extend(ChildSpec(f"worker-{index}", "worker", work, worker_env) for index in range(workers))
    return specs
