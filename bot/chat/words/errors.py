"""What any command can meet: the refusals of finding its match (none, another's thread, paused, over, not
yours) and of the storage (full, down, unknown), and the answers to failures that are not the player's doing
(``bot/chat/failures.py`` says them). A paused match's notice (``quarantine_notice``) is said here too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import t

from ...domain.model import MatchRow
from ...domain.seats import info, title

# -- failures --------------------------------------------------------------------------------------


# Not the player's doing: what they are told instead of a refusal.
def something_went_wrong() -> str:
    return t(
        "Something went wrong on our side. Look at the match (/board) before trying again: "
        "your action may or may not have been recorded."
    )


# A write failed for want of disk space somewhere after the start of a request (the change itself, if refused,
# says "Nothing was saved"): what came before it may be stored, so the player is sent to look.
def disk_full_after() -> str:
    return t(
        "The bot's disk is full, so part of what you asked may not have been saved (its operator has been "
        "told). Look at the match (/board) before trying again."
    )


# A write refused as a whole because the database became read-only: nothing of the request can have been stored.
def read_only_database() -> str:
    return t(
        "Nothing was saved: the bot's database is read-only right now. Its operator has been told (see the log); "
        "try again later."
    )


def restarting() -> str:
    return t("Hexplay is restarting, so nothing was done: try again in a minute.")


def storage_down_after() -> str:
    return t(
        "The bot's database is not answering right now, so part of what you asked may not have been "
        "done. Look at the match (/board) before trying again."
    )


def cannot_use_here() -> str:
    return t("You cannot use this command here.")


def quarantine_notice(match: MatchRow | int) -> str:
    """Why nothing can be played or shown in a paused match (its stored record cannot be read, or its move
    list does not replay to its position)."""
    match_id = match if isinstance(match, int) else match.id
    reason = "" if isinstance(match, int) else match.quarantine or ""
    if "move log" in reason or "differs" in reason:
        return t(
            "Match #{match_id} is paused: its saved move list does not lead to its saved position, so nothing can "
            "be played or shown in it until the bot's operator repairs it (they have been told; see the log). "
            "Your other matches are not affected.",
            match_id=match_id,
        )
    return t(
        "Match #{match_id} is paused: part of its saved record cannot be read, so nothing can be played or shown "
        "in it until the bot's operator repairs it (they have been told; see the log). Your other matches are "
        "not affected.",
        match_id=match_id,
    )


# -- refusals --------------------------------------------------------------------------------------


def _several(f: dict[str, Any]) -> str:
    names = ", ".join(f"#{m.id} {info(m).name}" for m in f["matches"])
    return t(
        "You are in several matches ({matches}): use the match option, or type the command in the match's thread.",
        matches=names,
    )


def _paused(f: dict[str, Any]) -> str:
    return quarantine_notice(f["match"] if "match" in f else f["match_id"])


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "no_match": lambda f: t("There is no match #{match_id}.", match_id=f["match_id"]),
    "no_match_here": lambda f: t("There is no match #{match_id} in this server.", match_id=f["match_id"]),
    "another_matchs_thread": lambda f: t(
        "This is the thread of {here}, but you named {named}: nothing was played. "
        "Play {named} in its own thread, or leave out `match:` to play {here}.",
        here=title(f["here"]),
        named=title(f["named"]),
    ),
    "paused": _paused,
    "not_started": lambda f: t("{match} has not started yet.", match=title(f["match"])),
    "over": lambda f: t("{match} is over.", match=title(f["match"])),
    "no_match_in_progress": lambda f: t("You have no match in progress here. Start one with /play."),
    "several_matches": _several,
    "not_a_player": lambda f: t("You are not a player in {match}.", match=title(f["match"])),
    "changed_meanwhile": lambda f: t(
        "The position changed at the same moment (another turn or button came "
        "first), so nothing was done: look at the latest board and try again."
    ),
    "disk_full": lambda f: t(
        "Nothing was saved: the bot's disk is full. Its operator has been told (see the log); try again later."
    ),
    "storage_down": lambda f: t(
        "Your move was **not** stored: the bot's database is not answering right now. Nothing changed; "
        "play it again in a moment."
    ),
    "storage_unknown": lambda f: t(
        "The bot's database stopped answering while your move was being stored, so it cannot tell yet whether "
        "it was. Look at the board (/board) in a moment before playing it again."
    ),
    "servers_only": lambda f: t("Hexplay matches live in servers: use this command in a server channel."),
    "you_left": lambda f: t("You have left {match}.", match=title(f["match"])),
}
