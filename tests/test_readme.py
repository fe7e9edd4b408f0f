"""What the README promises a newcomer about `make test` (issue 37, item 11): how long it takes, and that a
skipped test says why at the end of the run."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.sources import ROOT


def test_the_readme_says_how_long_make_test_takes_and_that_skips_say_why():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme[readme.index("## Quick start") : readme.index("### Try it without Discord")]
    assert re.search(r"`make test` takes about \d+ minutes on 2 cores", quick_start)
    assert "`-rs`" in quick_start


def test_a_run_with_the_projects_settings_prints_why_a_test_was_skipped(tmp_path):
    """The project's pytest settings (pyproject.toml, as `make test` reads them) list each skip with its reason."""
    (tmp_path / "test_skipping.py").write_text(
        "import pytest\n\n\ndef test_needs_a_browser():\n    pytest.skip('no chromium here')\n", encoding="utf-8"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path)]
        + ["-p", "no:randomly", "-p", "no:cacheprovider", str(tmp_path / "test_skipping.py")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"SKIPPED \[1\] .*test_skipping\.py:\d+: no chromium here", run.stdout), run.stdout
