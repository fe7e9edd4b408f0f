"""Collect every sentence the code says into the catalogs (``make translations``).

    python tools/translations.py          # rewrite i18n/locale/hexplay.pot, merge it into every language
    python tools/translations.py --check  # exit 1 if the template is out of date with the code
    python tools/translations.py --take fr FILE.po…   # fill the French catalog from other .po files
    python tools/translations.py --missing fr PATH… [--from FILE.po…]  # what under PATH lacks French
    python tools/translations.py --commands fr           # the commands' table docs/translating.md shows

The code marks what it says with ``t``, ``tn``, ``pt`` and ``N_`` (i18n/__init__.py), the web pages (JavaScript: the
Activity's, activity/src, and the sandbox's, sandbox/static) with ``say`` and ``sayN``; the engines keep no
language but give their reasons as templates (``IllegalMove("no such cell: {cell}", cell=…)``) and word
turns through the ``say`` they are handed, so those calls are read too. The slash commands' names,
descriptions and choices come from the command tree itself (bot/chat/translator.py ``command_strings``).

Merging keeps every translation whose English still exists; a new sentence arrives empty (and
``tests/test_translations.py`` fails until it is translated); a sentence the code no longer says is dropped.
docs/translating.md has the whole workflow.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable
from pathlib import Path
from string import Formatter
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from i18n import DOMAIN, LANGUAGES, LOCALE_DIR, catalog_path  # noqa: E402

SOURCES = ("bot", "render", "games", "i18n", "sandbox")
# The web pages (JavaScript): their say("…") and sayN("…", "…", n). The Activity's, and the sandbox's own page.
PAGE_SOURCES = ("activity/src", "sandbox/static")
PAGE_KEYWORDS = {"say": None, "sayN": (1, 2)}
COMMENT_TAGS = ("TRANSLATORS:",)
KEYWORDS = {
    "t": None,
    "tn": (1, 2),
    "pt": ((1, "c"), 2),
    "N_": None,
    "say": None,
    "IllegalMove": None,
    "OptionError": None,
    "CellNameError": None,
    "SpaceNameError": None,
}
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
HEADER = "Hexplay's sentences. Translate with docs/translating.md; `make translations` refreshes this file."


def collected() -> Catalog:
    """Every sentence the code says, with where it is said."""
    catalog = Catalog(project="Hexplay", domain=DOMAIN, header_comment=f"# {HEADER}", charset="utf-8")
    for source in SOURCES:
        for filename, line, message, comments, context in extract_from_dir(
            ROOT / source, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            where = (f"{source}/{filename}", line)
            catalog.add(message, locations=[where], auto_comments=comments, context=context)
    for pages in PAGE_SOURCES:
        page = extract_from_dir(
            ROOT / pages, method_map=[("**.js", "javascript")], keywords=PAGE_KEYWORDS, comment_tags=COMMENT_TAGS
        )
        for filename, line, message, comments, context in page:
            catalog.add(message, locations=[(f"{pages}/{filename}", line)], auto_comments=comments, context=context)
    for context, message, where in _command_strings():
        catalog.add(message, locations=[where], context=context)
    for message, where, comment in _game_strings():
        catalog.add(message, locations=[where], auto_comments=[comment] if comment else [])
    return catalog


def _game_strings() -> Iterable[tuple[str, tuple[str, int], str]]:
    """The games' own data players read (bot/chat/game_words.py says it): seat colours, the /rules summaries,
    the options' lines and the quick actions' labels, read from the registered games."""
    from games import GAMES

    for info in GAMES.values():
        where = (f"games/{info.id}.py", 0)
        for colour in info.seat_names:
            yield colour, where, "a seat's colour"
        yield info.summary, where, f"the /rules text of {info.name} (Markdown; keep the notation in backticks as it is)"
        for spec in info.options:
            yield spec.description, where, f"the line of {info.name}'s option {spec.key} (its key and values are typed)"
        for quick in info.quick_actions:
            yield quick.label, where, f"a button of {info.name} that plays `{quick.notation}`"


def _command_strings() -> Iterable[tuple[str, str, tuple[str, int]]]:
    """The slash commands of every feature, read from the cogs' classes (no bot is built)."""

    from bot.chat.translator import cog_strings

    return [found for cog in _cogs() for found in cog_strings(cog)]


def _cogs() -> list[Any]:
    """Every feature's cog class, in the features' order."""
    import importlib
    import pkgutil

    from discord.ext import commands

    import bot.chat.features as features

    found: list[Any] = []
    for module_info in pkgutil.iter_modules(features.__path__):
        module = importlib.import_module(f"bot.chat.features.{module_info.name}")
        found.extend(
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, commands.Cog) and value.__module__ == module.__name__
        )
    return found


def rendered(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=110, omit_header=False, sort_output=False, include_lineno=False)
    return out.getvalue()


def merged(template: Catalog, language: str) -> Catalog:
    path = catalog_path(language)
    if path.exists():
        catalog = _read(path, language)
    else:
        catalog = Catalog(locale=language, domain=DOMAIN, project="Hexplay", header_comment=f"# {HEADER}")
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    catalog.fuzzy = False  # the header: a fuzzy one would be skipped, and its plural rule with it
    return catalog


def fields(text: str) -> list[str]:
    """The ``str.format`` fields of a sentence, in order of appearance (``{name}`` → ``name``)."""
    return sorted(name.split("!")[0].split(".")[0].split("[")[0] for _, name, _, _ in Formatter().parse(text) if name)


def problems(message: Message) -> list[str]:
    """What is wrong with one translated entry: missing, or its fields differ from the English."""
    ids = [str(i) for i in message.id] if isinstance(message.id, (tuple, list)) else [str(message.id)]
    said = (
        [str(s or "") for s in message.string] if isinstance(message.string, (tuple, list)) else [message.string or ""]
    )
    if not all(said) or message.fuzzy:
        return ["not translated"]
    wanted = fields(ids[0])
    if len(ids) > 1:
        wanted = sorted(set(wanted) | set(fields(ids[1])))
    found = []
    for text in said:
        have = fields(text)
        if len(ids) > 1:  # a plural form may leave {count} out ("une partie")
            have = sorted(set(have) | ({"count"} & set(wanted)))
        if sorted(set(have)) != sorted(set(wanted)):
            found.append(f"fields {sorted(set(have))} instead of {sorted(set(wanted))}: {text!r}")
    return found


def _read(path: Path, language: str) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def _take(catalog: Catalog, sources: list[Path], language: str) -> int:
    taken = 0
    for path in sources:
        for message in _read(path, language):
            if not message.id or not message.string:
                continue
            mine = catalog.get(message.id, context=message.context)
            if mine is not None:
                mine.string = message.string
                mine.flags.discard("fuzzy")
                taken += 1
    return taken


def commands_table(language: str) -> str:
    """The slash commands with their names and options in ``language``, as a Markdown table."""
    import i18n

    rows = ["| command | in French | options |", "|---|---|---|"]
    with i18n.speaking(language):
        for cog in _cogs():
            group = str(cog.__cog_group_name__) + " " if cog.__cog_is_app_commands_group__ else ""
            here = i18n.pt("command name", group.strip()) + " " if group else ""
            for command in cog.__cog_app_commands__:
                options = ", ".join(
                    f"`{p.display_name}` → `{i18n.pt('option name', p.display_name)}`"
                    for p in getattr(command, "parameters", [])
                )
                french = i18n.pt("command name", command.name)
                rows.append(f"| `/{group}{command.name}` | `/{here}{french}` | {options} |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--commands"]:
        print(commands_table(argv[1]))
        return 0
    template = collected()
    if argv[:1] == ["--take"]:
        language, sources = argv[1], [Path(p) for p in argv[2:]]
        catalog = merged(template, language)
        taken = _take(catalog, sources, language)
        catalog_path(language).write_bytes(rendered(catalog))
        print(f"{catalog_path(language).relative_to(ROOT)}: {taken} translations taken")
        return 0
    if argv[:1] == ["--missing"]:
        language, rest = argv[1], argv[2:]
        prefixes = rest[: rest.index("--from")] if "--from" in rest else rest
        sources = [Path(p) for p in rest[rest.index("--from") + 1 :]] if "--from" in rest else []
        catalog = merged(template, language)
        _take(catalog, sources, language)
        bad = 0
        for message in catalog:
            if not message.id or not any(str(where).startswith(tuple(prefixes)) for where, _ in message.locations):
                continue
            for problem in problems(message):
                bad += 1
                context = f" [{message.context}]" if message.context else ""
                print(f"{message.locations[0][0]}{context}: {message.id!r}: {problem}")
        print(f"{bad} problems", file=sys.stderr)
        return 1 if bad else 0
    if "--check" in argv:
        current = TEMPLATE.read_bytes() if TEMPLATE.exists() else b""
        if _body(current) != _body(rendered(template)):
            print("i18n/locale/hexplay.pot is out of date: run `make translations`", file=sys.stderr)
            return 1
        return 0
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_bytes(rendered(template))
    for language in LANGUAGES[1:]:
        path = catalog_path(language)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(rendered(merged(template, language)))
        print(f"{path.relative_to(ROOT)}: {len(template)} sentences")
    return 0


def _body(text: bytes) -> bytes:
    """The catalog without its header (which carries creation dates)."""
    return text.split(b"\n\n", 1)[-1]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
