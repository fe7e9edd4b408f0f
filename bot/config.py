"""Settings from the environment and an optional .env file."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

TOKEN_HELP = """\
No Discord bot token found.

Hexplay needs a bot token in DISCORD_TOKEN (in the environment or in a .env file):
  1. Open https://discord.com/developers/applications and create an application
     (or pick yours).
  2. Open "Bot", press "Reset Token", and copy the token.
  3. cp .env.example .env   and put the token after DISCORD_TOKEN=
  4. Invite the bot with the link from README.md ("Invite the bot"), then run `make run` again.

Without a token, `make run` opens the sandbox: a local imitation of Discord in your browser.
"""


def load_dotenv(path: str | Path = ".env") -> None:
    """Read KEY=VALUE lines into os.environ without overriding what is already set."""
    path = Path(path)
    if not path.is_file():
        return
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip().strip('"').strip("'")
        os.environ.setdefault(key.strip(), value)


def _float(name: str, default: float, low: float, high: float, unit: str) -> float:
    """A number from the environment within (low, high]: nan, inf, zero or negative are refused clearly."""
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise SystemExit(f"{name} must be a number of {unit}, not {raw!r}") from None
    if not math.isfinite(value) or not low < value <= high:
        raise SystemExit(f"{name} must be more than {low:g} and at most {high:g} {unit}, not {raw!r}")
    return value


def _count(name: str, default: int, low: int, high: int, unit: str) -> int:
    """A whole number from the environment, ``low`` to ``high``: fractions, out-of-range values and words are refused clearly."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise SystemExit(f"{name} must be a whole number of {unit} from {low} to {high}, not {raw!r}")
    return int(raw)


@dataclass
class Settings:
    token: str = ""
    db_path: str = "./data/hexplay.sqlite3"
    dev_guild_ids: list[int] = field(default_factory=list)
    reminder_hours: float = 24.0
    reminder_check_seconds: float = 60.0
    vacation_days: float = 30.0  # vacation days each player may take in any 365 days
    log_level: str = "INFO"
    api_base_url: str = ""
    gateway_url: str = ""
    clock_offset_file: str = ""
    # Worker processes drawing board pictures (0: a thread of the bot's process). `python -m bot` uses 1:
    # the picture is drawn on the second core while the event loop serves the next interaction.
    render_processes: int = 0
    computer_processes: int = 1  # processes the computer thinks in (each one search at a time)

    @classmethod
    def from_env(cls) -> "Settings":
        guilds = []
        for part in os.environ.get("HEXPLAY_DEV_GUILD_IDS", "").replace(" ", "").split(","):
            if part:
                if not part.isdigit():
                    raise SystemExit(f"HEXPLAY_DEV_GUILD_IDS must list numeric ids, not {part!r}")
                guilds.append(int(part))
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip(),
            db_path=os.environ.get("HEXPLAY_DB_PATH", "").strip() or "./data/hexplay.sqlite3",
            dev_guild_ids=guilds,
            reminder_hours=_float("HEXPLAY_REMINDER_HOURS", 24.0, 0, 24 * 14, "hours"),
            reminder_check_seconds=_float("HEXPLAY_REMINDER_CHECK_SECONDS", 60.0, 0, 24 * 3600, "seconds"),
            vacation_days=_float("HEXPLAY_VACATION_DAYS", 30.0, 0, 365, "days"),
            log_level=os.environ.get("HEXPLAY_LOG_LEVEL", "INFO").strip().upper() or "INFO",
            api_base_url=os.environ.get("DISCORD_API_BASE_URL", "").strip(),
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL", "").strip(),
            clock_offset_file=os.environ.get("HEXPLAY_CLOCK_OFFSET_FILE", "").strip(),
            render_processes=_count("HEXPLAY_RENDER_PROCESSES", 1, 0, 8, "processes"),
            computer_processes=_count("HEXPLAY_COMPUTER_PROCESSES", 1, 1, 16, "processes"),
        )
