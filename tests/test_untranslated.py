"""No sentence a player reads is left outside the catalogs: the chat layer and the pictures say every phrase
through ``t``/``tn``/``pt`` (or mark it ``N_``), so none stays English in French.

The code is read, not run, so paths no test walks are covered too. A string of two words or more counts as a
phrase unless it is a docstring, the log's, a regular expression, a refusal's reason, or a slash command's
name, description or choice (those reach Discord through the Translator, from the same catalogs).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.sources import ROOT  # the code as written (under mutmut too)

SAID = {"t", "tn", "pt", "N_", "say"}
NOT_FOR_PLAYERS = {
    *("debug", "info", "warning", "error", "exception", "critical", "getLogger"),  # the operator's log
    *("compile", "sub", "match", "fullmatch", "search", "findall", "split"),  # regular expressions
    *("command", "describe", "choices", "Choice", "Group", "GroupCog", "Cog"),  # through the Translator
    *("Refusal", "cast", "TypeVar", "getattr"),
}
# What the operator reads (health checks, the reminders' log lines built before logging), not players.
FOR_THE_OPERATOR = {
    "bot/chat/client.py": {"the bot is stopping", "not connected to the gateway yet", " not connected to the gateway"},
    "bot/chat/features/reminders.py": {
        "said so in channel ",
        "time-out notice",
        "time-limit warning",
        "no place in the match takes a word about it either (",
        "the word about it was not posted (",
    },
    "bot/chat/words/errors.py": {"move log"},  # a quarantine reason the service stores, looked for in it
    "bot/chat/announce.py": {"discord.ui.View | None"},  # a type
    "render/palettes.py": {"Fitted palettes (render/palettes.py); rewrite with: python tools/palettes.py"},
}
NAMES = {"Play Bai"}  # the games' names are the same in every language
PHRASE = re.compile(r"[A-Za-z]{3,}.*\s.*[A-Za-z]{3,}")
FILES = sorted(
    p.relative_to(ROOT).as_posix()
    for p in [
        *ROOT.joinpath("bot", "chat").rglob("*.py"),
        *ROOT.joinpath("bot", "web").glob("*.py"),  # the Activity's sentences (the page shows them)
        *ROOT.joinpath("render").rglob("*.py"),
    ]
    if p.name != "translator.py"
)


def phrases_said_raw(path: str) -> list[tuple[int, str]]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and PHRASE.search(node.value)):
            continue
        above = parent.get(node)
        if isinstance(above, ast.Expr):
            continue  # a docstring
        while above is not None:
            if isinstance(above, ast.Call):
                called = above.func
                name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
                if name in SAID or name in NOT_FOR_PLAYERS:
                    break
            if isinstance(above, (ast.Raise, ast.Assert, ast.ClassDef)):
                break  # a reason for the log or a class's own name (a cog's, never shown)
            if isinstance(above, ast.Dict) and any(key is node for key in above.keys):
                break  # a key, matched against data (an engine's end reason)
            above = parent.get(above)
        else:
            if node.value not in FOR_THE_OPERATOR.get(path, ()) and node.value not in NAMES:
                found.append((node.lineno, node.value))
    return found


@pytest.mark.parametrize("path", FILES)
def test_every_phrase_players_read_goes_through_the_catalogs(path):
    assert phrases_said_raw(path) == []


def test_the_check_finds_an_english_phrase_said_raw(tmp_path, monkeypatch):
    sample = ROOT / "bot" / "chat" / "words" / "markup.py"
    source = sample.read_text(encoding="utf-8")
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: source + '\nSHOWN = f"{1} games left"\n')
    assert [text for _, text in phrases_said_raw("bot/chat/words/markup.py")] == [" games left"]
