"""``/move``, ``/preview``, ``/hint``, ``/turn`` and ``/resign``: a preview, a hint, the turn builder's
line, /move's autocomplete, what a played or resigned turn answers, and the refusals of playing (an illegal move
quotes back at most :data:`ECHO_LIMIT` characters of what was typed)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from games import AnyGame, Event, GameError
from i18n import t, tn

from ...domain.model import MatchRow
from ...domain.seats import title
from ...service.suggestions import MoveChoice
from ...service.turn_builder import BuilderError, BuilderState, Choice
from .markup import fit, quoted
from .outcomes import turn_line
from .shared import clip_choice, engine_words, seat_label


def preview_line(
    match: MatchRow,
    before: AnyGame,
    seat: int,
    game: AnyGame,
    notation: str,
    events: Sequence[Event],
    unfinished: GameError | None,
) -> str:
    if unfinished is not None:
        return t(
            "Preview of a turn in progress (not played): `{notation}` — not a whole turn yet: {why}.",
            notation=notation,
            why=fit(engine_words(unfinished), 300),
        )
    turn = turn_line(seat_label(match, before, seat), game, notation, events, played=False)
    return t("Preview (not played): {turn}", turn=turn)


def hint(notation: str, preview: str) -> str:
    return t(
        "Hint: the medium computer would play `{notation}` (only you see this).\n"
        "{preview}\nPlay it with `/move move:{notation}`.",
        notation=notation,
        preview=preview,
    )


def resign_question(match: MatchRow) -> str:
    return t("Resign from **{title}**? This cannot be undone.", title=title(match))


def resign_cancelled(match: MatchRow) -> str:
    return t("Not resigned: you are still playing **{title}**.", title=title(match))


def suggestion_choices(
    match: MatchRow, choices: Sequence[MoveChoice], note: str | None, mover: str, typed: str
) -> list[tuple[str, str]]:
    """/move's autocomplete: the legal continuations, after a first line saying why you cannot play now."""
    pairs = move_choices(choices)
    if note is None:
        return pairs
    shown = clip_choice(suggestion_note(match, note, mover))
    return [(shown, clip_choice(typed) if note == "not_your_turn" else "-"), *pairs]


def move_choices(choices: Sequence[MoveChoice]) -> list[tuple[str, str]]:
    """Autocomplete's (label, value) pairs for a turn (/move, /premove, /explore): each choice worded."""
    hints = _action_hints(choices)
    return [
        (choice.before + clip_choice(_move_choice_label(choice, hints.get(index, ""))), choice.value)
        for index, choice in enumerate(choices)
    ]


def _action_hints(choices: Sequence[MoveChoice]) -> dict[int, str]:
    """The hints of the actions listed, each game's worded together (``describe_actions``): a game may say once
    in a list what every line would repeat (Begird's winning rule). Index in ``choices`` -> hint."""
    shown: dict[int, list[int]] = {}
    for index, choice in enumerate(choices):
        if choice.kind == "action" and choice.game is not None:
            shown.setdefault(id(choice.game), []).append(index)
    hints: dict[int, str] = {}
    for indexes in shown.values():
        game = choices[indexes[0]].game
        assert game is not None
        hints.update(zip(indexes, game.describe_actions([choices[i].action for i in indexes], say=t), strict=True))
    return hints


def _move_choice_label(choice: MoveChoice, hint: str) -> str:
    if choice.kind == "action":
        label = ",".join([*choice.done, hint])
        return t("{turn} (then {rest})", turn=label, rest=",".join(choice.rest)) if choice.rest else label
    if choice.kind == "end_here":
        return t("{turn} — end the turn here", turn=",".join(choice.done))
    if choice.kind == "needs_more":
        if choice.error is None:
            return t("This turn takes more than one action — each choice below is a whole turn")
        said = engine_words(choice.error)
        return t("{reason} — each choice below is a whole turn", reason=f"{said[:1].upper()}{said[1:]}")
    if choice.kind == "illegal":
        return f"✗ {choice.typed}: {engine_words(choice.error)}"
    if choice.kind == "over":
        return t("The game is over")
    return t("No legal move starts with {typed!r}", typed=choice.typed)


def suggestion_note(match: MatchRow, note: str, mover: str) -> str:
    """Why the player cannot play now, as the first autocomplete choice."""
    if note == "over":
        return t("{title} is over", title=title(match))
    if note == "left":
        return t("You have left {title}; /board shows its position", title=title(match))
    if note == "not_playing":
        return t("You are not playing in {title}; /board shows its position", title=title(match))
    return t("Not your turn: {player} is to move", player=mover)


def builder_summary(state: BuilderState) -> str:
    """The turn builder's line: the actions picked so far, and what to do next."""
    if state.path:  # part way down a game's groups (Bump: a piece, then its target, then the turn)
        done = t("So far: `{notation}`.", notation=state.notation) + " " if state.notations else ""
        path = " → ".join(state.path)
        if len(state.path) == 1:
            return done + t("{path}: pick its target (Undo goes back a step).", path=path)
        return done + t("{path}: pick the turn (Undo goes back a step).", path=path)
    if not state.notations and not state.can_end:
        return t("No action yet: pick your first action from the menu.")
    head = t("So far: `{notation}`.", notation=state.notation) if state.notations else t("No action yet.")
    if state.game.is_over or (state.can_end and not state.choices):
        return t("{so_far} Press **End turn** to play it.", so_far=head)
    if state.can_end:
        return t("{so_far} Pick another action, or press **End turn** to play it.", so_far=head)
    if state.why_not_end and state.notations:
        return t("{so_far} Pick the next action ({why}).", so_far=head, why=why_not_end(state))
    return t("{so_far} Pick the next action.", so_far=head)


def why_not_end(state: BuilderState) -> str:
    """The engine's reason the turn built so far cannot end yet ("" when it can)."""
    return engine_words(state.why_not_end) if state.why_not_end is not None else ""


def choice_description(choice: Choice) -> str:
    """A turn builder's menu option's description: what the action does, or how many turns a group holds."""
    if choice.count:
        return tn("{count} move", "{count} moves", choice.count)
    return choice.description


_BUILDER_SAYS: dict[str, Callable[[dict[str, Any]], str]] = {
    "damaged_buttons": lambda f: t("this turn builder's buttons are damaged; open a new one"),
    "game_over": lambda f: t("the game is over"),
    "turn_in_progress": lambda f: t("another turn is in progress"),
    "older_position": lambda f: t("this turn builder belongs to an older position; open a new one"),
    "too_many_actions": lambda f: t("a turn has at most {count} actions", count=f["count"]),
    "engine": lambda f: engine_words(f["error"]),
}


def builder_error(error: BuilderError) -> str:
    """Why the turn builder cannot go on (the picks no longer fit, or are malformed)."""
    return _BUILDER_SAYS[error.kind](error.fields)


def turn_builder(match: MatchRow, summary: str, more: int, full: bool) -> str:
    content = t("**Your turn in {title}** (only you see this). {summary}", title=title(match), summary=summary)
    if more:
        content += " " + tn(
            "{count} more action is not in the menus: type it with /move.",
            "{count} more actions are not in the menus: type them with /move.",
            more,
        )
    if full:
        content += " " + t("That is as many actions as the builder holds: end the turn, or undo.")
    return content


def played(notation: str) -> str:
    return t("Played `{notation}`.", notation=notation)


def you_resigned() -> str:
    return t("You resigned.")


# -- refusals --------------------------------------------------------------------------------------


def _not_your_turn(f: dict[str, Any]) -> str:
    match, game = f["match"], f["game"]
    return t(
        "It is not your turn in {match}: {player} is to move.",
        match=title(match),
        player=seat_label(match, game, game.to_move),
    )


def _preview_not_your_turn(f: dict[str, Any]) -> str:
    match, game = f["match"], f["game"]
    return t(
        "It is not your turn in {match}: {player} is to move, and a preview shows your own move when it is your turn.",
        match=title(match),
        player=seat_label(match, game, game.to_move),
    )


ECHO_LIMIT = 40  # characters of a player's typed move a refusal quotes back (a 3,000-character paste: issue 26)
_ENGINE_ECHO = re.compile(rf"'([^'\n]{{{ECHO_LIMIT},}})'|\"([^\"\n]{{{ECHO_LIMIT},}})\"")


def short_echoes(why: str) -> str:
    """An engine's reason with each quoted echo of the typed text cut to a short prefix."""

    def cut(found: re.Match[str]) -> str:
        echo = found.group(1) if found.group(1) is not None else found.group(2)
        return f"'{echo[: ECHO_LIMIT - 10]}…'"

    return _ENGINE_ECHO.sub(cut, why)


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "not_your_turn": _not_your_turn,
    "preview_not_your_turn": _preview_not_your_turn,
    "old_button": lambda f: t("That button belongs to an older position; use the latest board."),
    "illegal_move": lambda f: t(
        "`{text}` is not a legal move: {why}.",
        text=quoted(f["text"], ECHO_LIMIT),
        why=fit(short_echoes(engine_words(f["why"])), 300),
    ),
    "already_resigned": lambda f: t("You have already resigned from this match."),
    "builder_expired": lambda f: t(
        "This turn builder has expired: the match has moved on since it was opened. "
        "Open a new one from the latest board (or /turn)."
    ),
    "builder_says": lambda f: t("Turn builder: {why}.", why=builder_error(f["why"])),
    "turn_not_finished": lambda f: t("The turn cannot end yet: {why}.", why=engine_words(f["why"])),
    "pick_an_action": lambda f: t("Pick an action from the menu."),
    "not_your_confirmation": lambda f: t("This confirmation belongs to another player."),
    "hint_not_in_play": lambda f: t(
        "{match} is not in play: hints are for a turn of a game going on.", match=title(f["match"])
    ),
    "no_hints": lambda f: t(
        "No hints in {match}: hints are for matches against the computer, "
        "or matches created with `hints: True` (every player agreed by joining).",
        match=title(f["match"]),
    ),
    "hint_unavailable": lambda f: t(
        "No hint this time: the computer players did not answer in time (busy, or none is running). "
        "Try /hint again in a moment."
    ),
    "hint_not_your_turn": lambda f: t(
        "A hint is for your own turn: in {match} {player} is to move.",
        match=title(f["match"]),
        player=seat_label(f["match"], f["game"], f["game"].to_move),
    ),
}
