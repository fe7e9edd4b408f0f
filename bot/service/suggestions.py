"""Autocomplete for moves: what may continue the text a player has typed, explained.

Pure: works on a game and a string, with Discord's limits on choices
(at most 25, names and values of 1–100 characters) applied here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from games import AnyGame, GameError
from games.interface import split_turn
from i18n import t

from .engine_words import reason

MAX_CHOICES = 25
CHOICE_TEXT_LIMIT = 100


def clip(text: str) -> str:
    """``text`` cut to a choice's 100 characters (never empty)."""
    text = text.strip() or "-"
    return text if len(text) <= CHOICE_TEXT_LIMIT else text[: CHOICE_TEXT_LIMIT - 1] + "…"


Suggest = Callable[[AnyGame, str], list[tuple[str, str]]]


def _one_action_turns_whole(suggest: Suggest) -> Suggest:
    """Games whose turn is one action (Begird, Bump) are completed as whole notations by
    :func:`_suggest_single`; the wrapped function continues multi-action turns token by token."""

    def wrapper(game: AnyGame, typed: str) -> list[tuple[str, str]]:
        if not game.info.multi_action_turns:
            return _suggest_single(game, typed)
        return suggest(game, typed)

    wrapper.__doc__ = suggest.__doc__
    wrapper.__name__ = suggest.__name__
    return wrapper


def _suggest_single(game: AnyGame, typed: str) -> list[tuple[str, str]]:
    """A game whose turn is one action (its notation may hold commas and spaces, as Bump's
    ``03,05-4 (06)`` does): whole notations starting with ``typed``, those where ``typed`` ends at
    a boundary first (typing a piece's space lists that piece's moves before longer names)."""
    partial = re.sub(r"\s*([,\-])\s*", r"\1", " ".join(typed.lower().split()))  # "03, 05" is "03,05"
    if game.is_over:
        return [(clip(t("The game is over")), clip(typed))]
    ranked = game.rank_actions(game.legal_actions())
    at_boundary: list[Any] = []
    longer: list[Any] = []
    for action in ranked:
        notation = game.format_action(action)
        if not notation.lower().startswith(partial) or len(notation) > CHOICE_TEXT_LIMIT:
            continue
        rest = notation[len(partial) :]
        (at_boundary if not partial or not rest or not rest[0].isalnum() else longer).append(action)
        if len(at_boundary) >= MAX_CHOICES:
            break
    shown = (at_boundary + longer)[:MAX_CHOICES]
    hints = game.describe_actions(shown, say=t)  # together: a game may say once what every line would repeat
    choices = [(clip(hint), game.format_action(a)) for a, hint in zip(shown, hints, strict=True)]
    if not choices and partial:
        try:
            game.copy().parse_action(typed)
        except GameError as error:
            return [(clip(f"✗ {typed.strip()}: {reason(error)}"), clip(typed))]
    if not choices:
        choices.append((clip(t("No legal move starts with {typed!r}", typed=typed.strip())), clip(typed)))
    return choices


@_one_action_turns_whole
def suggest_moves(game: AnyGame, typed: str) -> list[tuple[str, str]]:
    """(label, value) pairs: whole turns that continue ``typed``, most useful first.

    A last action typed in full (as a picked suggestion is: Discord sends the picked value back, with no
    separator after it, when the player returns to the option) is continued as if a separator
    followed it: "end the turn here" first, then the next actions, then any longer notations it begins.
    """
    whole = _suggest_continuations(game, typed)
    if typed and typed[-1] not in ", " and _ends_with_a_whole_action(game, typed):
        after = _suggest_continuations(game, typed + ",")
        stem = ",".join(split_turn(typed)).lower()
        if any(value.lower().startswith(stem + ",") for _, value in after):  # a next action exists
            values = {value for _, value in after}
            whole = (after + [c for c in whole if c[1] not in values])[:MAX_CHOICES]
    return whole


def _ends_with_a_whole_action(game: AnyGame, typed: str) -> bool:
    """Whether the last action of ``typed`` is the whole notation of a legal action (not a prefix only)."""
    tokens = split_turn(typed)
    trial = game.copy()
    try:
        for token in tokens[:-1]:
            trial.apply_action(trial.parse_action(token))
    except GameError:
        return False
    if trial.is_over:
        return False
    last = tokens[-1].lower() if tokens else ""
    return any(trial.format_action(a).lower() == last for a in trial.legal_actions())


def _suggest_continuations(game: AnyGame, typed: str) -> list[tuple[str, str]]:
    """(label, value) pairs: whole turns that continue ``typed``, most useful first.

    The actions already typed are applied to a copy, so a multi-action turn
    (a Bide release) is continued action by action; an illegal one is
    reported as the only choice, with the engine's reason. Every value is a
    whole turn the engine accepts: an action that cannot end the turn (a
    release is owed) is offered completed by its best continuation, and the
    first choice says why the turn needs more.
    """
    tokens = split_turn(typed)
    finished_token = bool(typed) and typed[-1] in ", "
    complete = tokens if finished_token else tokens[:-1]
    partial = "" if finished_token or not tokens else tokens[-1].lower()
    trial = game.copy()
    done: list[str] = []
    for token in complete:
        try:
            action = trial.parse_action(token)
            done.append(trial.format_action(action))
            trial.apply_action(action)
        except GameError as error:
            return [(clip(f"✗ {token}: {reason(error)}"), clip(typed))]
    prefix = ",".join(done)
    choices: list[tuple[str, str]] = []
    needs_more: str | None = None
    whole_alone = False  # some action is a whole turn by itself (then no note is needed)
    if done and not partial and trial.can_end_turn():
        choices.append((clip(t("{turn} — end the turn here", turn=prefix)), prefix))
    if not trial.is_over:
        for action in trial.rank_actions(trial.legal_actions()):
            notation = trial.format_action(action)
            if not notation.startswith(partial):
                continue
            after = trial.copy()
            after.apply_action(action)
            rest = [] if after.is_over or after.can_end_turn() else _completion(after)
            if rest is None:
                continue  # no legal way to finish a turn begun like this
            if rest and needs_more is None:
                needs_more = _why_not_alone(trial, action)
            whole_alone = whole_alone or not rest
            value = ",".join(done + [notation] + rest)
            if len(value) > CHOICE_TEXT_LIMIT:
                continue
            hint = trial.describe_action(action, say=t)
            label = ",".join(done + [hint])
            if rest:
                label = t("{turn} (then {rest})", turn=label, rest=",".join(rest))
            choices.append((clip(label), value))
            if len(choices) >= MAX_CHOICES:
                break
    if needs_more and choices and not whole_alone and not (done and trial.can_end_turn()):
        choices.insert(0, (clip(needs_more), choices[0][1]))
        choices = choices[:MAX_CHOICES]
    if not choices:
        choices.append((clip(t("No legal move starts with {typed!r}", typed=typed.strip())), clip(typed)))
    return choices


def _completion(game: AnyGame, depth: int = 0) -> list[str] | None:
    """The best-ranked actions that let the turn in progress end, or None if none can."""
    if depth > 12:
        return None
    for action in game.rank_actions(game.legal_actions())[:4]:
        after = game.copy()
        after.apply_action(action)
        if after.is_over or after.can_end_turn():
            return [game.format_action(action)]
        rest = _completion(after, depth + 1)
        if rest is not None:
            return [game.format_action(action)] + rest
    return None


def _why_not_alone(game: AnyGame, action: Any) -> str:
    """The engine's reason why ``action`` alone is not a whole turn (e.g. a release is owed)."""
    trial = game.copy()
    trial.apply_action(action)
    try:
        trial.end_turn()
    except GameError as error:
        said = reason(error)
        return t("{reason} — each choice below is a whole turn", reason=f"{said[:1].upper()}{said[1:]}")
    return t("This turn takes more than one action — each choice below is a whole turn")
