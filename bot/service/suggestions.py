"""Autocomplete for moves: what may continue the text a player has typed, and why, as data.

Pure: works on a game and a string, with Discord's limits on choices (at most 25, values of 1–100
characters) applied here. Each choice says what its label shows (an action in its position, the engine's
error, …); ``bot/chat/words/moves.py`` (``move_choices``) words it in the language being spoken.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games import AnyGame, GameError
from games.interface import split_turn

MAX_CHOICES = 25
CHOICE_TEXT_LIMIT = 100


def clip(text: str) -> str:
    """``text`` cut to a choice's 100 characters (never empty)."""
    text = text.strip() or "-"
    return text if len(text) <= CHOICE_TEXT_LIMIT else text[: CHOICE_TEXT_LIMIT - 1] + "…"


@dataclass(frozen=True)
class MoveChoice:
    """One autocomplete choice: the value Discord sends back, and what its label says, as data."""

    value: str
    """A whole turn the engine accepts, or (for the notes) what was typed."""
    kind: str
    """"action" (``action`` in ``game``, after ``done``, completed by ``rest``), "end_here" (``done`` is a whole
    turn), "needs_more" (an action alone is not a whole turn: the engine's ``error``, or None), "illegal" (``typed``
    is refused: the engine's ``error``), "no_match" (nothing starts with ``typed``), "over" (the game is over)."""
    game: AnyGame | None = None
    action: Any = None
    done: tuple[str, ...] = ()
    rest: tuple[str, ...] = ()
    typed: str = ""
    error: GameError | None = None
    before: str = ""
    """Shown before the label: the turns of a conditional line typed before this one."""


Suggest = Callable[[AnyGame, str], list[MoveChoice]]


def _one_action_turns_whole(suggest: Suggest) -> Suggest:
    """Games whose turn is one action (Begird, Bump) are completed as whole notations by
    :func:`_suggest_single`; the wrapped function continues multi-action turns token by token."""

    def wrapper(game: AnyGame, typed: str) -> list[MoveChoice]:
        if not game.info.multi_action_turns:
            return _suggest_single(game, typed)
        return suggest(game, typed)

    wrapper.__doc__ = suggest.__doc__
    wrapper.__name__ = suggest.__name__
    return wrapper


def _suggest_single(game: AnyGame, typed: str) -> list[MoveChoice]:
    """A game whose turn is one action (its notation may hold commas and spaces, as Bump's
    ``03,05-4 (06)`` does): whole notations starting with ``typed``, those where ``typed`` ends at
    a boundary first (typing a piece's space lists that piece's moves before longer names)."""
    partial = re.sub(r"\s*([,\-])\s*", r"\1", " ".join(typed.lower().split()))  # "03, 05" is "03,05"
    if game.is_over:
        return [MoveChoice(clip(typed), "over")]
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
    choices = [MoveChoice(game.format_action(a), "action", game, a) for a in (at_boundary + longer)[:MAX_CHOICES]]
    if not choices and partial:
        try:
            game.copy().parse_action(typed)
        except GameError as error:
            return [MoveChoice(clip(typed), "illegal", typed=typed.strip(), error=error)]
    if not choices:
        choices.append(MoveChoice(clip(typed), "no_match", typed=typed.strip()))
    return choices


@_one_action_turns_whole
def suggest_moves(game: AnyGame, typed: str) -> list[MoveChoice]:
    """Choices: whole turns that continue ``typed``, most useful first.

    A last action typed in full (as a picked suggestion is: Discord sends the picked value back, with no
    separator after it, when the player returns to the option) is continued as if a separator
    followed it: "end the turn here" first, then the next actions, then any longer notations it begins.
    """
    whole = _suggest_continuations(game, typed)
    if typed and typed[-1] not in ", " and _ends_with_a_whole_action(game, typed):
        after = _suggest_continuations(game, typed + ",")
        stem = ",".join(split_turn(typed)).lower()
        if any(choice.value.lower().startswith(stem + ",") for choice in after):  # a next action exists
            values = {choice.value for choice in after}
            whole = (after + [c for c in whole if c.value not in values])[:MAX_CHOICES]
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


def _suggest_continuations(game: AnyGame, typed: str) -> list[MoveChoice]:
    """Choices: whole turns that continue ``typed``, most useful first.

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
            return [MoveChoice(clip(typed), "illegal", typed=token, error=error)]
    prefix = ",".join(done)
    choices: list[MoveChoice] = []
    needs_more: MoveChoice | None = None
    whole_alone = False  # some action is a whole turn by itself (then no note is needed)
    if done and not partial and trial.can_end_turn():
        choices.append(MoveChoice(prefix, "end_here", done=tuple(done)))
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
                needs_more = MoveChoice("", "needs_more", error=_why_not_alone(trial, action))
            whole_alone = whole_alone or not rest
            value = ",".join(done + [notation] + rest)
            if len(value) > CHOICE_TEXT_LIMIT:
                continue
            choices.append(MoveChoice(value, "action", trial, action, tuple(done), tuple(rest)))
            if len(choices) >= MAX_CHOICES:
                break
    if needs_more and choices and not whole_alone and not (done and trial.can_end_turn()):
        choices.insert(0, MoveChoice(choices[0].value, "needs_more", error=needs_more.error))
        choices = choices[:MAX_CHOICES]
    if not choices:
        choices.append(MoveChoice(clip(typed), "no_match", typed=typed.strip()))
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


def _why_not_alone(game: AnyGame, action: Any) -> GameError | None:
    """The engine's reason why ``action`` alone is not a whole turn (e.g. a release is owed), or None."""
    trial = game.copy()
    trial.apply_action(action)
    try:
        trial.end_turn()
    except GameError as error:
        return error
    return None
