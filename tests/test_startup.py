"""Start-up and configuration: a bad database or setting stops the bot at once with one clear line."""

from __future__ import annotations

import logging
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.config import Settings
from bot.domain.errors import StoreUnavailable
from bot.redact import RedactTokens, redact
from bot.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[1]


def run_bot(tmp_path: Path, db: Path, **env: str) -> tuple[subprocess.CompletedProcess, float]:
    environment = {
        **os.environ,
        "DISCORD_TOKEN": "x",
        "HEXPLAY_DB_PATH": str(db),
        "PYTHONPATH": str(ROOT),
        "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10",
        **env,
    }
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=30
    )
    return done, time.monotonic() - started


def test_a_corrupt_database_exits_at_once_with_one_clear_line(tmp_path):
    db = tmp_path / "hexplay.sqlite3"
    db.write_bytes(b"this is not a database\n" * 500)
    done, seconds = run_bot(tmp_path, db)
    assert done.returncode == 1 and seconds < 15
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "is not a SQLite database or is damaged" in lines[0], done.stderr
    assert "restore a backup" in lines[0]


def _make_read_only(path: Path) -> bool:
    if os.geteuid() != 0:
        path.chmod(0o400)
        path.parent.chmod(0o500)
        return True
    chattr = shutil.which("chattr")  # root ignores permission bits; an immutable file is read-only even for root
    return chattr is not None and subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode == 0


def _undo_read_only(path: Path) -> None:
    path.parent.chmod(0o700)
    if shutil.which("chattr"):
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)


async def test_a_read_only_database_is_refused_at_start(tmp_path):
    db = tmp_path / "data" / "hexplay.sqlite3"
    store = await SqliteStore.open(db)
    await store.close()
    if not _make_read_only(db):
        pytest.skip("cannot make a file read-only here")
    try:
        with pytest.raises(StoreUnavailable, match="read-only"):
            await SqliteStore.open(db)
        done, seconds = run_bot(tmp_path, db)
        assert done.returncode == 1 and seconds < 15 and "is read-only" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    finally:
        _undo_read_only(db)


async def test_database_files_are_private(tmp_path):
    db = tmp_path / "data" / "hexplay.sqlite3"
    store = await SqliteStore.open(db)
    try:
        await store.set_preferences(1, 2, await store.get_preferences(1, 2))  # a write: the -wal file exists
        assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600, path
    finally:
        await store.close()


@pytest.mark.parametrize(
    "name,value",
    [
        ("HEXPLAY_REMINDER_HOURS", "nan"),
        ("HEXPLAY_REMINDER_HOURS", "0"),
        ("HEXPLAY_REMINDER_HOURS", "-3"),
        ("HEXPLAY_REMINDER_HOURS", "inf"),
        ("HEXPLAY_REMINDER_HOURS", "soon"),
        ("HEXPLAY_REMINDER_CHECK_SECONDS", "0"),
        ("HEXPLAY_REMINDER_CHECK_SECONDS", "-1"),
        ("HEXPLAY_REMINDER_CHECK_SECONDS", "nan"),
        ("HEXPLAY_COMPUTER_PROCESSES", "0"),
        ("HEXPLAY_COMPUTER_PROCESSES", "0.5"),
        ("HEXPLAY_COMPUTER_PROCESSES", "17"),
        ("HEXPLAY_COMPUTER_PROCESSES", "two"),
    ],
)
def test_bad_settings_are_refused_with_the_variable_named(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as refused:
        Settings.from_env()
    assert name in str(refused.value) and repr(value) in str(refused.value)


# Every numeric setting against one table of bad values: Unicode digits (``"²".isdigit()`` is True but int()
# fails; float() reads Arabic-Indic digits), values below the setting's floor (a check interval of 1e-300 s
# would spin the timer loop), numbers Python reads but people do not write (``1_0``, ``0x10``), and junk.
NOT_NUMBERS = ["²", "١٢", "٣", "１２", "1_0", "0x10", "½", "12 h", "nan", "-inf", "1e400", "", "  ", "+"]
BAD_VALUES = {
    "HEXPLAY_REMINDER_HOURS": NOT_NUMBERS + ["0", "1e-300", "0.5", "-3", "337", "inf"],
    "HEXPLAY_REMINDER_CHECK_SECONDS": NOT_NUMBERS + ["0", "1e-300", "0.999", "-1", "86401", "9" * 5000],
    "HEXPLAY_VACATION_DAYS": NOT_NUMBERS + ["0", "1e-300", "0.5", "366"],
    "HEXPLAY_RENDER_PROCESSES": NOT_NUMBERS + ["-1", "9", "1.0", "1e0"],
    "HEXPLAY_COMPUTER_PROCESSES": NOT_NUMBERS + ["0", "17", "1.5", "1e1", "9" * 5000],
    "HEXPLAY_DEV_GUILD_IDS": ["²", "١٢", "12,²", "12,x", "-5", "0", "1.5", "99999999999999999999999", "9" * 5000],
}


@pytest.mark.parametrize(
    "name,value",
    [
        (name, value)
        for name, values in BAD_VALUES.items()
        for value in values
        if not (value.strip() == "" and name != "HEXPLAY_DEV_GUILD_IDS")
    ],
)
def test_every_numeric_setting_refuses_bad_values_in_one_line(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as refused:
        Settings.from_env()
    message = str(refused.value)
    assert message.startswith(name) and "\n" not in message and len(message) < 200, message


@pytest.mark.parametrize(
    "name,value,attribute,expected",
    [
        ("HEXPLAY_REMINDER_HOURS", "1", "reminder_hours", 1.0),
        ("HEXPLAY_REMINDER_HOURS", "336", "reminder_hours", 336.0),
        ("HEXPLAY_REMINDER_HOURS", " 2.5e1 ", "reminder_hours", 25.0),
        ("HEXPLAY_REMINDER_CHECK_SECONDS", "1", "reminder_check_seconds", 1.0),
        ("HEXPLAY_REMINDER_CHECK_SECONDS", "", "reminder_check_seconds", 60.0),
        ("HEXPLAY_VACATION_DAYS", "1", "vacation_days", 1.0),
        ("HEXPLAY_VACATION_DAYS", "365", "vacation_days", 365.0),
        ("HEXPLAY_RENDER_PROCESSES", "0", "render_processes", 0),
        ("HEXPLAY_RENDER_PROCESSES", "8", "render_processes", 8),
        ("HEXPLAY_COMPUTER_PROCESSES", "16", "computer_processes", 16),
        ("HEXPLAY_DEV_GUILD_IDS", " 12, 34 ,", "dev_guild_ids", [12, 34]),
    ],
)
def test_numeric_settings_at_their_bounds_are_kept(monkeypatch, name, value, attribute, expected):
    monkeypatch.setenv(name, value)
    assert getattr(Settings.from_env(), attribute) == expected


def test_good_settings_are_kept(monkeypatch):
    monkeypatch.setenv("HEXPLAY_REMINDER_HOURS", "12.5")
    monkeypatch.setenv("HEXPLAY_REMINDER_CHECK_SECONDS", "30")
    monkeypatch.setenv("HEXPLAY_COMPUTER_PROCESSES", "2")
    settings = Settings.from_env()
    assert (settings.reminder_hours, settings.reminder_check_seconds) == (12.5, 30.0)
    assert settings.computer_processes == 2


def _refusal(monkeypatch, name: str, value: str) -> str:
    """The one line ``Settings.from_env`` stops with when ``name`` is ``value``."""
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as refused:
        Settings.from_env()
    message = str(refused.value)
    assert message.startswith(name) and "\n" not in message and len(message) < 300, message
    return message


@pytest.mark.parametrize("value", ["verbose", "10", "debug2", "INFO,DEBUG", "warn ing", "²"])
def test_a_log_level_that_is_not_one_is_refused_in_one_line(monkeypatch, value):
    message = _refusal(monkeypatch, "HEXPLAY_LOG_LEVEL", value)
    assert (
        message.startswith("HEXPLAY_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        and repr(value) in message
    )


@pytest.mark.parametrize(("value", "level"), [("", "INFO"), (" debug ", "DEBUG"), ("Warning", "WARNING")])
def test_log_levels_are_read_in_any_case(monkeypatch, value, level):
    monkeypatch.setenv("HEXPLAY_LOG_LEVEL", value)
    assert Settings.from_env().log_level == level


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DISCORD_API_BASE_URL", "not a url"),
        ("DISCORD_API_BASE_URL", "ftp://discord.example/api"),
        ("DISCORD_API_BASE_URL", "http://"),
        ("DISCORD_API_BASE_URL", "http://host:port/api"),
        ("DISCORD_API_BASE_URL", "http://host:99999/api"),
        ("DISCORD_API_BASE_URL", "https://exa mple.com/api"),
        ("DISCORD_API_BASE_URL", "discord.com/api/v10"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg"),
        ("DISCORD_GATEWAY_URL", "wss://"),
    ],
)
def test_a_discord_url_that_cannot_be_one_is_refused_in_one_line(monkeypatch, name, value):
    message = _refusal(monkeypatch, name, value)
    assert message.startswith(f"{name} must be a ") and repr(value) in message, message


def test_discord_urls_as_the_emulator_and_a_proxy_give_them_are_kept(monkeypatch):
    monkeypatch.setenv("DISCORD_API_BASE_URL", "http://127.0.0.1:8123/api/v10")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "wss://gateway.example:443/")
    settings = Settings.from_env()
    assert (settings.api_base_url, settings.gateway_url) == (
        "http://127.0.0.1:8123/api/v10",
        "wss://gateway.example:443/",
    )


def test_a_bad_discord_url_or_an_unreachable_discord_stops_the_start_in_one_line(tmp_path):
    done, _ = run_bot(tmp_path, tmp_path / "db.sqlite3", DISCORD_API_BASE_URL="not a url")
    assert done.returncode == 1 and done.stderr.strip().splitlines() == [
        "DISCORD_API_BASE_URL must be a http:// or https:// URL with a host, such as https://discord.com/api/v10, "
        "not 'not a url'"
    ], done.stderr
    # a closed port: nothing answers (WARNING: without discord.py's INFO line "logging in using static token")
    done, _ = run_bot(tmp_path, tmp_path / "db.sqlite3", HEXPLAY_LOG_LEVEL="WARNING")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert lines[0].startswith("Hexplay cannot start: cannot reach Discord at http://127.0.0.1:9/api/v10 (")
    assert "DISCORD_API_BASE_URL" in lines[0]


def _offset_file_refusal(monkeypatch, path: Path) -> str:
    return _refusal(monkeypatch, "HEXPLAY_CLOCK_OFFSET_FILE", str(path))


@pytest.mark.parametrize("content", ["soon", "-5", "nan", "inf", "1e400", "4e9", "12 h", "١٢", "9" * 100])
def test_a_clock_offset_file_that_holds_no_number_of_seconds_is_refused(tmp_path, monkeypatch, content):
    offset = tmp_path / "sandbox.clock"
    offset.write_text(content, encoding="utf-8")
    assert "must hold a number of seconds" in _offset_file_refusal(monkeypatch, offset)


def test_a_clock_offset_file_that_cannot_be_one_is_refused(tmp_path, monkeypatch):
    assert "not a folder or a device" in _offset_file_refusal(monkeypatch, tmp_path)
    assert "not a folder or a device" in _offset_file_refusal(monkeypatch, Path("/dev/null"))
    assert "does not exist" in _offset_file_refusal(monkeypatch, tmp_path / "gone" / "sandbox.clock")
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe1")
    assert "must hold a number of seconds" in _offset_file_refusal(monkeypatch, binary)


def test_a_clock_offset_file_the_sandbox_writes_or_has_not_written_yet_is_kept(tmp_path, monkeypatch):
    offset = tmp_path / "sandbox.clock"
    monkeypatch.setenv("HEXPLAY_CLOCK_OFFSET_FILE", str(offset))
    assert Settings.from_env().clock_offset_file == str(offset)  # not written yet: no offset until it is
    for content in ("", "86400.0", "0", " 3600 \n"):
        offset.write_text(content, encoding="utf-8")
        assert Settings.from_env().clock_offset_file == str(offset)


def test_interaction_tokens_are_redacted_from_logs():
    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZg.x-Y_z"
    url = f"https://discord.com/api/v10/interactions/123456789/{token}/callback"
    record = logging.LogRecord(
        "discord.http", logging.DEBUG, __file__, 1, "%s %s with %s has returned %s", ("POST", url, None, 204), None
    )
    RedactTokens().filter(record)
    assert token not in record.getMessage() and "/interactions/123456789/<token>/callback" in record.getMessage()
    event = {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": token, "data": {"name": "move"}}}
    assert token not in redact(str(event)) and token not in redact(f"/webhooks/42/{token}/messages/@original")
    assert "move" in redact(str(event))


def test_no_token_in_a_debug_log_of_the_real_bot(tmp_path):
    """`python -m bot` at DEBUG against the emulator: the handshake and an interaction leave no token."""
    pytest.importorskip("emulator")
    log_text = _debug_run(tmp_path)
    assert "INTERACTION_CREATE" in log_text and "/callback" in log_text
    assert not re.search(r"/interactions/\d+/(?!<token>)[A-Za-z0-9_.\-]{20,}", log_text)
    assert not re.search(r"""['"]token['"]\s*:\s*['"](?!<token>)""", log_text)


def _debug_run(tmp_path: Path) -> str:
    import asyncio

    from emulator import DiscordEmulator

    async def scenario() -> str:
        emu = DiscordEmulator(bot_token="t0ken")
        await emu.start()
        guild = emu.create_guild("G")
        channel = emu.create_text_channel(guild, "games")
        user = emu.create_user("alice")
        env = {
            **os.environ,
            "DISCORD_TOKEN": "t0ken",
            "DISCORD_API_BASE_URL": emu.api_base_url,
            "DISCORD_GATEWAY_URL": emu.gateway_url,
            "HEXPLAY_DEV_GUILD_IDS": str(guild.id),
            "HEXPLAY_DB_PATH": str(tmp_path / "db.sqlite3"),
            "HEXPLAY_LOG_LEVEL": "DEBUG",
            "PYTHONPATH": str(ROOT),
        }
        log_path = tmp_path / "bot.log"
        with open(log_path, "w") as sink:
            process = subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, stderr=sink, stdout=sink)
            try:
                await emu.wait_until_ready(timeout=20)
                for _ in range(100):
                    if emu.commands(guild):
                        break
                    await asyncio.sleep(0.1)
                answered = await emu.invoke(user, channel, "games", {}, timeout=10)
                assert answered.ephemeral, answered.text
                await asyncio.sleep(0.3)
            finally:
                process.terminate()
                process.wait(10)
                await emu.stop()
        return log_path.read_text()

    return asyncio.run(scenario())
