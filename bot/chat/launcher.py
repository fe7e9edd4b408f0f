"""Opening the Activity from Discord: whether this bot has one, its Entry Point command, and the one question the
Activity's server asks Discord through the bot (is this user a member of that server?).

An application with Activities enabled in the developer portal carries the ``EMBEDDED`` flag and an Entry Point
command (type 4, PRIMARY_ENTRY_POINT). Discord refuses a bulk overwrite of the global commands that leaves it
out (400, 50240), so the command sync sends ours with the slash commands whenever the flag is set; it is
answered by the bot (``handler`` 1, APP_HANDLER) with LAUNCH_ACTIVITY, or with a private sentence when this bot
serves no Activity.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from i18n import pt, speaking

from ..config import Settings

ENTRY_POINT = 4  # application command type PRIMARY_ENTRY_POINT
APP_HANDLER = 1
ENTRY_POINT_NAME = "launch"  # the name Discord gives the default Entry Point: kept, so the App Launcher is unchanged
# Discord locales whose users read Hexplay's French (the slash commands' translator uses the same catalogs)
FRENCH_LOCALES = ("fr",)


def api_base() -> str:
    """The REST base discord.py calls (Discord's own, or DISCORD_API_BASE_URL's): the Activity's server calls
    Discord's OAuth2 endpoints there too."""
    return str(discord.http.Route.BASE)


def has_activity(client: discord.Client) -> bool:
    """Whether the application has Activities enabled (the EMBEDDED flag, read at login)."""
    flags = getattr(client, "application_flags", None)
    return bool(flags) and bool(getattr(flags, "embedded", False))


def serves_activity(client: discord.Client, settings: Settings) -> bool:
    """Whether this bot opens its Activity: enabled in the portal, and its web server configured here."""
    return settings.activity_port is not None and bool(settings.client_secret) and has_activity(client)


def entry_point_command() -> dict[str, Any]:
    """The Entry Point command as the commands' endpoint takes it (application-commands.mdx, "Entry Point
    Commands"): option-less, answered by the bot, in servers and DMs."""
    with speaking("en"):
        description = pt("command description", "See your matches on a board you can touch, and play them")
    with speaking("fr"):
        french = pt("command description", description)
    return {
        "name": ENTRY_POINT_NAME,
        "description": description,
        "description_localizations": dict.fromkeys(FRENCH_LOCALES, french) if french != description else {},
        "type": ENTRY_POINT,
        "handler": APP_HANDLER,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }


async def sync_with_entry_point(tree: app_commands.CommandTree[Any], client: discord.Client) -> None:
    """The global commands, and the Entry Point command with them (one bulk overwrite, as ``tree.sync``)."""
    assert client.application_id is not None
    translator = tree.translator
    payload = []
    for command in tree.get_commands():
        if translator is not None:
            payload.append(await command.get_translated_payload(tree, translator))
        else:
            payload.append(command.to_dict(tree))
    await client.http.bulk_upsert_global_commands(client.application_id, payload=[*payload, entry_point_command()])


async def upsert_entry_point(client: discord.Client) -> None:
    """The Entry Point command alone (the slash commands go to the development servers)."""
    assert client.application_id is not None
    command: Any = entry_point_command()  # (discord.py's types know no Entry Point commands yet)
    await client.http.upsert_global_command(client.application_id, command)


def is_entry_point(interaction: discord.Interaction) -> bool:
    data: Any = interaction.data or {}
    return interaction.type is discord.InteractionType.application_command and data.get("type") == ENTRY_POINT


class GuildMembers:
    """Asks Discord (the bot's token) whether a user is a member of a server the bot is in."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return False  # not a server of this bot (or not yet loaded): nothing of it is shown
        if guild.get_member(user_id) is not None:
            return True
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            return False
        except discord.Forbidden:
            return False
        return True
