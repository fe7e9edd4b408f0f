"""Settings from the environment and an optional .env file."""

from __future__ import annotations

import ipaddress
import math
import os
import re
import stat
import urllib.parse
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


# Plain ASCII numbers only: float() and int() also read Arabic-Indic or full-width digits and "1_0", and
# str.isdigit() says yes to "²", which int() then refuses with a traceback instead of a clear line.
_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_WHOLE = re.compile(r"\d{1,20}", re.ASCII)  # a bound: int() refuses 4,300 digits with a traceback


def _shown(raw: str) -> str:
    """The refused value, quoted and short: the message stays one readable line."""
    return repr(raw) if len(raw) <= 40 else f"{raw[:40]!r}… ({len(raw)} characters)"


def _float(name: str, default: float, low: float, high: float, unit: str) -> float:
    """A number from the environment, ``low`` to ``high``: words, nan, inf and out-of-range values are refused."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not _DECIMAL.fullmatch(raw):
        raise SystemExit(f"{name} must be a number of {unit} from {low:g} to {high:g}, not {_shown(raw)}")
    value = float(raw)
    if not math.isfinite(value) or not low <= value <= high:
        raise SystemExit(f"{name} must be from {low:g} to {high:g} {unit}, not {_shown(raw)}")
    return value


def _count(name: str, default: int, low: int, high: int, unit: str) -> int:
    """A whole number from the environment, ``low`` to ``high``; fractions, out-of-range values and words
    are refused clearly."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not _WHOLE.fullmatch(raw) or not low <= int(raw) <= high:
        raise SystemExit(f"{name} must be a whole number of {unit} from {low} to {high}, not {_shown(raw)}")
    return int(raw)


def _port(name: str) -> int | None:
    """A TCP port to listen on, 1 to 65535; unset or 0: None (off)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if not _WHOLE.fullmatch(raw) or not 0 <= int(raw) <= 65535:
        raise SystemExit(f"{name} must be a port number from 1 to 65535 (0 or unset: off), not {_shown(raw)}")
    return int(raw) or None


def _inherited_socket(name: str) -> int | None:
    """The file descriptor of a listening socket handed down by the process that started this one; unset: None."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if not _WHOLE.fullmatch(raw) or not 3 <= int(raw) <= 65535:
        raise SystemExit(
            f"{name} must be the number of a socket handed down to this process (3 or above), not {_shown(raw)}"
        )
    return int(raw)


# A host name as DNS writes it (letters, digits, hyphens, dot-separated labels), or an IP address.
_HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*",
    re.ASCII,
)


def _host(name: str, default: str) -> str:
    """An address to listen on: an IP address (0.0.0.0 for every interface, :: for IPv6) or a host name."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return str(ipaddress.ip_address(raw))
    except ValueError:
        pass
    if not _HOST_NAME.fullmatch(raw) or raw.replace(".", "").isdigit():
        raise SystemExit(
            f"{name} must be an IP address (such as 127.0.0.1 or 0.0.0.0) or a host name, not {_shown(raw)}"
        )
    return raw


def _ids(name: str) -> list[int]:
    """Comma-separated Discord ids (snowflakes: positive and within 64 bits)."""
    ids = []
    for part in os.environ.get(name, "").replace(" ", "").split(","):
        if not part:
            continue
        if not _WHOLE.fullmatch(part) or not 0 < int(part) < 2**64:
            raise SystemExit(f"{name} must list numeric ids, not {_shown(part)}")
        ids.append(int(part))
    return ids


def _url(name: str, schemes: tuple[str, ...], example: str) -> str:
    """An endpoint's URL: one of ``schemes`` and a host (a port, if given, a number), or one clear line."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return ""
    try:
        parts = urllib.parse.urlsplit(raw)
        usable = parts.scheme in schemes and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a port that is not a number, or out of range
        usable = False
    if not usable or any(c.isspace() for c in raw):
        kinds = " or ".join(f"{scheme}://" for scheme in schemes)
        raise SystemExit(f"{name} must be a {kinds} URL with a host, such as {example}, not {_shown(raw)}")
    return raw


_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _log_level(name: str) -> str:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return "INFO"
    if raw.upper() not in _LOG_LEVELS:
        raise SystemExit(f"{name} must be {', '.join(_LOG_LEVELS[:-1])} or {_LOG_LEVELS[-1]}, not {_shown(raw)}")
    return raw.upper()


# The sandbox's clock runs at most this far ahead (its "+1 day" control): a century keeps dates in range.
MAX_CLOCK_OFFSET_SECONDS = 100 * 365 * 86400


def _offset_file(name: str) -> str:
    """A file of seconds added to the clock (the sandbox's); it may not exist yet (no offset until written),
    but its folder must, and what it holds must be a number of seconds in range."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return ""
    path = Path(raw)
    try:
        status = path.stat()
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise SystemExit(f"{name}: the folder of {_shown(raw)} does not exist") from None
        return raw
    except OSError as error:
        raise SystemExit(f"{name}: cannot read {_shown(raw)} ({error.strerror or error})") from None
    if not stat.S_ISREG(status.st_mode):
        raise SystemExit(f"{name} must name a file of seconds, not a folder or a device: {_shown(raw)}")
    try:
        with path.open("rb") as file:
            text = file.read(65).decode("ascii", errors="replace").strip()  # not ASCII: not a number either
    except OSError as error:
        raise SystemExit(f"{name}: cannot read {_shown(raw)} ({error.strerror or error})") from None
    if text and (len(text) > 64 or not _DECIMAL.fullmatch(text) or not 0 <= float(text) <= MAX_CLOCK_OFFSET_SECONDS):
        raise SystemExit(
            f"{name}: {_shown(raw)} must hold a number of seconds from 0 to {MAX_CLOCK_OFFSET_SECONDS}, "
            f"not {_shown(text)}"
        )
    return raw


def _secret(name: str) -> str:
    """A credential: printable ASCII without spaces; never echoed in a refusal."""
    raw = os.environ.get(name, "").strip()
    if raw and (len(raw) > 256 or not all(33 <= ord(c) < 127 for c in raw)):
        raise SystemExit(
            f"{name} must be the secret as the developer portal shows it (no spaces, at most 256 characters)"
        )
    return raw


_DATABASE_SCHEMES = ("postgresql://", "postgres://", "sqlite:///")
_SWITCHES = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


def _database_url(name: str) -> str:
    """A PostgreSQL or SQLite URL; anything else is refused without echoing it (it may hold a password)."""
    raw = os.environ.get(name, "").strip()
    if raw and not raw.startswith(_DATABASE_SCHEMES):
        raise SystemExit(
            f"{name} must start with postgresql:// (postgresql://user:password@host:port/dbname) or sqlite:///"
        )
    if raw.startswith("sqlite:///") and not raw.removeprefix("sqlite:///").strip():
        # SQLite would open a temporary database, and the working folder is not a database file
        raise SystemExit(f"{name} sqlite:/// names no file: give its path, such as sqlite:///data/hexplay.sqlite3")
    return raw


def _switch(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in _SWITCHES:
        raise SystemExit(f"{name} must be on or off, not {_shown(raw)}")
    return _SWITCHES[raw]


def _shard_ids(name: str) -> list[int] | None:
    """``0-3``, ``0,2,5`` or ``0-3,8``: the shards this process runs (None: all of them)."""
    raw = os.environ.get(name, "").replace(" ", "")
    if not raw:
        return None
    ids: list[int] = []
    for part in raw.split(","):
        low, dash, high = part.partition("-")
        if not _WHOLE.fullmatch(low) or (dash and not _WHOLE.fullmatch(high)):
            raise SystemExit(f"{name} must list shard numbers such as 0-3 or 0,2,5, not {_shown(raw)}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise SystemExit(f"{name}: the range {part} runs backwards")
        ids.extend(range(first, last + 1))
    return sorted(set(ids))


@dataclass
class Settings:
    token: str = ""
    db_path: str = "./data/hexplay.sqlite3"
    # postgresql://user:password@host:port/dbname selects PostgreSQL (sqlite:///path a SQLite file); empty: db_path
    database_url: str = ""
    pool_size: int = 10  # PostgreSQL connections per bot process
    statement_cache: bool = True  # off behind pgbouncer in transaction mode (docs/storage.md)
    # Gateway shards: how many in all, and which this process runs (None: Discord's recommended count, all here)
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    identify_seconds: float = 5.0  # Discord's pause between two IDENTIFYs of one bucket (tests shorten it)
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
    # simulations per position of a post-game review (scaled per game; a CPU cap of 0.4 s a position holds
    # too): the default keeps a 60-turn two-player game under 30 CPU seconds (docs/review.md)
    review_simulations: int = 400
    # `python -m bot worker` (PostgreSQL): searches at once, and how long a job's worker may be silent before
    # another worker takes the job (docs/workers.md)
    worker_concurrency: int = 1
    worker_stale_seconds: float = 15.0
    # /healthz and /metrics of this process (bot or worker) on this port; None: not served (HEXPLAY_METRICS_PORT
    # unset or 0). Given here as 0 (tests), any free port, which the server tells.
    metrics_port: int | None = None
    # where that server listens: this machine only unless told (a container's HEXPLAY_METRICS_HOST=0.0.0.0)
    metrics_host: str = "127.0.0.1"
    # -- the Activity (issue 35, docs/activity.md): its web server in the bot process ---------------------------
    activity_port: int | None = None  # HEXPLAY_ACTIVITY_PORT; None: no Activity (0 given here: any free port)
    activity_host: str = "127.0.0.1"  # loopback: a TLS reverse proxy in front, Discord's URL mapping to it
    # HEXPLAY_ACTIVITY_FD: a listening socket on that port handed down by the process that started the bot (the
    # sandbox), served instead of binding the port: nobody can take the port between its choice and the bot's
    # start, and a bot started again serves the same one
    activity_socket_fd: int | None = None
    # the application's OAuth2 client secret (DISCORD_CLIENT_SECRET): exchanges the page's codes; never sent out
    client_secret: str = field(default="", repr=False)
    activity_page: str = ""  # the built page's folder (HEXPLAY_ACTIVITY_PAGE; empty: activity/dist of the checkout)

    def check_activity(self) -> None:
        """One clear line for an Activity that cannot work (``python -m bot`` exits with it)."""
        if self.activity_socket_fd is not None and self.activity_port is None:
            raise SystemExit("HEXPLAY_ACTIVITY_FD needs HEXPLAY_ACTIVITY_PORT, the port its socket listens on")
        if self.activity_port is not None and not self.client_secret:
            raise SystemExit(
                "HEXPLAY_ACTIVITY_PORT needs DISCORD_CLIENT_SECRET, the application's OAuth2 client secret "
                "(developer portal → OAuth2 → Client Secret): the Activity's server exchanges the page's codes with it"
            )

    def check_shards(self) -> None:
        """One clear line for a shard layout that cannot work (``python -m bot`` exits with it)."""
        if self.shard_ids is None:
            return
        if self.shard_count is None:
            raise SystemExit("HEXPLAY_SHARD_IDS needs HEXPLAY_SHARD_COUNT: the shards of how many in all?")
        beyond = [i for i in self.shard_ids if i >= self.shard_count]
        if beyond:
            raise SystemExit(
                f"HEXPLAY_SHARD_IDS names shard {beyond[0]}, but there are {self.shard_count} "
                f"(0 to {self.shard_count - 1})"
            )
        partial = len(self.shard_ids) < self.shard_count
        if partial and not self.database.startswith(("postgresql://", "postgres://")):
            raise SystemExit(
                f"this process would run {len(self.shard_ids)} of {self.shard_count} shards, and the others "
                "run in other processes, which must share one PostgreSQL database (HEXPLAY_DATABASE_URL); "
                "with SQLite, run every shard in one process (leave HEXPLAY_SHARD_IDS unset)"
            )

    @property
    def database(self) -> str:
        """Where the data is: HEXPLAY_DATABASE_URL if set, else the SQLite file at HEXPLAY_DB_PATH."""
        return self.database_url or self.db_path

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip(),
            db_path=os.environ.get("HEXPLAY_DB_PATH", "").strip() or "./data/hexplay.sqlite3",
            database_url=_database_url("HEXPLAY_DATABASE_URL"),
            pool_size=_count("HEXPLAY_DATABASE_POOL_SIZE", 10, 1, 100, "connections"),
            statement_cache=_switch("HEXPLAY_DATABASE_STATEMENT_CACHE", True),
            shard_count=_count("HEXPLAY_SHARD_COUNT", 0, 1, 100_000, "shards") or None,
            shard_ids=_shard_ids("HEXPLAY_SHARD_IDS"),
            dev_guild_ids=_ids("HEXPLAY_DEV_GUILD_IDS"),
            # the floors: the shortest delay /config and /settings accept, a timer pass at most once a second
            # (1e-300 s would spin the loop), the shortest /vacation
            reminder_hours=_float("HEXPLAY_REMINDER_HOURS", 24.0, 1, 24 * 14, "hours"),
            reminder_check_seconds=_float("HEXPLAY_REMINDER_CHECK_SECONDS", 60.0, 1, 24 * 3600, "seconds"),
            vacation_days=_float("HEXPLAY_VACATION_DAYS", 30.0, 1, 365, "days"),
            log_level=_log_level("HEXPLAY_LOG_LEVEL"),
            api_base_url=_url("DISCORD_API_BASE_URL", ("http", "https"), "https://discord.com/api/v10"),
            gateway_url=_url("DISCORD_GATEWAY_URL", ("ws", "wss"), "wss://gateway.discord.gg"),
            clock_offset_file=_offset_file("HEXPLAY_CLOCK_OFFSET_FILE"),
            render_processes=_count("HEXPLAY_RENDER_PROCESSES", 1, 0, 8, "processes"),
            computer_processes=_count("HEXPLAY_COMPUTER_PROCESSES", 1, 1, 16, "processes"),
            review_simulations=_count("HEXPLAY_REVIEW_SIMULATIONS", 400, 10, 4000, "simulations"),
            worker_concurrency=_count("HEXPLAY_WORKER_CONCURRENCY", 1, 1, 64, "searches"),
            # the floor: heartbeats go every half of it, and a search's process never holds them up
            worker_stale_seconds=_float("HEXPLAY_WORKER_STALE_SECONDS", 15.0, 1, 600, "seconds"),
            metrics_port=_port("HEXPLAY_METRICS_PORT"),
            metrics_host=_host("HEXPLAY_METRICS_HOST", "127.0.0.1"),
            activity_port=_port("HEXPLAY_ACTIVITY_PORT"),
            activity_host=_host("HEXPLAY_ACTIVITY_HOST", "127.0.0.1"),
            activity_socket_fd=_inherited_socket("HEXPLAY_ACTIVITY_FD"),
            client_secret=_secret("DISCORD_CLIENT_SECRET"),
            activity_page=os.environ.get("HEXPLAY_ACTIVITY_PAGE", "").strip(),
        )
