"""Discord's documented limits on application commands and on the choices they offer.

A bulk-overwrite (PUT) of application commands (:func:`check_commands`: names, descriptions,
localizations, options and their value rules, the size of a command) and a type-8 autocomplete
callback's choices (:func:`check_choices`), which follow the same choice structure as an option's
fixed choices. Like :mod:`emulator.limits`, each ``check_*`` adds field errors to a
:class:`~emulator.errors.FormErrors` (which becomes 400/50035).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from .errors import FormErrors
from .limits import Path

MAX_CHOICES = 25
MAX_COMMAND_CHARS = 8000
MAX_CHAT_INPUT_COMMANDS = 100
MAX_CONTEXT_MENU_COMMANDS = 15

OPTIONS_TYPE_INVALID = "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"
_COMMAND_NAME_RE = re.compile(r"^[-_'\w]{1,32}$", re.UNICODE)

# ----------------------------------------------------------------------- autocomplete


def check_choices(choices: Any, errors: FormErrors, *, option_type: int | None = None) -> None:
    """A type-8 autocomplete callback's ``data.choices`` for an option of ``option_type`` (3, 4 or 10)."""
    path: Path = ["data", "choices"]
    if not isinstance(choices, list):
        errors.add(path, "LIST_TYPE_CONVERT", "Must be an array.")
        return
    errors.max_length(path, choices, MAX_CHOICES)
    for index, choice in enumerate(choices):
        _check_choice(choice, path + [index], errors, option_type=option_type)


INT53_MAX = 2**53 - 1
STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION = 3, 4, 10


def _check_choice(choice: Any, path: Path, errors: FormErrors, *, option_type: int | None = None) -> None:
    """One choice. "Type of value depends on the option type that the choice belongs to"
    (developers/interactions/application-commands.mdx, option choice structure); the OpenAPI
    description types an autocomplete answer as all-string, all-Int53 or all-double choices."""
    if not isinstance(choice, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    errors.length_between(path + ["name"], choice.get("name"), 1, 100)
    _check_localizations(choice, path, errors, name_max=100, keys=("name_localizations",))
    value = choice.get("value")
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if value is None or not (isinstance(value, str) or is_number):
        errors.required(path + ["value"])
    elif option_type == STRING_OPTION and not isinstance(value, str):
        errors.add(path + ["value"], "STRING_TYPE_CONVERT", "Could not interpret value as string.")
    elif option_type == INTEGER_OPTION and not _is_int53(value):
        errors.add(path + ["value"], "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
    elif option_type == NUMBER_OPTION and not (is_number and math.isfinite(value)):
        errors.add(path + ["value"], "NUMBER_TYPE_COERCE", f'Value "{value}" is not a valid number.')
    elif isinstance(value, str):
        errors.max_length(path + ["value"], value, 100)


def _is_int53(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return False
    return -INT53_MAX <= value <= INT53_MAX


# --------------------------------------------------------------------------- commands


def check_commands(commands: Any, errors: FormErrors) -> None:
    """A bulk-overwrite (PUT) of application commands."""
    if not isinstance(commands, list):
        errors.add([], "LIST_TYPE_CONVERT", "Must be an array.")
        return
    per_type: dict[int, set[str]] = {}
    for index, command in enumerate(commands):
        if not isinstance(command, dict):
            errors.add([index], "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        kind = command.get("type", 1)
        names = per_type.setdefault(kind if isinstance(kind, int) else -1, set())
        if repr(command.get("name")) in names:
            errors.add(
                [index, "name"], "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique"
            )
        names.add(repr(command.get("name")))
        _check_command(command, [index], errors)
    if len(per_type.get(1, ())) > MAX_CHAT_INPUT_COMMANDS:
        errors.add([], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHAT_INPUT_COMMANDS} or fewer chat input commands.")
    for kind in (2, 3):
        if len(per_type.get(kind, ())) > MAX_CONTEXT_MENU_COMMANDS:
            errors.add(
                [], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTEXT_MENU_COMMANDS} or fewer type-{kind} commands."
            )


def _check_name(name: Any, path: Path, errors: FormErrors, *, lowercase: bool) -> None:
    if not isinstance(name, str) or not _COMMAND_NAME_RE.match(name) or (lowercase and name != name.lower()):
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_command(command: dict[str, Any], path: Path, errors: FormErrors) -> None:
    kind = command.get("type", 1)
    if kind not in (1, 2, 3, 4):
        errors.add(path + ["type"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
        return
    if kind == 1:
        _check_name(command.get("name"), path + ["name"], errors, lowercase=True)
        errors.length_between(path + ["description"], command.get("description"), 1, 100)
        _check_options(command.get("options") or [], path + ["options"], errors, depth=0)
    else:
        errors.length_between(path + ["name"], command.get("name"), 1, 32)
        if kind == 4:  # PRIMARY_ENTRY_POINT: described like a slash command, no options (emulator/activities.py)
            errors.length_between(path + ["description"], command.get("description"), 1, 100)
        elif command.get("description"):
            errors.add(
                path + ["description"], "BASE_TYPE_MAX_LENGTH", "Context menu commands cannot have a description"
            )
        if command.get("options"):
            errors.add(path + ["options"], "BASE_TYPE_MAX_LENGTH", "Context menu commands cannot have options")
    if _command_chars(command) > MAX_COMMAND_CHARS:
        errors.add(path, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({MAX_COMMAND_CHARS})")
    _check_localizations(command, path, errors, name_max=32, chat_input_name=kind == 1, whole_table=True)
    for key, allowed in (("contexts", (0, 1, 2)), ("integration_types", (0, 1))):
        _check_enum_list(command.get(key), allowed, path + [key], errors)
    permissions = command.get("default_member_permissions")
    if permissions is not None:
        value = int(permissions) if isinstance(permissions, str) and permissions.isdigit() else permissions
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_PERMISSIONS:
            message = f'Value "{permissions}" is not a permission set.'
            errors.add(path + ["default_member_permissions"], "NUMBER_TYPE_COERCE", message)
    for key in ("nsfw", "dm_permission"):
        if command.get(key) is not None and not isinstance(command[key], bool):
            errors.add(path + [key], "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")


# OpenAPI: default_member_permissions maximum; developers/reference.mdx "Locales".
MAX_PERMISSIONS = 18014398509481983
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
CHANNEL_TYPES = (0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16)


def _check_localizations(
    entity: dict[str, Any],
    path: Path,
    errors: FormErrors,
    *,
    name_max: int,
    chat_input_name: bool = False,
    whole_table: bool = False,
    keys: tuple[str, ...] = ("name_localizations", "description_localizations"),
) -> None:
    """``name_localizations`` / ``description_localizations``: keys are Discord's locales, values "follow
    the same restrictions as" the field (developers/interactions/application-commands, application command
    object): 1-32 / 1-100 characters, and a chat-input command's or option's localized name matches the
    naming regex in lowercase (``chat_input_name``). Discord reports a bad localized *command* name on the
    whole ``name_localizations`` (``whole_table``; discord/discord-api-docs#7712), an option's per locale."""
    for key in keys:
        high = name_max if key == "name_localizations" else 100
        table = entity.get(key)
        if table is None:
            continue
        if not isinstance(table, dict):
            errors.add(path + [key], "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        for locale, text in table.items():
            if locale not in LOCALES:
                errors.add(path + [key, locale], "LOCALE_INVALID", f'"{locale}" is not a valid locale.')
            elif not isinstance(text, str):
                errors.add(path + [key, locale], "STRING_TYPE_CONVERT", "Could not interpret value as string.")
            elif key == "name_localizations" and chat_input_name:
                where = path + [key] if whole_table else path + [key, locale]
                _check_name(text, where, errors, lowercase=True)
            else:
                errors.length_between(path + [key, locale], text, 1, high)


def _localized_names(entity: dict[str, Any]) -> dict[str, str]:
    table = entity.get("name_localizations")
    return {k: v for k, v in table.items() if isinstance(v, str)} if isinstance(table, dict) else {}


def _check_unique_per_locale(entities: Sequence[Any], path: Path, errors: FormErrors, code: str, message: str) -> None:
    """Siblings must differ in the name a user of each locale sees: their localized name where they have
    one, else their default name (an option localized "partie" beside an option named "partie" collides for
    French users). The default names are checked by the caller."""
    tables = [(index, e, _localized_names(e)) for index, e in enumerate(entities) if isinstance(e, dict)]
    for locale in sorted({locale for _, _, table in tables for locale in table}):
        seen: set[str] = set()
        for index, entity, table in tables:
            shown = table.get(locale, entity.get("name"))
            if not isinstance(shown, str):
                continue
            if shown in seen:
                where = path + [index, "name_localizations", locale] if locale in table else path + [index, "name"]
                errors.add(where, code, message)
            seen.add(shown)


def _check_enum_list(values: Any, allowed: tuple[int, ...], path: Path, errors: FormErrors) -> None:
    """A list of enum values: at least one, each allowed, no repeats (OpenAPI minItems/uniqueItems)."""
    if values is None:
        return
    if not isinstance(values, list) or not values:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", "Must be a non-empty array.")
        return
    for index, value in enumerate(values):
        if isinstance(value, bool) or value not in allowed:
            errors.add(path + [index], "BASE_TYPE_CHOICES", f"Value must be one of {allowed}.")
    if len(set(map(repr, values))) != len(values):
        errors.add(path, "BASE_TYPE_UNIQUE", "Values must be unique.")


def _check_options(options: Any, path: Path, errors: FormErrors, *, depth: int) -> None:
    if not isinstance(options, list):
        errors.add(path, "LIST_TYPE_CONVERT", "Must be an array.")
        return
    errors.max_length(path, options, 25)
    names: set[str] = set()
    seen_optional = False
    _check_unique_per_locale(
        options, path, errors, "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option names must be unique"
    )
    has_subcommands = any(option.get("type") in (1, 2) for option in options if isinstance(option, dict))
    for index, option in enumerate(options):
        here = path + [index]
        if not isinstance(option, dict):
            errors.add(here, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        kind = option.get("type")
        if kind not in range(1, 12):
            errors.add(here + ["type"], "BASE_TYPE_CHOICES", "Value must be one of 1..11.")
            continue
        _check_name(option.get("name"), here + ["name"], errors, lowercase=True)
        errors.length_between(here + ["description"], option.get("description"), 1, 100)
        _check_localizations(option, here, errors, name_max=32, chat_input_name=True)
        if repr(option.get("name")) in names:
            errors.add(here + ["name"], "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option names must be unique")
        names.add(repr(option.get("name")))
        if has_subcommands and kind not in (1, 2):
            errors.add(here + ["type"], OPTIONS_TYPE_INVALID, "Subcommands cannot be mixed with options")
        if kind == 2:
            if depth != 0:
                errors.add(here + ["type"], OPTIONS_TYPE_INVALID, "Groups must be top-level")
            sub = option.get("options") or []
            if any(child.get("type") != 1 for child in sub if isinstance(child, dict)):
                errors.add(here + ["options"], OPTIONS_TYPE_INVALID, "Groups may only hold subcommands")
            _check_options(sub, here + ["options"], errors, depth=depth + 1)
            continue
        if kind == 1:
            if depth > 1:
                errors.add(here + ["type"], OPTIONS_TYPE_INVALID, "Subcommands nest too deep")
            _check_options(option.get("options") or [], here + ["options"], errors, depth=2)
            continue
        errors.boolean(here + ["required"], option.get("required"))
        errors.boolean(here + ["autocomplete"], option.get("autocomplete"))
        if option.get("required"):
            if seen_optional:
                errors.add(
                    here + ["required"],
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        _check_option_value_rules(option, here, errors)


def _check_option_value_rules(option: dict[str, Any], path: Path, errors: FormErrors) -> None:
    choices = option.get("choices")
    if choices is not None and not isinstance(choices, list):
        errors.add(path + ["choices"], "LIST_TYPE_CONVERT", "Must be an array.")
    elif choices:
        if option.get("type") not in (3, 4, 10):
            errors.add(path + ["choices"], "BASE_TYPE_CHOICES", "Only string, integer and number options take choices")
        errors.max_length(path + ["choices"], choices, MAX_CHOICES)
        for index, choice in enumerate(choices):
            _check_choice(choice, path + ["choices", index], errors, option_type=option.get("type"))
        if option.get("autocomplete"):
            reason = "Autocomplete cannot be set together with choices"
            errors.add(path + ["autocomplete"], "AUTOCOMPLETE_AND_CHOICES", reason)
    errors.number_between(path + ["min_length"], option.get("min_length"), 0, 6000)
    errors.number_between(path + ["max_length"], option.get("max_length"), 1, 6000)
    # "min_value / max_value: integer for INTEGER options, double for NUMBER options".
    kind = option.get("type")
    for key in ("min_value", "max_value"):
        value = option.get(key)
        if value is None or kind not in (INTEGER_OPTION, NUMBER_OPTION):
            continue
        if kind == INTEGER_OPTION and not _is_int53(value):
            errors.add(path + [key], "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            errors.add(path + [key], "NUMBER_TYPE_COERCE", f'Value "{value}" is not a valid number.')
    if option.get("channel_types") is not None:
        _check_enum_list(option["channel_types"], CHANNEL_TYPES, path + ["channel_types"], errors)


def _command_chars(command: Any) -> int:
    """Characters counted against the 8000 limit (wrongly typed parts are refused elsewhere): "only the
    longest localization for each field (including the default value) is counted" (application-commands,
    Limits)."""
    if not isinstance(command, dict):
        return 0
    total = _longest(command, "name") + _longest(command, "description")
    options = command.get("options")
    for option in options if isinstance(options, list) else []:
        total += _command_chars(option)
        choices = option.get("choices") if isinstance(option, dict) else None
        for choice in choices if isinstance(choices, list) else []:
            if isinstance(choice, dict):
                total += _longest(choice, "name") + len(str(choice.get("value") or ""))
    return total


def _longest(entity: dict[str, Any], field: str) -> int:
    texts = [entity.get(field)]
    table = entity.get(f"{field}_localizations")
    if isinstance(table, dict):
        texts.extend(table.values())
    return max((len(text) for text in texts if isinstance(text, str)), default=0)
