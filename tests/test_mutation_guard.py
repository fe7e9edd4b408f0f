"""The mutation run's guard against mutants that loop for ever (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LOOPING_TEST = """
def test_loops_for_ever():
    while True:
        pass
"""


def run_looping_test(tmp_path, under_mutmut: bool, seconds: float) -> subprocess.CompletedProcess | None:
    """pytest (with the project's conftest) on a test that never ends; None if it was still running."""
    (tmp_path / "test_loop.py").write_text(LOOPING_TEST)
    env = {k: v for k, v in os.environ.items() if k != "MUTANT_UNDER_TEST"}
    env["HEXPLAY_MUTANT_TEST_SECONDS"] = "1"
    if under_mutmut:
        env["MUTANT_UNDER_TEST"] = "games.bide.x_apply_action__mutmut_1"
    try:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "tests.conftest",
                "-p",
                "no:cacheprovider",
                str(tmp_path / "test_loop.py"),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        return None


def test_under_mutmut_a_test_that_loops_for_ever_fails_at_the_limit(tmp_path):
    result = run_looping_test(tmp_path, under_mutmut=True, seconds=60)
    assert result is not None and result.returncode == 1, result and result.stdout
    assert "still running after 1 s under mutmut" in result.stdout


def test_outside_mutmut_no_limit_is_set(tmp_path):
    assert run_looping_test(tmp_path, under_mutmut=False, seconds=5) is None
