"""Quiet hours: a player's night in their own time zone, when no reminder reaches them.

Pure functions of an IANA zone name (``zoneinfo``), the night's bounds in minutes after local midnight
and a moment; the service asks them before a reminder or a time-limit warning goes out, and moves the
notice's due time to the morning in the store when it falls in the night.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from .model import Preferences

DEFAULT_NIGHT = (22 * 60, 8 * 60)  # 22:00 to 08:00, minutes after local midnight
MINUTES_A_DAY = 24 * 60


@lru_cache(maxsize=1)
def known_zones() -> frozenset[str]:
    """Every IANA zone name this machine knows (read once: the list walks the zone files)."""
    return frozenset(available_timezones())


def is_zone(name: str) -> bool:
    """A real IANA zone name, exactly as written (``Europe/Paris``; never a path or a directory)."""
    return name in known_zones()


def zones_like(typed: str, limit: int = 25) -> list[str]:
    """Zone names containing what was typed (for autocomplete), "off" first when it fits, at most ``limit``."""
    wanted = typed.strip().lower().replace(" ", "_")
    found = sorted(z for z in known_zones() if wanted in z.lower())
    return (["off"] if wanted in "off" else []) + found[: limit - 1]


def in_night(minute: int, start: int, end: int) -> bool:
    """Whether a minute of the local day falls in the night ``start``–``end`` (which may wrap past midnight)."""
    if start < end:
        return start <= minute < end
    return minute >= start or minute < end


def morning_after(zone: str, start: int, end: int, now: float) -> float | None:
    """When the night around ``now`` ends (a timestamp), or None when ``now`` is not in the night."""
    tz = ZoneInfo(zone)
    local = datetime.fromtimestamp(now, tz)
    minute = local.hour * 60 + local.minute
    if not in_night(minute, start, end):
        return None
    day = local.date() if minute < end else local.date() + timedelta(days=1)
    morning = datetime.combine(day, time(end // 60, end % 60), tz)
    return max(morning.timestamp(), now)  # a morning a clock change skipped is still not before now


def held_until(prefs: Preferences, now: float) -> float | None:
    """The morning a notice to this player waits for, or None when it may go now (no quiet hours, or day)."""
    if prefs.quiet_zone is None or not is_zone(prefs.quiet_zone):  # a zone this machine lost holds nothing back
        return None
    return morning_after(prefs.quiet_zone, prefs.quiet_start, prefs.quiet_end, now)
