"""Shared pytest hooks."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import settings as hypothesis_settings

from bot.domain.clock import ManualClock
from bot.service.matches import MatchService
from bot.store import open_store
from tests import backends, postgres
from tests.botworld import BotWorld

# Property tests draw the same examples on every machine and every run (make test, CI): a red run names a fault
# that the next run and any other clone show too, never a draw of luck. HEXPLAY_HYPOTHESIS=explore searches
# afresh each run (its finds are kept in .hypothesis/ and tried first next time); docs/testing.md.
hypothesis_settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
hypothesis_settings.register_profile("explore", print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HEXPLAY_HYPOTHESIS", "repeatable"))


def pytest_runtest_setup(item):
    """Under mutmut, forget the engines' memoised results (and the GIF thread pool) before each test.

    mutmut forks each mutant's run from a process that has already run the tests,
    and it runs a mutant only against the tests that called the mutated function
    when it recorded them. An ``lru_cache`` (Begird's layout, Bide's boards) hides
    both: only the first test to fill it is recorded, and a cache filled by the
    unmutated code answers for the mutant (every Begird island mutant survived
    that way). Cleared per test, each test computes what it uses, with the mutant.
    """
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    # A forked child inherits the GIF thread pool without its thread: a replay would wait for ever.
    pictures = sys.modules.get("bot.service.pictures")
    if pictures is not None and hasattr(pictures, "_REPLAY_THREAD"):
        pictures._REPLAY_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hexplay-gif")
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("games", "bot", "render"):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def needs_postgres(item) -> bool:
    callspec = getattr(item, "callspec", None)
    return "postgres_server" in getattr(item, "fixturenames", ()) or (
        callspec is not None and callspec.params.get("backend") == "postgres"
    )


def pytest_collection_modifyitems(config, items):
    """Without PostgreSQL's server binaries, its tests are left out with one line at the end (in CI,
    HEXPLAY_REQUIRE_POSTGRES=1 makes them fail instead). Then :func:`quickest_first`."""
    if postgres.binaries() is None and not postgres.required():
        left_out = [item for item in items if needs_postgres(item)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not needs_postgres(item)]
            config.stash[POSTGRES_LEFT_OUT] = len(left_out)
    quickest_first(items)


POSTGRES_LEFT_OUT = pytest.StashKey[int]()


def pytest_terminal_summary(terminalreporter, config):
    left_out = config.stash.get(POSTGRES_LEFT_OUT, 0)
    if left_out:
        terminalreporter.write_line(f"{left_out} PostgreSQL tests not run: {postgres.SKIP_REASON}", yellow=True)


def quickest_first(items):
    """Under mutmut, run a mutant's quickest tests first, so that a killed mutant is killed sooner.

    mutmut runs the tests that reach the mutated function with ``-x``; in its order a slow
    property test often came before the quick test that fails (Begird's killed mutants took
    30 s each). The durations are those mutmut recorded in ``mutmut-stats.json`` (the cwd is
    ``mutants/``); never in ``make test``.
    """
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    try:
        with open("mutmut-stats.json") as stats:
            duration = json.load(stats)["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return
    items.sort(key=lambda item: duration.get(item.nodeid, 0.0))


#: Under mutmut, a test that has used this many CPU seconds fails (the slowest test takes ~30 s)…
MUTANT_TEST_SECONDS = int(os.environ.get("HEXPLAY_MUTANT_TEST_SECONDS", "120"))
#: …and so does one still running after this many seconds of the clock (a mutant that waits for ever).
MUTANT_TEST_WALL_SECONDS = 5 * MUTANT_TEST_SECONDS


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Under mutmut, a test that uses :data:`MUTANT_TEST_SECONDS` of CPU, or runs
    :data:`MUTANT_TEST_WALL_SECONDS` by the clock, fails, so a mutant that loops for ever is killed
    within minutes: mutmut's own time-out once let one run 31 minutes (docs/testing.md). CPU time first:
    on a loaded machine (mutmut runs at nice 19) a correct property test once passed 120 s of the clock
    while mutmut recorded its statistics, and the whole run stopped. Never in ``make test``."""
    if (
        "MUTANT_UNDER_TEST" not in os.environ
        or not hasattr(signal, "SIGALRM")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def expire(signum, frame):
        spent = "CPU seconds" if signum == signal.SIGPROF else "seconds"
        limit = MUTANT_TEST_SECONDS if signum == signal.SIGPROF else MUTANT_TEST_WALL_SECONDS
        raise TimeoutError(f"still running after {limit} {spent} under mutmut: the mutant loops")

    previous = {sig: signal.signal(sig, expire) for sig in (signal.SIGALRM, signal.SIGPROF)}
    signal.setitimer(signal.ITIMER_PROF, MUTANT_TEST_SECONDS)
    signal.alarm(MUTANT_TEST_WALL_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.setitimer(signal.ITIMER_PROF, 0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only: in a both_backends module, a test of SQLite's own behaviour")
    config.addinivalue_line(
        "markers", "both_backends: the module's tests that use a database run on SQLite and on PostgreSQL"
    )


def pytest_make_parametrize_id(config, val, argname):
    """A text parameter's id without the characters pytest escapes with a backslash (any non-ASCII one, a
    backslash): `make mutation` leaves every id holding a backslash out of mutmut's record, since pytest can
    escape it once more in mutmut's forked runs (docs/testing.md, "Test ids pytest cannot select twice"), so
    such a case ran for no mutant. A non-ASCII character becomes "-" ("a1–a5" is "a1-a5"), a backslash is
    dropped; pytest numbers any ids this makes equal."""
    if isinstance(val, str) and (not val.isascii() or "\\" in val):
        return "".join(c if c.isascii() else "-" for c in val).replace("\\", "")
    return None


def pytest_generate_tests(metafunc):
    """A test that uses the database runs on both backends where its module says so, else on SQLite only
    (its name unchanged: the ``backend`` fixture below answers "sqlite")."""
    definition = metafunc.definition
    if (
        "backend" in metafunc.fixturenames
        and definition.get_closest_marker("both_backends")
        and not definition.get_closest_marker("sqlite_only")
    ):
        metafunc.parametrize("backend", ["sqlite", "postgres"], scope="function")


@pytest.fixture
def backend():
    return "sqlite"


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL server for the whole run (started only if a test needs it), removed at the end."""
    cluster = postgres.cluster_for_a_test()
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
async def database(backend, tmp_path, request) -> str:
    """Where the test's store lives: a fresh SQLite file, or the test server's database emptied."""
    if backend == "sqlite":
        return str(tmp_path / "hexplay.sqlite3")
    server = request.getfixturevalue("postgres_server")
    await open_store_once(server.url)
    await backends.empty_postgres(server.url)
    return server.url


_MIGRATED: set[str] = set()


async def open_store_once(url: str) -> None:
    """The schema is created by the store itself, once per server, before the first test empties it."""
    if url not in _MIGRATED:
        store = await open_store(url)
        await store.close()
        _MIGRATED.add(url)


@pytest.fixture
async def service(database):
    """The match service over a fresh database, on a manual clock; the store is closed whatever happens."""
    store = await open_store(database)
    try:
        yield MatchService(store, ManualClock(), default_reminder_hours=24)
    finally:
        await store.close()


@pytest.fixture
async def world7(tmp_path):
    """The bot against the emulator with eight users (tournaments), on SQLite, without Discord's per-channel limit:
    a round posts a starter message per match in the event's channel, and 5 posts in 5 s would make its tests wait
    (the bot's handling of 429s is tested in test_bot_ratelimits.py)."""
    world = await BotWorld(tmp_path / "t.db", users=8).start()
    world.emu.rate_limits.enabled = False
    yield world
    violations = list(world.emu.violations)
    await world.stop()
    assert violations == []


@pytest.fixture
async def world(database):
    """The real bot against the emulator; a test fails if the bot broke any Discord rule."""
    world = await BotWorld(database).start()
    yield world
    violations = list(world.emu.violations)
    await world.stop()
    assert violations == [], violations
