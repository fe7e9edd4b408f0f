"""`python -m bot` (what `make run` starts)."""

import asyncio
import logging
import os
import sys

from . import redact
from .config import TOKEN_HELP, Settings, load_dotenv
from .domain.errors import CannotListen, DiscordUnreachable, StoreUnavailable, TokenRefused

USAGE = """usage: python -m bot                                run the bot
       python -m bot backup FILE                      copy the SQLite database to FILE, even while the bot runs
       python -m bot --shard-count N --shard-ids 0-3  run shards 0 to 3 of N (several processes: PostgreSQL)
       python -m bot migrate-db --from PATH --to URL  move a SQLite database onto an empty PostgreSQL one
       python -m bot worker [--concurrency K]         play computer turns and hints from the job queue
                                                      (PostgreSQL only; K searches at once, one core each)

Settings come from the environment or a .env file (see .env.example):
  DISCORD_TOKEN                 the bot's token (without one, `make run` opens the sandbox)
  HEXPLAY_DATABASE_URL          postgresql://user:password@host:port/dbname to keep the data on PostgreSQL
                                (several bot processes may share it); unset, SQLite at HEXPLAY_DB_PATH
  HEXPLAY_DB_PATH               the SQLite file (default ./data/hexplay.sqlite3); sqlite:///path in
                                HEXPLAY_DATABASE_URL says the same
  HEXPLAY_DATABASE_POOL_SIZE    PostgreSQL connections per bot process (default 10)
  HEXPLAY_DATABASE_STATEMENT_CACHE  off behind pgbouncer in transaction mode (default on)
  HEXPLAY_WORKER_CONCURRENCY    a worker's searches at once when --concurrency is not given (default 1)
  HEXPLAY_WORKER_STALE_SECONDS  a job whose worker is silent this long is taken by another (default 15)
  HEXPLAY_SHARD_COUNT, HEXPLAY_SHARD_IDS  the gateway shards in all, and those this process runs
                                (unset: Discord's recommended count, all in this process)
  HEXPLAY_METRICS_PORT          serve /healthz and Prometheus /metrics on this port, in the bot and in each
                                worker (unset or 0: off)
  HEXPLAY_METRICS_HOST          the address they listen on (default 127.0.0.1; 0.0.0.0 in a container)
  HEXPLAY_DEV_GUILD_IDS, HEXPLAY_REMINDER_HOURS, HEXPLAY_VACATION_DAYS, HEXPLAY_LOG_LEVEL, …: .env.example"""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    load_dotenv()
    if argv[:1] == ["backup"] and len(argv) == 2:
        return _backup(argv[1])
    if argv[:1] == ["migrate-db"]:
        return _migrate_db(argv[1:])
    if argv[:1] == ["worker"]:
        return _worker(argv[1:])
    if argv and argv[0].startswith("--shard"):
        layout = _shard_options(argv)
        if layout is None:
            print(SHARD_USAGE, file=sys.stderr)
            return 2
        os.environ.update(layout)  # as if set in the environment: one place reads and checks them
        argv = []
    if argv:
        print(USAGE, file=sys.stderr if argv[0] not in ("-h", "--help") else sys.stdout)
        return 0 if argv[0] in ("-h", "--help") else 2
    settings = Settings.from_env()
    settings.check_shards()
    settings.check_activity()
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
    except (StoreUnavailable, CannotListen, DiscordUnreachable) as error:  # one clear line; a supervisor acts
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
    from .store import is_postgres, sqlite_path
    from .store.sqlite import backup

    settings = Settings.from_env()
    if is_postgres(settings.database):
        print(
            "Hexplay keeps its data on PostgreSQL (HEXPLAY_DATABASE_URL): back it up with pg_dump (docs/storage.md).",
            file=sys.stderr,
        )
        return 2
    database = sqlite_path(settings.database)
    try:
        size = backup(database, target)
    except StoreUnavailable as error:
        print(f"Hexplay cannot back up: {error}.", file=sys.stderr)
        return 1
    print(f"Backed up {database} to {target} ({size / 1e6:.1f} MB).")
    return 0


SHARD_USAGE = "usage: python -m bot [--shard-count N [--shard-ids 0-3]]"


def _shard_options(args: list[str]) -> dict[str, str] | None:
    """``--shard-count N`` and optionally ``--shard-ids RANGE`` as the environment variables they stand for."""
    for names in (("--shard-count", "--shard-ids"), ("--shard-count",)):
        found = _options(args, names)
        if found is not None:
            env = {"HEXPLAY_SHARD_COUNT": found["--shard-count"]}
            if "--shard-ids" in found:
                env["HEXPLAY_SHARD_IDS"] = found["--shard-ids"]
            return env
    return None


MIGRATE_USAGE = "usage: python -m bot migrate-db --from PATH --to postgresql://user:password@host:port/dbname"


def _options(args: list[str], names: tuple[str, ...]) -> dict[str, str] | None:
    """``--name VALUE`` or ``--name=VALUE`` for each name, once each; None for anything else (never echoed:
    a value may hold a password)."""
    found: dict[str, str] = {}
    rest = list(args)
    while rest:
        word = rest.pop(0)
        name, equals, value = word.partition("=")
        if name not in names or name in found:
            return None
        if not equals:
            if not rest:
                return None
            value = rest.pop(0)
        found[name] = value
    return found if len(found) == len(names) else None


def _migrate_db(args: list[str]) -> int:
    options = _options(args, ("--from", "--to"))
    if options is None:
        print(MIGRATE_USAGE, file=sys.stderr)
        return 2
    from .migrate_db import MoveStopped, migrate

    try:
        report = asyncio.run(migrate(options["--from"], options["--to"]))
    except MoveStopped as stopped:
        print(f"migrate-db: {stopped}.", file=sys.stderr)
        return stopped.code
    except KeyboardInterrupt:
        print("migrate-db: interrupted (a copy that had not finished leaves nothing in the target).", file=sys.stderr)
        return 1
    for match_id, why in report.differ[:20]:
        print(f"  differs: match {match_id}: {why}" if match_id else f"  differs: {why}", file=sys.stderr)
    if report.already_set_aside:
        print(
            f"  {report.already_set_aside} match(es) the source had set aside were copied as they were",
            file=sys.stderr,
        )
    print(f"  copied in {report.copy_seconds:.1f} s, checked in {report.verify_seconds:.1f} s", file=sys.stderr)
    print(report.last_line())
    return 0 if not report.differ else 1


WORKER_USAGE = "usage: python -m bot worker [--concurrency K]   (K: 1 to 64 searches at once)"


def _worker(args: list[str]) -> int:
    """A computer-player worker: PostgreSQL's job queue in, turns stored through the service (docs/workers.md)."""
    from .store import is_postgres

    options = _options(args, ("--concurrency",)) if args else {}
    concurrency_text = (options or {}).get("--concurrency", "")
    if options is None or (args and not (concurrency_text.isascii() and concurrency_text.isdigit())):
        print(WORKER_USAGE, file=sys.stderr)
        return 2
    settings = Settings.from_env()
    concurrency = int(concurrency_text) if args else settings.worker_concurrency
    if not 1 <= concurrency <= 64:
        print(WORKER_USAGE, file=sys.stderr)
        return 2
    if not is_postgres(settings.database):
        print(
            "python -m bot worker needs PostgreSQL (HEXPLAY_DATABASE_URL): with SQLite the bot thinks in its own "
            "processes and needs no worker.",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from .jobs.worker import run_worker  # the engines and the queue load only when a worker really starts

    try:
        asyncio.run(run_worker(settings, concurrency, settings.worker_stale_seconds))
    except KeyboardInterrupt:  # a second Ctrl-C: the jobs it held go back to the queue when their heartbeat stops
        pass
    except (StoreUnavailable, CannotListen) as error:
        print(f"Hexplay's worker cannot start: {error}.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
