"""Autocomplete for moves: what may continue the text a player has typed, explained.

Pure: works on a game and a string, with Discord's limits on choices
(at most 25, names and values of 1–100 characters) applied here.
"""

from __future__ import annotations

from typing import Any

from games import Game, GameError
from games.interface import split_turn

MAX_CHOICES = 25
CHOICE_TEXT_LIMIT = 100


def clip(text: str) -> str:
    """``text`` cut to a choice's 100 characters (never empty)."""
    text = text.strip() or "-"
    return text if len(text) <= CHOICE_TEXT_LIMIT else text[: CHOICE_TEXT_LIMIT - 1] + "…"


def suggest_moves(game: Game, typed: str) -> list[tuple[str, str]]:
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
            return [(clip(f"✗ {token}: {error}"), clip(typed))]
    prefix = ",".join(done)
    choices: list[tuple[str, str]] = []
    needs_more: str | None = None
    whole_alone = False  # some action is a whole turn by itself (then no note is needed)
    if done and not partial and trial.can_end_turn():
        choices.append((clip(f"{prefix} — end the turn here"), prefix))
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
            hint = trial.describe_action(action)
            label = ",".join(done + [hint]) + (f" (then {','.join(rest)})" if rest else "")
            choices.append((clip(label), value))
            if len(choices) >= MAX_CHOICES:
                break
    if needs_more and choices and not whole_alone and not (done and trial.can_end_turn()):
        choices.insert(0, (clip(needs_more), choices[0][1]))
        choices = choices[:MAX_CHOICES]
    if not choices:
        choices.append((clip(f"No legal move starts with {typed.strip()!r}"), clip(typed)))
    return choices


def _completion(game: Game, depth: int = 0) -> list[str] | None:
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


def _why_not_alone(game: Game, action: Any) -> str:
    """The engine's reason why ``action`` alone is not a whole turn (e.g. a release is owed)."""
    trial = game.copy()
    trial.apply_action(action)
    try:
        trial.end_turn()
    except GameError as error:
        reason = str(error)
        return f"{reason[:1].upper()}{reason[1:]} — each choice below is a whole turn"
    return "This turn takes more than one action — each choice below is a whole turn"
