"""Drop each ``match_id = ?`` / ``id = ?`` condition of the SQLite store in turn and run the tests.

mutmut mutates a SQL string as a whole (``"XX…XX"``), which breaks the statement and is
killed by any test; it never drops one condition. A write that lost its ``WHERE match_id``
touches every match, which only a test with a second match in the database notices. This
tool makes that mutant for every condition (``x = ?`` becomes ``(x = ? OR 1)``, so the
parameters still line up) and runs the given tests against each, in a scratch copy.

The targets: the SQLite store's modules (bot/store/sqlite/: every query and write, and in plumbing.py reading
one match with its seats and quarantine).

    python tools/drop_where.py [--lines 77,360] [pytest args…]   (default: the storage, lobby and service tests)

Prints one line per condition (KILLED or SURVIVED, the line, the statement) and the score.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = tuple(
    f"bot/store/sqlite/{name}.py"
    for name in (
        "plumbing",
        "matches",
        "boards",
        "lobby",
        "challenges",
        "quarantine",
        "premoves",
        "reminders",
        "preferences",
        "languages",
        "offers",
        "deadlines",
        "shards",
        "ratings",
        "reviews",
    )
)
CONDITION = re.compile(r"\b(?:match_id|id) = \?")
DEFAULT_TESTS = [
    "tests/test_storage_isolation.py",
    "tests/test_lobby_rules.py",
    "tests/test_service.py",
    "tests/test_quarantine.py",
]


def sites(source: str) -> list[re.Match]:
    """Conditions in the code (the module docstring's example is skipped)."""
    module = ast.parse(source)
    body = 0
    if module.body and isinstance(module.body[0], ast.Expr) and isinstance(module.body[0].value, ast.Constant):
        docstring_end = module.body[0].end_lineno or 0
        body = sum(len(line) for line in source.splitlines(keepends=True)[:docstring_end])
    return [m for m in CONDITION.finditer(source) if m.start() > body]


def main(argv: list[str]) -> int:
    lines: set[int] | None = None
    if argv[:1] == ["--lines"]:  # only the conditions on these lines (of either target)
        lines = {int(n) for n in argv[1].split(",")}
        argv = argv[2:]
    tests = argv or DEFAULT_TESTS
    killed = total = 0
    with tempfile.TemporaryDirectory(prefix="drop_where_") as scratch:
        shutil.copytree(
            ROOT,
            scratch,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns(".git", ".venv", "mutants", "__pycache__", ".hypothesis"),
        )
        for target in TARGETS:
            original = (ROOT / target).read_text()
            found = [m for m in sites(original) if lines is None or original.count("\n", 0, m.start()) + 1 in lines]
            for site in found:
                mutant = original[: site.start()] + f"({site.group(0)} OR 1)" + original[site.end() :]
                (Path(scratch) / target).write_text(mutant)
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
                total += 1
                print(f"{verdict:8} {target}:{line_no}  {line[:110]}", flush=True)
            (Path(scratch) / target).write_text(original)
    print(f"{killed}/{total} killed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
