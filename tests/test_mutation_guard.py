"""The mutation run's guards: against mutants that loop for ever (tests/conftest.py), against a package missing
from mutmut's copy, and against a test that reads code reading mutmut's copy of it (tests/sources.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tools.house import PROJECT
from tools.mutation_run import reselectable

ROOT = Path(__file__).resolve().parents[1]

LOOPING_TEST = """
def test_loops_for_ever():
    while True:
        pass
"""

WAITING_TEST = """
import time

def test_waits_for_ever():
    while True:
        time.sleep(0.1)
"""

SLOW_CLOCK_TEST = """
import time

def test_waits_longer_than_the_cpu_limit_then_passes():
    time.sleep(2.5)  # like a test on a loaded machine at nice 19: the clock runs, its CPU does not
"""


def run_looping_test(
    tmp_path, under_mutmut: bool, seconds: float, test: str = LOOPING_TEST
) -> subprocess.CompletedProcess | None:
    """pytest (with the project's conftest) on ``test`` (one that never ends); None if it was still running."""
    (tmp_path / "test_loop.py").write_text(test)
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
    assert "still running after 1 CPU seconds under mutmut" in result.stdout


def test_under_mutmut_a_test_that_waits_for_ever_fails_at_the_clocks_limit(tmp_path):
    result = run_looping_test(tmp_path, under_mutmut=True, seconds=60, test=WAITING_TEST)
    assert result is not None and result.returncode == 1, result and result.stdout
    assert "still running after 5 seconds under mutmut" in result.stdout


def test_under_mutmut_the_limit_counts_cpu_not_the_clock(tmp_path):
    """A correct test slowed by the machine's load is not failed: mutmut's statistics run once stopped on a
    property test that passed 120 s of the clock at nice 19 (on 28 Nov)."""
    result = run_looping_test(tmp_path, under_mutmut=True, seconds=60, test=SLOW_CLOCK_TEST)
    assert result is not None and result.returncode == 0, result and result.stdout


def test_outside_mutmut_no_limit_is_set(tmp_path):
    assert run_looping_test(tmp_path, under_mutmut=False, seconds=5) is None


ESCAPED_IDS_TEST = """
import pytest

@pytest.mark.parametrize("reason", ["row a has cells a1\u2013a5", "colour True is not 1 \\\\(Black\\\\)"])
def test_reason(reason):
    assert reason
"""


def test_a_case_whose_text_pytest_would_escape_keeps_an_id_the_mutation_run_selects(tmp_path):
    """pytest escapes a non-ASCII character or a backslash in an id ("a1\\u2013a5"), and the driver leaves every
    id holding a backslash out of mutmut's record (tools/mutation_run.py's ``reselectable``): such cases ran
    for no mutant (test_mutants_engines' first Bump reason, and Bump's ``_parse_facing`` 13 survived).
    tests/conftest.py's pytest_make_parametrize_id gives text parameters plain ids."""
    (tmp_path / "test_escaped.py").write_text(ESCAPED_IDS_TEST)
    env = {k: v for k, v in os.environ.items() if k != "MUTANT_UNDER_TEST"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider"]
        + [str(tmp_path / "test_escaped.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    ids = [line for line in result.stdout.splitlines() if "::" in line]
    assert [nodeid.partition("::")[2] for nodeid in ids] == [
        "test_reason[row a has cells a1-a5]",
        "test_reason[colour True is not 1 (Black)]",
    ], result.stdout + result.stderr
    assert all(reselectable(nodeid) for nodeid in ids)


def test_mutmut_s_copy_holds_every_package_of_the_project():
    """mutmut runs the tests in its copy, ``mutants/``, with the checkout taken off ``sys.path`` (only mutated code
    may be imported): a package it neither mutates (``source_paths``) nor copies (``also_copy``) cannot be imported
    there. ``i18n/`` was neither: the tests' conftest failed to import, pytest exited 4 and ``make mutation``
    stopped in its stats pass, before the first mutant (issue 38)."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    copied = {path.strip("/") for path in (*settings["source_paths"], *settings["also_copy"])}
    assert sorted(set(PROJECT) - copied) == []
    # Any folder of Python a test may import, packages or not: tools/ (a namespace package) was missing, and
    # once test_service_texts.py imported the typography check, which imports tools.translations, the stats pass
    # stopped again (ModuleNotFoundError in the copy).
    importable = {d.name for d in ROOT.iterdir() if d.is_dir() and d.name != "tests" and any(d.glob("*.py"))}
    assert sorted(importable - copied) == []


# What mutmut writes beside a function it mutates: a copy of it, switched off until its name is under test.
MUTANT_BESIDE_THE_ORIGINAL = """

def x_answer__mutmut_1(self, match):
    raise Refusal("XXnot_askedXX", match=match)
"""


def mutmut_copy(tmp_path) -> Path:
    """A checkout with mutmut's copy of it inside (``mutants/``), one of whose modules holds a mutant."""
    checkout = tmp_path / "checkout"
    leave_out = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "bot", checkout / "bot", ignore=leave_out)
    copy = checkout / "mutants"
    for part in ("bot", "games", "i18n", "render", "ai", "tests"):
        shutil.copytree(ROOT / part, copy / part, ignore=leave_out)
    shutil.copy(ROOT / "pyproject.toml", copy)
    mutated = copy / "bot" / "service" / "offers.py"
    mutated.write_text(mutated.read_text(encoding="utf-8") + MUTANT_BESIDE_THE_ORIGINAL, encoding="utf-8")
    return copy


def test_under_mutmut_a_test_that_reads_code_reads_the_repository(tmp_path):
    """mutmut's clean run (no mutant on) in its copy: the check that each refusal raised has its sentence reads
    the repository's bot/, not the copy whose modules say every mutated reason at once (issue 38: 124 of them
    stopped ``make mutation`` before its first mutant)."""
    copy = mutmut_copy(tmp_path)
    run = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly"),
            "tests/test_service_texts.py::test_every_refusal_the_code_raises_has_its_sentence",
        ],
        cwd=copy,
        env={**os.environ, "MUTANT_UNDER_TEST": ""},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "1 passed" in run.stdout, run.stdout[-3000:]


def test_the_report_scores_a_module_with_no_mutant_left_to_judge():
    """make mutation on 28 Nov ran every mutant, then stopped in its report (ZeroDivisionError) on a small module
    whose every sampled mutant was a listed equivalent."""
    from tools.mutation_run import Row

    every_one_equivalent = Row("games/small.py", 2, 0, 0, ["a", "b"], ["a", "b"])
    assert every_one_equivalent.score == "none judged"
    assert Row("games/x.py", 4, 2, 1, ["d"], []).score == "3/4 = 75.0%"
