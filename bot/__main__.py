"""`python -m bot` (what `make run` starts)."""

import asyncio
import logging
import sys

from . import redact
from .config import TOKEN_HELP, Settings, load_dotenv
from .storage import StoreUnavailable


def main() -> int:
    load_dotenv()
    settings = Settings.from_env()
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact.install()  # discord.py logs interaction tokens at DEBUG
    if not settings.token:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    from .app import run

    try:
        asyncio.run(run(settings))
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, or SIGTERM (bot.app.run): a clean stop
        pass
    except StoreUnavailable as error:  # one clear line, and exit so a supervisor can act
        print(f"Hexplay cannot start: {error}.", file=sys.stderr)
        return 1
    except Exception as error:  # a clear line, not a traceback, for the common start-up failures
        import discord

        if isinstance(error, discord.LoginFailure):
            print("Discord refused the token in DISCORD_TOKEN: reset it in the developer portal "
                  "and put the new one in .env.", file=sys.stderr)
            return 2
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
