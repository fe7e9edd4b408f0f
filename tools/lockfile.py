"""Pinned dependencies: `make lock` writes constraints.txt; `make` installs with it and checks it.

    python tools/lockfile.py write VENV_PYTHON   # freeze a fresh install into constraints.txt
    python tools/lockfile.py check VENV_PYTHON   # name installed packages the lock does not pin

A dependency added to pyproject.toml installs even before the lock is refreshed (pip's -c only
restricts the packages it lists); `check` then says which ones to lock.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

LOCK = Path(__file__).resolve().parent.parent / "constraints.txt"
HEADER = """\
# Exact versions `make test` and `make run` install (pip -c): the set the tests last passed with.
# Refresh with `make lock` after changing dependencies in pyproject.toml. Generated; do not edit.
"""


def _name(line: str) -> str:
    name = re.split(r"[=<>!~ ;\[]", line, maxsplit=1)[0].strip()
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503: discord.py == discord-py == Discord_Py


def freeze(python: str) -> list[str]:
    output = subprocess.run(
        [python, "-m", "pip", "freeze", "--all", "--exclude-editable"], check=True, capture_output=True, text=True
    ).stdout
    return sorted(
        (
            line
            for line in output.splitlines()
            if line and not line.startswith(("-e", "#")) and _name(line) not in ("hexplay",)
        ),
        key=_name,
    )


def main(argv: list[str] | None = None) -> int:
    action, python = (argv or sys.argv[1:])[:2]
    if action == "write":
        pins = freeze(python)
        LOCK.write_text(HEADER + "\n".join(pins) + "\n", encoding="utf-8")
        print(f"wrote {LOCK.name}: {len(pins)} pinned packages")
        return 0
    pinned = {
        _name(line) for line in LOCK.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")
    }
    missing = [line for line in freeze(python) if _name(line) not in pinned]
    if missing:
        print("note: constraints.txt does not pin " + ", ".join(missing) + "; run `make lock` to pin them.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
