"""The SQLite schema's history: ``NNNN_name.sql``, applied in order, each in one transaction.

The database's ``PRAGMA user_version`` is the number of the last one applied. A file's ``--`` lines say
why it exists; they are dropped here, so that statements can be split on ``;``.
"""

from __future__ import annotations

from importlib.resources import files


def _load() -> list[str]:
    scripts = sorted((p for p in files(__name__).iterdir() if p.name.endswith(".sql")), key=lambda p: p.name)
    numbers = [int(p.name.split("_", 1)[0]) for p in scripts]
    if numbers != list(range(1, len(scripts) + 1)):  # a gap or a duplicate would skip or repeat a change
        raise RuntimeError(f"SQLite migrations are not numbered 1..{len(scripts)}: {numbers}")
    return [
        "\n".join(line for line in p.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("--"))
        for p in scripts
    ]


MIGRATIONS: list[str] = _load()
