"""Drop each ``match_id = ?`` / ``id = ?`` condition of bot/storage.py in turn and run the tests.

mutmut mutates a SQL string as a whole (``"XX…XX"``), which breaks the statement and is
killed by any test; it never drops one condition. A write that lost its ``WHERE match_id``
touches every match, which only a test with a second match in the database notices. This
tool makes that mutant for every condition (``x = ?`` becomes ``(x = ? OR 1)``, so the
parameters still line up) and runs the given tests against each, in a scratch copy.

    python tools/drop_where.py [--lines 709,721] [pytest args…]   (default: the storage, lobby and service tests)

Prints one line per condition (KILLED or SURVIVED, the line, the statement) and the score.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = "bot/storage.py"
CONDITION = re.compile(r"\b(?:match_id|id) = \?")
DEFAULT_TESTS = [
    "tests/test_storage_isolation.py",
    "tests/test_lobby_rules.py",
    "tests/test_service.py",
    "tests/test_quarantine.py",
]


def sites(source: str) -> list[re.Match]:
    """Conditions inside SQL text (the module docstring's example is skipped)."""
    body = source.index("MIGRATIONS")
    return [m for m in CONDITION.finditer(source) if m.start() > body]


def main(argv: list[str]) -> int:
    lines: set[int] | None = None
    if argv[:1] == ["--lines"]:  # only the conditions on these lines of bot/storage.py
        lines = {int(n) for n in argv[1].split(",")}
        argv = argv[2:]
    tests = argv or DEFAULT_TESTS
    original = (ROOT / TARGET).read_text()
    found = [m for m in sites(original) if lines is None or original.count("\n", 0, m.start()) + 1 in lines]
    killed = 0
    with tempfile.TemporaryDirectory(prefix="drop_where_") as scratch:
        shutil.copytree(
            ROOT,
            scratch,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns(".git", ".venv", "mutants", "__pycache__", ".hypothesis"),
        )
        for site in found:
            mutant = original[: site.start()] + f"({site.group(0)} OR 1)" + original[site.end() :]
            (Path(scratch) / TARGET).write_text(mutant)
            run = subprocess.run(
                [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                cwd=scratch,
                capture_output=True,
                text=True,
            )
            line_no = original.count("\n", 0, site.start()) + 1
            line = original.splitlines()[line_no - 1].strip()
            verdict = "KILLED" if run.returncode != 0 else "SURVIVED"
            killed += run.returncode != 0
            print(f"{verdict:8} {TARGET}:{line_no}  {line[:110]}", flush=True)
    print(f"{killed}/{len(found)} killed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
