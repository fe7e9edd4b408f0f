"""Slash commands in the user's language: the names, descriptions and choices Discord shows.

discord.py asks :class:`CatalogTranslator` for every string of every command in every Discord locale while it
syncs the commands; the answer comes from the same gettext catalogs as the messages, under a context per kind
of string, so the command name "move" and the word "move" in a sentence are translated apart. Discord shows a
user the names of their own locale and still sends the English ones in the interaction, so the code never
sees a translated name.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator

import discord
from discord import app_commands
from discord.ext import commands

from i18n import DEFAULT, language_of, translations

CONTEXTS = {
    app_commands.TranslationContextLocation.command_name: "command name",
    app_commands.TranslationContextLocation.group_name: "command name",
    app_commands.TranslationContextLocation.command_description: "command description",
    app_commands.TranslationContextLocation.group_description: "command description",
    app_commands.TranslationContextLocation.parameter_name: "option name",
    app_commands.TranslationContextLocation.parameter_description: "option description",
    app_commands.TranslationContextLocation.choice_name: "choice",
}

AnyCommand = app_commands.Command | app_commands.Group


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = language_of(locale.value)
        kind = CONTEXTS.get(context.location)
        if language == DEFAULT or kind is None:
            return None  # English is the commands' own text; Discord shows it where nothing else is given
        said = translations(language).pgettext(kind, string.message)
        return said if said != string.message else None


def command_strings(commands: Iterable[AnyCommand]) -> Iterator[tuple[str, str, tuple[str, int]]]:
    """(context, English, where) for every string of ``commands`` Discord shows: what the catalogs must hold."""
    for command in commands:
        where = _where(command)
        yield "command name", command.name, where
        yield "command description", str(command.description), where
        if isinstance(command, app_commands.Group):
            yield from command_strings(command.commands)
            continue
        for parameter in command.parameters:
            yield "option name", parameter.display_name, where
            yield "option description", str(parameter.description), where
            for choice in parameter.choices:
                yield "choice", choice.name, where


def cog_strings(cog: type[commands.Cog]) -> Iterator[tuple[str, str, tuple[str, int]]]:
    """:func:`command_strings` of a cog's class; a ``GroupCog`` (``/tournament …``) is itself a command whose
    name and description are on the class, its commands the group's subcommands."""
    if cog.__cog_is_app_commands_group__:
        where = _where(cog)
        yield "command name", str(cog.__cog_group_name__), where
        yield "command description", str(cog.__cog_group_description__), where
    yield from command_strings(cog.__cog_app_commands__)


def _where(command: AnyCommand | type) -> tuple[str, int]:
    callback = getattr(command, "callback", None) or (command if isinstance(command, type) else type(command))
    try:
        path = inspect.getsourcefile(callback) or "?"
        line = inspect.getsourcelines(callback)[1]
    except (OSError, TypeError):
        return "?", 0
    return "bot/" + path.split("/bot/", 1)[-1], line
