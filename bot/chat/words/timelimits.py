"""``/vacation`` and the time limits: a vacation's answer, and the refusals of claiming a win on time,
of vacations and of bank clocks as players write them (``72h+36h max 120h``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import number, t, tn

from ...domain.seats import title
from .markup import escape, quoted
from .shared import DAY, HOUR


def vacation(until: float, days: int, left: float, paused: int) -> str:
    return tn(
        "You are on vacation until <t:{until}:f> ({count} day; {left} left this year). Your clocks are paused "
        "({paused} running now), your opponents see it on the board, and no reminders come meanwhile.",
        "You are on vacation until <t:{until}:f> ({count} days; {left} left this year). Your clocks are paused "
        "({paused} running now), your opponents see it on the board, and no reminders come meanwhile.",
        days,
        until=int(until),
        left=number(left),
        paused=number(paused),
    )


# -- refusals --------------------------------------------------------------------------------------


def _not_out_of_time(f: dict[str, Any]) -> str:
    if f["deadline"] is None:
        return t("{name} has not run out of time.", name=escape(f["name"]))
    return t(
        "{name} has not run out of time: their time runs out <t:{deadline}:R>.",
        name=escape(f["name"]),
        deadline=int(f["deadline"]),
    )


def _vacation_allowance(f: dict[str, Any]) -> str:
    return tn(
        "You have {count} vacation day left in the last 365 days (the allowance is {allowance} a year).",
        "You have {count} vacation days left in the last 365 days (the allowance is {allowance} a year).",
        f["left"],
        allowance=number(f["allowance"]),
    )


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "only_players_claim": lambda f: t("Only a player still in {match} can claim.", match=title(f["match"])),
    "claim_out_of_date": lambda f: t("That claim is out of date: the turn has moved on since."),
    "claim_own_time": lambda f: t("It is your own time that ran out: play your move instead."),
    "not_out_of_time": _not_out_of_time,
    "vacation_length": lambda f: t("A vacation lasts from 1 to 60 days."),
    "clock_format": lambda f: t(
        "I cannot read the clock `{text}`: write it as `72h+36h max 120h` (initial bank, + increment "
        "per turn, max the cap; hours `h` or days `d`), or `off`.",
        text=quoted(f["text"]),
    ),
    "clock_negative": lambda f: t(
        "The clock `{text}` has a negative amount: no part of a clock can be.", text=quoted(f["text"])
    ),
    "clock_zero": lambda f: t(
        "The clock `{text}` has an empty bank or cap: both must hold some time.", text=quoted(f["text"])
    ),
    "clock_absurd": lambda f: t(
        "The clock `{text}` is too long: no part may exceed {days} days.",
        text=quoted(f["text"]),
        days=number(f["most"] / DAY),
    ),
    "clock_too_short": lambda f: tn(
        "The clock `{text}` starts too short: the bank must hold at least {count} hour.",
        "The clock `{text}` starts too short: the bank must hold at least {count} hours.",
        f["least"] / HOUR,
        text=quoted(f["text"]),
    ),
    "clock_cap_below_bank": lambda f: t(
        "The clock `{text}` caps the bank below what it starts with: the cap must be at least the bank.",
        text=quoted(f["text"]),
    ),
    "two_time_controls": lambda f: t("Choose days per move or a bank clock, not both."),
    "on_vacation": lambda f: t("You are already on vacation until <t:{until}:f>.", until=int(f["until"])),
    "vacation_allowance": _vacation_allowance,
}
