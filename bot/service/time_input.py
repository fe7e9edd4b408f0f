"""Reading what players write about time: a bank clock (``72h+36h max 120h``) and quiet hours (a zone and
``22:00-08:00``). Strict: anything unclear, zero, negative or absurd is refused with the reason, and nothing
is stored (the callers parse before they write)."""

from __future__ import annotations

import math
import re

from ..domain.bank import BankClock
from ..domain.errors import Refusal
from ..domain.quiet import MINUTES_A_DAY, is_zone
from .schedule import DAY, HOUR

OFF_WORDS = ("off", "none")
MIN_BANK = HOUR  # the last warning comes an hour before the end: a shorter bank could never be warned
MAX_CLOCK = 365 * DAY  # more than a year is a typo, not a clock

_AMOUNT = r"([-+]?\d+(?:\.\d+)?)\s*([hd])"
_CLOCK = re.compile(rf"^\s*{_AMOUNT}\s*\+\s*{_AMOUNT}\s*max\s*{_AMOUNT}\s*$", re.IGNORECASE)
_HOURS = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*[-–]\s*(\d{1,2})(?::(\d{2}))?\s*$")


def is_off(text: str) -> bool:
    return text.strip().lower() in OFF_WORDS


def parse_bank_clock(text: str) -> BankClock:
    """``72h+36h max 120h`` (hours, or ``d`` for days): the initial bank, the increment per turn, the cap."""
    found = _CLOCK.match(text)
    if found is None:
        raise Refusal("clock_format", text=text)
    bank, increment, cap = (
        float(found.group(i)) * (DAY if found.group(i + 1).lower() == "d" else HOUR) for i in (1, 3, 5)
    )
    if min(bank, increment, cap) < 0:
        raise Refusal("clock_negative", text=text)
    if bank == 0 or cap == 0:
        raise Refusal("clock_zero", text=text)
    if not all(math.isfinite(x) and x <= MAX_CLOCK for x in (bank, increment, cap)):
        raise Refusal("clock_absurd", text=text, most=MAX_CLOCK)
    if bank < MIN_BANK:
        raise Refusal("clock_too_short", text=text, least=MIN_BANK)
    if cap < bank:
        raise Refusal("clock_cap_below_bank", text=text)
    return BankClock(bank, increment, cap)


def parse_zone(name: str) -> str:
    """An IANA time zone name as written (``Europe/Paris``), else Refusal "quiet_zone"."""
    name = name.strip()
    if not is_zone(name):
        raise Refusal("quiet_zone", zone=name)
    return name


def parse_night(text: str) -> tuple[int, int]:
    """``22:00-08:00`` or ``22-8``: (start, end) in minutes after local midnight, else Refusal "quiet_hours"."""
    found = _HOURS.match(text)
    if found is None:
        raise Refusal("quiet_hours", text=text)
    start_h, start_m, end_h, end_m = (int(part or 0) for part in found.groups())
    if max(start_h, end_h) > 23 or max(start_m, end_m) > 59:
        raise Refusal("quiet_hours", text=text)
    start, end = start_h * 60 + start_m, end_h * 60 + end_m
    if start == end:
        raise Refusal("quiet_hours_empty", text=text)
    assert 0 <= start < MINUTES_A_DAY and 0 <= end < MINUTES_A_DAY
    return start, end
