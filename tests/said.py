"""What players read, for tests: the chat layer's wording of the service's refusals and outcomes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.chat.features.lobby import lobby_text
from bot.chat.words import info, moves, outcomes, refusal, reminders, settings, shared
from bot.domain.errors import Refusal
from bot.domain.outcome import Outcome, ReminderJob
from bot.domain.seats import game_of

__all__ = [
    "history_lines",
    "lobby_text",
    "preferences_text",
    "previewed",
    "refusal_text",
    "refused",
    "reminder_text",
    "said",
    "suggested",
]


def said(outcome: Outcome, now: float | None = None) -> str:
    """The outcome's announcement, as of ``now`` (by default the moment the change was stored)."""
    return outcomes.announcement_text(outcome, outcome.match.updated_at if now is None else now)


def refusal_text(error: Refusal) -> str:
    return refusal(error)


@contextmanager
def refused(match: str | None = None) -> Iterator[pytest.ExceptionInfo[Refusal]]:
    """Like ``pytest.raises(Refusal, match=…)``, matching what the player reads rather than the reason's name."""
    with pytest.raises(Refusal) as raised:
        yield raised
    text = refusal(raised.value)
    if match is not None:
        assert re.search(match, text), f"{match!r} not found in the refusal {text!r}"


def suggested(service, match, game, user_id: int, typed: str) -> list[tuple[str, str]]:
    """/move's autocomplete choices, as the chat layer shows them."""
    hint = service.suggestions(match, game, user_id, typed)
    return moves.suggestion_choices(match, hint.choices, hint.note, hint.mover, typed)


async def previewed(service, match_id: int, user_id: int, text: str) -> tuple[bytes, str]:
    """/preview: the picture and its line."""
    tried = await service.preview(match_id, user_id, text)
    line = moves.preview_line(
        tried.match, game_of(tried.match), tried.seat, tried.game, tried.notation, tried.events, tried.unfinished
    )
    return tried.png, line


async def history_lines(service, match_id: int) -> list[str]:
    match, logged = await service.history(match_id)
    return [info.history_line(match, e.number, e.move, e.holder_id) for e in logged]


def reminder_text(job: ReminderJob, now: float) -> str:
    return reminders.reminder(job, now)


def preferences_text(service, prefs, default_hours: float | None = None) -> str:
    return settings.preferences(prefs, default_hours or service.default_reminder_hours)


class Words:
    """What the chat layer says of a service's data, under the names the service's wording once had."""

    def __init__(self, service) -> None:
        self.service = service

    def now(self) -> float:
        return self.service.clock.now()

    def status_line(self, match, game) -> str:
        return outcomes.status_line(match, game)

    def result_line(self, match, game) -> str:
        return outcomes.result_line(match, game)

    def time_note(self, match, prefix: str = "") -> str:
        return shared.time_note(match, self.now(), prefix)

    def describe_preferences(self, prefs, default_hours: float | None = None) -> str:
        return settings.preferences(prefs, default_hours or self.service.default_reminder_hours)

    def suggestions(self, match, game, user_id: int, typed: str) -> list[tuple[str, str]]:
        return suggested(self.service, match, game, user_id, typed)

    async def history(self, match_id: int) -> tuple[object, list[str]]:
        match, _ = await self.service.history(match_id)
        return match, await history_lines(self.service, match_id)

    async def preview(self, match_id: int, user_id: int, text: str) -> tuple[bytes, str]:
        return await previewed(self.service, match_id, user_id, text)

    async def board(self, match_id: int, zoom: str | None = None):
        shown = await self.service.board(match_id, zoom)
        return (
            shown.match,
            shown.game,
            shown.png,
            info.board_line(shown.match, shown.game, shown.vacations, self.now()),
        )

    async def vacation_note(self, match) -> str:
        return shared.vacation_note(await self.service.schedule.vacations(match, self.now()))

    def ending_dm(self, outcome) -> str:
        return outcomes.ending_dm(outcome, self.now())

    def can_start_early(self, match) -> bool:
        from bot.service.lobby import can_start_early

        return can_start_early(match)

    def text(self, job) -> str:
        """A reminder's or a time-limit notice's text."""
        return reminders.reminder(job, self.now()) if isinstance(job, ReminderJob) else reminders.deadline(job)


def words(service) -> Words:
    return Words(service)
