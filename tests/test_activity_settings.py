"""The Activity's settings (bot/config.py): bounds, the loopback default, the client secret kept out of sight."""

from __future__ import annotations

import pytest

from bot.config import Settings


def test_the_activity_is_off_unless_its_port_is_set(monkeypatch) -> None:
    for name in ("HEXPLAY_ACTIVITY_PORT", "HEXPLAY_ACTIVITY_HOST", "DISCORD_CLIENT_SECRET", "HEXPLAY_ACTIVITY_PAGE"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings.from_env()
    assert (settings.activity_port, settings.activity_host, settings.client_secret) == (None, "127.0.0.1", "")
    settings.check_activity()  # off: nothing to check


def test_a_configured_activity_keeps_its_settings_and_hides_the_secret(monkeypatch) -> None:
    monkeypatch.setenv("HEXPLAY_ACTIVITY_PORT", "8080")
    monkeypatch.setenv("HEXPLAY_ACTIVITY_HOST", "::1")
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "s3cr3t-value")
    settings = Settings.from_env()
    settings.check_activity()
    assert (settings.activity_port, settings.activity_host, settings.client_secret) == (8080, "::1", "s3cr3t-value")
    assert "s3cr3t-value" not in repr(settings)


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("HEXPLAY_ACTIVITY_PORT", "65536", "HEXPLAY_ACTIVITY_PORT must be a port number"),
        ("HEXPLAY_ACTIVITY_PORT", "http", "HEXPLAY_ACTIVITY_PORT must be a port number"),
        ("HEXPLAY_ACTIVITY_HOST", "http://example.com/", "HEXPLAY_ACTIVITY_HOST must be an IP address"),
        ("HEXPLAY_ACTIVITY_HOST", "a b", "HEXPLAY_ACTIVITY_HOST must be an IP address"),
        ("DISCORD_CLIENT_SECRET", "has space", "DISCORD_CLIENT_SECRET must be the secret"),
        ("DISCORD_CLIENT_SECRET", "x" * 300, "DISCORD_CLIENT_SECRET must be the secret"),
    ],
)
def test_bad_activity_settings_are_refused_in_one_line(monkeypatch, name, value, said) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as refused:
        Settings.from_env()
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)
    if name == "DISCORD_CLIENT_SECRET":
        assert value not in str(refused.value)  # a secret is never echoed


def test_a_port_without_the_client_secret_is_refused(monkeypatch) -> None:
    monkeypatch.setenv("HEXPLAY_ACTIVITY_PORT", "8080")
    monkeypatch.delenv("DISCORD_CLIENT_SECRET", raising=False)
    with pytest.raises(SystemExit, match="HEXPLAY_ACTIVITY_PORT needs DISCORD_CLIENT_SECRET"):
        Settings.from_env().check_activity()
