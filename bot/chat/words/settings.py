"""``/settings``: a player's reminders (with their quiet hours), their challenges and blocks, their language,
and the refusals of each setting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import number, t

from ...domain.model import Preferences
from .markup import escape, quoted
from .shared import language_name


def preferences(prefs: Preferences, default_hours: float) -> str:
    hours = prefs.delay_hours or default_hours
    if not prefs.reminders:
        return t("Reminders are **off** in this server.")
    if prefs.via == "dm":
        said = t("Reminders are **on**: after {hours} h without your move, by a direct message.", hours=number(hours))
    else:
        said = t(
            "Reminders are **on**: after {hours} h without your move, by a ping in the match thread.",
            hours=number(hours),
        )
    return said + quiet_note(prefs)


def _time_of_day(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def quiet_note(prefs: Preferences) -> str:
    """The player's quiet hours, after their reminder settings."""
    if prefs.quiet_zone is None:
        return ""
    return " " + t(
        "Quiet hours: **{start}–{end}** in {zone}: no reminder or time warning then; it waits for your morning "
        "(a time limit itself never waits).",
        start=_time_of_day(prefs.quiet_start),
        end=_time_of_day(prefs.quiet_end),
        zone=escape(prefs.quiet_zone),
    )


SHOWN_BLOCKS = 20  # a reply lists this many, then counts the rest (Discord's 2,000 characters)


def challenge_settings(challenges: str, blocked: list[int]) -> str:
    """For the player only (an ephemeral reply): blocked people appear as mentions, which ping nobody there."""
    listed = ", ".join(f"<@{b}>" for b in blocked[:SHOWN_BLOCKS])
    if len(blocked) > SHOWN_BLOCKS:
        listed = t("{listed} and {count} more", listed=listed, count=number(len(blocked) - SHOWN_BLOCKS))
    if challenges == "nobody":
        text = t(
            "Challenges: you are **not taking challenges in this server** (you can still challenge others "
            "and join matches with open seats)."
        )
        return text + (" " + t("Blocked in every server: {blocked}.", blocked=listed) if blocked else "")
    if blocked:
        return t("Challenges: **from everyone except** {blocked} (a block holds in every server).", blocked=listed)
    return t("Challenges: you take them **from everyone**.")


def language_setting(chosen: str | None, spoken: str) -> str:
    """/settings: the language of a person's answers and DMs."""
    if chosen is not None:
        return t(
            "Language: {language} (your choice; `language: My Discord's language` to undo it).",
            language=language_name(chosen),
        )
    return t("Language: {language}, as your Discord is set.", language=language_name(spoken))


# -- refusals --------------------------------------------------------------------------------------


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "quiet_zone": lambda f: t(
        "`{zone}` is not a time zone I know: give an IANA name such as `Europe/Paris` or "
        "`America/New_York` (or `off`).",
        zone=quoted(f["zone"]),
    ),
    "quiet_hours": lambda f: t(
        "I cannot read the hours `{text}`: write them as `22:00-08:00`.", text=quoted(f["text"])
    ),
    "quiet_hours_empty": lambda f: t(
        "The quiet hours `{text}` start and end at the same time.", text=quoted(f["text"])
    ),
    "quiet_needs_zone": lambda f: t("Quiet hours need your time zone: give `quiet_zone` too (e.g. `Europe/Paris`)."),
    "reminder_delay_range": lambda f: t("The reminder delay must be between 1 hour and 14 days (336 hours)."),
    "reminder_via": lambda f: t("Reminders come by direct message (dm) or by a ping in the match (ping)."),
    "challenges_choice": lambda f: t(
        "Challenges come from everyone or nobody, not `{text}`.", text=quoted(f["text"], 20)
    ),
    "block_yourself": lambda f: t("You cannot block yourself."),
    "too_many_blocks": lambda f: t(
        "You have blocked {most} players, the most Hexplay keeps: unblock one "
        "first, or refuse challenges from everyone with challenges:nobody.",
        most=f["most"],
    ),
    "not_blocked": lambda f: t("{name} is not blocked.", name=escape(f["name"])),
    "block_a_bot": lambda f: t(
        "{name} is a bot: bots never challenge anyone, so there is nothing to block.", name=escape(f["name"])
    ),
    "unknown_language": lambda f: t(
        "Hexplay does not speak `{language}`; it speaks {known}.",
        language=quoted(str(f["language"]), 20),
        known=", ".join(language_name(code) for code in f["known"]),
    ),
}
