"""Reading what a player types in the composer: ``/command option:value …``.

The synced command list (what the bot registered with the emulator) is the only schema: an
option ends where the next ``name:`` of that command begins, so values may contain spaces.
:func:`suggest` says what the pop-up should offer for the text so far; values of options the
bot autocompletes are left to the caller, which asks the bot through the emulator.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from typing import Any

from i18n import N_, t

SUBCOMMAND_TYPES = (1, 2)
TYPE_NAMES = {
    3: N_("text"),
    4: N_("whole number"),
    5: N_("true/false"),
    6: N_("user"),
    7: N_("channel"),
    8: N_("role"),
    9: N_("user or role"),
    10: N_("number"),
    11: N_("file"),
}
TRUE_WORDS, FALSE_WORDS = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}
# A value ending with one of these goes on after a space ("e5; d4" as the bot writes a /premove line, "e5, d4"):
# the space does not end the option, and a word after it is the value's, never an option's name.
GOES_ON = (";", ",")


class ComposerError(Exception):
    """Something the player typed that Discord's own client would refuse, with the reason."""


@dataclass
class Parsed:
    command: dict[str, Any]
    path: list[str]  # subcommand names
    schema: list[dict[str, Any]]  # the options of the (sub)command
    values: dict[str, str] = field(default_factory=dict)
    last: str | None = None  # the option written last
    last_start: int = 0  # where its value starts in the text
    tail: str = ""  # trailing text that is not an option yet

    @property
    def name(self) -> str:
        return " ".join([self.command["name"], *self.path])

    def option(self, name: str) -> dict[str, Any] | None:
        return next((o for o in self.schema if o["name"] == name), None)


def find_command(commands: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((c for c in commands if c["name"] == name and c.get("type", 1) == 1), None)


def parse(text: str, commands: list[dict[str, Any]]) -> Parsed:
    if not text.startswith("/"):
        raise ComposerError(t("Commands start with /"))
    match = re.match(r"/(\S*)", text)
    assert match is not None
    command = find_command(commands, match.group(1))
    if command is None:
        raise ComposerError(t("There is no command /{name}. Type / to see them.", name=match.group(1)))
    position = match.end()
    schema: list[dict[str, Any]] = command.get("options") or []
    path: list[str] = []
    while any(o["type"] in SUBCOMMAND_TYPES for o in schema):
        word = re.compile(r"\s+(\S+)").match(text, position)
        sub = next((o for o in schema if word and o["name"] == word.group(1)), None)
        if sub is None:
            known = ", ".join(o["name"] for o in schema)
            raise ComposerError(t("/{command} needs one of: {known}", command=command["name"], known=known))
        assert word is not None  # the subcommand was found in it
        path.append(sub["name"])
        schema = sub.get("options") or []
        position = word.end()
    parsed = Parsed(command, path, schema)
    rest = text[position:]
    names = sorted((o["name"] for o in schema), key=len, reverse=True)
    if not names:
        parsed.tail = rest.strip()
        return parsed
    marker = re.compile(r"(?:^|\s)(" + "|".join(map(re.escape, names)) + r"):")
    found = list(marker.finditer(rest))
    parsed.tail = (rest[: found[0].start()] if found else rest).strip()
    for index, hit in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(rest)
        name = hit.group(1)
        if name in parsed.values:
            raise ComposerError(t("Option {name} is given twice.", name=name))
        value_start = hit.end()
        parsed.values[name] = rest[value_start:end].strip()
        parsed.last, parsed.last_start = name, position + value_start
    return parsed


def option_values(parsed: Parsed, users: dict[str, int]) -> dict[str, Any]:
    """The options as the emulator takes them, checked the way Discord's client checks them."""
    if parsed.tail:
        raise ComposerError(t("I don't understand {text!r}: write options as name:value", text=parsed.tail))
    values = _convert(parsed, users)
    missing = [o["name"] for o in parsed.schema if o.get("required") and o["name"] not in values]
    if missing:
        raise ComposerError(t("Missing: {options}", options=", ".join(f"{m}:" for m in missing)))
    return values


def _convert(parsed: Parsed, users: dict[str, int]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, raw in parsed.values.items():
        spec = parsed.option(name)
        assert spec is not None
        if raw == "":
            continue
        kind = spec["type"]
        if kind == 5:
            word = raw.lower()
            if word not in TRUE_WORDS | FALSE_WORDS:
                raise ComposerError(t("{name} must be true or false", name=name))
            values[name] = word in TRUE_WORDS
        elif kind in (6, 9):
            key = raw.lstrip("@").lower()
            if key not in users:
                known = ", ".join(sorted(users))
                raise ComposerError(
                    t("{name}: there is no user {raw!r} (users: {known})", name=name, raw=raw, known=known)
                )
            values[name] = users[key]
        elif kind in (4, 10):
            choice = next((c for c in spec.get("choices") or [] if c["name"].lower() == raw.lower()), None)
            try:
                values[name] = choice["value"] if choice else (int(raw) if kind == 4 else float(raw))
            except ValueError:
                raise ComposerError(
                    t("{name} must be a {kind}, not {raw!r}", name=name, kind=t(TYPE_NAMES[kind]), raw=raw)
                ) from None
        else:
            values[name] = raw
    return values


@dataclass
class Suggestion:
    label: str
    detail: str
    text: str  # the whole composer text once picked


@dataclass
class Pending:
    """What the pop-up should show: fixed suggestions, or the bot's autocomplete for an option."""

    title: str
    suggestions: list[Suggestion] = field(default_factory=list)
    ask_bot: str | None = None  # the option whose value the bot autocompletes
    prefix: str = ""  # text before the value being typed


def suggest(text: str, commands: list[dict[str, Any]], users: list[str], limit: int = 25) -> Pending | None:
    if not text.startswith("/"):
        return None
    head = re.match(r"/(\S*)$", text)
    if head:  # still typing the command's name
        typed = head.group(1).lower()
        found = [
            c
            for c in sorted(commands, key=lambda c: c["name"])
            if c.get("type", 1) == 1 and c["name"].startswith(typed)
        ]
        return Pending(
            t("Commands"),
            [Suggestion("/" + c["name"], c.get("description", ""), f"/{c['name']} ") for c in found[:limit]],
        )
    try:
        parsed = parse(text, commands)
    except ComposerError as error:
        return Pending(str(error))
    unused = [o["name"] for o in parsed.schema if o["name"] not in parsed.values]
    if parsed.last is None:
        return _option_suggestions(text, parsed, parsed.tail, limit)
    value = parsed.values[parsed.last]
    if text.endswith(" ") and value and not value.endswith(GOES_ON):
        return _option_suggestions(text, parsed, "", limit)
    word = text.rsplit(None, 1)[-1]
    before_word = value[: -len(word)].rstrip() if value.endswith(word) else value
    if " " in value and not before_word.endswith(GOES_ON) and any(name.startswith(word) for name in unused):
        return _option_suggestions(text, parsed, word, limit)
    return _value_suggestions(text, parsed, users, limit)


def _option_suggestions(text: str, parsed: Parsed, typed: str, limit: int) -> Pending:
    base = text[: len(text) - len(typed)] if typed else text
    if not base.endswith(" "):
        base += " "
    remaining = [o for o in parsed.schema if o["name"] not in parsed.values and o["name"].startswith(typed.lower())]
    remaining.sort(key=lambda o: not o.get("required"))
    items = []
    for spec in remaining[:limit]:
        detail = (
            spec.get("description", "")
            if spec.get("required")
            else t("{description} (optional)", description=spec.get("description", ""))
        )
        items.append(Suggestion(spec["name"] + ":", detail, f"{base}{spec['name']}:"))
    if not items:
        return Pending(t("Press Enter to send"))
    return Pending(t("/{command} options", command=parsed.name), items)


def _value_suggestions(text: str, parsed: Parsed, users: list[str], limit: int) -> Pending:
    name = parsed.last
    assert name is not None
    spec = parsed.option(name) or {}
    typed = parsed.values[name]
    prefix = text[: parsed.last_start]
    title = t("{option}: {description}", option=name, description=spec.get("description", ""))
    if spec.get("autocomplete"):
        return Pending(title, ask_bot=name, prefix=prefix)
    choices = spec.get("choices") or []
    if spec["type"] == 5:
        choices = [{"name": "true", "value": "true"}, {"name": "false", "value": "false"}]
    elif spec["type"] in (6, 9):
        choices = [{"name": u, "value": u} for u in users]
    if choices:
        found = [c for c in choices if typed.lower() in c["name"].lower() or typed.lower() in str(c["value"]).lower()]
        return Pending(
            title,
            [
                Suggestion(c["name"], str(c["value"]) if c["name"] != str(c["value"]) else "", f"{prefix}{c['value']} ")
                for c in found[:limit]
            ],
        )
    type_name = TYPE_NAMES.get(spec["type"])
    kind = t(type_name) if type_name else t("value")
    return Pending(t("{title} ({kind})", title=title, kind=kind))


def lenient_values(parsed: Parsed, users: dict[str, int], focused: str) -> dict[str, Any]:
    """The options typed so far for an autocomplete request: those not understood yet are left out."""
    values: dict[str, Any] = {}
    for name, raw in parsed.values.items():
        if name == focused:
            continue
        single = Parsed(parsed.command, parsed.path, parsed.schema, {name: raw})
        with contextlib.suppress(ComposerError):
            values.update(_convert(single, users))
    values[focused] = parsed.values.get(focused, "")
    return values
