"""``/review``: the review's progress while it is searched, its summary (accuracy, inaccuracies, mistakes and
blunders by Lichess's thresholds), its turning points and their overlay's legend, and its refusals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import N_, pt, t, tn

from ...domain.model import MatchRow
from ...domain.seats import title
from ...service.review import Review, TurningPoint
from .markup import escape, fit

REVIEW_THRESHOLDS = N_(
    "Inaccuracy, mistake, blunder: a turn that lost 5, 10 or 15 points of the mover's winning chance "
    "(Lichess's thresholds; the chances are the computer's search, not a formula)."
)
REVIEW_LABELS = {"blunder": N_("blunder ??"), "mistake": N_("mistake ?"), "inaccuracy": N_("inaccuracy ?!")}


def _ordinal(n: int) -> str:
    """A place in line: 1st, 2nd, 23rd (French: 1re, 2e, 23e)."""
    if n == 1:
        return pt("place in line", "1st")
    if 10 <= n % 100 <= 20:
        return pt("place in line", "{n}th", n=n)
    if n % 10 == 1:
        return pt("place in line", "{n}st", n=n)
    if n % 10 == 2:
        return pt("place in line", "{n}nd", n=n)
    if n % 10 == 3:
        return pt("place in line", "{n}rd", n=n)
    return pt("place in line", "{n}th", n=n)


def review_progress(match: MatchRow, done: int, total: int, ahead: int) -> str:
    """The review's message while it is searched (edited as it goes)."""
    if ahead > 0:
        return tn(
            "Review of {match}: waiting, {place} in line ({count} review before it).",
            "Review of {match}: waiting, {place} in line ({count} reviews before it).",
            ahead,
            match=title(match),
            place=_ordinal(ahead + 1),
        )
    filled = round(10 * done / total) if total else 0
    return t(
        "Reviewing {match}: the computer searches every position, {done}/{total} done `{bar}`",
        match=title(match),
        done=done,
        total=total,
        bar="█" * filled + "░" * (10 - filled),
    )


def _reviewed_name(review: Review, player: int) -> str:
    return review.names[player - 1] if player <= len(review.names) else t("Player {number}", number=player)


def review_turn_line(review: Review, turn: Any) -> str:
    """One turn of a review: who played what, what the computer preferred, and the drop."""
    name = (
        escape(review.names[turn.player - 1])
        if turn.player <= len(review.names)
        else _reviewed_name(review, turn.player)
    )
    label = REVIEW_LABELS.get(turn.label or "", "")
    drop = f"{100 * turn.drop:.0f}"
    loss = t("−{drop} points, {label}", drop=drop, label=t(label)) if label else t("−{drop} points", drop=drop)
    fields = {
        "turn": turn.index + 1,
        "name": name,
        "move": turn.played,
        "before": f"{100 * turn.before:.0f}",
        "after": f"{100 * turn.after:.0f}",
        "loss": loss,
    }
    if turn.best and turn.best != turn.played:
        return t(
            "Turn {turn}: **{name}** played `{move}`, the computer preferred `{best}` — winning chance "
            "{before}% → {after}% ({loss})",
            best=turn.best,
            **fields,
        )
    return t("Turn {turn}: **{name}** played `{move}` — winning chance {before}% → {after}% ({loss})", **fields)


def review_summary(review: Review) -> str:
    """The review's message: accuracy per player, the biggest mistakes, the thresholds."""
    result = review.result
    lines = [t("**Review of {match}**", match=title(review.match))]
    for player, name in enumerate(review.names, start=1):
        own = [turn for turn in result.turns if turn.player == player]
        accuracy = result.accuracy.get(player)
        counts = {label: sum(turn.label == label for turn in own) for label in ("inaccuracy", "mistake", "blunder")}
        figure = t("accuracy {percent}%", percent=f"{accuracy:.0f}") if accuracy is not None else t("no turns")
        tally = ", ".join(
            (
                tn("{count} inaccuracy", "{count} inaccuracies", counts["inaccuracy"]),
                tn("{count} mistake", "{count} mistakes", counts["mistake"]),
                tn("{count} blunder", "{count} blunders", counts["blunder"]),
            )
        )
        lines.append(t("**{name}**: {accuracy} · {tally}", name=escape(name), accuracy=figure, tally=tally))
    if result.turning_points:
        lines.append(t("Biggest mistakes (the turning points, marked on the graph):"))
        lines += [review_turn_line(review, result.turns[i]) for i in review.worst_first]  # the biggest first
    else:
        lines.append(t("No turn lost 5 points of winning chance or more."))
    lines.append(t("-# {thresholds} Accuracy: Lichess's formula, on those chances.", thresholds=t(REVIEW_THRESHOLDS)))
    return fit("\n".join(lines), 2000)


def review_point(point: TurningPoint) -> str:
    """A turning point shown over its board."""
    count = len(point.review.result.turning_points)
    return fit(
        t(
            "Turning point {index}/{total} of {match}",
            index=point.index + 1,
            total=count,
            match=title(point.review.match),
        )
        + "\n"
        + review_turn_line(point.review, point.turn),
        2000,
    )


def review_legend(review: Review, turn: Any) -> tuple[str, str]:
    """The overlay's two colours in words: the turn played (red) and the computer's (green)."""
    name = _reviewed_name(review, turn.player)
    best = turn.best if turn.best and turn.best != turn.played else t("the same")
    return (t("red: {name} played {move}", name=name, move=turn.played), t("green: the computer: {move}", move=best))


def review_first_point() -> str:
    return t("Turning points")


def review_previous() -> str:
    return t("◀ Previous")


def review_next() -> str:
    return t("Next ▶")


def review_point_picture() -> str:
    return t("A turning point of the review: the position, the move played and the computer's choice.")


def review_graph_picture() -> str:
    return t("The review's graph: each side's chances turn by turn.")


# -- refusals --------------------------------------------------------------------------------------


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "review_which_match": lambda f: t(
        "Which match? Use `/review match:<id>`, or ask in the thread of a finished match."
    ),
    "review_not_finished": lambda f: t(
        "{match} is not finished: a review is only for finished matches, "
        "so the computer never helps anyone during a game.",
        match=title(f["match"]),
    ),
    "review_one_at_a_time": lambda f: t(
        "You already wait for the review of match #{match_id}: one review at a time. Ask again when it is posted.",
        match_id=f["match_id"],
    ),
    "review_queue_full": lambda f: t(
        "{waiting} reviews are waiting to be searched already: try again in a few minutes.", waiting=f["waiting"]
    ),
    "review_no_turns": lambda f: t(
        "{match} ended before any turn was played: there is nothing to review.", match=title(f["match"])
    ),
    "review_unavailable": lambda f: t(
        "The review of {match} could not be finished this time (the bot restarted, or the computer "
        "players are busy or not running). Ask again with /review.",
        match=title(f["match"]),
    ),
    "review_not_ready": lambda f: t("{match} has no review yet: ask for one with /review.", match=title(f["match"])),
    "review_no_turning_points": lambda f: t(
        "No turning points in {match}: no turn lost 5 points of winning chance or more.", match=title(f["match"])
    ),
}
