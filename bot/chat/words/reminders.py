"""The turn reminders and time warnings sent to players (by DM or in the match), the claim that follows a
time-out, snoozing, and why a reminder could not be delivered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import t

from ...domain.model import MatchRow
from ...domain.outcome import DeadlineJob, ReminderJob, TurnNotice
from ...domain.seats import title
from .shared import duration, seat_label, semicolon, time_note


def reminder(job: ReminderJob, now: float) -> str:
    match = job.match
    text = t(
        "It is your turn in **{title}** (waiting {waited}{time_left}).",
        title=title(match),
        waited=duration(job.waited),
        time_left=time_note(match, now, semicolon()),
    )
    return text + _last_move(job)


def _last_move(job: ReminderJob) -> str:
    if job.last_turn is None:
        return ""
    seat, notation = job.last_turn
    return " " + t(
        "Last move: {player} played `{notation}`.", player=seat_label(job.match, job.game, seat), notation=notation
    )


def reminder_with_warning(notice: TurnNotice) -> str:
    """A reminder and a time-limit warning due together, as one message: the warning's time, the reminder's wait."""
    match = notice.match
    assert match.deadline_at is not None  # a warning is about a deadline
    text = t(
        "It is your turn in **{title}** (waiting {waited}), and your time runs out <t:{when}:R> ({left} left). "
        "Play with /move, or take a /vacation.",
        title=title(match),
        waited=duration(notice.reminder.waited),
        when=int(match.deadline_at),
        left=duration(notice.warning.left),
    )
    return text + _last_move(notice.reminder)


def board_link(text: str, link: str) -> str:
    return t("{text}\nBoard: {link}", text=text, link=link)


def dms_closed() -> str:
    return t("direct messages from the bot are closed")


def both(first: str, second: str) -> str:
    """Two reasons a notice could not be delivered."""
    return t("{first}, and {second}", first=first, second=second)


def reminders_stopped(job: ReminderJob, why: str) -> str:
    return t(
        "<@{user}> Your reminders for **{title}** have stopped for this turn: none could reach you ({why}). "
        "It is still your turn: play with /move.",
        user=job.user_id,
        title=title(job.match),
        why=why,
    )


def snoozed(match: MatchRow) -> str:
    return t("No more reminders for this turn of {title}.", title=title(match))


def deadline(job: DeadlineJob) -> str:
    match = job.match
    if job.level == 3:
        claimants = " ".join(f"<@{u}>" for u in job.claimant_ids)
        if len(job.claimant_ids) == 1:
            return t(
                "<@{user}> has run out of time in **{title}**. {claimants}: press **Claim** to claim the win "
                "(until then they may still move).",
                user=job.user_id,
                title=title(match),
                claimants=claimants,
            )
        return t(
            "<@{user}> has run out of time in **{title}**. {claimants}: press **Claim** to drop them from the game "
            "(as if they resigned) (until then they may still move).",
            user=job.user_id,
            title=title(match),
            claimants=claimants,
        )
    assert match.deadline_at is not None
    return t(
        "Your time in **{title}** runs out <t:{when}:R> ({left} left). Play with /move, or take a /vacation.",
        title=title(match),
        when=int(match.deadline_at),
        left=duration(job.left),
    )


def claim_label(claimants: int) -> str:
    return t("Claim win") if claimants == 1 else t("Claim: drop the seat")


# -- refusals --------------------------------------------------------------------------------------


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "reminder_out_of_date": lambda f: t("That reminder is out of date: the turn has already moved on."),
}
