"""``/premove`` and ``/explore``: a player's conditional moves shown back to them, the notice that they were
cleared, the private analysis board's steps, and their refusals (nothing is stored on any)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from i18n import N_, t, tn

from ...domain.model import MatchRow
from ...domain.seats import game_of, title, user_to_move
from ...service.premoves import Exploration, Premoves
from .markup import escape, fit, quoted
from .outcomes import result_line
from .shared import bounded, engine_words, seat_label


def premove_how() -> str:
    return t(
        "Add a line with `/premove line: e5; d4` (if they play `e5`, you answer `d4`); "
        "longer lines go on turn by turn, and several lines make branches."
    )


def _premove_line(turns: Sequence[tuple[str, bool]]) -> str:
    return ", ".join(t("you `{move}`", move=n) if mine else t("if `{move}`", move=n) for n, mine in turns)


def premoves(shown: Premoves) -> str:
    """A player's conditional moves shown back to them (privately): the list, and what the picture shows."""
    if not shown.lines:
        return t("You have no conditional moves in {title}.", title=title(shown.match)) + " " + premove_how()
    head = t("**Your conditional moves in {title}** (only you see them)", title=title(shown.match))
    said = t("Saved.") + " " if shown.added else ""
    if shown.dropped:
        said += (
            tn(
                "Not saved: `{turns}`, the last turn, after your last answer (a line ends with an answer of yours).",
                "Not saved: `{turns}`, the last {count} turns, after your last answer (a line ends with an answer "
                "of yours).",
                len(shown.dropped),
                turns=fit("; ".join(shown.dropped), 200),
            )
            + " "
        )
    if shown.replaced:
        said += (
            tn(
                "It replaced {count} line with another answer.",
                "It replaced {count} lines with another answer.",
                shown.replaced,
            )
            + " "
        )
    listed = [f"{i}. {_premove_line(line.turns)}" for i, line in enumerate(shown.lines, start=1)]
    picture = "\n" + t("The picture shows the board at the end of the line just added.") if shown.line else ""
    text = f"{said}{head}:\n" + "\n".join(listed)
    footer = (
        picture
        + "\n"
        + t(
            "When their turn matches a line, your answer is played at once; when it matches none, "
            "all of them are cleared and you are told. `/premove clear: True` removes them."
        )
    )
    return bounded(text, 2000 - len(footer)) + footer


def premoves_cleared(match: MatchRow, user_id: int, why: str, notation: str) -> str:
    """The private notice to ``user_id`` that their conditional moves were cleared, and why; "your turn" only
    when it is (the match as the move left it: with several seats, someone else may be to move)."""
    if why == "unexpected":
        reason = t("the turn played, `{notation}`, matched none of your lines", notation=notation)
    elif why == "illegal":
        reason = t("your answer could not be played there")
    elif why == "takeback" and notation:
        reason = t("the turn `{notation}` was taken back by agreement", notation=notation)
    elif why == "takeback":
        reason = t("the last turn was taken back by agreement")
    elif why == "resign":
        reason = t("a player resigned")
    elif why == "timeout":
        reason = t("a player ran out of time and left the game")
    else:
        reason = t("the position changed")
    said = t("Your conditional moves in **{title}** were cleared: {reason}.", title=title(match), reason=reason)
    if user_to_move(match, game_of(match)) == user_id:
        return said + " " + t("It is your turn now; `/premove` sets new conditional moves.")
    return said + " " + t("`/premove` sets new conditional moves.")


def premoves_removed() -> str:
    return t("Your conditional moves in this match were removed.")


EXPLORE_SAID = {
    "open": N_("Your analysis board: a private copy of the position."),
    "new": N_("A fresh analysis board from the match's position."),
    "back": N_("One turn back."),
    "forward": N_("One turn forward."),
    "turn": N_("Played on your board."),
    "save": N_("Saved as conditional moves."),
    "close": N_("Your analysis board is closed; the match is as it was."),
}


def exploration(shown: Exploration) -> str:
    """A step on the analysis board, said privately: what it did, the line, who is to move there."""
    match, game = shown.match, shown.game
    said = t(EXPLORE_SAID[shown.step]) if shown.step in EXPLORE_SAID else ""
    lines = [f"{said} " + t("Nothing here reaches {title}.", title=title(match))]
    if shown.turns:
        played = []
        for i, (notation, who) in enumerate(shown.turns, start=1):
            seat = None if who is None else match.seat_of(who)
            name = escape(seat.name) if seat is not None else "?"
            mark = "**" if i == shown.shown else ""
            played.append(f"{mark}{i}. {name} `{notation}`{mark}" if i <= shown.shown else f"({i}. `{notation}`)")
        lines.append(bounded(" · ".join(played), 1200))
    if game.is_over:
        lines.append(t("On this board: {result}", result=result_line(match, game)))
    elif game.to_move is not None:
        lines.append(
            t(
                "On this board {player} is to move (turn {turn}).",
                player=seat_label(match, game, game.to_move),
                turn=game.ply + 1,
            )
        )
    if shown.out_of_date:
        lines.append(t("The match has moved on since this copy: `step: new` copies the position as it is now."))
    if shown.saved is not None:
        lines.append(premoves(shown.saved))
    else:
        lines.append(
            t(
                "`/explore turn:` plays for whoever is to move; `step:` back, forward, new, save (as conditional "
                "moves) or close."
            )
        )
    return bounded("\n".join(lines))


def premove_picture() -> str:
    return t("Your conditional moves drawn on the board.")


def explore_picture() -> str:
    return t("Your exploration board (nothing is played).")


# -- refusals --------------------------------------------------------------------------------------


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "premove_empty": lambda f: t(
        "Type a line of turns separated by `;`, e.g. `e5; d4` (if they play e5, you answer d4)."
    ),
    "premove_too_long": lambda f: t("A line holds at most {limit} turns; nothing was saved.", limit=f["limit"]),
    "premove_your_turn": lambda f: t(
        "It is your turn in {match}: play it with `/move`. Conditional moves start on an opponent's turn.",
        match=title(f["match"]),
    ),
    "premove_after_end": lambda f: t(
        "Turn {number} of your line (`{text}`) comes after the game would be over; nothing was saved.",
        number=f["number"],
        text=quoted(f["text"]),
    ),
    "premove_illegal": lambda f: t(
        "Turn {number} of your line, `{text}` ({mover} to move), is not legal: {why}. Nothing was saved.",
        number=f["number"],
        text=quoted(f["text"]),
        mover=escape(f["mover"]),
        why=fit(engine_words(f["why"]), 300),
    ),
    "premove_no_answer": lambda f: t(
        "That line holds none of your turns, so there is nothing to answer with: add your answer after theirs, "
        "e.g. `e5; d4`. Nothing was saved."
    ),
    "premove_too_many": lambda f: t(
        "You already have {limit} conditional lines in this match, the most it keeps: clear them with "
        "`/premove clear: True` first. Nothing was saved.",
        limit=f["limit"],
    ),
    "no_analysis": lambda f: t(
        "{match} forbids conditional moves and private analysis (its creator chose so at /play).",
        match=title(f["match"]),
    ),
    "explore_too_long": lambda f: t(
        "Your analysis board already holds {limit} turns, the most it keeps: step back, or start afresh "
        "with `step: new`.",
        limit=f["limit"],
    ),
    "explore_over": lambda f: t("The game is over on your analysis board: step back to try another turn."),
    "explore_at_start": lambda f: t("Your analysis board is at the match's position already: nothing to step back."),
    "explore_at_end": lambda f: t("Your analysis board shows its last turn already: nothing to step forward to."),
    "explore_out_of_date": lambda f: t(
        "{match} has moved on since you copied its position: open a fresh board with `step: new` "
        "to save a line from the position as it is now.",
        match=title(f["match"]),
    ),
}
