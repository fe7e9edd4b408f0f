"""``/draw`` and ``/undo``: an offer as it is posted, each answer to it, and the refusals of making or
answering one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import N_, t

from ...domain.outcome import OfferAnswer, OfferNotice
from ...domain.seats import title
from .outcomes import announcement_text
from .shared import mention

OFFER_KINDS = {"draw": N_("a draw"), "undo": N_("to take back their last turn")}
"""What an offer asks for, said as t(OFFER_KINDS[kind]) after "asked for" or "declined"."""


def offer(notice: OfferNotice) -> str:
    match = notice.match
    asked = " ".join(mention(match, u) for u in notice.asked_ids)
    if notice.kind == "draw":
        made = t("**{title}**: <@{maker}> offers a draw.", title=title(match), maker=notice.maker_id)
    else:
        made = t(
            "**{title}**: <@{maker}> asks to take back their last turn.", title=title(match), maker=notice.maker_id
        )
    if notice.answerer_ids:
        how = t("{asked}: accept or decline (the offer lapses if a turn is played first).", asked=asked)
    else:
        how = t("{asked}: the computer is considering it (the offer lapses if a turn is played first).", asked=asked)
    return f"{made} {how}"


def offer_answer(answer: OfferAnswer, now: float) -> str:
    match = answer.match
    if answer.kind == "withdrawn":
        return t("<@{user}> withdrew the offer.", user=answer.user_id)
    if answer.kind == "declined":
        return t(
            "{player} declined {offer} (asked by <@{maker}>).",
            player=mention(match, answer.user_id),
            offer=t(OFFER_KINDS[answer.offer_kind]),
            maker=answer.maker_id,
        )
    if answer.kind == "accepted":
        waiting = " ".join(mention(match, u) for u in answer.waiting_ids)
        return t("{player} accepted; waiting for {waiting}.", player=mention(match, answer.user_id), waiting=waiting)
    assert answer.outcome is not None
    return t("Accepted: {outcome}", outcome=announcement_text(answer.outcome, now))


def sent_in(channel_id: int) -> str:
    return t("Sent in <#{channel}>.", channel=channel_id)


# -- refusals --------------------------------------------------------------------------------------


def _offer_pending(f: dict[str, Any]) -> str:
    match = title(f["match"])
    if f["kind"] == "draw":
        if f["yours"]:
            return t("You have already asked for a draw in {match}; it is waiting for an answer.", match=match)
        return t(
            "<@{maker}> has already asked for a draw in {match}; it is waiting for an answer.",
            maker=f["maker_id"],
            match=match,
        )
    assert f["kind"] == "undo", f["kind"]
    if f["yours"]:
        return t(
            "You have already asked for to take back their last turn in {match}; it is waiting for an answer.",
            match=match,
        )
    return t(
        "<@{maker}> has already asked for to take back their last turn in {match}; it is waiting for an answer.",
        maker=f["maker_id"],
        match=match,
    )


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "you_resigned": lambda f: t("You have resigned from {match}.", match=title(f["match"])),
    "no_draws": lambda f: t("{game} cannot be drawn: every game has a winner.", game=f["game"]),
    "takeback_not_yours": lambda f: t(
        "Only the player who made the last turn can ask to take it back, and only before the next turn is played."
    ),
    "offer_pending": _offer_pending,
    "offer_closed": lambda f: t("This offer is no longer open: it was answered, or a turn was played since."),
    "own_offer": lambda f: t("You made this offer; the other players answer it."),
    "not_asked": lambda f: t("Only the other players of this match can answer this offer."),
    "offer_thread_gone": lambda f: t("The match's thread is gone; the offer cannot be shown to the other players."),
}
