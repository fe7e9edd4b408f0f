"""Puzzles from the server's own games (issue 36, the pure part; docs/puzzles.md).

A puzzle is a position where a forced goal is **proven** (never guessed) with a unique first turn: Begird's
win in one to three turns, Play Bai's goal now or within two turns, Bump's centre taken for good or saved,
Bide's turn that leaves the mover furthest ahead by a clear margin.

- :func:`find_puzzle` — is the position before a turn a player missed a puzzle (a review's drop)?
- :func:`candidates_from_game`, :func:`self_play_candidates` — the puzzles of a whole game, of a match or of
  the computer against itself (cheap filter first, the bounded prover on the survivors).
- :class:`Puzzle` — the puzzle as JSON, and :meth:`Puzzle.check` of a player's answer.
- :class:`ProofBudget` — what one proof may spend; over it the answer is "unknown" and nothing is kept.

Imports only :mod:`games` and :mod:`ai`.
"""

from .budget import ProofBudget
from .candidates import (
    DEFAULT_BUDGET,
    Attempt,
    attempts_from_game,
    candidates_from_game,
    find_puzzle,
    find_puzzle_document,
    review_turns,
    self_play_candidates,
    self_play_game,
    try_position,
    worth_proving,
)
from .puzzle import PUZZLE_FORMAT, Check, Difficulty, Goal, Puzzle

__all__ = [
    "DEFAULT_BUDGET",
    "PUZZLE_FORMAT",
    "Attempt",
    "Check",
    "Difficulty",
    "Goal",
    "ProofBudget",
    "Puzzle",
    "attempts_from_game",
    "candidates_from_game",
    "find_puzzle",
    "find_puzzle_document",
    "review_turns",
    "self_play_candidates",
    "self_play_game",
    "try_position",
    "worth_proving",
]
