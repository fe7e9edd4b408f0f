"""What the Activity says (``features/activity.py``, ``bot/web/``): its refusal when this bot has none, and the
web API's answers to a sign-in that failed or expired, a flood, an outage or a page not built."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import t

REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "no_activity": lambda f: t(
        'This bot has no board to open: its operator has not set up the Activity (README, "The board you touch").'
    ),
}


def activity_reopen() -> str:
    """The answer to a missing, forged, revoked or expired token."""
    return t("Your sign-in has expired: close the board and open it again.")


def activity_bad_code() -> str:
    return t("Discord refused this sign-in; close the board and open it again.")


def activity_slow_down() -> str:
    return t("Too many requests; wait a moment.")


def activity_unavailable() -> str:
    return t("Discord or the database did not answer; try again.")


def activity_failed() -> str:
    return t("Something went wrong; nothing was stored.")


def activity_starting() -> str:
    return t("The bot is starting; try again in a moment.")


def activity_not_built() -> str:
    return t("The Activity's page is not built (make activity).")
