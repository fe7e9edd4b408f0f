"""The emulator refuses what Discord refuses: each rule here has a wrong request that must fail.

Raw HTTP (aiohttp with the bot's token) shows the exact response; a small real discord.py
client shows that the library sees the refusal (or, for 429s, retries until delivered).
"""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from emulator import DiscordEmulator, RateLimits, RouteLimit, commandlimits, patch_discord
from emulator.errors import FormErrors

TOKEN = "test-token"
AUTH = {"Authorization": f"Bot {TOKEN}"}


class StrictBot:
    """``async with StrictBot(emu) as bot:`` a discord.Client whose commands send chosen wrong requests."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.events: dict[str, Any] = {}
        self.client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self.client)
        self.client.setup_hook = self.tree.sync  # type: ignore[method-assign,assignment]
        self._task: asyncio.Task[None] | None = None
        self._register()

    async def __aenter__(self) -> StrictBot:
        self._task = asyncio.create_task(self.client.start(TOKEN))
        await self.emu.wait_until_ready(timeout=5)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.client.close()
        if self._task is not None:
            await self._task

    async def raw(self, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
        """A request the library would not build (interaction endpoints need no token)."""
        async with (
            aiohttp.ClientSession() as session,
            session.request(method, self.emu.api_base_url + path, **kwargs) as response,
        ):
            body = await response.json() if response.status != 204 else None
            return response.status, body

    def _register(self) -> None:
        tree, events, client = self.tree, self.events, self.client

        @tree.command(description="Pick a word")
        async def pick(interaction: discord.Interaction, word: str, count: int, ratio: float) -> None:
            await interaction.response.send_message(f"{word} {count} {ratio}")

        @pick.autocomplete("word")
        async def words(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
            if current == "int":
                return [app_commands.Choice(name="seven", value=7)]  # an integer on a string option
            return [app_commands.Choice(name="seven", value="7")]

        @pick.autocomplete("count")
        async def counts(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
            if current == "9":
                return [app_commands.Choice(name="nine", value="9")]  # a string on an integer option
            if current == "1":
                return [app_commands.Choice(name="one and a half", value=1.5)]  # not an integer
            return [app_commands.Choice(name="two", value=2)]

        @pick.autocomplete("ratio")
        async def ratios(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
            if current == "yes":
                return [app_commands.Choice(name="yes", value=True)]  # a boolean is no number
            return [app_commands.Choice(name="half", value=0.5), app_commands.Choice(name="one", value=1)]

        @tree.command(description="Answer with flags Discord does not let a bot set")
        async def flagged(interaction: discord.Interaction) -> None:
            url = f"/interactions/{interaction.id}/{interaction.token}/callback"
            loading = {"type": 4, "data": {"content": "thinking?", "flags": 1 << 7}}  # LOADING
            events["callback"] = await self.raw("POST", url, json=loading)
            await interaction.response.send_message("answered", silent=True)  # SUPPRESS_NOTIFICATIONS is fine

        @tree.command(description="Answer with data that is not an object")
        async def typed_wrong(interaction: discord.Interaction) -> None:
            url = f"/interactions/{interaction.id}/{interaction.token}/callback"
            events["callback"] = await self.raw("POST", url, json={"type": 4, "data": ["content", "x"]})
            await interaction.response.send_message("answered")

        @tree.command(description="Defer, then follow up with flags")
        async def deferred(interaction: discord.Interaction) -> None:
            url = f"/interactions/{interaction.id}/{interaction.token}/callback"
            events["defer"] = await self.raw("POST", url, json={"type": 5, "data": {"flags": 1 << 2}})
            await interaction.response.defer(ephemeral=True, thinking=True)
            hook = f"/webhooks/{client.application_id}/{interaction.token}"
            voice = {"content": "a voice message?", "flags": 1 << 13}  # IS_VOICE_MESSAGE: not for webhooks
            events["followup"] = await self.raw("POST", hook + "?wait=true", json=voice)
            await interaction.followup.send("done", ephemeral=True)

        @tree.command(description="A panel of components")
        async def panel(interaction: discord.Interaction) -> None:
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="A", custom_id="panel:a"))
            view.add_item(discord.ui.Button(label="B", custom_id="panel:b"))
            view.add_item(discord.ui.Select(custom_id="panel:s", options=[discord.SelectOption(label="x")], row=1))
            await interaction.response.send_message("panel", view=view)
            events["panel"] = await interaction.original_response()

        @tree.command(description="Post in this channel")
        async def say(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message("posting", ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            events.setdefault("said", []).append(await interaction.channel.send(text))

        @tree.command(description="DM everyone at once")
        async def nudge_all(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("nudging", ephemeral=True)
            users = [await client.fetch_user(user.id) for user in self.emu.store.users.values() if not user.bot]
            started = time.monotonic()
            sent = await asyncio.gather(*(user.send("your turn") for user in users))
            events["nudged"] = (len(sent), time.monotonic() - started)
            await interaction.followup.send(f"nudged {len(sent)}", ephemeral=True)


@pytest.fixture
async def emu():
    async with DiscordEmulator(bot_token=TOKEN) as emulator:
        patch_discord(emulator.api_base_url, emulator.gateway_url)
        yield emulator


@pytest.fixture
def world(emu: DiscordEmulator) -> SimpleNamespace:
    guild = emu.create_guild("Strict Server")
    return SimpleNamespace(
        guild=guild,
        games=emu.create_text_channel(guild, "games"),
        other=emu.create_text_channel(guild, "other"),
        users=[emu.create_user(name) for name in ("alice", "bob", "carol", "dave", "erin", "frank")],
    )


async def raw(emu: DiscordEmulator, method: str, path: str, **kwargs: Any) -> tuple[int, Any, Any]:
    """(status, JSON body, headers) of a request with the bot's token."""
    async with aiohttp.ClientSession() as session:
        headers = {**AUTH, **kwargs.pop("headers", {})}
        async with session.request(method, emu.api_base_url + path, headers=headers, **kwargs) as response:
            body = await response.json() if response.status != 204 else None
            return response.status, body, response.headers


def field_errors(body: dict[str, Any], *path: str | int) -> list[dict[str, str]]:
    node: Any = body["errors"]
    for part in path:
        node = node[str(part)]
    return node["_errors"]


# ------------------------------------------------------------------------- autocomplete


async def test_autocomplete_choice_values_must_have_the_option_type(emu, world) -> None:
    alice, games = world.users[0], world.games
    async with StrictBot(emu):
        assert await emu.autocomplete(alice, games, "pick", {"word": "w"}) == [{"name": "seven", "value": "7"}]
        assert await emu.autocomplete(alice, games, "pick", {"count": "2"}) == [{"name": "two", "value": 2}]
        ratios = await emu.autocomplete(alice, games, "pick", {"ratio": "0"})
        assert [c["value"] for c in ratios] == [0.5, 1]  # an integer is a number
        assert emu.violations == []
        # Wrong types: the user sees no suggestions, as on Discord, and each is a violation.
        assert await emu.autocomplete(alice, games, "pick", {"word": "int"}) == []
        assert await emu.autocomplete(alice, games, "pick", {"count": "9"}) == []
        assert await emu.autocomplete(alice, games, "pick", {"count": "1"}) == []
        assert await emu.autocomplete(alice, games, "pick", {"ratio": "yes"}) == []
    refused = [r for r in emu.rejections if r.status == 400]
    assert [(r.code, r.violation) for r in refused] == [(50035, True)] * 4
    assert "data.choices.0.value: Could not interpret value as string." in refused[0].description
    assert 'data.choices.0.value: Value "9" is not int.' in refused[1].description
    assert 'data.choices.0.value: Value "1.5" is not int.' in refused[2].description
    assert "data.choices.0.value" in refused[3].description
    assert len(emu.violations) == 4


def test_command_choices_must_have_the_option_type() -> None:
    def option(kind: int, value: Any) -> dict[str, Any]:
        return {"type": kind, "name": "o", "description": "o", "choices": [{"name": "c", "value": value}]}

    for kind, good, bad in ((3, "x", 1), (4, 1, "1"), (4, 2**53 - 1, 2**53), (10, 0.5, "0.5"), (10, 3, False)):
        for value, refused in ((good, False), (bad, True)):
            errors = FormErrors()
            commandlimits.check_commands([{"name": "c", "description": "c", "options": [option(kind, value)]}], errors)
            assert bool(errors.tree) == refused, (kind, value, errors.tree)
            if refused:
                assert "value" in errors.tree["0"]["options"]["0"]["choices"]["0"]


# ------------------------------------------------------------------------------ flags


async def test_channel_messages_refuse_flags_a_bot_cannot_set(emu, world) -> None:
    emu.rate_limits.enabled = False  # refused requests count against the bucket too
    path = f"/channels/{world.games.id}/messages"
    for flags in (1 << 6, 1 << 7, 1 << 1, 1 << 16, -1, "4", True):  # EPHEMERAL, LOADING, IS_CROSSPOST, ...
        status, body, _ = await raw(emu, "POST", path, json={"content": "x", "flags": flags})
        assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body"), flags
        assert field_errors(body, "flags"), flags
    assert emu.messages(world.games, include_ephemeral=True) == []
    status, body, _ = await raw(emu, "POST", path, json={"content": "quiet", "flags": (1 << 12) | (1 << 2)})
    assert status == 200 and body["flags"] == (1 << 12) | (1 << 2)
    # Editing is lenient on Discord: "unsupported flag changes are currently ignored without error".
    status, body, _ = await raw(emu, "PATCH", f"{path}/{body['id']}", json={"flags": 1 << 6})
    assert status == 200 and body["flags"] == 1 << 12  # EPHEMERAL ignored, SUPPRESS_EMBEDS cleared as asked
    assert len(emu.violations) == 7


async def test_interaction_answers_refuse_flags_a_bot_cannot_set(emu, world) -> None:
    alice, games = world.users[0], world.games
    async with StrictBot(emu) as bot:
        flagged = await emu.invoke(alice, games, "flagged")
        await flagged.wait_message()
        deferred = await emu.invoke(alice, games, "deferred")
        await deferred.wait_for(lambda result: any(m.content == "done" for m in result.messages))
    status, body = bot.events["callback"]
    assert (status, body["code"]) == (400, 50035) and field_errors(body, "flags")
    assert flagged.text == "answered" and flagged.response.flags == 1 << 12  # SUPPRESS_NOTIFICATIONS
    status, body = bot.events["defer"]  # a deferral may only be EPHEMERAL
    assert (status, body["code"]) == (400, 50035) and field_errors(body, "flags")
    status, body = bot.events["followup"]
    assert (status, body["code"]) == (400, 50035) and field_errors(body, "flags")
    assert deferred.ephemeral and [m.content for m in deferred.messages] == ["done"]
    assert len(emu.violations) == 3 and all("flags" in v for v in emu.violations)


# ------------------------------------------------------------------------- components


async def test_components_get_sequential_ids_that_discord_py_reads(emu, world) -> None:
    async with StrictBot(emu) as bot:
        result = await emu.invoke(world.users[0], world.games, "panel")
        for _ in range(100):  # the handler fetches the original response after answering
            if "panel" in bot.events:
                break
            await asyncio.sleep(0.01)
    stored = result.response
    assert [c["id"] for c in stored.all_components()] == [1, 2, 3, 4, 5]  # rows and children, depth first
    assert [c["type"] for c in stored.all_components()] == [1, 2, 2, 1, 3]
    parsed: discord.Message = bot.events["panel"]
    assert [row.id for row in parsed.components] == [1, 4]
    assert [child.id for child in parsed.components[0].children] == [2, 3]
    assert stored.buttons()[0] == {"custom_id": "panel:a", "label": "A", "style": 2, "disabled": False}
    assert emu.violations == []


async def test_component_ids_are_kept_skipped_and_must_be_unique(emu, world) -> None:
    emu.rate_limits.enabled = False
    path = f"/channels/{world.games.id}/messages"

    def button(custom_id: str, **extra: Any) -> dict[str, Any]:
        return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id, **extra}

    row = {"type": 1, "components": [button("a", id=2), button("b", id=0), button("c")]}
    status, body, _ = await raw(emu, "POST", path, json={"content": "x", "components": [row]})
    assert status == 200
    assert [body["components"][0]["id"]] + [b["id"] for b in body["components"][0]["components"]] == [1, 2, 3, 4]

    duplicated = {"type": 1, "components": [button("a", id=7), button("b", id=7)]}
    status, body, _ = await raw(emu, "POST", path, json={"content": "x", "components": [duplicated]})
    assert (status, body["code"]) == (400, 50035) and field_errors(body, "components", 0, "components", 1, "id")
    too_big = {"type": 1, "components": [button("a", id=2**31)]}
    status, body, _ = await raw(emu, "POST", path, json={"content": "x", "components": [too_big]})
    assert (status, body["code"]) == (400, 50035) and field_errors(body, "components", 0, "components", 0, "id")
    assert len(emu.messages(world.games)) == 1


# ---------------------------------------------------------------------------- threads


async def test_thread_creation_answers_201(emu, world) -> None:
    status, thread, _ = await raw(emu, "POST", f"/channels/{world.games.id}/threads", json={"name": "t", "type": 11})
    assert status == 201 and thread["type"] == 11 and thread["parent_id"] == str(world.games.id)
    _, message, _ = await raw(emu, "POST", f"/channels/{world.games.id}/messages", json={"content": "lobby"})
    status, thread, _ = await raw(
        emu, "POST", f"/channels/{world.games.id}/messages/{message['id']}/threads", json={"name": "from message"}
    )
    assert status == 201 and thread["id"] == message["id"]
    status, body, _ = await raw(emu, "POST", f"/channels/{world.games.id}/threads", json={"name": ""})
    assert (status, body["code"]) == (400, 50035)


# ------------------------------------------------------------------------ rate limits


async def test_message_posts_carry_bucket_headers_and_the_sixth_in_five_seconds_gets_429(emu, world) -> None:
    path = f"/channels/{world.games.id}/messages"
    seen = []
    for n in range(5):
        status, body, headers = await raw(emu, "POST", path, json={"content": f"m{n}"})
        assert status == 200 and headers["Via"]
        seen.append((headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"], headers["X-RateLimit-Bucket"]))
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5
        assert abs(float(headers["X-RateLimit-Reset"]) - time.time() - float(headers["X-RateLimit-Reset-After"])) < 0.5
    assert seen == [("5", str(4 - n), "message-create") for n in range(5)]

    status, body, headers = await raw(emu, "POST", path, json={"content": "one too many"})
    assert status == 429 and body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 5 and int(headers["Retry-After"]) >= body["retry_after"]
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Remaining"] == "0"
    assert "X-RateLimit-Global" not in headers and headers["Via"]
    assert [m.content for m in emu.messages(world.games)] == [f"m{n}" for n in range(5)]
    # The bucket is per channel (a top-level resource); other routes have buckets of their own.
    status, _, headers = await raw(emu, "POST", f"/channels/{world.other.id}/messages", json={"content": "elsewhere"})
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
    status, _, headers = await raw(emu, "GET", f"/channels/{world.games.id}")
    assert status == 200 and headers["X-RateLimit-Bucket"] != "message-create"
    [hit] = emu.rate_limit_hits
    assert (hit.scope, hit.bucket, hit.path) == ("user", "message-create", path)
    rows = {row["key"]: row for row in emu.rate_limiter.snapshot()}
    assert rows["global"]["limit"] == 50
    games = rows[f"message-create:{world.games.id}"]
    assert (games["limit"], games["remaining"]) == (5, 0) and 0 < games["reset_after"] <= 5
    assert rows[f"message-create:{world.other.id}"]["remaining"] == 4
    assert [r.status for r in emu.rejections] == [429] and emu.violations == []


async def test_bucket_refills_after_its_window(emu, world) -> None:
    emu.rate_limits.routes["message-create"] = RouteLimit(2, 0.3)
    path = f"/channels/{world.games.id}/messages"
    statuses = [(await raw(emu, "POST", path, json={"content": "x"}))[0] for _ in range(3)]
    assert statuses == [200, 200, 429]
    retry_after = emu.rate_limit_hits[-1].retry_after
    assert 0 < retry_after <= 0.3
    await asyncio.sleep(retry_after)
    status, _, headers = await raw(emu, "POST", path, json={"content": "again"})
    assert status == 200 and headers["X-RateLimit-Remaining"] == "1"


async def test_global_limit_spans_routes_and_channels(emu, world) -> None:
    emu.rate_limits = RateLimits(global_limit=4, global_per=10.0)
    for channel in (world.games, world.other, world.games, world.other):
        assert (await raw(emu, "GET", f"/channels/{channel.id}"))[0] == 200
    status, body, headers = await raw(emu, "POST", f"/channels/{world.games.id}/messages", json={"content": "x"})
    assert status == 429 and body["global"] is True and 0 < body["retry_after"] <= 10
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert int(headers["Retry-After"]) >= body["retry_after"]
    assert emu.messages(world.games) == []
    # Without the bot's token a request is not the bot's (Discord limits it by IP instead).
    assert (await raw(emu, "GET", "/gateway", headers={"Authorization": ""}))[0] == 200
    emu.rate_limits.enabled = False
    assert (await raw(emu, "GET", f"/channels/{world.games.id}"))[0] == 200


async def test_discord_py_waits_out_a_429_and_delivers(emu, world) -> None:
    """Another process filled the channel's bucket: the bot's post gets a 429, sleeps, and lands."""
    emu.rate_limits.routes["message-create"] = RouteLimit(2, 0.5)
    async with StrictBot(emu) as bot:
        for n in range(2):
            assert (await raw(emu, "POST", f"/channels/{world.games.id}/messages", json={"content": f"x{n}"}))[0] == 200
        result = await emu.invoke(world.users[0], world.games, "say", {"text": "after the wait"})
        delivered = await emu.wait_for_message(world.games, check=lambda m: m.content == "after the wait")
        # Then discord.py knows the bucket from the headers and waits *before* sending: no more 429s.
        for n in range(3):
            await emu.invoke(world.users[0], world.games, "say", {"text": f"more {n}"})
        for _ in range(300):  # the handler records its message just after the post returns
            if len(bot.events["said"]) == 4:
                break
            await asyncio.sleep(0.01)
    assert result.ephemeral and delivered.author_id == emu.bot.id
    assert [(h.scope, h.bucket) for h in emu.rate_limit_hits] == [("user", "message-create")]
    contents = [m.content for m in emu.messages(world.games)]
    assert contents[:3] == ["x0", "x1", "after the wait"] and sorted(contents[3:]) == ["more 0", "more 1", "more 2"]
    assert len(bot.events["said"]) == 4 and emu.violations == []


async def test_a_burst_of_dms_hits_the_global_limit_and_every_dm_arrives(emu, world) -> None:
    async with StrictBot(emu) as bot:
        emu.rate_limits.global_limit, emu.rate_limits.global_per = 4, 0.25
        result = await emu.invoke(world.users[0], world.games, "nudge_all", timeout=10)
        await result.wait_for(lambda r: any("nudged" in m.content for m in r.followups), timeout=15)
    assert bot.events["nudged"][0] == len(world.users)
    assert all([m.content for m in emu.dms(user)] == ["your turn"] for user in world.users)
    hits = emu.rate_limit_hits
    assert hits and all(h.scope == "global" for h in hits)
    # The interaction's answers (callback, followup) never count against the global limit.
    assert not any(h.path.startswith(("/interactions/", "/webhooks/")) for h in hits)
    assert emu.violations == []


# ------------------------------------------------- more of the OpenAPI description


async def test_message_fields_the_openapi_description_constrains(emu, world) -> None:
    emu.rate_limits.enabled = False
    path = f"/channels/{world.games.id}/messages"
    user = str(world.users[0].id)
    wrong: list[tuple[dict[str, Any], tuple[str | int, ...]]] = [
        # "parse" is mutually exclusive with a non-empty users / roles list (a documented validation error)
        ({"allowed_mentions": {"parse": ["users"], "users": [user]}}, ("allowed_mentions", "users")),
        ({"allowed_mentions": {"parse": ["roles"], "roles": [user]}}, ("allowed_mentions", "roles")),
        ({"allowed_mentions": {"parse": ["members"]}}, ("allowed_mentions", "parse", 0)),
        ({"allowed_mentions": {"parse": ["users", "users"]}}, ("allowed_mentions", "parse")),
        ({"allowed_mentions": {"users": [str(n) for n in range(1, 102)]}}, ("allowed_mentions", "users")),
        ({"allowed_mentions": {"users": ["alice"]}}, ("allowed_mentions", "users", 0)),
        ({"allowed_mentions": {"users": [user, user]}}, ("allowed_mentions", "users")),
        ({"allowed_mentions": {"replied_user": "yes"}}, ("allowed_mentions", "replied_user")),
        ({"tts": "no"}, ("tts",)),
        ({"nonce": 2**63}, ("nonce",)),
        ({"attachments": [{"filename": "a.png"}]}, ("attachments", 0, "id")),
        ({"attachments": [{"id": 0, "description": "d" * 1025}]}, ("attachments", 0, "description")),
        ({"message_reference": {"channel_id": str(world.games.id)}}, ("message_reference", "message_id")),
    ]
    for extra, where in wrong:
        status, body, _ = await raw(emu, "POST", path, json={"content": "hi", **extra})
        assert (status, body["code"]) == (400, 50035), extra
        assert field_errors(body, *where), (extra, body)
    assert emu.messages(world.games) == []
    fine = [
        {"allowed_mentions": {"parse": ["everyone"], "users": [user]}},
        {"allowed_mentions": {"parse": ["users", "roles"], "users": []}},  # an empty list is no conflict
        {"allowed_mentions": {"parse": [], "replied_user": False}},
        {"tts": False, "nonce": 12345},
    ]
    for extra in fine:
        status, body, _ = await raw(emu, "POST", path, json={"content": "hi", **extra})
        assert status == 200, (extra, body)
    assert len(emu.violations) == len(wrong)


def test_command_fields_the_openapi_description_constrains() -> None:
    base = {"name": "play", "description": "Play"}
    number = {"type": 10, "name": "n", "description": "n"}
    wrong: list[tuple[dict[str, Any], tuple[str | int, ...]]] = [
        ({"contexts": [0, 3]}, ("contexts", 1)),
        ({"contexts": []}, ("contexts",)),
        ({"integration_types": [0, 0]}, ("integration_types",)),
        ({"default_member_permissions": "admin"}, ("default_member_permissions",)),
        ({"default_member_permissions": 2**60}, ("default_member_permissions",)),
        ({"nsfw": "false"}, ("nsfw",)),
        ({"name_localizations": {"english": "play"}}, ("name_localizations", "english")),
        ({"description_localizations": {"fr": ""}}, ("description_localizations", "fr")),
        ({"options": [{"type": 4, "name": "n", "description": "n", "min_value": 1.5}]}, ("options", 0, "min_value")),
        ({"options": [{**number, "max_value": "10"}]}, ("options", 0, "max_value")),
        (
            {"options": [{"type": 7, "name": "c", "description": "c", "channel_types": [0, 99]}]},
            ("options", 0, "channel_types", 1),
        ),
        ({"options": [{**number, "name_localizations": {"de": "N" * 33}}]}, ("options", 0, "name_localizations", "de")),
        ({"options": [{**number, "required": "yes"}]}, ("options", 0, "required")),
        ({"options": [{**number, "autocomplete": 1}]}, ("options", 0, "autocomplete")),
        ({"options": [{"type": 3, "name": "s", "description": "s", "choices": "abc"}]}, ("options", 0, "choices")),
        ({"description": 7}, ("description",)),
    ]
    for extra, where in wrong:
        errors = FormErrors()
        commandlimits.check_commands([{**base, **extra}], errors)
        node = errors.tree["0"]
        for part in where:
            node = node[str(part)]
        assert node["_errors"], (extra, errors.tree)
    fine = {
        **base,
        "contexts": [0, 1],
        "integration_types": [0],
        "default_member_permissions": "8",
        "nsfw": False,
        "name_localizations": {"fr": "jouer", "pt-BR": "jogar"},
        "options": [
            {**number, "min_value": 0, "max_value": 2.5},
            {"type": 4, "name": "i", "description": "i", "min_value": 1},
        ],
    }
    errors = FormErrors()
    commandlimits.check_commands([fine], errors)
    assert errors.tree == {}


async def test_command_sync_is_refused_as_a_whole(emu, world) -> None:
    commands = [{"name": "play", "description": "Play", "contexts": [7]}]
    path = f"/applications/{emu.application_id}/guilds/{world.guild.id}/commands"
    status, body, _ = await raw(emu, "PUT", path, json=commands)
    assert (status, body["code"]) == (400, 50035) and field_errors(body, 0, "contexts", 0)
    assert emu.commands(world.guild) == []


async def test_urls_must_be_well_formed_with_an_accepted_scheme(emu, world) -> None:
    emu.rate_limits.enabled = False
    path = f"/channels/{world.games.id}/messages"

    def link(url: str) -> dict[str, Any]:
        return {"components": [{"type": 1, "components": [{"type": 2, "style": 5, "label": "open", "url": url}]}]}

    wrong = [
        (link("javascript:alert(1)"), ("components", 0, "components", 0, "url"), "URL_TYPE_INVALID_SCHEME"),
        (link("https://"), ("components", 0, "components", 0, "url"), "URL_TYPE_INVALID_URL"),
        (link("https://discord.com/" + "x" * 500), ("components", 0, "components", 0, "url"), "BASE_TYPE_MAX_LENGTH"),
        (
            {"embeds": [{"title": "t", "url": "discord://-/channels/1"}]},
            ("embeds", 0, "url"),
            "URL_TYPE_INVALID_SCHEME",
        ),
        (
            {"embeds": [{"title": "t", "image": {"url": "board.png"}}]},
            ("embeds", 0, "image", "url"),
            "URL_TYPE_INVALID_SCHEME",
        ),
        ({"embeds": [{"title": "t", "timestamp": "yesterday"}]}, ("embeds", 0, "timestamp"), "DATE_TIME_TYPE_PARSE"),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v", "inline": "yes"}]}]},
            ("embeds", 0, "fields", 0, "inline"),
            "BOOLEAN_TYPE_CONVERT",
        ),
    ]
    for extra, where, code in wrong:
        status, body, _ = await raw(emu, "POST", path, json={"content": "hi", **extra})
        assert (status, body["code"]) == (400, 50035), extra
        assert [e["code"] for e in field_errors(body, *where)] == [code], body
    fine = [
        link(f"https://discord.com/channels/{world.guild.id}/{world.games.id}"),
        link("discord://-/channels/@me"),
        {"embeds": [{"title": "t", "image": {"url": "attachment://board.png"}, "timestamp": "2026-11-22T21:00:00Z"}]},
    ]
    for extra in fine:
        assert (await raw(emu, "POST", path, json={"content": "hi", **extra}))[0] == 200, extra
    assert len(emu.messages(world.games)) == len(fine) and len(emu.violations) == len(wrong)


async def test_enforce_nonce_returns_the_first_message_instead_of_a_second(emu, world) -> None:
    path = f"/channels/{world.games.id}/messages"
    first = await raw(emu, "POST", path, json={"content": "board", "nonce": "1234", "enforce_nonce": True})
    again = await raw(emu, "POST", path, json={"content": "board", "nonce": "1234", "enforce_nonce": True})
    assert first[0] == again[0] == 200 and first[1]["id"] == again[1]["id"] and first[1]["nonce"] == "1234"
    assert [m.content for m in emu.messages(world.games)] == ["board"]
    # Without enforce_nonce (or with another nonce) the same body is a new message.
    assert (await raw(emu, "POST", path, json={"content": "board", "nonce": "1234"}))[1]["id"] != first[1]["id"]
    assert (await raw(emu, "POST", path, json={"content": "board", "nonce": "99", "enforce_nonce": True}))[0] == 200
    assert len(emu.messages(world.games)) == 3
    status, body, _ = await raw(emu, "POST", path, json={"content": "x", "nonce": "5", "enforce_nonce": "true"})
    assert (status, body["code"]) == (400, 50035) and field_errors(body, "enforce_nonce")


async def test_more_than_120_gateway_events_a_minute_close_the_connection(emu) -> None:
    assert (emu.rate_limits.gateway.limit, emu.rate_limits.gateway.per) == (120, 60.0)
    async with aiohttp.ClientSession() as session, session.ws_connect(emu.gateway_url) as socket:
        hello = await socket.receive_json()
        assert hello["op"] == 10
        for n in range(121):
            await socket.send_json({"op": 1, "d": n})
        codes = []
        async for message in socket:
            if message.type == aiohttp.WSMsgType.TEXT:
                codes.append(message.json()["op"])
        assert set(codes) <= {11} and len(codes) <= 120  # (some ACKs may not be flushed before the close)
        assert socket.close_code == 4008
    assert emu.violations == ["gateway: more than 120 events in 60 s (closed 4008)"]


async def test_too_many_invalid_requests_are_a_violation(emu, world) -> None:
    assert (emu.rate_limits.invalid_requests.limit, emu.rate_limits.invalid_requests.per) == (10_000, 600.0)
    emu.rate_limits.invalid_requests = RouteLimit(5, 600.0)
    closed = emu.create_user("closed", dms_open=False)
    dm = emu.dm_channel(closed)
    for _ in range(4):  # a bot that keeps DMing a user whose DMs are closed: 403 each time
        assert (await raw(emu, "POST", f"/channels/{dm.id}/messages", json={"content": "hi"}))[0] == 403
    assert emu.violations == []
    assert (await raw(emu, "GET", "/users/@me", headers={"Authorization": "Bot wrong"}))[0] == 401
    assert not any(v.startswith("invalid requests") for v in emu.violations)
    assert (await raw(emu, "POST", f"/channels/{dm.id}/messages", json={"content": "hi"}))[0] == 403  # the 6th
    assert (await raw(emu, "POST", f"/channels/{dm.id}/messages", json={"content": "hi"}))[0] == 429  # 6 in 5 s
    [violation] = [v for v in emu.violations if v.startswith("invalid requests")]  # once per window
    assert violation.startswith("invalid requests: more than 5 401/403/429 responses in 600 s")


async def test_pinged_follows_allowed_mentions_and_their_defaults(emu, world) -> None:
    alice, bob = world.users[:2]
    path = f"/channels/{world.games.id}/messages"
    content = f"{alice.mention} and {bob.mention}"

    async def post(**extra: Any) -> list[int]:
        status, body, _ = await raw(emu, "POST", path, json={"content": content, **extra})
        assert status == 200
        return emu.message(int(body["id"])).pinged

    assert await post() == [alice.id, bob.id]  # a channel message parses every mention by default
    assert await post(allowed_mentions={"parse": []}) == []
    assert await post(allowed_mentions={"users": [str(bob.id)]}) == [bob.id]
    assert await post(allowed_mentions={"parse": ["users"]}) == [alice.id, bob.id]
    # Editing the content without allowed_mentions parses it with the defaults again.
    _, body, _ = await raw(emu, "POST", path, json={"content": content, "allowed_mentions": {"parse": []}})
    await raw(emu, "PATCH", f"{path}/{body['id']}", json={"content": content + "!"})
    assert emu.message(int(body["id"])).pinged == [alice.id, bob.id]
    assert all(m.mentions == [alice.id, bob.id] for m in emu.messages(world.games))  # mentions: what the text shows


async def test_whitespace_alone_is_an_empty_message(emu, world) -> None:
    path = f"/channels/{world.games.id}/messages"
    for content in ("", "   ", "\n\t "):
        status, body, _ = await raw(emu, "POST", path, json={"content": content})
        assert (status, body["code"]) == (400, 50006), repr(content)
    assert (await raw(emu, "POST", path, json={"content": " . "}))[0] == 200


async def test_message_history_query_is_checked(emu, world) -> None:
    path = f"/channels/{world.games.id}/messages"
    await raw(emu, "POST", path, json={"content": "one"})
    status, body, _ = await raw(emu, "GET", path + "?limit=100&before=9999999999999999999")
    assert status == 200 and [m["content"] for m in body] == ["one"]
    for query, where in (
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=ten", "limit"),
        ("before=yesterday", "before"),
        ("before=1&after=2", "after"),
    ):
        status, body, _ = await raw(emu, "GET", f"{path}?{query}")
        assert (status, body["code"]) == (400, 50035) and field_errors(body, where), query


async def test_ephemeral_answers_are_unknown_to_channel_endpoints(emu, world) -> None:
    alice = world.users[0]
    async with StrictBot(emu):
        result = await emu.invoke(alice, world.games, "say", {"text": "public"})  # answers ephemerally first
        await emu.wait_for_message(world.games, check=lambda m: m.content == "public")
    ephemeral = result.response
    assert ephemeral is not None and ephemeral.ephemeral
    path = f"/channels/{world.games.id}/messages/{ephemeral.id}"
    for method, body in (("GET", None), ("PATCH", {"content": "edited"}), ("DELETE", None)):
        status, answer, _ = await raw(emu, method, path, json=body)
        assert (status, answer["code"]) == (404, 10008), method
    assert ephemeral.content == "posting" and not ephemeral.deleted


async def test_wrongly_typed_fields_get_discords_form_error_not_a_crash(emu, world) -> None:
    """Mutations of the bot's own requests that the OpenAPI description refuses (a string where an
    object belongs, a number where a string belongs...) are refused as Discord refuses them."""
    emu.rate_limits.enabled = False
    button = {"type": 2, "style": 1, "label": "b", "custom_id": "b"}
    message = f"/channels/{world.games.id}/messages"
    commands = f"/applications/{emu.application_id}/guilds/{world.guild.id}/commands"
    option = {"type": 3, "name": "o", "description": "o"}
    wrong: list[tuple[str, str, Any, tuple[str | int, ...]]] = [
        (
            "POST",
            message,
            {"content": "x", "components": [{"type": 1, "components": [["not", "a", "button"]]}]},
            ("components", 0, "components", 0),
        ),
        (
            "POST",
            message,
            {"content": "x", "components": [{"type": 1, "components": [{**button, "label": 5}]}]},
            ("components", 0, "components", 0, "label"),
        ),
        (
            "POST",
            message,
            {"content": "x", "attachments": [{"id": 0, "filename": 12345}]},
            ("attachments", 0, "filename"),
        ),
        ("PUT", commands, [{"name": 12345, "description": "d"}], (0, "name")),
        ("PUT", commands, [{"name": "c", "description": "d", "options": "none"}], (0, "options")),
        (
            "PUT",
            commands,
            [{"name": "c", "description": "d", "options": [{**option, "choices": [[1]]}]}],
            (0, "options", 0, "choices", 0),
        ),
        ("POST", "/users/@me/channels", ["not", "an", "object"], ()),
        ("POST", "/users/@me/channels", {}, ("recipient_id",)),
        ("POST", f"/channels/{world.games.id}/messages/{{message}}/threads", {"name": 404}, ("name",)),
    ]
    for method, path, body, where in wrong:
        if "{message}" in path:
            _, posted, _ = await raw(emu, "POST", message, json={"content": "lobby"})
            path = path.replace("{message}", posted["id"])
        status, answer, _ = await raw(emu, method, path, json=body)
        assert (status, answer["code"]) == (400, 50035), (path, body, answer)
        node = answer["errors"]
        for part in where:
            node = node[str(part)]
        assert node["_errors"], (body, answer)
    assert not any("internal error" in violation for violation in emu.violations)
    async with StrictBot(emu) as bot:
        result = await emu.invoke(world.users[0], world.games, "typed_wrong")
        await result.wait_message()
    status, answer = bot.events["callback"]
    assert (status, answer["code"]) == (400, 50035) and field_errors(answer, "data")


async def test_an_uploaded_pictures_description_is_kept_and_over_1024_characters_refused(emu, world) -> None:
    """Discord's alt text (attachments[].description, at most 1,024 characters) on a real upload:
    kept on the attachment for tests to read; one character more is a 400 and nothing is posted."""
    emu.rate_limits.enabled = False
    path = f"/channels/{world.games.id}/messages"

    def upload(description: str) -> aiohttp.FormData:
        form = aiohttp.FormData()
        payload = {"content": "board", "attachments": [{"id": 0, "filename": "b.png", "description": description}]}
        form.add_field("payload_json", json.dumps(payload), content_type="application/json")
        form.add_field("files[0]", b"\x89PNG\r\n\x1a\n", filename="b.png", content_type="image/png")
        return form

    status, body, _ = await raw(emu, "POST", path, data=upload("d" * 1025))
    assert (status, body["code"]) == (400, 50035)
    assert field_errors(body, "attachments", 0, "description")
    assert emu.messages(world.games) == [] and len(emu.violations) == 1
    status, body, _ = await raw(emu, "POST", path, data=upload("Bide #1 board. " + "d" * 1009))
    assert status == 200, body
    assert body["attachments"][0]["description"] == "Bide #1 board. " + "d" * 1009
    (posted,) = emu.messages(world.games)
    assert posted.attachments[0].description == "Bide #1 board. " + "d" * 1009
