"""Slash commands in the user's language: the emulator refuses the localizations Discord refuses, shows a
user the names of their locale, and sends the bot the default names whichever the user typed.

Discord's rules (developers/interactions/application-commands, "Application Command Naming", "Localization"):
a localized name "follows the same restrictions as" the name (the naming regex, lowercase for chat-input
commands and options), a localized description 1-100 characters, a choice's localized name 1-100.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import discord
import pytest
from discord import app_commands

from emulator import DiscordEmulator, commandlimits, patch_discord
from emulator.errors import EmulatorError, FormErrors
from tests.botworld import BotWorld

TOKEN = "test-token"


def refusals(commands: list[dict[str, Any]]) -> dict[str, Any]:
    errors = FormErrors()
    commandlimits.check_commands(commands, errors)
    return errors.tree


def option(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": name, **extra}


def test_localized_names_obey_the_naming_rules_and_stay_unique_in_each_locale() -> None:
    play = {"name": "play", "description": "Play"}
    assert refusals([{**play, "name_localizations": {"fr": "Jouer"}}])["0"]["name_localizations"]["_errors"]
    assert refusals([{**play, "name_localizations": {"fr": "jouer vite"}}])["0"]["name_localizations"]["_errors"]
    bad_option = refusals([{**play, "options": [option("game", name_localizations={"fr": "le jeu"})]}])
    assert bad_option["0"]["options"]["0"]["name_localizations"]["fr"]["_errors"][0]["code"] == (
        "APPLICATION_COMMAND_INVALID_NAME"
    )
    # Two options a French user would both see as "partie": refused on the second, in its French name.
    twice = refusals(
        [
            {
                **play,
                "options": [
                    option("match", name_localizations={"fr": "partie"}),
                    option("game", name_localizations={"fr": "partie", "de": "spiel"}),
                ],
            }
        ]
    )
    error = twice["0"]["options"]["1"]["name_localizations"]["fr"]["_errors"][0]
    assert error["code"] == "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"
    # A localized name that is another option's default name collides too, for that locale's users.
    shadow = refusals([{**play, "options": [option("jeu"), option("game", name_localizations={"fr": "jeu"})]}])
    assert shadow["0"]["options"]["1"]["name_localizations"]["fr"]["_errors"]
    # ...and inside a subcommand.
    nested = {"type": 1, "name": "join", "description": "j", "options": [option("a", name_localizations={"fr": "b"})]}
    nested["options"].append(option("b"))
    assert refusals([{**play, "options": [nested]}])["0"]["options"]["0"]["options"]["1"]["name"]["_errors"]
    long_choice = option("speed", choices=[{"name": "fast", "value": "f", "name_localizations": {"fr": "v" * 101}}])
    assert refusals([{**play, "options": [long_choice]}])["0"]["options"]["0"]["choices"]["0"]["name_localizations"]
    menu = {"type": 2, "name": "Show Profile", "name_localizations": {"fr": "Voir le profil"}}
    fine = {
        **play,
        "name_localizations": {"fr": "jouer", "de": "spielen"},
        "description_localizations": {"fr": "Jouer une partie"},
        "options": [
            option("match", name_localizations={"fr": "partie"}, description_localizations={"fr": "Quelle partie"}),
            option("game", name_localizations={"fr": "jeu", "de": "partie"}),  # German may reuse it: own locale
            option("level", choices=[{"name": "easy", "value": "e", "name_localizations": {"fr": "facile"}}]),
        ],
    }
    assert refusals([fine, menu]) == {}


class FrenchCommands(app_commands.Translator):
    WORDS: ClassVar[dict[str, str]] = {
        "play": "jouer",
        "game": "jeu",
        "level": "niveau",
        "easy": "facile",
        "Play a game": "Jouer une partie",
    }

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context: Any) -> str | None:
        return self.WORDS.get(string.message) if locale is discord.Locale.french else None


@pytest.fixture
async def emu():
    async with DiscordEmulator(bot_token=TOKEN) as emulator:
        patch_discord(emulator.api_base_url, emulator.gateway_url)
        yield emulator


async def test_a_french_user_sees_and_types_french_names_and_the_bot_gets_the_default_ones(emu) -> None:
    guild = emu.create_guild("Serveur", locale="fr")
    salon = emu.create_text_channel(guild, "parties")
    amelie, bob = emu.create_user("amelie", locale="fr"), emu.create_user("bob")
    with pytest.raises(EmulatorError):
        emu.create_user("zoe", locale="fr-FR")  # not one of Discord's locales
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    tree = app_commands.CommandTree(client)
    seen: list[tuple[str, str, str, str]] = []

    @tree.command(name=app_commands.locale_str("play"), description=app_commands.locale_str("Play a game"))
    @app_commands.choices(level=[app_commands.Choice(name=app_commands.locale_str("easy"), value="e")])
    async def play(interaction: discord.Interaction, game: str, level: str = "h") -> None:
        seen.append((str(interaction.locale), str(interaction.guild_locale), game, level))
        await interaction.response.send_message("ok", ephemeral=True)

    async def setup() -> None:
        await tree.set_translator(FrenchCommands())
        await tree.sync(guild=discord.Object(guild.id))

    tree.copy_global_to(guild=discord.Object(guild.id))
    client.setup_hook = setup  # type: ignore[method-assign]
    task = asyncio.create_task(client.start(TOKEN))
    try:
        await emu.wait_until_ready(timeout=10)
        await asyncio.wait_for(client.wait_until_ready(), 10)
        assert client.get_guild(guild.id).preferred_locale is discord.Locale.french
        [shown] = emu.command_list(amelie, salon)
        assert (shown["name"], shown["description"]) == ("jouer", "Jouer une partie")
        assert [o["name"] for o in shown["options"]] == ["jeu", "niveau"]
        assert shown["options"][1]["choices"] == [{"name": "facile", "value": "e"}]
        assert emu.command_list(bob, salon)[0]["name"] == "play"
        await emu.invoke(amelie, salon, "jouer", {"jeu": "bide", "niveau": "facile"})  # discord.py finds "play"
        await emu.invoke(bob, salon, "play", {"game": "bump"})
        with pytest.raises(EmulatorError):
            await emu.invoke(bob, salon, "jouer", {"jeu": "bump"})  # bob's Discord is in English
        assert seen == [("fr", "fr", "bide", "e"), ("en-US", "fr", "bump", "h")]
    finally:
        await client.close()
        await asyncio.wait_for(task, 10)
    assert emu.violations == []


FRENCH_COMMANDS = {
    "leaderboard": "classement", "profile": "profil", "config": "config", "help": "aide", "board": "plateau",
    "history": "historique", "games": "parties", "rules": "regles", "play": "jouer", "move": "coup",
    "preview": "apercu", "hint": "indice", "turn": "tour", "resign": "abandon", "draw": "nulle", "undo": "reprise",
    "premove": "conditionnel", "explore": "analyse", "review": "revue", "settings": "reglages",
    "vacation": "vacances", "tournament": "tournoi",
}  # fmt: skip


async def test_the_bot_syncs_its_commands_in_french_and_a_french_player_plays_by_the_french_names(database) -> None:
    """The French names come from the catalog (i18n/locale/fr/LC_MESSAGES/hexplay.po)."""
    world = await BotWorld(database, guild_locale="fr").start()
    try:
        amelie = world.add_user("amelie", locale="fr")
        english = {c["name"] for c in world.commands_seen_by(world.users[0])}
        french = {c["name"]: c for c in world.commands_seen_by(amelie)}
        assert english >= set(FRENCH_COMMANDS) and set(french) >= set(FRENCH_COMMANDS.values())
        assert len(french) == len(english)  # no two commands a French player could not tell apart
        tournoi = french["tournoi"]
        assert [s["name"] for s in tournoi["options"]] == [
            "creer", "rejoindre", "quitter", "commencer", "classement", "abandonner", "annuler"
        ]  # fmt: skip
        assert {o["name"] for o in french["jouer"]["options"]} >= {"jeu", "adversaire", "jours", "ordinateur"}
        lobby = await world.emu.invoke(amelie, world.channel, "jouer", {"jeu": "Bide", "adversaire": world.users[1]})
        assert lobby.errors == [] and lobby.response is not None
        assert any("accept" in b["custom_id"] for b in lobby.response.buttons())
        aide = (await world.emu.invoke(amelie, world.channel, "aide")).response
        assert aide is not None
        assert "`/jouer` — Lancer une partie\u202f: invitez des adversaires" in aide.content
        assert "(creer, rejoindre, quitter, commencer, classement, abandonner, annuler)" in aide.content
        assert "`/play` — Start a match" in (await world.emu.invoke(world.users[0], world.channel, "help")).text
    finally:
        violations = list(world.emu.violations)
        await world.stop()
    assert violations == []
