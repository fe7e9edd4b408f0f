"""The project's import graph, read from the code: who imports whom, by package.

    python tools/house.py            # the Mermaid diagram docs/architecture.md shows

tests/test_architecture.py checks the floors against the same reading, and that the diagram in
docs/architecture.md is this tool's output, so the picture cannot go stale.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Set as AbstractSet
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("games", "i18n", "render", "ai", "bot", "emulator", "sandbox")
# The rooms of the diagram: a module belongs to the longest of these that prefixes it.
ROOMS = (
    "games",
    "i18n",
    "render",
    "ai",
    "emulator",
    "sandbox",
    "bot.domain",
    "bot.store",
    "bot.observe",
    "bot.service",
    "bot.chat",
    "bot.chat.words",
    "bot.chat.features",
    "bot.web",
    "bot.jobs",
    "bot.config",
    "bot.redact",
    "bot.runtime",
    "bot.migrate_db",
    "bot.__main__",
)


def modules() -> dict[str, Path]:
    """Every module of the product packages: dotted name -> file."""
    found = {}
    for package in PROJECT:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: AbstractSet[str] = frozenset()) -> set[str]:
    """What ``name`` imports (relative imports resolved), anywhere in the file (a script's ``__main__`` block
    too): project modules and discord. ``from package import module`` (a name among ``known`` modules) is an
    import of that module; the package counts only when a name is taken from the package itself."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                target = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            named = {f"{target}.{alias.name}" for alias in node.names}
            found.update(named)
            if not named <= known:
                found.add(target)
    return {i for i in found if i.split(".")[0] in (*PROJECT, "discord")}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, found.keys()) for name, path in found.items()}


def room(name: str) -> str | None:
    return next((r for r in sorted(ROOMS, key=len, reverse=True) if name == r or name.startswith(r + ".")), None)


def rooms() -> dict[str, set[str]]:
    """Room -> the rooms it imports (discord included, as a room of its own)."""
    arrows: dict[str, set[str]] = {r: set() for r in ROOMS}
    for name, found in graph().items():
        source = room(name)
        if source is None:
            continue
        for target in found:
            other = "discord" if target.split(".")[0] == "discord" else room(target)
            if other is not None and other != source:
                arrows[source].add(other)
    return arrows


def mermaid() -> str:
    arrows = [
        f"    {_id(source)}[{source}] --> {_id(target)}[{target}]"
        for source, targets in rooms().items()
        for target in sorted(targets)
    ]
    return "\n".join(["```mermaid", "graph TD", *arrows, "```"])


def _id(room_name: str) -> str:
    return room_name.replace(".", "_").strip("_")


if __name__ == "__main__":
    print(mermaid())
    sys.exit(0)
