"""What emulated *users* do: run slash commands, type into autocomplete, press buttons,
pick from selects, submit modals and write messages.

Each action is checked the way the Discord client would (unknown command or option,
missing required option, disabled button…) and raises :class:`EmulatorError` when no
real user could do it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .activities import PRIMARY_ENTRY_POINT
from .archiving import unarchive
from .errors import EmulatorError
from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES, MESSAGE_CONTENT, GatewaySession
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionResult,
    PendingInteraction,
)
from .limits import MAX_CONTENT, MAX_FILE_SIZE, SELECT_TYPES
from .models import Attachment, Channel, Guild, Message, User, new_snowflake

if TYPE_CHECKING:
    from .activities import Activities
    from .gateway import Gateway
    from .interactions import InteractionService
    from .store import Store

UserLike = User | int
ChannelLike = Channel | int
MessageLike = Message | int
AttachmentLike = Attachment | bytes | tuple[str, bytes]


class UserActions:
    """Mixin for :class:`~emulator.server.DiscordEmulator`."""

    store: Store
    gateway: Gateway
    interactions: InteractionService
    activities: Activities
    default_timeout: float

    def _observe(self, event: str, obj: Any) -> None:  # DiscordEmulator's (tells its observers)
        raise NotImplementedError

    # -------------------------------------------------------------- lookups

    def _user(self, user: UserLike) -> User:
        found = self.store.users.get(user.id if isinstance(user, User) else int(user))
        if found is None:
            raise EmulatorError(f"unknown user {user!r}")
        return found

    def _channel_of(self, channel: ChannelLike) -> Channel:
        found = self.store.channels.get(channel.id if isinstance(channel, Channel) else int(channel))
        if found is None or found.deleted:
            raise EmulatorError(f"unknown channel {channel!r}")
        return found

    def _live_message(self, message: MessageLike) -> Message:
        found = self.store.messages.get(message.id if isinstance(message, Message) else int(message))
        if found is None or found.deleted:
            raise EmulatorError(f"message {message!r} does not exist (deleted?)")
        return found

    def _check_member(self, user: User, channel: Channel) -> Guild | None:
        guild = self.store.guild_of(channel)
        if guild is not None and user.id not in guild.member_ids:
            raise EmulatorError(f"{user!r} is not a member of {guild!r}")
        if channel.is_dm and channel.recipient_id != user.id:
            raise EmulatorError(f"{user!r} cannot act in someone else's DM {channel!r}")
        return guild

    def dm_channel(self, user: UserLike) -> Channel:
        """The DM channel between ``user`` and the bot (created on first use)."""
        return self.store.dm_channel_for(self._user(user))

    # -------------------------------------------------------- slash commands

    async def invoke(
        self,
        user: UserLike,
        channel: ChannelLike,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Run ``/command`` (``"group sub"`` for subcommands) with options given by name.

        Names may be the ones the user sees in their locale (``/tournoi rejoindre`` with ``tournoi=`` for a
        French user): like Discord, the interaction carries the command's default names.

        Returns once the bot's first callback arrived (accepted or rejected: see
        ``result.errors``; after a bare acknowledgement, once its answer followed too); raises
        EmulatorError if none arrives within ``timeout``.
        """
        acting, where = self._user(user), self._channel_of(channel)
        guild = self._check_member(acting, where)
        schema, path = self._find_command(where, command, acting.locale)
        data = self._command_data(schema, path, dict(options or {}), guild, focused=None, locale=acting.locale)
        return await self._dispatch(APPLICATION_COMMAND, acting, where, data, timeout=timeout, label=f"/{command}")

    async def launch(self, user: UserLike, channel: ChannelLike, *, timeout: float | None = None) -> InteractionResult:
        """Open the app from the App Launcher in ``channel``: its Entry Point command (type 4). With ``handler``
        1 (APP_HANDLER) the bot gets the interaction and answers it (``LAUNCH_ACTIVITY``, or a message); with 2
        (DISCORD_LAUNCH_ACTIVITY) Discord launches the Activity itself and the bot hears nothing."""
        acting, where = self._user(user), self._channel_of(channel)
        self._check_member(acting, where)
        entry = next((c for c in self.store.global_commands if c.get("type") == PRIMARY_ENTRY_POINT), None)
        if entry is None or not self.activities.enabled:
            raise EmulatorError("the app has no Entry Point command (are its Activities enabled?)")
        if entry.get("handler") != 1:
            result = InteractionResult(new_snowflake(), APPLICATION_COMMAND, acting.id, where.id)
            result.activity = self.activities.launch(acting, where, None)
            result.callback_type, result.answered = 12, True
            return result
        data = {"id": entry["id"], "name": entry["name"], "type": PRIMARY_ENTRY_POINT}
        return await self._dispatch(APPLICATION_COMMAND, acting, where, data, timeout=timeout, label="entry point")

    async def autocomplete(
        self,
        user: UserLike,
        channel: ChannelLike,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str | None = None,
        timeout: float | None = None,
    ) -> list[dict[str, Any]]:
        """Type into an autocomplete option; returns the offered ``{"name", "value"}`` choices.

        ``focused`` defaults to the last option given. A rejected answer (e.g. more than 25
        choices) shows the user nothing, so it returns ``[]`` (and lands in ``violations``).
        """
        acting, where = self._user(user), self._channel_of(channel)
        guild = self._check_member(acting, where)
        values = dict(options or {})
        if focused is None:
            if not values:
                raise EmulatorError("autocomplete needs at least the focused option")
            focused = list(values)[-1]
        values.setdefault(focused, "")
        schema, path = self._find_command(where, command, acting.locale)
        data = self._command_data(schema, path, values, guild, focused=focused, locale=acting.locale)
        result = await self._dispatch(
            AUTOCOMPLETE, acting, where, data, timeout=timeout, label=f"/{command} autocomplete"
        )
        return list(result.choices or [])

    def command_list(self, user: UserLike, channel: ChannelLike) -> list[dict[str, Any]]:
        """The slash commands ``user`` is offered in ``channel``, as their Discord client shows them: names,
        descriptions, options and choices in the user's locale where the bot synced one (Discord's
        ``name_localized``), the default ones elsewhere. Each entry keeps its ``id``."""
        acting, where = self._user(user), self._channel_of(channel)
        return [
            {"id": command["id"], **_as_seen(command, acting.locale)}
            for command in self._synced_for(where)
            if command.get("type", 1) == 1 and self._available(command, where)
        ]

    def _synced_for(self, channel: Channel) -> list[dict[str, Any]]:
        guild_commands = self.store.guild_commands.get(channel.guild_id, []) if channel.guild_id else []
        return guild_commands + self.store.global_commands

    @staticmethod
    def _available(command: dict[str, Any], channel: Channel) -> bool:
        contexts = command.get("contexts")
        if channel.is_dm:
            guild_only = command.get("guild_id") or command.get("dm_permission") is False
            return not (guild_only or (contexts is not None and 1 not in contexts))
        return contexts is None or 0 in contexts

    def _find_command(self, channel: Channel, name: str, locale: str = "en-US") -> tuple[dict[str, Any], list[str]]:
        parts = name.split()
        if not parts:
            raise EmulatorError("empty command name")
        guild_commands = self.store.guild_commands.get(channel.guild_id, []) if channel.guild_id else []
        for command in guild_commands + self.store.global_commands:
            if _named(command, parts[0], locale) and command.get("type", 1) == 1:
                break
        else:
            known = sorted(c["name"] for c in guild_commands + self.store.global_commands)
            raise EmulatorError(f"/{parts[0]} is not synced for {channel!r}; synced commands: {known}")
        contexts = command.get("contexts")
        if channel.is_dm:
            guild_only = command.get("guild_id") or command.get("dm_permission") is False
            if guild_only or (contexts is not None and 1 not in contexts):
                raise EmulatorError(f"/{parts[0]} is not available in DMs")
        elif contexts is not None and 0 not in contexts:
            raise EmulatorError(f"/{parts[0]} is not available in guilds")
        return command, parts[1:]

    def _command_data(
        self,
        command: dict[str, Any],
        path: list[str],
        values: dict[str, Any],
        guild: Guild | None,
        *,
        focused: str | None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": []}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        container: list[dict[str, Any]] = data["options"]
        schema: list[dict[str, Any]] = command.get("options") or []
        for part in path:
            sub = next((o for o in schema if _named(o, part, locale) and o["type"] in (1, 2)), None)
            if sub is None:
                raise EmulatorError(f"/{command['name']} has no subcommand {part!r}")
            entry: dict[str, Any] = {"type": sub["type"], "name": sub["name"], "options": []}
            container.append(entry)
            container, schema = entry["options"], sub.get("options") or []
        if any(o["type"] in (1, 2) for o in schema):
            names = [o["name"] for o in schema]
            raise EmulatorError(f"/{command['name']} needs a subcommand, one of {names}")
        resolved: dict[str, dict[str, Any]] = {}
        given: set[str] = set()
        for name, value in values.items():
            spec = next((o for o in schema if _named(o, name, locale)), None)
            if spec is None:
                raise EmulatorError(f"unknown option {name!r}; options are {[o['name'] for o in schema]}")
            given.add(spec["name"])
            if name == focused:
                if not spec.get("autocomplete"):
                    raise EmulatorError(f"option {name!r} has no autocomplete")
                container.append({"type": spec["type"], "name": spec["name"], "value": str(value), "focused": True})
            else:
                container.append(self._option(spec, value, guild, resolved, locale))
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise EmulatorError(f"missing required option(s) {missing}")
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        spec: dict[str, Any],
        value: Any,
        guild: Guild | None,
        resolved: dict[str, dict[str, Any]],
        locale: str = "en-US",
    ) -> dict[str, Any]:
        kind, name = spec["type"], spec["name"]
        try:
            if kind == 3:
                value = self._choice(spec, str(value) if not isinstance(value, str) else value, locale)
                low, high = spec.get("min_length"), spec.get("max_length")
                if (low is not None and len(value) < low) or (high is not None and len(value) > high):
                    raise EmulatorError(f"option {name!r}: length must be within [{low}, {high}]")
            elif kind in (4, 10):
                value = self._choice(spec, self._choice_name_or(spec, value, locale, int if kind == 4 else float))
                low, high = spec.get("min_value"), spec.get("max_value")
                if (low is not None and value < low) or (high is not None and value > high):
                    raise EmulatorError(f"option {name!r}: value must be within [{low}, {high}]")
            elif kind == 5:
                value = bool(value)
            elif kind == 6 or (kind == 9 and not self._is_role(value, guild)):
                value = str(self._resolve_user(value, guild, resolved).id)
            elif kind == 7:
                channel = self._channel_of(value)
                allowed = spec.get("channel_types")
                if allowed and channel.type not in allowed:
                    raise EmulatorError(f"option {name!r}: channel type {channel.type} not in {allowed}")
                payload = {
                    **self.store.channel_payload(channel),
                    "permissions": str(self.store.bot_permissions(channel)),
                }
                resolved.setdefault("channels", {})[str(channel.id)] = payload
                value = str(channel.id)
            elif kind in (8, 9):
                value = str(self._resolve_role(value, guild, resolved))
            elif kind == 11:
                attachment = self._resolve_attachment(value)
                resolved.setdefault("attachments", {})[str(attachment.id)] = self.store.attachment_payload(attachment)
                value = str(attachment.id)
        except (TypeError, ValueError) as exc:
            raise EmulatorError(f"option {name!r}: cannot use {value!r} ({exc})") from None
        return {"type": kind, "name": name, "value": value}

    @staticmethod
    def _choice_name_or(spec: dict[str, Any], value: Any, locale: str, number: Any) -> Any:
        """A numeric option's value, or the value of the choice named ``value`` (as the user sees it)."""
        for choice in spec.get("choices") or []:
            if isinstance(value, str) and _named(choice, value, locale):
                return choice["value"]
        return number(value)

    @staticmethod
    def _choice(spec: dict[str, Any], value: Any, locale: str = "en-US") -> Any:
        choices = spec.get("choices")
        if not choices:
            return value
        for choice in choices:
            if choice["value"] == value:
                return value
        for choice in choices:
            if _named(choice, str(value), locale):
                return choice["value"]
        raise EmulatorError(f"option {spec['name']!r}: {value!r} is not one of {[c['value'] for c in choices]}")

    def _resolve_user(self, value: Any, guild: Guild | None, resolved: dict[str, dict[str, Any]]) -> User:
        user = self._user(value)
        resolved.setdefault("users", {})[str(user.id)] = self.store.user_payload(user)
        if guild is not None and user.id in guild.member_ids:
            member = self.store.member_payload(guild, user, with_user=False)
            member["permissions"] = str(self.store.member_permissions(self._any_channel(guild), user))
            resolved.setdefault("members", {})[str(user.id)] = member
        return user

    def _any_channel(self, guild: Guild) -> Channel:
        return (
            self.store.channels[guild.channel_ids[0]] if guild.channel_ids else Channel(id=0, type=0, guild_id=guild.id)
        )

    def _is_role(self, value: Any, guild: Guild | None) -> bool:
        if guild is None or isinstance(value, User):
            return False
        if value in ("@everyone", "everyone"):
            return True
        try:
            return int(value) in (guild.id, guild.bot_role_id)
        except (TypeError, ValueError):
            return False

    def _resolve_role(self, value: Any, guild: Guild | None, resolved: dict[str, dict[str, Any]]) -> int:
        if guild is None:
            raise EmulatorError("role options need a guild")
        role_id = guild.id if value in ("@everyone", "everyone") else int(value)
        role = next((r for r in self.store.role_payloads(guild) if r["id"] == str(role_id)), None)
        if role is None:
            raise EmulatorError(f"unknown role {value!r} (roles: @everyone={guild.id}, bot={guild.bot_role_id})")
        resolved.setdefault("roles", {})[str(role_id)] = role
        return role_id

    def _resolve_attachment(self, value: AttachmentLike) -> Attachment:
        if isinstance(value, Attachment):
            return value
        filename, data = value if isinstance(value, tuple) else ("upload.bin", value)
        if len(data) > MAX_FILE_SIZE:
            raise EmulatorError("attachment larger than the upload limit")
        return self.store.add_attachment(filename, bytes(data))

    # ------------------------------------------------------------ components

    async def press(
        self, user: UserLike, message: MessageLike, custom_id: str, *, timeout: float | None = None
    ) -> InteractionResult:
        """Press the button ``custom_id`` on a message the bot posted."""
        acting, target = self._user(user), self._live_message(message)
        component = self._component(target, custom_id, acting)
        if component.get("type") != 2:
            raise EmulatorError(f"{custom_id!r} is not a button (type {component.get('type')})")
        if component.get("style") in (5, 6):
            raise EmulatorError(f"{custom_id!r} is a link/premium button; it sends no interaction")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if "id" in component:
            data["id"] = component["id"]
        channel = self._channel_of(target.channel_id)
        return await self._dispatch(
            MESSAGE_COMPONENT, acting, channel, data, message=target, timeout=timeout, label=f"button {custom_id}"
        )

    async def select(
        self,
        user: UserLike,
        message: MessageLike,
        custom_id: str,
        values: Sequence[Any],
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Pick ``values`` in a select menu (option values, or users/channels/role ids for the typed selects)."""
        acting, target = self._user(user), self._live_message(message)
        component = self._component(target, custom_id, acting)
        kind = component.get("type")
        if kind not in SELECT_TYPES:
            raise EmulatorError(f"{custom_id!r} is not a select menu (type {kind})")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise EmulatorError(f"{custom_id!r} takes between {low} and {high} values, got {len(values)}")
        channel = self._channel_of(target.channel_id)
        guild = self.store.guild_of(channel)
        resolved: dict[str, dict[str, Any]] = {}
        picked: list[str] = []
        for value in values:
            if kind == 3:
                options = [o["value"] for o in component.get("options") or []]
                if value not in options:
                    raise EmulatorError(f"{value!r} is not an option of {custom_id!r}: {options}")
                picked.append(value)
            elif kind == 5 or (kind == 7 and not self._is_role(value, guild)):
                picked.append(str(self._resolve_user(value, guild, resolved).id))
            elif kind in (6, 7):
                picked.append(str(self._resolve_role(value, guild, resolved)))
            else:
                chosen = self._channel_of(value)
                payload = {**self.store.channel_payload(chosen), "permissions": str(self.store.bot_permissions(chosen))}
                resolved.setdefault("channels", {})[str(chosen.id)] = payload
                picked.append(str(chosen.id))
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind, "values": picked}
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(
            MESSAGE_COMPONENT, acting, channel, data, message=target, timeout=timeout, label=f"select {custom_id}"
        )

    def _component(self, message: Message, custom_id: str, user: User) -> dict[str, Any]:
        if message.ephemeral:
            owner = self._interaction_user(message)
            if owner is not None and owner != user.id:
                raise EmulatorError(f"{user!r} cannot see someone else's ephemeral message")
        component = message.find_component(custom_id)
        if component is None:
            ids = [c.get("custom_id") for c in message.all_components() if c.get("custom_id")]
            raise EmulatorError(f"no component {custom_id!r} on {message!r}; custom_ids: {ids}")
        if component.get("disabled"):
            raise EmulatorError(f"component {custom_id!r} is disabled")
        return component

    def _interaction_user(self, message: Message) -> int | None:
        pending = self.interactions.by_id.get(message.interaction_id or 0)
        return pending.user.id if pending else None

    async def submit_modal(
        self, user: UserLike, result: InteractionResult, values: Mapping[str, Any], *, timeout: float | None = None
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened (callback type 9) in ``result``.

        ``values`` maps each text input's custom_id to its text (selects: to a list of values).
        """
        if result.modal is None:
            raise EmulatorError(f"the bot opened no modal in {result!r}")
        acting = self._user(user)
        if acting.id != result.user_id:
            raise EmulatorError("only the user who triggered the modal can submit it")
        origin = self.interactions.by_id[result.interaction_id]
        remaining = dict(values)
        components = [self._modal_answer(c, remaining) for c in result.modal.get("components") or []]
        if remaining:
            raise EmulatorError(f"the modal has no inputs {sorted(remaining)}")
        data = {"custom_id": result.modal["custom_id"], "components": components}
        return await self._dispatch(
            MODAL_SUBMIT,
            acting,
            origin.channel,
            data,
            message=origin.component_message,
            timeout=timeout,
            label=f"modal {result.modal['custom_id']}",
        )

    def _modal_answer(self, component: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        kind = component.get("type")
        if kind == 1:
            return {"type": 1, "components": [self._modal_answer(c, values) for c in component.get("components") or []]}
        if kind == 18:
            return {"type": 18, "component": self._modal_answer(component["component"], values)}
        custom_id = component.get("custom_id")
        if kind == 4:
            assert isinstance(custom_id, str)  # limits.check_modal required it when the bot opened the modal
            text = str(values.pop(custom_id, component.get("value") or ""))
            low, high = component.get("min_length") or 0, component.get("max_length") or 4000
            if component.get("required", True) and not text:
                raise EmulatorError(f"text input {custom_id!r} is required")
            if text and not low <= len(text) <= high:
                raise EmulatorError(f"text input {custom_id!r} must be {low}-{high} characters")
            return {"type": 4, "custom_id": custom_id, "value": text}
        if kind in SELECT_TYPES:
            assert isinstance(custom_id, str)  # as for a text input
            return {"type": kind, "custom_id": custom_id, "values": [str(v) for v in values.pop(custom_id, [])]}
        return {"type": kind, **({"id": component["id"]} if "id" in component else {})}

    # --------------------------------------------------------- user messages

    async def user_message(self, user: UserLike, channel: ChannelLike, content: str) -> Message:
        """``user`` writes ``content`` in ``channel`` (use :meth:`dm_channel` to DM the bot).

        Dispatches MESSAGE_CREATE; without the MESSAGE_CONTENT intent the content is blanked
        for guild messages that do not mention the bot, as Discord does.
        """
        acting, where = self._user(user), self._channel_of(channel)
        guild = self._check_member(acting, where)
        if not content or len(content) > MAX_CONTENT:
            raise EmulatorError("a user message needs 1-2000 characters")
        if where.is_thread and where.locked:
            raise EmulatorError("the thread is locked")
        if where.is_thread and where.archived:  # writing in an archived thread unarchives it
            unarchive(self, where)  # type: ignore[arg-type]  # the mixin is the emulator itself
        message = self.store.add_message(where, acting, content=content)
        payload = self.store.message_payload(message)
        if guild is not None:
            payload["member"] = self.store.member_payload(guild, acting, with_user=False)
        mentions_bot = self.store.bot.id in message.mentions

        def for_session(session: GatewaySession) -> dict[str, Any]:
            if session.intents & MESSAGE_CONTENT or where.is_dm or mentions_bot:
                return payload
            return {**payload, "content": "", "embeds": [], "attachments": [], "components": []}

        self.gateway.dispatch("MESSAGE_CREATE", for_session, intents=DIRECT_MESSAGES if where.is_dm else GUILD_MESSAGES)
        self._observe("message_created", message)
        return message

    # --------------------------------------------------------------- plumbing

    def _interaction_payload(
        self, kind: int, user: User, channel: Channel, data: dict[str, Any], message: Message | None
    ) -> tuple[dict[str, Any], PendingInteraction]:
        store = self.store
        interaction_id = new_snowflake()
        token = "emu_" + secrets.token_urlsafe(48)
        guild = store.guild_of(channel)
        permissions = str(store.member_permissions(channel, user))
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(store.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": {**store.channel_payload(channel), "permissions": permissions},
            "app_permissions": str(store.bot_permissions(channel)),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": MAX_FILE_SIZE,
        }
        if guild is not None:
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.preferred_locale,
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                member={**store.member_payload(guild, user), "permissions": permissions},
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(user=store.user_payload(user), authorizing_integration_owners={"0": "0"}, context=1)
        if message is not None:
            payload["message"] = store.message_payload(message)
        result = InteractionResult(interaction_id, kind, user.id, channel.id)
        pending = PendingInteraction(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel=channel,
            result=result,
            component_message=message,
            data=data,
        )
        return payload, pending

    async def _dispatch(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        timeout: float | None,
        label: str,
    ) -> InteractionResult:
        timeout = self.default_timeout if timeout is None else timeout
        gateway, guild_id = self.gateway, channel.guild_id
        # With shards, only the session holding the channel's guild (shard 0 for a DM) gets it.
        if not await gateway.wait_ready(timeout, lambda: bool(gateway.ready_holding(guild_id))):
            raise EmulatorError(f"{label}: no bot is connected to the gateway (for guild {guild_id})")
        payload, pending = self._interaction_payload(kind, user, channel, data, message)
        self.interactions.register(pending)
        if not gateway.dispatch_interaction(payload):
            raise EmulatorError(f"{label}: the bot disconnected")
        result = pending.result
        started = time.monotonic()
        if not await result._signal.wait_for(lambda: result.answered, timeout):
            raise EmulatorError(f"{label}: the bot did not respond within {timeout}s")
        if result.callback_type in (5, 6) and kind != AUTOCOMPLETE:
            # A bare acknowledgement (a bot acknowledges first when its answer takes a while): the user's answer
            # is what follows, a follow-up or an edit of @original. Waited for within the same timeout, so a
            # test reads the answer whatever the bot's timing; a bot that never follows up returns as it is.
            left = max(0.0, timeout - (time.monotonic() - started))
            await result._signal.wait_for(lambda: _followed_up(result), left)
        return result


def _followed_up(result: InteractionResult) -> bool:
    original = result.original
    return bool(result.errors or result.followups or (original is not None and not original.loading))


# Discord's fallbacks when a localization is missing (application-commands, "Locale fallbacks").
LOCALE_FALLBACKS = {"en-US": "en-GB", "en-GB": "en-US", "es-419": "es-ES"}


def _localized(entity: dict[str, Any], field: str, locale: str) -> Any:
    """``entity[field]`` as a user of ``locale`` sees it."""
    table = entity.get(f"{field}_localizations") or {}
    for key in (locale, LOCALE_FALLBACKS.get(locale)):
        if key in table:
            return table[key]
    return entity.get(field)


def _named(entity: dict[str, Any], name: str, locale: str) -> bool:
    """Whether a user of ``locale`` typing ``name`` picks ``entity`` (its shown name, or its default one)."""
    return name in (entity.get("name"), _localized(entity, "name", locale))


def _as_seen(entity: dict[str, Any], locale: str) -> dict[str, Any]:
    """A command, option or choice as a user of ``locale`` sees it: its name and description in their locale,
    everything else (types, choices, autocomplete, bounds) as synced, without the localization tables."""
    seen = {key: value for key, value in entity.items() if not key.endswith("_localizations") and key != "id"}
    seen["name"] = _localized(entity, "name", locale)
    if "description" in entity:
        seen["description"] = _localized(entity, "description", locale)
    for key in ("options", "choices"):
        if entity.get(key):
            seen[key] = [_as_seen(child, locale) for child in entity[key]]
    return seen
