"""Interaction bookkeeping: what the test sees (:class:`InteractionResult`) and the rules for
callbacks, followups and ``@original`` edits (:class:`InteractionService`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from . import commandlimits, limits
from .activities import Activities, ActivityInstance
from .errors import ApiError, EmulatorError, FormErrors, unknown_interaction, unknown_message
from .host import Host
from .messaging import (
    DEFERRED_RESPONSE_FLAGS,
    FOLLOWUP_MESSAGE_FLAGS,
    INTERACTION_MESSAGE_FLAGS,
    Upload,
    check_flags,
    create_message,
    edit_message,
)
from .models import FLAG_EPHEMERAL, FLAG_LOADING, Channel, Message, User
from .waiting import Signal

# Interaction responses and followups parse only user mentions unless told otherwise.
WEBHOOK_MENTION_DEFAULTS = ("users",)

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

LAUNCH_ACTIVITY = 12

# Callback types accepted per interaction type. LAUNCH_ACTIVITY answers "command, message component, and modal
# submission interactions" (developers/activities/how-activities-work.mdx, "Interaction Response").
ALLOWED_CALLBACKS: dict[int, tuple[int, ...]] = {
    APPLICATION_COMMAND: (4, 5, 9, LAUNCH_ACTIVITY),
    MESSAGE_COMPONENT: (4, 5, 6, 7, 9, LAUNCH_ACTIVITY),
    AUTOCOMPLETE: (8,),
    MODAL_SUBMIT: (4, 5, 6, 7, LAUNCH_ACTIVITY),
}
CALLBACK_NAMES = {
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
    12: "LAUNCH_ACTIVITY",
}


class InteractionResult:
    """Everything the bot did in answer to one interaction; keeps filling in after it is returned.

    ``response`` is the message of a type 4/5/7 callback (for 5, the placeholder that later
    edits fill in), or the first followup after a type 6 or after the bot deleted its placeholder
    (``ephemeral`` then says that followup's visibility); ``messages`` is the visible original (if
    any) followed by the followups.
    """

    def __init__(self, interaction_id: int, kind: int, user_id: int, channel_id: int) -> None:
        self.interaction_id = interaction_id
        self.kind = kind
        self.user_id = user_id
        self.channel_id = channel_id
        self.callback_type: int | None = None
        self.response: Message | None = None
        self.original: Message | None = None
        self.deferred = False
        self.ephemeral = False
        self.followups: list[Message] = []
        self.choices: list[dict[str, Any]] | None = None
        self.modal: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.latency: float | None = None
        self.activity: ActivityInstance | None = None  # the Activity a LAUNCH_ACTIVITY callback opened
        self.answered = False
        self._signal = Signal()

    @property
    def messages(self) -> list[Message]:
        ordered = ([self.original] if self.original is not None else []) + self.followups
        unique = {message.id: message for message in ordered}
        return [message for message in unique.values() if not message.deleted and not message.loading]

    @property
    def text(self) -> str:
        return "\n".join(message.text for message in self.messages if message.text)

    def _changed(self) -> None:
        self._signal.notify()

    async def wait_for(self, predicate: Callable[[InteractionResult], bool], timeout: float = 5.0) -> None:
        """Wait until ``predicate(result)`` holds (e.g. after a defer), or raise EmulatorError."""
        if not await self._signal.wait_for(lambda: predicate(self), timeout):
            raise EmulatorError(f"interaction {self.interaction_id}: condition not met within {timeout}s; {self!r}")

    async def wait_followups(self, n: int, timeout: float = 5.0) -> list[Message]:
        """Wait until at least ``n`` followups arrived; returns the followups."""
        await self.wait_for(lambda result: len(result.followups) >= n, timeout)
        return self.followups

    async def wait_message(self, timeout: float = 5.0) -> Message:
        """Wait for the first visible message (a filled-in deferred response or a followup)."""
        await self.wait_for(lambda result: bool(result.messages), timeout)
        return self.messages[0]

    def __repr__(self) -> str:
        return (
            f"<InteractionResult callback={self.callback_type} deferred={self.deferred} ephemeral={self.ephemeral}"
            f" messages={len(self.messages)} followups={len(self.followups)} errors={self.errors}>"
        )


@dataclass(eq=False)
class PendingInteraction:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    result: InteractionResult
    component_message: Message | None = None
    original: Message | None = None  # what ``@original`` refers to once acknowledged
    dispatched_at: float = 0.0
    acknowledged: bool = False
    data: dict[str, Any] | None = None  # the interaction's ``data`` as sent to the bot

    def focused_option(self) -> dict[str, Any] | None:
        """The option an autocomplete interaction is about (``focused: true``), searched through subcommands."""
        stack = list((self.data or {}).get("options") or [])
        while stack:
            option = stack.pop()
            if option.get("focused"):
                return option
            stack.extend(option.get("options") or [])
        return None

    def age(self) -> float:
        return time.monotonic() - self.dispatched_at


class InteractionHost(Host, Protocol):
    """What the interaction service needs from the emulator beyond :class:`~emulator.host.Host`."""

    interaction_deadline: float  # seconds, real time, for the first callback
    token_lifetime: float  # seconds an interaction token accepts webhook calls
    activities: Activities


class InteractionService:
    def __init__(self, emulator: InteractionHost) -> None:
        self.emu = emulator
        self.store = emulator.store
        self.by_id: dict[int, PendingInteraction] = {}
        self.by_token: dict[str, PendingInteraction] = {}

    def register(self, pending: PendingInteraction) -> None:
        pending.dispatched_at = time.monotonic()
        self.by_id[pending.id] = pending
        self.by_token[pending.token] = pending

    # --------------------------------------------------------------- callback

    def callback(self, interaction_id: str, token: str, body: Any, uploads: list[Upload]) -> dict[str, Any]:
        try:
            pending = self.by_id.get(int(interaction_id))
        except ValueError:
            pending = None
        if pending is None or pending.token != token:
            raise unknown_interaction()
        result = pending.result
        try:
            if pending.acknowledged:
                raise ApiError(400, 40060, "Interaction has already been acknowledged.")
            deadline = self.emu.interaction_deadline
            if pending.age() > deadline:
                late = f"Unknown interaction (first response after {pending.age():.2f}s > {deadline:g}s)"
                raise ApiError(404, 10062, late)
            response = self._apply_callback(pending, body if isinstance(body, dict) else {}, uploads)
        except ApiError as error:
            result.errors.append(error.describe())
            raise
        finally:
            if not result.answered:
                result.answered = True
                result.latency = pending.age()
            result._changed()
        return response

    def _apply_callback(
        self, pending: PendingInteraction, body: dict[str, Any], uploads: list[Upload]
    ) -> dict[str, Any]:
        kind = body.get("type")
        data = body.get("data") or {}
        if not isinstance(data, dict):
            errors = FormErrors()
            errors.mapping(["data"], data)
            errors.raise_if_any()
        if kind not in ALLOWED_CALLBACKS[pending.type]:
            errors = FormErrors()
            reason = f"Callback type {kind} is not valid for interaction type {pending.type}"
            errors.add(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", reason)
            errors.raise_if_any()
        assert isinstance(kind, int)  # one of ALLOWED_CALLBACKS, checked just above
        result = pending.result
        message: Message | None = None
        if kind == 4:
            message = self._new_response_message(pending, data, uploads)
            result.response = result.original = pending.original = message
            result.ephemeral = message.ephemeral
        elif kind == 5:
            check_flags(data, DEFERRED_RESPONSE_FLAGS)  # "the only valid message flag you may use is EPHEMERAL"
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self.store.add_message(
                pending.channel,
                self.store.bot,
                flags=FLAG_LOADING | (FLAG_EPHEMERAL if ephemeral else 0),
                webhook_id=self.store.application_id,
                default_mention_parse=WEBHOOK_MENTION_DEFAULTS,
                interaction_id=pending.id,
                type=20 if pending.type == APPLICATION_COMMAND else 0,
            )
            result.response = result.original = pending.original = message
            result.deferred, result.ephemeral = True, ephemeral
            self.emu._observe("message_created", message)  # users see "<bot> is thinking…"
        elif kind in (6, 7):
            message = pending.component_message
            if message is None or message.deleted:
                raise ApiError(400, 50035, "This interaction has no message to update")
            if kind == 7:
                edit_message(self.store, message, data, uploads)
                result.response = result.original = message
                self.emu._message_edited(message)
            else:
                result.deferred = True  # result.original is set if the bot then edits @original
            pending.original = message
            result.ephemeral = message.ephemeral
        elif kind == 8:
            errors = FormErrors()
            focused = pending.focused_option()
            commandlimits.check_choices(
                data.get("choices"), errors, option_type=focused.get("type") if focused else None
            )
            errors.raise_if_any()
            result.choices = list(data["choices"])
        elif kind == 9:
            errors = FormErrors()
            limits.check_modal(data, errors)
            errors.raise_if_any()
            result.modal = data
        elif kind == LAUNCH_ACTIVITY:
            # "Only available for apps with Activities enabled" (receiving-and-responding.mdx, callback types).
            if not self.emu.activities.enabled:
                errors = FormErrors()
                reason = "LAUNCH_ACTIVITY needs the application's Activities enabled (the EMBEDDED flag)"
                errors.add(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", reason)
                errors.raise_if_any()
            result.activity = self.emu.activities.launch(pending.user, pending.channel, pending.id)
        pending.acknowledged = True
        result.callback_type = kind
        if kind == 4 and message is not None:
            self.emu._message_posted(message)
        return self._callback_response(pending, kind, message)

    def _new_response_message(self, pending: PendingInteraction, data: Any, uploads: list[Upload]) -> Message:
        return create_message(
            self.store,
            pending.channel,
            self.store.bot,
            data,
            uploads,
            allowed_flags=INTERACTION_MESSAGE_FLAGS,
            webhook_id=self.store.application_id,
            default_mention_parse=WEBHOOK_MENTION_DEFAULTS,
            interaction_id=pending.id,
            type=20 if pending.type == APPLICATION_COMMAND else 0,
        )

    def _callback_response(self, pending: PendingInteraction, kind: int, message: Message | None) -> dict[str, Any]:
        interaction: dict[str, Any] = {"id": str(pending.id), "type": pending.type}
        resource: dict[str, Any] = {"type": kind}
        if kind == LAUNCH_ACTIVITY and pending.result.activity is not None:
            # OpenAPI LaunchActivityInteractionCallbackResponse: the resource names the instance.
            interaction["activity_instance_id"] = pending.result.activity.id
            resource["activity_instance"] = {"id": pending.result.activity.id}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = message.loading
            interaction["response_message_ephemeral"] = message.ephemeral
            if kind in (4, 5, 7):
                resource["message"] = self.store.message_payload(message)
        return {"interaction": interaction, "resource": resource}

    # ---------------------------------------------------------------- webhooks

    def _by_webhook(self, application_id: str, token: str) -> PendingInteraction:
        if application_id != str(self.store.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        pending = self.by_token.get(token)
        if pending is None:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if pending.age() > self.emu.token_lifetime:
            raise ApiError(401, 50027, f"Invalid Webhook Token (token is {pending.age():.0f}s old)")
        return pending

    def _guarded(self, pending: PendingInteraction, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except ApiError as error:
            pending.result.errors.append(error.describe())
            raise
        finally:
            pending.result._changed()

    def followup(self, application_id: str, token: str, body: Any, uploads: list[Upload]) -> Message:
        pending = self._by_webhook(application_id, token)
        return self._guarded(pending, lambda: self._followup(pending, body, uploads))

    def _followup(self, pending: PendingInteraction, body: Any, uploads: list[Upload]) -> Message:
        result = pending.result
        if not pending.acknowledged:
            raise ApiError(404, 10015, "Unknown Webhook (followup before the interaction was acknowledged)")
        if pending.type == AUTOCOMPLETE:
            raise ApiError(400, 50035, "Autocomplete interactions cannot have followups")
        original = result.original
        check_flags(body, FOLLOWUP_MESSAGE_FLAGS)
        if result.callback_type == 5 and original is not None and original.loading and not original.deleted:
            # Documented quirk: the first followup after a deferral fills in the "thinking" message (once the
            # bot deleted that message, a followup is a message of its own, with its own flags).
            edit_message(self.store, original, body, uploads)
            original.flags &= ~FLAG_LOADING
            message = original
        else:
            message = create_message(
                self.store,
                pending.channel,
                self.store.bot,
                body,
                uploads,
                allowed_flags=FOLLOWUP_MESSAGE_FLAGS,
                webhook_id=self.store.application_id,
                default_mention_parse=WEBHOOK_MENTION_DEFAULTS,
                interaction_id=pending.id,
            )
        result.followups.append(message)
        if message is not original and (result.response is None or result.response.deleted):
            # the answer to a silent acknowledgement, or after the bot withdrew its "thinking…": what the user sees
            result.response, result.ephemeral = message, message.ephemeral
        self.emu._message_posted(message)
        return message

    def _target(self, pending: PendingInteraction, message_id: str) -> Message:
        result = pending.result
        if message_id == "@original":
            if pending.original is None or pending.original.deleted:
                raise unknown_message()
            return pending.original
        candidates = ([pending.original] if pending.original else []) + result.followups
        for message in candidates:
            if str(message.id) == message_id and not message.deleted:
                return message
        raise unknown_message()

    def get(self, application_id: str, token: str, message_id: str) -> Message:
        pending = self._by_webhook(application_id, token)
        return self._guarded(pending, lambda: self._target(pending, message_id))

    def edit(self, application_id: str, token: str, message_id: str, body: Any, uploads: list[Upload]) -> Message:
        pending = self._by_webhook(application_id, token)

        def apply() -> Message:
            message = self._target(pending, message_id)
            was_loading = message.loading
            edit_message(self.store, message, body, uploads)
            message.flags &= ~FLAG_LOADING
            if message is pending.original:
                pending.result.original = message
            if was_loading:
                self.emu._message_posted(message)
            else:
                self.emu._message_edited(message)
            return message

        return self._guarded(pending, apply)

    def delete(self, application_id: str, token: str, message_id: str) -> None:
        pending = self._by_webhook(application_id, token)

        def apply() -> None:
            message = self._target(pending, message_id)
            message.deleted = True
            self.emu._message_deleted(message)

        self._guarded(pending, apply)
