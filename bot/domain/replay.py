"""The move log is the truth: a match's position is its log replayed (a takeback row cancels the turn before it)."""

from __future__ import annotations

from games import AnyGame, Event

from .model import MatchRow, MoveRow
from .seats import info


def effective_moves(moves: list[MoveRow]) -> list[MoveRow]:
    """The log without taken-back turns: what replays to the position."""
    kept: list[MoveRow] = []
    for move in moves:
        if move.kind == "takeback":
            kept.pop()
        else:
            kept.append(move)
    return kept


def replay(match: MatchRow, moves: list[MoveRow]) -> AnyGame:
    """The match rebuilt from its move log."""
    game = info(match).new(match.players, match.options)
    for move in effective_moves(moves):
        apply_logged(game, move)
    return game


def apply_logged(game: AnyGame, move: MoveRow) -> list[Event]:
    """One logged move applied to the game; its events."""
    if move.kind in ("resign", "timeout"):  # a time-out drops the seat as if it resigned
        return game.resign(move.seat)
    if move.kind == "draw":
        return game.agree_draw()
    assert move.kind == "turn", move.kind
    return game.play_turn(move.notation)
