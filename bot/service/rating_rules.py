"""Which finished matches count for the ratings, and why one does not: pure, so the match's announcement says it
(``MatchCore.announcement``) by the same rule that settles it (``Ratings``)."""

from __future__ import annotations

from ..domain.model import MatchRow, MoveRow
from ..domain.replay import effective_moves

#: Turns a game must reach to be rated: an earlier end (a resignation or time-out at the very start) is an abort.
TURNS_TO_COUNT = 2


def unrated_reason(match: MatchRow, moves: list[MoveRow]) -> str | None:
    """Why a match its players asked to be rated does not count, as its result says: "too_short" (it ended before
    its second turn). None when it counts, or when it was never meant to (``rated:false``, a computer seat: the
    lobby said so when it was made)."""
    if not match.rated or any(s.is_computer for s in match.seats):
        return None
    turns = sum(1 for m in effective_moves(moves) if m.kind == "turn")
    return "too_short" if turns < TURNS_TO_COUNT else None
