"""Where a match is played and what a board's post says about its own delivery: the thread's name and
starter, a post delayed or made after a restart, the truth for a mover whose turn was stored but whose board
could not be posted yet, and why a board went to the channel instead of the thread (``homes.py``,
``announce.py``)."""

from __future__ import annotations

from i18n import N_, t

from ...domain.model import MatchRow
from ...domain.outcome import Outcome
from ...domain.seats import title
from .markup import escape
from .outcomes import announcement_text
from .shared import versus


def thread_name(match: MatchRow) -> str:
    return t("{match}: {players}", match=title(match), players=versus([s.name for s in match.seats]))[:100]


def starter(match: MatchRow) -> str:
    """The short post a match's thread opens on, when there is no lobby message to open it on."""
    return f"**{title(match)}**: {versus([escape(s.name) for s in match.seats])}"


def posted_after_restart() -> str:
    return t("(Posted after a restart.)") + " "


def delayed() -> str:
    return t("(Delayed by a Discord problem.)") + " "


def after_commit(outcome: Outcome, now: float, reason: str) -> str:
    """The truth for a mover whose change was stored but whose board could not be shown yet."""
    return t(
        "Played and saved: {announcement}\nThe board could not be posted in the match yet ({reason}); "
        "it will be posted there as soon as Discord allows. Do not play the turn again.",
        announcement=announcement_text(outcome, now),
        reason=reason,
    )


def discord_refused() -> str:
    return t("Discord refused the message")


def discord_slow() -> str:
    return t("Discord is slow to accept it")


def done_elsewhere(outcome: Outcome, now: float, channel_id: int, note: str) -> str:
    text = t(
        "Done: {announcement} (see <#{channel}>)", announcement=announcement_text(outcome, now), channel=channel_id
    )
    return text + (f"\n{note}" if note else "")


def lapsed(content: str) -> str:
    return f"{content}\n" + t("(Lapsed: a turn was played first.)")


# Why a board went elsewhere than the match's thread (said to the players, and in the log).
def thread_locked() -> str:
    return t("the match's thread is locked")


def thread_deleted() -> str:
    return t("the match's thread was deleted")


def channel_gone() -> str:
    return t("the match's channel is gone")


def thread_refuses(why: str) -> str:
    return t("the match's thread refuses posts ({why})", why=why)


def channel_refused(why: str) -> str:
    return t("the match's channel refused it ({why})", why=why)


def and_channel_gone(problem: str) -> str:
    # TRANSLATORS: {problem} is one of the reasons above, e.g. "the match's thread was deleted"
    return t("{problem} and its channel is gone too", problem=problem)


def and_channel_refused(problem: str, why: str) -> str:
    return t("{problem}, and the channel refused it too ({why})", problem=problem, why=why)


def posted_in_channel(problem: str, channel_id: int, new_thread_id: int | None, thread_tried: bool) -> str:
    problem = f"{problem[0].upper()}{problem[1:]}"
    if new_thread_id is not None:
        return t(
            "({problem}, so the board was posted in <#{channel}> with a new thread for the match: <#{thread}>.)",
            problem=problem,
            channel=channel_id,
            thread=new_thread_id,
        )
    if thread_tried:
        return t(
            "({problem}, so the board was posted in <#{channel}>; play on there.)", problem=problem, channel=channel_id
        )
    return t("({problem}, so the board was posted in <#{channel}>.)", problem=problem, channel=channel_id)


DISCORD_FAILURES = {
    "timeout": N_("Discord did not answer in time"),
    "locked": N_("it is locked"),
    "archived": N_("it is archived and locked"),
    "unreachable": N_("Discord could not be reached"),
}


def discord_failure(kind: str, status: int = 0, text: str = "") -> str:
    """Why Discord did not take a post, for players and the log."""
    if kind in DISCORD_FAILURES:
        return t(DISCORD_FAILURES[kind])
    if kind == "server" or not text:
        return t("Discord answered {status}", status=status)
    return text
