"""`python -m bot` (what `make run` starts)."""

import asyncio
import logging
import sys

from . import redact
from .config import TOKEN_HELP, Settings, load_dotenv
from .domain.errors import StoreUnavailable, TokenRefused

USAGE = """usage: python -m bot            run the bot (DISCORD_TOKEN, HEXPLAY_* settings: see .env.example)
       python -m bot backup FILE  copy the database to FILE, safely, even while the bot runs"""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    load_dotenv()
    if argv[:1] == ["backup"] and len(argv) == 2:
        return _backup(argv[1])
    if argv:
        print(USAGE, file=sys.stderr if argv[0] not in ("-h", "--help") else sys.stdout)
        return 0 if argv[0] in ("-h", "--help") else 2
    settings = Settings.from_env()
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    redact.install()  # discord.py logs interaction tokens at DEBUG
    if not settings.token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    from .runtime import run  # discord.py and the engines load only when the bot really starts

    try:
        asyncio.run(run(settings))
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, or SIGTERM (bot.runtime.run): a clean stop
        pass
    except StoreUnavailable as error:  # one clear line, and exit so a supervisor can act
        print(f"Hexplay cannot start: {error}.", file=sys.stderr)
        return 1
    except TokenRefused:  # a clear line, not a traceback
        print(
            "Discord refused the token in DISCORD_TOKEN: reset it in the developer portal and put the new one in .env.",
            file=sys.stderr,
        )
        return 2
    return 0


def _backup(target: str) -> int:
    from .store.sqlite import backup

    database = Settings.from_env().db_path
    try:
        size = backup(database, target)
    except StoreUnavailable as error:
        print(f"Hexplay cannot back up: {error}.", file=sys.stderr)
        return 1
    print(f"Backed up {database} to {target} ({size / 1e6:.1f} MB).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
