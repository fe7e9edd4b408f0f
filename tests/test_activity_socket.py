"""The Activity's server on a listening socket handed down by the process that starts the bot (HEXPLAY_ACTIVITY_FD).

The sandbox used to find a free port and give the bot its number; any other process (an outgoing connection's
own port too) could take it before the bot listened, and the bot then exited at start-up ("the bot exited during
start-up (status 1)", seen once in the browser tests under load). Now the sandbox holds the listening socket and
hands it down, and a bot it starts again serves the same one.
"""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

import aiohttp
import pytest

from bot.config import Settings
from bot.domain.errors import CannotListen
from bot.web.live import LiveHub
from bot.web.server import ActivityServer
from emulator import DiscordEmulator
from sandbox.activity import handed_down, listening_socket
from sandbox.botprocess import BOT_ENV, BotProcess


class ClosedAccess:
    """What ActivityServer.stop asks of its access (the pages' requests are not what these tests send)."""

    async def close(self) -> None:
        return None


async def no_versions(match_ids: list[int]) -> dict[int, int]:
    return {}


def server_on(fd: int, port: int, page_dir: Path | None = None) -> ActivityServer:
    return ActivityServer(
        ClosedAccess(),  # type: ignore[arg-type]
        LiveHub(no_versions),
        host="127.0.0.1",
        port=port,
        page_dir=page_dir,
        inherited_fd=fd,
    )


def test_the_port_held_by_the_sandbox_cannot_be_taken_before_the_bot_listens() -> None:
    held = listening_socket()
    try:
        port = held.getsockname()[1]
        with socket.socket() as other, pytest.raises(OSError) as taken:
            other.bind(("127.0.0.1", port))
        assert taken.value.errno == errno.EADDRINUSE
        assert handed_down(held) == {"HEXPLAY_ACTIVITY_PORT": str(port), "HEXPLAY_ACTIVITY_FD": str(held.fileno())}
    finally:
        held.close()


async def test_the_server_answers_on_the_socket_handed_down(tmp_path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>board</title>")
    held = listening_socket()
    port = held.getsockname()[1]
    server = server_on(os.dup(held.fileno()), port, tmp_path)  # (the bot process has its own copy of the fd)
    try:
        assert await server.start() == port
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/") as answer:
            assert answer.status == 200 and "board" in await answer.text()
    finally:
        await server.stop(0.1)
        held.close()


async def test_a_descriptor_that_is_not_a_listening_socket_is_refused_in_one_line() -> None:
    read, write = os.pipe()
    bound = socket.socket()
    bound.bind(("127.0.0.1", 0))  # bound but not listening
    try:
        for fd, says in (
            (read, f"HEXPLAY_ACTIVITY_FD {read} is not a socket"),
            (bound.fileno(), f"HEXPLAY_ACTIVITY_FD {bound.fileno()} is not a listening TCP socket"),
        ):
            with pytest.raises(CannotListen) as refused:
                await server_on(fd, 0).start()
            assert str(refused.value).startswith(says) and "\n" not in str(refused.value), refused.value
            os.fstat(fd)  # left open: not the server's to close
    finally:
        os.close(read)
        os.close(write)
        bound.close()


async def test_a_socket_on_another_port_than_the_one_set_is_refused() -> None:
    held = listening_socket()
    try:
        port = held.getsockname()[1]
        wrong = 1 if port != 1 else 2
        with pytest.raises(CannotListen, match=f"listens on port {port}, not HEXPLAY_ACTIVITY_PORT {wrong}"):
            await server_on(held.fileno(), wrong).start()
        assert held.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)  # still open and listening
    finally:
        held.close()


def test_the_handed_down_socket_setting(monkeypatch) -> None:
    monkeypatch.setenv("HEXPLAY_ACTIVITY_PORT", "8090")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "s3cr3t-value")
    monkeypatch.setenv("HEXPLAY_ACTIVITY_FD", " 7 ")
    settings = Settings.from_env()
    settings.check_activity()
    assert (settings.activity_port, settings.activity_socket_fd) == (8090, 7)
    monkeypatch.delenv("HEXPLAY_ACTIVITY_FD")
    assert Settings.from_env().activity_socket_fd is None


@pytest.mark.parametrize("raw", ["seven", "-1", "2", "0", "7.5", "9" * 30, "²"])
def test_a_bad_handed_down_socket_is_refused_in_one_line(monkeypatch, raw) -> None:
    monkeypatch.setenv("HEXPLAY_ACTIVITY_FD", raw)
    with pytest.raises(SystemExit) as refused:
        Settings.from_env()
    message = str(refused.value)
    assert message.startswith("HEXPLAY_ACTIVITY_FD must be the number of a socket") and "\n" not in message, message


def test_a_handed_down_socket_without_its_port_is_refused(monkeypatch) -> None:
    monkeypatch.delenv("HEXPLAY_ACTIVITY_PORT", raising=False)
    monkeypatch.setenv("HEXPLAY_ACTIVITY_FD", "7")
    with pytest.raises(SystemExit, match="HEXPLAY_ACTIVITY_FD needs HEXPLAY_ACTIVITY_PORT"):
        Settings.from_env().check_activity()


def test_the_sandboxs_bot_gets_every_setting_it_reads_from_dot_env_and_its_socket(tmp_path) -> None:
    """The sandbox sets every one of BOT_ENV (a real token, database or Activity socket in .env never reaches
    its bot: load_dotenv does not override), and hands the bot its Activity's socket by number."""
    emu = DiscordEmulator()
    held = listening_socket()
    try:
        for bot in (
            BotProcess(emu, tmp_path / "db", tmp_path / "clock"),
            BotProcess(emu, tmp_path / "db", tmp_path / "clock", activity_socket=held),
        ):
            assert all(name in bot.env for name in BOT_ENV), [name for name in BOT_ENV if name not in bot.env]
        assert bot.env["HEXPLAY_ACTIVITY_FD"] == str(held.fileno()) and bot.activity_port == held.getsockname()[1]
    finally:
        held.close()
