"""`make lock` and the check `make` runs after installing: pins are exact, new dependencies are named."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
lockfile = load_script("tools/lockfile.py")


def test_write_pins_every_installed_package_exactly(tmp_path, monkeypatch):
    monkeypatch.setattr(lockfile, "LOCK", tmp_path / "constraints.txt")
    lockfile.main(["write", sys.executable])
    pins = [line for line in lockfile.LOCK.read_text().splitlines() if line and not line.startswith("#")]
    assert pins and all("==" in pin for pin in pins)
    names = {lockfile._name(pin) for pin in pins}
    assert {"discord-py", "pillow", "asyncpg", "pytest"} <= names and "hexplay" not in names


def test_check_names_dependencies_the_lock_does_not_pin(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lockfile, "LOCK", tmp_path / "constraints.txt")
    lockfile.LOCK.write_text("# header\ndiscord.py==2.7.1\n")
    lockfile.main(["check", sys.executable])
    out = capsys.readouterr().out
    assert "run `make lock`" in out and "pillow" in out.lower() and "discord.py==" not in out


def test_the_committed_lock_pins_every_dependency_in_pyproject():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + [d for deps in project["optional-dependencies"].values() for d in deps]
    pinned = {
        lockfile._name(line)
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if line and not line.startswith("#")
    }
    missing = [d for d in wanted if lockfile._name(d) not in pinned]
    assert not missing, f"run `make lock`: constraints.txt does not pin {missing}"
