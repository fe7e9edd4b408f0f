"""The emulator refuses what Discord refuses about Activities: LAUNCH_ACTIVITY, the Entry Point command, the
OAuth2 code exchange and users' Bearer tokens. Each rule has a wrong request that must fail.

Raw HTTP shows the exact answers; a small real discord.py client shows what the library makes of them
(``interaction.response.launch_activity()``).
"""

from __future__ import annotations

import asyncio
import base64
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from emulator import DiscordEmulator, patch_discord
from emulator.activities import EMBEDDED
from emulator.errors import EmulatorError

TOKEN = "test-token"
AUTH = {"Authorization": f"Bot {TOKEN}"}
FORM = "application/x-www-form-urlencoded"


@pytest.fixture
async def emu():
    async with DiscordEmulator(bot_token=TOKEN, client_secret="s3cret") as emulator:
        patch_discord(emulator.api_base_url, emulator.gateway_url)
        yield emulator


@pytest.fixture
def world(emu: DiscordEmulator) -> SimpleNamespace:
    guild = emu.create_guild("Activity Server")
    return SimpleNamespace(
        guild=guild,
        games=emu.create_text_channel(guild, "games"),
        alice=emu.create_user("alice", locale="fr"),
        bob=emu.create_user("bob"),
    )


async def raw(emu: DiscordEmulator, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session:
        headers = {**AUTH, **kwargs.pop("headers", {})}
        async with session.request(method, emu.api_base_url + path, headers=headers, **kwargs) as response:
            body = await response.json() if response.status != 204 else None
            return response.status, body


class LaunchingBot:
    """A discord.Client whose /open and button answer with LAUNCH_ACTIVITY, and whose autocomplete tries to."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.launched: list[discord.InteractionCallbackResponse[Any]] = []
        self.failures: list[Exception] = []
        self.client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self.client)
        self.client.setup_hook = self.tree.sync  # type: ignore[method-assign,assignment]
        self._task: asyncio.Task[None] | None = None

        @self.tree.command(description="Open the board")
        async def open(interaction: discord.Interaction, where: str = "") -> None:
            try:
                self.launched.append(await interaction.response.launch_activity())
            except discord.HTTPException as error:
                self.failures.append(error)
                await interaction.response.send_message("no Activity here", ephemeral=True)

        @open.autocomplete("where")
        async def where(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            url = f"{emu.api_base_url}/interactions/{interaction.id}/{interaction.token}/callback"
            async with aiohttp.ClientSession() as session, session.post(url, json={"type": 12}) as response:
                self.failures.append(RuntimeError(f"autocomplete launch: {response.status}"))
            return []

    async def __aenter__(self) -> LaunchingBot:
        self._task = asyncio.create_task(self.client.start(TOKEN))
        await self.emu.wait_until_ready(timeout=5)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.client.close()
        if self._task is not None:
            await self._task


# ------------------------------------------------------------------------- LAUNCH_ACTIVITY


async def test_launch_activity_needs_activities_enabled(emu, world) -> None:
    async with LaunchingBot(emu) as bot:
        result = await emu.invoke(world.alice, world.games, "open")
        await result.wait_for(lambda r: r.callback_type == 4)
    assert len(bot.failures) == 1 and bot.launched == []
    assert result.activity is None
    assert any("LAUNCH_ACTIVITY needs the application's Activities enabled" in v for v in emu.violations)


async def test_launch_activity_opens_one_instance_per_channel(emu, world) -> None:
    emu.enable_activities(default_entry_point=False)  # (this bot's sync would otherwise be refused: 50240)
    async with LaunchingBot(emu) as bot:
        first = await emu.invoke(world.alice, world.games, "open")
        second = await emu.invoke(world.bob, world.games, "open")
    assert bot.failures == [] and emu.violations == []
    assert first.callback_type == second.callback_type == 12
    assert first.activity is second.activity  # bob joins the Activity alice opened there
    assert first.activity is not None and first.activity.user_ids == [world.alice.id, world.bob.id]
    response = bot.launched[0]
    assert response.activity_id == first.activity.id  # discord.py read interaction.activity_instance_id
    assert isinstance(response.resource, discord.InteractionCallbackActivityInstance)
    assert response.resource.id == first.activity.id
    emu.activities.end(first.activity.id)
    async with LaunchingBot(emu):
        third = await emu.invoke(world.alice, world.games, "open")
    assert third.activity is not None and third.activity.id != first.activity.id


async def test_launch_activity_does_not_answer_autocomplete(emu, world) -> None:
    emu.enable_activities(default_entry_point=False)
    async with LaunchingBot(emu) as bot:
        await emu.autocomplete(world.alice, world.games, "open", {"where": "x"})
    assert [str(f) for f in bot.failures] == ["autocomplete launch: 400"]
    assert any("Callback type 12 is not valid for interaction type 4" in v for v in emu.violations)


# ------------------------------------------------------------------------- the Entry Point command

ENTRY = {"name": "launch", "description": "Open the board", "type": 4, "handler": 1}
SLASH = {"name": "play", "description": "Play", "type": 1}


async def test_entry_point_rules_in_a_bulk_overwrite(emu, world) -> None:
    app = emu.application_id
    path = f"/applications/{app}/commands"
    status, body = await raw(emu, "PUT", path, json=[SLASH, ENTRY])
    assert status == 400 and "EMBEDDED" in str(body["errors"]["1"]["type"])  # no Activities yet
    emu.enable_activities()
    assert emu.store.application_flags & EMBEDDED
    assert [c["name"] for c in emu.commands()] == ["launch"]  # Discord's default Entry Point, handler 2
    status, body = await raw(emu, "PUT", path, json=[SLASH])
    assert (status, body["code"]) == (400, 50240)  # leaving it out would remove it: refused whole
    assert [c["name"] for c in emu.commands()] == ["launch"]
    wrong = [
        [SLASH, ENTRY, {**ENTRY, "name": "open"}],  # two Entry Points
        [{**SLASH, "handler": 1}, ENTRY],  # handler on a slash command
        [SLASH, {**ENTRY, "handler": 3}],  # no such handler
        [SLASH, {**ENTRY, "options": [{"type": 3, "name": "x", "description": "x"}]}],  # options
        [SLASH, {**ENTRY, "description": ""}],  # described like a slash command
    ]
    for commands in wrong:
        status, body = await raw(emu, "PUT", path, json=commands)
        assert (status, body["code"]) == (400, 50035), commands
    status, body = await raw(emu, "PUT", f"/applications/{app}/guilds/{world.guild.id}/commands", json=[ENTRY])
    assert status == 400 and "guild command" in str(body["errors"])
    status, body = await raw(emu, "PUT", path, json=[SLASH, ENTRY])
    assert status == 200 and [c["handler"] for c in body if c["type"] == 4] == [1]
    default_id = next(c["id"] for c in emu.commands() if c["type"] == 4)
    assert default_id == next(c["id"] for c in body if c["type"] == 4)  # the same command, its handler changed


async def test_one_entry_point_created_alone(emu, world) -> None:
    emu.enable_activities()
    path = f"/applications/{emu.application_id}/commands"
    status, body = await raw(emu, "POST", path, json={**ENTRY, "name": "board"})
    assert status == 400 and "1 PRIMARY_ENTRY_POINT" in str(body["errors"])  # "launch" is the app's one
    status, body = await raw(emu, "POST", path, json=ENTRY)  # the same name: an overwrite
    assert status == 200 and body["handler"] == 1
    status, body = await raw(emu, "POST", path, json=SLASH)
    assert status == 201 and sorted(c["name"] for c in emu.commands()) == ["launch", "play"]


async def test_the_app_launcher_runs_the_entry_point(emu, world) -> None:
    with pytest.raises(EmulatorError, match="no Entry Point"):
        await emu.launch(world.alice, world.games)
    emu.enable_activities()
    by_discord = await emu.launch(world.alice, world.games)  # handler 2: Discord launches, the bot hears nothing
    assert by_discord.callback_type == 12 and by_discord.activity is not None
    assert ("POST", f"/interactions/{by_discord.interaction_id}") not in emu.requests


# ------------------------------------------------------------------------- OAuth2


async def exchange(emu: DiscordEmulator, form: dict[str, str], **kwargs: Any) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(emu.api_base_url + "/oauth2/token", data=form, **kwargs) as response,
    ):
        return response.status, await response.json()


def code_form(emu: DiscordEmulator, code: str, **extra: str) -> dict[str, str]:
    return {
        "client_id": str(emu.application_id),
        "client_secret": "s3cret",
        "grant_type": "authorization_code",
        "code": code,
        **extra,
    }


async def test_a_code_is_exchanged_once_for_a_token(emu, world) -> None:
    code = emu.oauth.authorize(world.alice, emu.application_id, ["identify"])
    status, body = await exchange(emu, code_form(emu, code))
    assert status == 200 and body["token_type"] == "Bearer" and body["scope"] == "identify"
    assert body["expires_in"] == 604800
    token = body["access_token"]
    status, me = await raw(emu, "GET", "/users/@me", headers={"Authorization": f"Bearer {token}"})
    assert status == 200 and (me["id"], me["username"], me["locale"]) == (str(world.alice.id), "alice", "fr")
    status, again = await exchange(emu, code_form(emu, code))  # a code is used once...
    assert (status, again["error"]) == (400, "invalid_grant")
    status, _ = await raw(emu, "GET", "/users/@me", headers={"Authorization": f"Bearer {token}"})
    assert status == 401  # ...and a second use revokes what the first gave (RFC 6749 §4.1.2)
    assert emu.violations == []  # a stale code or token is the user's: the server must expect it


async def test_the_token_endpoint_refuses_what_discord_refuses(emu, world) -> None:
    code = emu.oauth.authorize(world.alice, emu.application_id, ["identify"])
    status, body = await exchange(emu, {**code_form(emu, code), "client_secret": "guess"})
    assert (status, body["error"]) == (401, "invalid_client")
    status, body = await exchange(emu, {**code_form(emu, code), "grant_type": "password"})
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    async with (  # JSON instead of a form
        aiohttp.ClientSession() as session,
        session.post(emu.api_base_url + "/oauth2/token", json=code_form(emu, code)) as response,
    ):
        assert (response.status, (await response.json())["error"]) == (400, "invalid_request")
    status, body = await exchange(emu, code_form(emu, code, redirect_uri="https://elsewhere.example"))
    assert (status, body["error"]) == (400, "invalid_grant")
    assert len(emu.violations) == 3  # the caller's mistakes; the bad redirect is a refused grant
    status, body = await exchange(emu, code_form(emu, "forged-code"))
    assert (status, body["error"]) == (400, "invalid_grant")
    # HTTP Basic authentication instead of the form's client id and secret (oauth2.mdx)
    basic = base64.b64encode(f"{emu.application_id}:s3cret".encode()).decode()
    form = {"grant_type": "authorization_code", "code": code}
    status, body = await exchange(emu, form, headers={"Authorization": f"Basic {basic}"})
    assert status == 200 and body["access_token"]
    assert len(emu.violations) == 3


async def test_a_code_expires_and_a_redirect_must_match_its_authorization(emu, world) -> None:
    code = emu.oauth.authorize(world.bob, emu.application_id, ["identify"])
    emu.oauth.codes[code].expires_at = 0
    status, body = await exchange(emu, code_form(emu, code))
    assert (status, body["error"]) == (400, "invalid_grant")
    code = emu.oauth.authorize(world.bob, emu.application_id, ["identify"], redirect_uri="https://127.0.0.1")
    status, _ = await exchange(emu, code_form(emu, code))  # the authorization named one: it must come again
    assert status == 400
    code = emu.oauth.authorize(world.bob, emu.application_id, ["identify"], redirect_uri="https://127.0.0.1")
    status, _ = await exchange(emu, code_form(emu, code, redirect_uri="https://127.0.0.1"))
    assert status == 200
    with pytest.raises(EmulatorError):
        emu.oauth.authorize(world.bob, emu.application_id + 1, ["identify"])  # another app's id
    with pytest.raises(EmulatorError):
        emu.oauth.authorize(world.bob, emu.application_id, ["identify", "admin"])


async def test_users_me_with_a_bearer_token(emu, world) -> None:
    code = emu.oauth.authorize(world.bob, emu.application_id, ["guilds"])  # no "identify"
    _, body = await exchange(emu, code_form(emu, code))
    for header in (f"Bearer {body['access_token']}", "Bearer forged", "Bearer "):
        status, answer = await raw(emu, "GET", "/users/@me", headers={"Authorization": header})
        assert (status, answer["message"]) == (401, "401: Unauthorized"), header
    code = emu.oauth.authorize(world.bob, emu.application_id, ["identify"])
    _, body = await exchange(emu, code_form(emu, code))
    token = body["access_token"]
    assert (await raw(emu, "GET", "/users/@me", headers={"Authorization": f"Bearer {token}"}))[0] == 200
    emu.oauth.expire(token)
    assert (await raw(emu, "GET", "/users/@me", headers={"Authorization": f"Bearer {token}"}))[0] == 401
    status, me = await raw(emu, "GET", "/users/@me")  # the bot's own token still means the bot
    assert status == 200 and me["bot"] is True
