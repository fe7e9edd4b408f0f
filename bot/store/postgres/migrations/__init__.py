"""The PostgreSQL schema's history, numbered as SQLite's: one history for both backends.

Version 12 is the baseline (the schema SQLite's migrations 1 to 12 built, in PostgreSQL's words); each
later version is a file of the same number in both dialects. ``schema_version`` holds the last applied.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources import files

BASELINE = 12


def _load() -> dict[int, str]:
    scripts = {}
    for path in sorted((p for p in files(__name__).iterdir() if p.name.endswith(".sql")), key=lambda p: p.name):
        scripts[int(path.name.split("_", 1)[0])] = path.read_text(encoding="utf-8")
    numbers = sorted(scripts)
    if not numbers or numbers[0] != BASELINE or numbers != list(range(BASELINE, BASELINE + len(numbers))):
        raise RuntimeError(f"PostgreSQL migrations must run {BASELINE}, {BASELINE + 1}, …: found {numbers}")
    return scripts


MIGRATIONS: dict[int, str] = _load()
LATEST = max(MIGRATIONS)


def applies(current: int) -> Iterator[tuple[int, str]]:
    """The (number, script) pairs a database at version ``current`` needs: the baseline brings an empty one
    to 12 at once (there is no older PostgreSQL schema to upgrade)."""
    for number in sorted(MIGRATIONS):
        if number > current:
            yield number, MIGRATIONS[number]
