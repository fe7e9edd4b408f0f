"""Bump's wins forced within two of the mover's turns, found exactly: the search's root check (issue 39).

A Bump game is won when the turn passes to a seat with a piece on its opponent's centre, so:

- a **win in one** is a turn that leaves a piece of the mover on the opponent's centre where no reply clears
  it (only a bumping reply can move a piece other than the one it names: every other reply loses at once);
- a **win in two** is a turn after which every reply either loses at once or leaves the mover a win in one.

The tree search proves these too (its solver), but late where some seventy replies must each be shown to
leave a win in one, and it stops at the first proof it completes, which may be a longer win (a step onto
the centre that one reply clears, the game won two turns later). So the root is checked first, exactly,
with the engine: wins in one, then wins in two. Each listing of a position's turns (the engine's
enumeration: most of the cost) is counted in listed turns against a budget; past it the check gives up
(:class:`OutOfBudget`) and the tree search decides. Replies that refuted one turn are tried first against
the next ("killers": a pass first, which refutes every turn that threatens nothing).
"""

from __future__ import annotations

from collections import deque
from functools import cache

from games.bump import CENTRE, NEIGHBOURS, OPPONENT_CENTRE, PASS, SPACE_COUNT, Bump, BumpAction
from games.interface import IllegalMove

from ..turns import apply_turn

#: Killer replies kept (the most recent first).
KILLERS = 8


@cache
def centre_distance(seat: int) -> tuple[int, ...]:
    """Per space: shifts from it to ``seat``'s opponent's centre (walls respected, pieces ignored)."""
    goal = OPPONENT_CENTRE[seat]
    dist = [99] * SPACE_COUNT
    dist[goal] = 0
    queue = deque([goal])
    while queue:
        a = queue.popleft()
        for b in NEIGHBOURS[a]:
            if b >= 0 and dist[b] == 99 and b != CENTRE[seat]:
                dist[b] = dist[a] + 1
                queue.append(b)
    return tuple(dist)


class OutOfBudget(Exception):
    """The check listed more turns than its budget allowed."""


def after(game: Bump, action: BumpAction) -> Bump:
    """The position after the turn ``action`` (a new object)."""
    return apply_turn(game.copy(), (action,))


def stands_on_centre(game: Bump, seat: int) -> bool:
    """Whether a piece of ``seat`` stands on its opponent's centre."""
    piece = game.board.cells[OPPONENT_CENTRE[seat]]
    return piece >= 0 and game.board.owner[piece] == seat


class ForcedWin:
    """One check of one position: ``ForcedWin(budget).find(game)`` -> the winning turn, or None.

    ``budget``: the turns it may list in all (None: no limit). Deterministic: no random draws.
    """

    def __init__(self, budget: int | None = None) -> None:
        self.left = budget
        self.listed = 0
        self._killers: list[BumpAction] = []  # replies that left the mover no win in one
        self._clearers: list[BumpAction] = []  # replies that cleared a piece from the centre

    def find(self, game: Bump) -> BumpAction | None:
        """A turn winning in one, else one winning in two; None when neither exists (or past the budget:
        :class:`OutOfBudget` is raised)."""
        return self.win_in_one(game) or self.win_in_two(game)

    # -- listing, counted ------------------------------------------------------------------

    def _listed(self, game: Bump) -> list[BumpAction]:
        actions = game.legal_actions()
        self.listed += len(actions)
        if self.left is not None:
            self.left -= len(actions)
            if self.left < 0:
                raise OutOfBudget
        return actions

    # -- wins in one -------------------------------------------------------------------------

    def win_in_one(self, game: Bump) -> BumpAction | None:
        """A turn of the mover after which no reply clears its piece from the opponent's centre."""
        seat = game.to_move
        if seat is None:
            return None
        self._listed(game)  # the enumeration centre_takers reads (cached by the engine)
        for taker in game.centre_takers():
            child = after(game, taker)
            if child.is_over:
                if child.winners == (seat,):
                    return taker
                continue
            if self._no_reply_clears(child, seat):
                return taker
        return None

    def _no_reply_clears(self, child: Bump, seat: int) -> bool:
        """``seat``'s piece on the opponent's centre, the opponent to move: every bumping reply leaves it
        there (the others move only their own piece, so they lose at once). Replies that cleared the centre
        before are tried first, before any listing: most steps onto it are cleared by one of them."""
        for reply in self._clearers:
            try:
                result = after(child, reply)
            except IllegalMove:
                continue
            if not (result.is_over and result.winners == (seat,)):
                return False
        self._listed(child)
        for reply in child.bumping_turns():
            result = after(child, reply)
            if not (result.is_over and result.winners == (seat,)):
                _remember(self._clearers, reply)
                return False
        return True

    # -- wins in two -------------------------------------------------------------------------

    def win_in_two(self, game: Bump) -> BumpAction | None:
        """A turn of the mover after which every reply loses at once or leaves the mover a win in one."""
        seat = game.to_move
        if seat is None:
            return None
        dist = centre_distance(seat)

        def nearest_first(action: BumpAction) -> tuple[int, int]:  # the order only saves work
            return (dist[action[1]], dist[action[2]]) if action[0] == "move" else (99, 99)

        for first in sorted(self._listed(game), key=nearest_first):
            child = after(game, first)
            if child.is_over:
                if child.winners == (seat,):
                    return first
                continue
            if self._every_reply_leaves_a_win(child, seat):
                return first
        return None

    def _every_reply_leaves_a_win(self, child: Bump, seat: int) -> bool:
        # A pass first: it needs no listing, and it refutes every turn that threatens nothing.
        if not self._reply_leaves_a_win(child, PASS, seat):
            return False
        replies = self._listed(child)
        legal = set(replies)
        killers = [reply for reply in self._killers if reply != PASS and reply in legal]
        tried = {PASS, *killers}
        for reply in killers + [reply for reply in replies if reply not in tried]:
            if not self._reply_leaves_a_win(child, reply, seat):
                return False
        return True

    def _reply_leaves_a_win(self, child: Bump, reply: BumpAction, seat: int) -> bool:
        result = after(child, reply)
        holds = result.winners == (seat,) if result.is_over else self.win_in_one(result) is not None
        if not holds and reply != PASS:  # pass is always tried first
            _remember(self._killers, reply)
        return holds


def _remember(killers: list[BumpAction], reply: BumpAction) -> None:
    """Put ``reply`` first among ``killers`` (at most ``KILLERS`` kept)."""
    if reply in killers:
        killers.remove(reply)
    killers.insert(0, reply)
    del killers[KILLERS:]
