"""Start and stop the sandbox's parts in order: emulator, web page, bot process(es) and workers.

By default one bot process on a SQLite file (:class:`~sandbox.botprocess.BotProcess`), as ``make run``
always did. With a PostgreSQL database (``--database-url``) the sandbox runs the layout of many
machines instead: ``--bot-processes P`` bot processes, each a range of the gateway shards, and
``--workers W`` computer-player workers, supervised by :class:`~sandbox.fleet.Fleet` (a process that
dies is started again within seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import secrets
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from aiohttp import web

from emulator import DiscordEmulator
from emulator.sharding import ShardingRules

from . import world
from .activity import ActivityFace, listening_socket
from .botprocess import BotProcess
from .clockfile import ClockFile
from .fleet import Fleet, layout
from .private import open_private, private_folder
from .web import WebFace

log = logging.getLogger(__name__)
DEFAULT_PORT = 8765
SAVE_DELAY = 0.5  # seconds: changes are written to disk at most this long after they happen


@dataclass(frozen=True)
class Layout:
    """What the sandbox runs: its servers, and (on PostgreSQL) its bot processes and workers."""

    guilds: int = 1
    bot_processes: int = 1
    workers: int = 0
    database_url: str = ""  # empty: the one bot process on the sandbox's SQLite file
    shards: int | None = None  # the gateway shards in all (default: one per bot process)

    @property
    def fleet(self) -> bool:
        return bool(self.database_url)

    @property
    def shard_count(self) -> int:
        return self.shards or self.bot_processes

    def described(self) -> str:
        """What runs, as the start line says it: "4 servers, 2 bot processes (2 shards), 1 worker"."""
        return ", ".join(
            (
                _count(self.guilds, "server"),
                f"{_count(self.bot_processes, 'bot process', 'bot processes')} ({_count(self.shard_count, 'shard')})",
                _count(self.workers, "worker"),
            )
        )

    def check(self) -> None:
        """One line for a layout that cannot work (``python -m sandbox`` exits with it)."""
        if not self.database_url and (self.bot_processes > 1 or self.workers > 0):
            raise SystemExit(
                "--bot-processes above 1 and --workers need PostgreSQL: give --database-url postgresql://…"
                " (processes can share only a PostgreSQL database)"
            )
        if self.database_url and not self.database_url.startswith(("postgresql://", "postgres://")):
            raise SystemExit("--database-url must be a PostgreSQL URL: postgresql://user:password@host:port/dbname")
        if self.shard_count < self.bot_processes:
            raise SystemExit(f"--shards {self.shard_count} cannot be shared by {self.bot_processes} bot processes")


def _count(number: int, one: str, many: str | None = None) -> str:
    """``number`` things, in the singular for one (the start line said "1 workers")."""
    return f"{number} {one if number == 1 else many or one + 's'}"


def _listen(port: int) -> socket.socket:
    """A loopback socket on ``port``, or on a free one when that is taken."""
    for candidate in (port, 0):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", candidate))
            return sock
        except OSError:
            sock.close()
    raise SystemExit("no free port on 127.0.0.1")


def _echo(name: str, line: str) -> None:
    print(f"[{name}] {line}", flush=True)


class SandboxRunner:
    def __init__(self, data: Path, port: int, layout: Layout | None = None) -> None:
        self.data = data
        self.port = port
        self.layout = layout or Layout()
        # On PostgreSQL the Discord world is another one than the SQLite sandbox's: each database refers to its own.
        world_name = "sandbox-discord-postgres.json" if self.layout.fleet else "sandbox-discord.json"
        self.world_file = world.WorldFile(data / world_name)
        self.db_path = data / "sandbox.sqlite3"
        self.clock = ClockFile(data / "sandbox.clock")
        self._save_handle: asyncio.TimerHandle | None = None
        self.face: WebFace | None = None
        self.activity_ports: list[int] = []  # the bot processes' Activity servers
        self.activity_sockets: list[socket.socket] = []  # their listening sockets, held here and handed down

    def _schedule_save(self, event: str, obj: object) -> None:
        if self._save_handle is None:
            self._save_handle = asyncio.get_running_loop().call_later(SAVE_DELAY, self._save)

    def _save(self) -> None:
        self._save_handle = None
        try:
            self.world_file.save(self.emu, self.face.views.used if self.face else None)
        except OSError:
            log.exception("could not save the sandbox world")

    def _lock(self) -> BinaryIO:
        """One sandbox per data folder (created private: it holds every player's DMs): two would each
        overwrite the other's world."""
        private_folder(self.data)
        # Not a with-block: the file stays open while the sandbox runs, since closing it drops the lock.
        lock = open_private(self.data / "sandbox.lock", "wb")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            raise SystemExit(
                f"Another sandbox is already running with {self.data}/; use its page, "
                "or stop it (Ctrl-C in its terminal) first."
            ) from None
        return lock

    async def run(self) -> int:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        lock = self._lock()
        try:
            return await self._run()
        finally:
            lock.close()

    async def _run(self) -> int:
        shards = self.layout.shard_count
        self.emu = DiscordEmulator(
            bot_token="sandbox-" + secrets.token_hex(8),
            application_id=self.world_file.saved_application_id(),
            default_timeout=10.0,
            # every shard in a bucket of its own: the processes IDENTIFY together, as a large bot's may
            sharding=ShardingRules(max_concurrency=shards) if self.layout.fleet else None,
        )
        # Threads go idle on the bot's clock, "+1 day" included: a finished match's thread archives itself as on Discord
        self.emu.store.clock = self.clock.now
        await self.emu.start()
        resumed = self.world_file.load_into(self.emu)
        if not resumed:
            world.build(self.emu, self.layout.guilds, shards)
            self.world_file.save(self.emu)
        elif world.add_players(self.emu) + world.add_guilds(self.emu, self.layout.guilds, shards):
            self.world_file.save(self.emu)
        self.emu.observers.append(self._schedule_save)
        self.emu.enable_activities()  # the app's Activity: Open board and the App Launcher (docs/activity.md)
        if self.layout.fleet:
            return await self._run_fleet()
        self.activity_sockets = [listening_socket()]
        bot = BotProcess(self.emu, self.db_path, self.clock.path, activity_socket=self.activity_sockets[0])
        self.activity_ports = [bot.activity_port] if bot.activity_port else []

        def one_bot() -> list[dict[str, object]]:
            connected = self.emu.bot_connected
            alive = bot.process is not None and bot.process.returncode is None
            return [
                {
                    "name": "bot",
                    "pid": bot.pid,
                    "role": "bot",
                    "shard_ids": [],
                    "shard_count": None,
                    "alive": alive,
                    "connected": alive and connected,
                    "restarts": 0,
                    "exits": [],
                }
            ]

        face, runner, url = await self._serve(one_bot)
        stop = self._stop_on_signals()
        status = 0
        try:
            print("Starting the Hexplay sandbox (the emulator, the bot, the web page)…", flush=True)
            await bot.start()
            await bot.wait_connected()
            again = " — continuing where you left off" if resumed else ""
            print(
                f"Sandbox ready{again}: open {url}  (one tab per player: {url}/alice, /bob, /carol). Ctrl-C stops it.",
                flush=True,
            )
            print(
                "To run the bot on your real Discord server instead, put DISCORD_TOKEN=… in .env "
                '(README: "Running the bot on your server") and `make run` again.',
                flush=True,
            )
            assert bot.process is not None
            exited = asyncio.create_task(bot.process.wait())
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({exited, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if exited.done():
                print(f"The bot stopped unexpectedly (status {exited.result()}); stopping the sandbox.", flush=True)
                status = 1
        except RuntimeError as error:
            print(f"Sandbox failed to start: {error}", flush=True)
            status = 1
        finally:
            print("Stopping: the bot first, then the page and the emulator…", flush=True)
            await bot.stop()
            await self._close(face, runner)
        return status

    async def _serve(self, processes: Callable[[], list[dict[str, object]]]) -> tuple[WebFace, web.AppRunner, str]:
        """The web page, on its port; its URL."""
        face = self.face = WebFace(self.emu, self.clock, processes, ActivityFace(self.emu, lambda: self.activity_ports))
        face.views.used.update(self.world_file.used)
        runner = web.AppRunner(face.app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        sock = _listen(self.port)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        await web.SockSite(runner, sock).start()
        return face, runner, url

    def _stop_on_signals(self) -> asyncio.Event:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, stop.set)
        return stop

    async def _close(self, face: WebFace, runner: web.AppRunner) -> None:
        if self._save_handle is not None:
            self._save_handle.cancel()
        self._save()
        await face.close_clients()
        if face.activity is not None:
            await face.activity.close()
        await runner.cleanup()
        for held in self.activity_sockets:  # (the bot processes have stopped: nobody serves them now)
            held.close()
        await self.emu.stop()
        print(f"Sandbox stopped; everything is kept in {self.data}/ for next time.", flush=True)

    async def _run_fleet(self) -> int:
        """P bot processes and W workers on PostgreSQL, restarted when they die, until Ctrl-C."""
        plan = self.layout
        self.activity_sockets = [listening_socket() for _ in range(plan.bot_processes)]
        self.activity_ports = [int(held.getsockname()[1]) for held in self.activity_sockets]
        fleet = Fleet(
            layout(
                self.emu,
                plan.database_url,
                self.clock.path,
                bot_processes=plan.bot_processes,
                workers=plan.workers,
                shard_count=plan.shard_count,
                log_level=os.environ.get("HEXPLAY_SANDBOX_BOT_LOG_LEVEL", "WARNING"),
                activity_sockets=self.activity_sockets,
            ),
            emu=self.emu,
            log_dir=self.data / "logs",
            echo=_echo,
        )
        face, runner, url = await self._serve(fleet.snapshot)
        watching = asyncio.create_task(face.watch_processes())
        stop = self._stop_on_signals()
        status = 0
        try:
            print(f"Starting the Hexplay sandbox: {plan.described()}, on PostgreSQL…", flush=True)
            await fleet.start()
            ready = asyncio.create_task(fleet.wait_connected())
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({ready, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if ready.done():
                ready.result()  # its RuntimeError, if any
                print(
                    f"Sandbox ready: open {url}  (one tab per player: {url}/alice, /bob, /carol; "
                    "switch server at the top of the channel list). Ctrl-C stops it.",
                    flush=True,
                )
                print(
                    f"The processes' output is in {self.data}/logs/; a process that dies is started again.",
                    flush=True,
                )
                await stopping
            else:
                ready.cancel()
        except RuntimeError as error:
            print(f"Sandbox failed to start: {error}", flush=True)
            status = 1
        finally:
            print("Stopping: the bot processes and workers first, then the page and the emulator…", flush=True)
            watching.cancel()
            await fleet.stop()
            await self._close(face, runner)
        return status
