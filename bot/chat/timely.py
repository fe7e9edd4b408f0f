"""Discord's 3 seconds: every command and button is acknowledged in time, whatever the load.

Discord refuses an interaction's first answer after 3 seconds (10062 Unknown interaction): the player sees
"the application did not respond" although the move may well be stored. A handler that answers quickly
answers as it always did; one still working after ``WATCHDOG_SECONDS`` (a picture drawn on a busy machine, a
slow database, a round of many matches to store) is acknowledged for it by a watchdog: a button's press by a
silent acknowledgement (type 6, nothing shown), a command by "thinking…" shown privately, or publicly for the
commands whose answer everyone sees (``PUBLIC``). The handler never knows: its answer, when it comes, goes as
what fits after the acknowledgement (``TimelyResponse``): a message as a follow-up (filling the "thinking…"
placeholder when it has the answer's visibility, else replacing it), an edit of the pressed message as an edit
of it. Until then ``is_done()`` still says the handler has not answered, so a refusal is answered privately as
ever. An answer carrying files (a board) that is ready only after ``UPLOAD_BY_SECONDS`` is acknowledged first
too: its upload might not arrive within the 3 s.

Every interaction passes through here first (``answer_in_time``, from the command tree's check and from
``door.handle_press`` for buttons), before any work that can be slow. The watchdog and the handler's first answer
hold one lock, so the two never both answer. Autocomplete cannot be acknowledged late (its answer is the list):
it is left as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextvars import ContextVar
from typing import Any

import discord
from discord.utils import MISSING

log = logging.getLogger(__name__)

# After this long without an answer the watchdog acknowledges an interaction (Discord allows 3 s from its
# sending; the acknowledgement itself takes a round trip, and a busy event loop fires the timer late).
WATCHDOG_SECONDS = 1.5
# A first answer carrying files (a board) is sent as it is only this soon: its upload then has 2 s left. Later, it
# goes after an acknowledgement (a follow-up has no deadline but the token's 15 minutes).
UPLOAD_BY_SECONDS = 1.0
# A command whose answer everyone sees: ``@app_commands.command(..., extras=PUBLIC)``. Its "thinking…", if the
# watchdog shows one, is public too; a private answer then replaces it.
PUBLIC = {"answers": "public"}
# The stand-ins the watchdog leaves for the handler's answer.
SILENT, PUBLIC_THINKING, PRIVATE_THINKING, GONE = "silent", "public", "private", "gone"
# The task handling the interaction the running code serves (discord.py runs a command's check and callback,
# and a button's callback, in one task): what it sets off to post later waits for it (``answering``).
_ANSWERING: ContextVar[asyncio.Task[Any] | None] = ContextVar("answering", default=None)


def answering() -> asyncio.Task[Any] | None:
    """The task handling the interaction this code runs for, if it runs in one (None in a timer's pass, a worker's
    relay, the Activity's server): work it starts in the background and that posts waits for this task to end,
    so that its posts come after the interaction's answer."""
    task = _ANSWERING.get()
    return task if task is asyncio.current_task() else None  # a task it started carries its context, not its answer


def answer_in_time(interaction: discord.Interaction, delay: float | None = None) -> None:
    """Watch the interaction: unless its handler answers within ``delay`` seconds (counted from Discord's
    sending of it, as Discord counts), acknowledge it for the handler. Idempotent; autocomplete is left alone."""
    if interaction.type not in (
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        return
    _ANSWERING.set(asyncio.current_task())
    existing = getattr(interaction, "_cs_response", None)
    if isinstance(existing, TimelyResponse) or (existing is not None and existing.is_done()):
        return  # watched already, or answered before it came here (then nothing is late)
    if delay is None:
        delay = float(getattr(interaction.client, "answer_watchdog_seconds", WATCHDOG_SECONDS))
    # How long Discord's clock has been running for it (a busy event loop gets to an interaction late); within
    # 0 and the delay, so that a clock that differs from Discord's can only make the watchdog early or on time.
    waited = min(max((discord.utils.utcnow() - interaction.created_at).total_seconds(), 0.0), delay)
    response = TimelyResponse(interaction, waited)
    # discord.py creates an interaction's response on first use and keeps it in this slot (Interaction.response):
    # filled before any handler's first use, every answer of the handler goes through the watchdog's lock.
    interaction._cs_response = response  # type: ignore[attr-defined]
    response.watch(delay - waited)


def answers_publicly(interaction: discord.Interaction) -> bool:
    command = interaction.command
    return command is not None and getattr(command, "extras", {}).get("answers") == PUBLIC["answers"]


def _carries_files(kwargs: dict[str, Any]) -> bool:
    return kwargs.get("file", MISSING) is not MISSING or bool(kwargs.get("files"))


class TimelyResponse(discord.InteractionResponse):
    """An interaction's response whose first answer is never late: see the module's docstring."""

    def __init__(self, parent: discord.Interaction, waited: float = 0.0) -> None:
        super().__init__(parent)
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._watchdog: asyncio.Task[None] | None = None
        self._sent_at = asyncio.get_running_loop().time() - waited  # Discord's start of the 3 s, in loop time
        self.stand_in: str | None = None  # what the watchdog answered with (SILENT, a thinking), or None
        self._handler_answered = False

    # -- the watchdog ------------------------------------------------------------------------------

    def watch(self, delay: float) -> None:
        self._timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._watchdog = asyncio.create_task(self._watchdog_acknowledges(), name="discord.py: answer watchdog")

    async def _watchdog_acknowledges(self) -> None:
        async with self._lock:
            if self._response_type is None:  # else the handler answered meanwhile
                await self._acknowledge(public=answers_publicly(self._parent))

    async def _acknowledge(self, public: bool) -> None:
        """Under the lock: acknowledge for the handler; a command shows "thinking…" (``public`` or privately),
        a press nothing (its answer may be an edit of the pressed message)."""
        parent = self._parent
        if parent.type is not discord.InteractionType.application_command:
            stand_in = SILENT
        else:
            stand_in = PUBLIC_THINKING if public else PRIVATE_THINKING
        try:
            await super().defer(ephemeral=stand_in == PRIVATE_THINKING, thinking=stand_in != SILENT)
        except discord.HTTPException as error:  # too late already, or Discord failed: the handler answers
            log.warning("an interaction could not be acknowledged in time (%s)", error)
            return
        self.stand_in = stand_in
        log.info("interaction %s acknowledged before its answer (%s): its handler is slow", parent.id, stand_in)

    def _elapsed(self) -> float:
        return asyncio.get_running_loop().time() - self._sent_at

    def _stop_watching(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _standing_in(self) -> bool:
        """The watchdog answered and the handler has not yet: its first answer must fit the stand-in."""
        return self.stand_in is not None and not self._handler_answered

    def is_done(self) -> bool:
        """Whether the handler answered (the watchdog's acknowledgement is not an answer to it)."""
        return super().is_done() and not self._standing_in()

    # -- the handler's first answer ------------------------------------------------------------------

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        async with self._lock:
            self._stop_watching()
            if not self._standing_in():
                return await super().defer(ephemeral=ephemeral, thinking=thinking)
            self._handler_answered = True
            if self._parent.type is discord.InteractionType.application_command or thinking:
                await self._fit_visibility(ephemeral)  # the follow-ups to come take the handler's visibility
            return None

    async def send_message(self, content: Any = None, **kwargs: Any) -> Any:
        async with self._lock:
            self._stop_watching()
            ephemeral = bool(kwargs.get("ephemeral", False))
            if self._response_type is None and _carries_files(kwargs) and self._elapsed() > UPLOAD_BY_SECONDS:
                # an upload takes its time (a board is ~100 KB): late to start, it goes after an acknowledgement
                await self._acknowledge(public=not ephemeral)
            if not self._standing_in():
                return await super().send_message(content, **kwargs)
            self._handler_answered = True
            kwargs.pop("delete_after", None)  # not used by the bot; a follow-up has no such option
            await self._fit_visibility(ephemeral)
            message = await self._parent.followup.send(content if content is not None else MISSING, wait=True, **kwargs)
            return self._as_callback(message, ephemeral)

    async def edit_message(self, **kwargs: Any) -> Any:
        async with self._lock:
            self._stop_watching()
            if not self._standing_in():
                return await super().edit_message(**kwargs)
            self._handler_answered = True
            kwargs.pop("delete_after", None)
            kwargs.pop("suppress_embeds", None)
            await self._parent.edit_original_response(**kwargs)  # after a silent acknowledgement: the pressed message
            return None

    async def send_modal(self, modal: discord.ui.Modal, /) -> Any:
        async with self._lock:
            self._stop_watching()
            return await super().send_modal(modal)  # refused once acknowledged: a modal must come first

    async def autocomplete(self, choices: Any) -> None:
        async with self._lock:
            self._stop_watching()
            await super().autocomplete(choices)

    async def _fit_visibility(self, ephemeral: bool) -> None:
        """A command's "thinking…" of the other visibility is removed, so that the answer (a follow-up) is a new
        message of its own visibility rather than filling it; a silent acknowledgement needs nothing."""
        wanted = PRIVATE_THINKING if ephemeral else PUBLIC_THINKING
        if self.stand_in in (PUBLIC_THINKING, PRIVATE_THINKING) and self.stand_in != wanted:
            with contextlib.suppress(discord.NotFound):
                await self._parent.delete_original_response()
            self.stand_in = GONE

    def _as_callback(self, message: discord.WebhookMessage, ephemeral: bool) -> discord.InteractionCallbackResponse:
        """What ``send_message`` returns (its ``message_id`` is what the bot reads), for the follow-up sent."""
        parent = self._parent
        data: Any = {
            "interaction": {
                "id": str(parent.id),
                "type": parent.type.value,
                "response_message_id": str(message.id),
                "response_message_loading": False,
                "response_message_ephemeral": ephemeral,
            }
        }
        return discord.InteractionCallbackResponse(
            data=data, parent=parent, state=parent._state, type=discord.InteractionResponseType.channel_message
        )
