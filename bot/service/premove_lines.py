"""Conditional moves as data: lines of turns checked on a copy of the position, gathered into a tree, and
followed by the turns the match really sees.

A line is the turns from a position, whoever makes them: "if they play X, I answer Y, then if they play Z,
I answer W". Several lines sharing their first turns make a tree; at a turn of the player's own the tree
gives one answer only. Pure: a game, a match's seats and lists of notations; nothing is stored here.
"""

from __future__ import annotations

from typing import Any

from games import AnyGame, Event, GameError, load_state

from ..domain.errors import Refusal
from ..domain.model import MatchRow, MoveRow
from ..domain.seats import player_row, user_to_move

#: Branches (lines) of conditional moves one player may hold in one match.
MAX_BRANCHES = 64
#: Turns an exploration may hold (and so the longest line saved from one).
MAX_EXPLORED_TURNS = 500


def checked_line(match: MatchRow, game: AnyGame, user_id: int, entered: list[str]) -> tuple[list[str], list[str]]:
    """The line as canonical notations, each turn legal in turn from ``game`` (a copy is played on), and the
    turns left out of it: trailing turns of others after the player's last answer say nothing (no answer
    follows them), so they are not kept, and the player is told which.

    Refusal, with nothing kept, for: a line starting on the player's own turn (they can simply play it), an
    illegal turn (which one, who was to move, and the engine's reason), a turn after the game would end, a
    line with no turn of the player's.
    """
    if not entered:
        raise Refusal("premove_empty")
    if len(entered) > MAX_EXPLORED_TURNS:
        raise Refusal("premove_too_long", limit=MAX_EXPLORED_TURNS)
    trial = game.copy()
    if user_to_move(match, trial) == user_id:
        raise Refusal("premove_your_turn", match=match)
    turns: list[str] = []
    last_mine = -1
    for number, text in enumerate(entered, start=1):
        if trial.is_over or trial.to_move is None:
            raise Refusal("premove_after_end", number=number, text=text)
        mover = player_row(match, trial, trial.to_move)
        try:
            trial.play_turn(text)
        except GameError as error:
            raise Refusal("premove_illegal", number=number, text=text, why=error, mover=mover.name) from None
        turns.append(trial.last_turn_notation)
        if mover.user_id == user_id:
            last_mine = len(turns) - 1
    if last_mine < 0:
        raise Refusal("premove_no_answer")
    return turns[: last_mine + 1], turns[last_mine + 1 :]


def movers(match: MatchRow, game: AnyGame, line: list[str]) -> list[int | None]:
    """Who makes each turn of a (checked) line, from ``game``'s position."""
    trial = game.copy()
    who: list[int | None] = []
    for notation in line:
        who.append(user_to_move(match, trial))
        trial.play_turn(notation)
    return who


def with_line(
    match: MatchRow, game: AnyGame, user_id: int, lines: list[list[str]], line: list[str]
) -> tuple[list[list[str]], int]:
    """``lines`` with ``line`` added, and how many lines it replaced.

    A line already held (or the start of one held) changes nothing; a held line that is the start of the new
    one is lengthened; a held line giving another answer at one of the player's turns of the new line is
    replaced (the latest word counts). Refusal "premove_too_many" past MAX_BRANCHES lines.
    """
    if any(held[: len(line)] == line for held in lines):
        return lines, 0
    who = movers(match, game, line)
    kept: list[list[str]] = []
    replaced = 0
    for held in lines:
        if line[: len(held)] == held:
            continue  # lengthened by the new line
        split = next(i for i, (a, b) in enumerate(zip(held, line, strict=False)) if a != b)
        if who[split] == user_id:
            replaced += 1  # another answer to the same position: the new line's answer counts
            continue
        kept.append(held)
    kept.append(line)
    if len(kept) > MAX_BRANCHES:
        raise Refusal("premove_too_many", limit=MAX_BRANCHES)
    return kept, replaced


def followed(lines: list[list[str]], notation: str) -> list[list[str]]:
    """What is left of the lines after the match saw the turn ``notation``: the rest of each line that
    expected it (none: the turn matched no branch)."""
    return [line[1:] for line in lines if line and line[0] == notation and len(line) > 1]


def why_cleared(holder: int, move: MoveRow, game: AnyGame) -> str | None:
    """Why ``holder`` is told that ``move`` cleared their lines (which expected no such move), or None when
    nothing is worth saying: the game is over (its result is posted, pinging every player), or it is the
    holder's own resignation. "unexpected": a turn none of their lines expected; "takeback": the turn they
    answered was taken back (their own takeback too: the lines were made for the position it undid);
    "resign" or "timeout": another player left a game that goes on."""
    if game.is_over or (move.kind == "resign" and move.user_id == holder):
        return None
    return "unexpected" if move.kind == "turn" else move.kind


def explored(base: dict[str, Any], turns: list[str]) -> tuple[AnyGame, list[Event]]:
    """The position of an exploration after ``turns`` from its copied position, with the last turn's events."""
    game = load_state(base)
    events: list[Event] = []
    for notation in turns:
        events = list(game.play_turn(notation))
    return game, events
