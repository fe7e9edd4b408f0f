"""``python -m sandbox`` (what ``make run`` starts): the bot on Discord with a token, else the sandbox."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

from .runner import DEFAULT_PORT, Layout, SandboxRunner


def _has_token() -> bool:
    if os.environ.get("DISCORD_TOKEN", "").strip():
        return True
    env = Path(".env")
    if env.is_file():
        for line in env.read_text(encoding="utf-8").splitlines():
            key, _, value = line.strip().partition("=")
            if key.strip() == "DISCORD_TOKEN" and value.strip().strip("'\""):
                return True
    return False


def _port(text: str) -> int:
    """A TCP port (HEXPLAY_SANDBOX_PORT, --port): ASCII digits, 0 (any free one) to 65535, else one clear line."""
    raw = text.strip()
    if not (raw.isascii() and raw.isdigit() and int(raw) <= 65535):
        raise SystemExit(
            f"HEXPLAY_SANDBOX_PORT (or --port) must be a port number from 0 (any free port) to 65535, not {text!r}"
        )
    return int(raw)


def _positive(option: str, most: int, allow_zero: bool = False) -> Callable[[str], int]:
    """A whole number for ``option`` (1, or 0 if allowed, to ``most``), else one clear line."""
    least = 0 if allow_zero else 1

    def read(text: str) -> int:
        raw = text.strip()
        if not (raw.isascii() and raw.isdigit() and least <= int(raw) <= most):
            raise SystemExit(f"{option} must be a whole number from {least} to {most}, not {text!r}")
        return int(raw)

    return read


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox", description=__doc__)
    parser.add_argument("--sandbox", action="store_true", help="run the sandbox even if DISCORD_TOKEN is set")
    parser.add_argument(
        "--port",
        type=_port,
        default=_port(os.environ.get("HEXPLAY_SANDBOX_PORT") or str(DEFAULT_PORT)),
        help=f"web page port on 127.0.0.1 (default {DEFAULT_PORT}; a free one if taken)",
    )
    parser.add_argument(
        "--data",
        default=os.environ.get("HEXPLAY_SANDBOX_DATA", "./data"),
        help="folder for sandbox.sqlite3 and the sandbox's Discord world (default ./data)",
    )
    parser.add_argument(
        "--guilds", type=_positive("--guilds", 100), default=1, help="servers, each with #games (default 1)"
    )
    parser.add_argument(
        "--bot-processes",
        type=_positive("--bot-processes", 16),
        default=1,
        help="bot processes, each a range of the gateway shards (above 1: --database-url)",
    )
    parser.add_argument(
        "--workers",
        type=_positive("--workers", 16, allow_zero=True),
        default=0,
        help="computer-player workers, python -m bot worker (--database-url)",
    )
    parser.add_argument(
        "--shards",
        type=_positive("--shards", 64),
        default=None,
        help="gateway shards in all (default: one per bot process)",
    )
    parser.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL database for the bot processes and workers (postgresql://user:password@host:port/db); "
        "without it, one bot process on data/sandbox.sqlite3",
    )
    args = parser.parse_args()
    if _has_token() and not args.sandbox:
        # With a token this is `make run` as it always was: the bot alone, on Discord.
        os.execv(sys.executable, [sys.executable, "-m", "bot"])
    layout = Layout(args.guilds, args.bot_processes, args.workers, args.database_url.strip(), args.shards)
    layout.check()
    runner = SandboxRunner(Path(args.data), args.port, layout)
    try:
        return asyncio.run(runner.run())
    except KeyboardInterrupt:  # a second Ctrl-C during shutdown
        return 130


if __name__ == "__main__":
    sys.exit(main())
