"""Run every benchmark in turn (`make bench`). Each prints its own figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = [
    "bench_bide.py",
    "bench_begird.py",
    "bench_playbai.py",
    "bench_bump.py",
    "bench_render.py",
    "bench_bot.py",
    "bench_lifecycle.py",
    "bench_reminders.py",
    "soak_races.py",
    "bench_sandbox.py",
    "bench_activity.py",
    "bench_ai.py",
    "bench_computer.py",
]


def main() -> int:
    failed = []
    for script in SCRIPTS:
        print(f"\n=== {script}", flush=True)
        if subprocess.run([sys.executable, str(HERE / script)], cwd=HERE.parent).returncode != 0:
            failed.append(script)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
