"""The bot, started as `python -m bot` in its own process exactly as with a real token.

Only the environment differs: the emulator's URLs and token, the sandbox database, the clock
file, and a short reminder check. The child gets its own session so that the terminal's Ctrl-C
reaches only the sandbox, which then stops the bot first (one SIGINT: the bot finishes running
commands and closes its database) while the emulator is still there to say goodbye to.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path

from emulator import DiscordEmulator

from .activity import handed_down

# Environment variables the bot reads from .env as well; the sandbox sets every one, so a real
# token or database in .env never reaches the sandbox's bot (load_dotenv does not override).
BOT_ENV = (
    "DISCORD_TOKEN",
    "DISCORD_API_BASE_URL",
    "DISCORD_GATEWAY_URL",
    "HEXPLAY_DB_PATH",
    "HEXPLAY_DATABASE_URL",
    "HEXPLAY_DEV_GUILD_IDS",
    "HEXPLAY_REMINDER_CHECK_SECONDS",
    "HEXPLAY_CLOCK_OFFSET_FILE",
    "HEXPLAY_LOG_LEVEL",
    "HEXPLAY_ACTIVITY_PORT",
    "HEXPLAY_ACTIVITY_FD",
    "HEXPLAY_ACTIVITY_HOST",
    "HEXPLAY_ACTIVITY_PAGE",
    "DISCORD_CLIENT_SECRET",
)


def _die_with_parent() -> None:
    """Linux: the bot gets SIGTERM if the sandbox dies without stopping it (e.g. SIGKILL)."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class BotProcess:
    def __init__(
        self,
        emu: DiscordEmulator,
        db_path: Path,
        clock_file: Path,
        *,
        log_level: str = "WARNING",
        reminder_check_seconds: float = 2.0,
        activity_socket: socket.socket | None = None,
    ) -> None:
        self.emu = emu
        # the bot's Activity server (the sandbox page proxies to it), on a socket the sandbox holds and hands down
        self.activity_socket = activity_socket
        self.activity_port = None if activity_socket is None else int(activity_socket.getsockname()[1])
        self.env = {
            **os.environ,
            "DISCORD_TOKEN": emu.bot_token,
            "DISCORD_API_BASE_URL": emu.api_base_url,
            "DISCORD_GATEWAY_URL": emu.gateway_url,
            "HEXPLAY_DB_PATH": str(db_path),
            "HEXPLAY_DATABASE_URL": "",  # the sandbox plays on its own SQLite file, never the real bot's server
            "HEXPLAY_DEV_GUILD_IDS": "",
            "HEXPLAY_REMINDER_CHECK_SECONDS": str(reminder_check_seconds),
            "HEXPLAY_CLOCK_OFFSET_FILE": str(clock_file),
            "HEXPLAY_LOG_LEVEL": os.environ.get("HEXPLAY_SANDBOX_BOT_LOG_LEVEL", log_level),
            **(
                handed_down(activity_socket)
                if activity_socket
                else {"HEXPLAY_ACTIVITY_PORT": "", "HEXPLAY_ACTIVITY_FD": ""}
            ),
            "HEXPLAY_ACTIVITY_HOST": "127.0.0.1",
            "HEXPLAY_ACTIVITY_PAGE": "",
            "DISCORD_CLIENT_SECRET": emu.client_secret if activity_socket else "",
            "PYTHONUNBUFFERED": "1",
        }
        self.process: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=self.env,
            start_new_session=True,
            preexec_fn=_die_with_parent,
            pass_fds=() if self.activity_socket is None else (self.activity_socket.fileno(),),
        )

    async def wait_connected(self, timeout: float = 60.0) -> None:
        """Until the bot is connected, or raise if it exited or took too long."""
        assert self.process is not None
        ready = asyncio.create_task(self.emu.gateway.wait_ready(timeout))
        exited = asyncio.create_task(self.process.wait())
        done, _ = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        for task in (ready, exited):
            task.cancel()
        if exited in done:
            raise RuntimeError(
                f"the bot exited during start-up (status {self.process.returncode}); see its messages above"
            )
        if not ready.result():
            raise RuntimeError(f"the bot did not connect within {timeout:g}s")

    async def stop(self, timeout: float = 15.0) -> int | None:
        """SIGINT (what Ctrl-C does to `make run` with a token), then SIGKILL if it hangs."""
        process = self.process
        if process is None or process.returncode is not None:
            return None if process is None else process.returncode
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGINT)
        try:
            return await asyncio.wait_for(process.wait(), timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            return await process.wait()
