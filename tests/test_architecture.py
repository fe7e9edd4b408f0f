"""The house keeps its shape: every import runs down a floor, only chat/ imports discord, no circles.

tools/house.py reads the real imports; docs/architecture.md shows its diagram, checked here to be current.
"""

from __future__ import annotations

import pytest

from tools.house import ROOT, graph, mermaid, room

# What each room may import from the project besides itself (discord is the chat layer's alone).
ALLOWED = {
    "games": set(),
    "i18n": set(),
    "render": {"games", "i18n"},
    "ai": {"games"},
    "bot.domain": {"games"},
    "bot.store": {"bot.domain"},
    "bot.observe": {"bot.domain"},
    "bot.service": {"bot.domain", "bot.store", "games", "render", "ai", "i18n"},
    "bot.chat": {"bot.chat.words", "bot.domain", "bot.service", "bot.config", "games", "discord", "i18n"},
    # the sentences: data in, text out (no discord, nothing else of the chat layer)
    "bot.chat.words": {"bot.domain", "bot.service", "games", "i18n"},
    "bot.chat.features": {"bot.chat", "bot.chat.words", "bot.domain", "bot.service", "games", "discord", "i18n"},
    # the Activity's web server: the chat layer's words (its announcer is handed in by the runtime), never discord
    "bot.web": {"bot.chat.words", "bot.service", "bot.domain", "games", "render", "i18n"},
    "bot.jobs": {"bot.service", "bot.store", "bot.domain", "bot.config", "bot.observe", "ai"},
    "bot.migrate_db": {"bot.service", "bot.store", "bot.domain"},
    "bot.runtime": {
        *("bot.chat", "bot.chat.features", "bot.jobs", "bot.service", "bot.store", "bot.domain", "bot.config"),
        *("bot.observe", "bot.web", "ai"),
    },
}
GRAPH = graph()


def rooms_imported(name: str) -> set[str]:
    return {"discord" if i.split(".")[0] == "discord" else room(i) or i for i in GRAPH[name]} - {room(name)}


@pytest.mark.parametrize("name", sorted(n for n in GRAPH if room(n) in ALLOWED))
def test_every_import_runs_down_a_floor(name):
    wrong = sorted(rooms_imported(name) - ALLOWED[room(name)])
    assert wrong == [], f"{name} imports {wrong}; {room(name)} may import only {sorted(ALLOWED[room(name)])}"


def test_only_the_chat_layer_imports_discord():
    users = {n for n in GRAPH if "discord" in rooms_imported(n) and not n.startswith(("emulator", "sandbox"))}
    assert users and all(room(n) in ("bot.chat", "bot.chat.features") for n in users), sorted(users)


def test_no_import_circles_in_the_product():
    """Every import counts: a package's ``__init__`` importing its modules, and a script's ``__main__`` block
    (issue 38: ``render/palettes.py``'s imported ``render``, whose ``__init__`` imports it)."""
    edges = {n: {i for i in found if i in GRAPH and i != n} for n, found in GRAPH.items()}
    done: set[str] = set()
    path: list[str] = []

    def circle_from(node: str) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        path.append(node)
        for target in sorted(edges[node]):
            found = circle_from(target)
            if found:
                return found
        path.pop()
        done.add(node)
        return []

    for name in sorted(edges):
        circle = circle_from(name)
        assert circle == [], " -> ".join(circle)


def test_the_diagram_in_the_docs_is_the_code_as_it_stands():
    docs = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert mermaid() in docs, "docs/architecture.md: paste the output of `python tools/house.py` in place"
