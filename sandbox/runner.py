"""Start and stop the sandbox's three parts in order: emulator, web page, bot process."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import secrets
import signal
import socket
from pathlib import Path
from typing import TextIO

from aiohttp import web

from emulator import DiscordEmulator

from . import world
from .botprocess import BotProcess
from .clockfile import ClockFile
from .web import WebFace

log = logging.getLogger(__name__)
DEFAULT_PORT = 8765
SAVE_DELAY = 0.5  # seconds: changes are written to disk at most this long after they happen


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


class SandboxRunner:
    def __init__(self, data: Path, port: int) -> None:
        self.data = data
        self.port = port
        self.world_file = world.WorldFile(data / "sandbox-discord.json")
        self.db_path = data / "sandbox.sqlite3"
        self.clock = ClockFile(data / "sandbox.clock")
        self._save_handle: asyncio.TimerHandle | None = None
        self.face: WebFace | None = None

    def _schedule_save(self, event: str, obj: object) -> None:
        if self._save_handle is None:
            self._save_handle = asyncio.get_running_loop().call_later(SAVE_DELAY, self._save)

    def _save(self) -> None:
        self._save_handle = None
        try:
            self.world_file.save(self.emu, self.face.views.used if self.face else None)
        except OSError:
            log.exception("could not save the sandbox world")

    def _lock(self) -> TextIO:
        """One sandbox per data folder: two would each overwrite the other's world."""
        # Not a with-block: the file stays open while the sandbox runs, since closing it drops the lock.
        lock = open(self.data / "sandbox.lock", "w")  # noqa: SIM115
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
        self.data.mkdir(parents=True, exist_ok=True)
        lock = self._lock()
        try:
            return await self._run()
        finally:
            lock.close()

    async def _run(self) -> int:
        self.emu = DiscordEmulator(
            bot_token="sandbox-" + secrets.token_hex(8),
            application_id=self.world_file.saved_application_id(),
            default_timeout=10.0,
        )
        await self.emu.start()
        resumed = self.world_file.load_into(self.emu)
        if not resumed:
            world.build(self.emu)
            self.world_file.save(self.emu)
        self.emu.observers.append(self._schedule_save)
        face = self.face = WebFace(self.emu, self.clock)
        face.views.used.update(self.world_file.used)
        runner = web.AppRunner(face.app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        sock = _listen(self.port)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        await web.SockSite(runner, sock).start()
        bot = BotProcess(self.emu, self.db_path, self.clock.path)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, stop.set)
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
            if self._save_handle is not None:
                self._save_handle.cancel()
            self._save()
            await face.close_clients()
            await runner.cleanup()
            await self.emu.stop()
            print(f"Sandbox stopped; everything is kept in {self.data}/ for next time.", flush=True)
        return status
