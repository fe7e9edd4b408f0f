"""Following conditional moves (/premove) after each stored move: answered, carried on, or cleared.

``MatchCore.commit_move`` hands every move it stored to :meth:`PremoveFollowing.after_move`; a process's
start-up and its look for work left behind call :meth:`PremoveFollowing.left_behind`. What a line is and how a
turn follows it is ``premove_lines.py`` (pure); this module reads and writes the stored lines and plays an
answer through the core's one way of storing a move (the core hands itself in as a ``MoveRecorder``, so this
module does not import the core that builds it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Collection
from typing import Protocol, TypeVar

from games import AnyGame, GameError

from ..domain.clock import Clock
from ..domain.errors import Refusal
from ..domain.model import MatchRow, MoveRow, PremoveRow
from ..domain.outcome import Change, Outcome
from ..domain.seats import game_of, player_row, user_to_move
from ..store.base import Store
from .premove_lines import followed, why_cleared

log = logging.getLogger(__name__)
T = TypeVar("T")


class MoveRecorder(Protocol):
    """What following needs of the core: its store and clock (read at each use: the core's are the truth),
    storing a move as it stands (no following), announcing one, reading a servable match, and a pass over many
    matches where one failure stays with its match."""

    store: Store
    clock: Clock

    async def commit_without_following(
        self, match: MatchRow, game: AnyGame, before: tuple[int | None, int], move: MoveRow, change: Change
    ) -> Outcome: ...

    async def announcement(self, match: MatchRow, game: AnyGame, changes: tuple[Change, ...]) -> Outcome: ...

    async def get(self, match_id: int) -> MatchRow: ...

    async def for_one_match(self, match_id: int, work: Awaitable[T]) -> T | None: ...


class PremoveFollowing:
    def __init__(self, core: MoveRecorder) -> None:
        self.core = core

    @property
    def store(self) -> Store:
        return self.core.store

    @property
    def clock(self) -> Clock:
        return self.core.clock

    async def after_move(self, before: int, outcome: Outcome, move: MoveRow) -> None:
        """After the move from version ``before``: the conditional moves made for that position are taken
        (they never outlive it). A player to move whose lines expected this turn has their answer played now,
        in a compare-and-set on the new version like any turn; the rest of a line that expected it is kept for
        the next position; the others are cleared and their players told (``outcome.premoves_cleared``).

        A premove edited at ``before`` was stored before this move (the edit holds the version in its
        transaction) and is read here; one edited later is refused: a stale premove is never played. They are
        deleted only once followed, so a stop in between leaves them for :meth:`left_behind`.
        """
        match = outcome.match
        if not match.premoves_held:  # nobody ever stored any here: no trip to the database
            return
        pending = await self.store.premoves_at(match.id, before)
        if pending:
            await self._follow_lines(pending, outcome, move)
        taken = await self.store.take_premoves(match.id, before)  # followed: answered, carried on or cleared
        if outcome.premoves_cleared:  # told by the one process whose take found their lines (another may be
            # following the same lines left behind: an answer is stored once by its version check, a notice here)
            mine = {premoves.user_id for premoves in taken}
            outcome.premoves_cleared = tuple(cleared for cleared in outcome.premoves_cleared if cleared[0] in mine)

    async def _follow_lines(self, taken: list[PremoveRow], outcome: Outcome, move: MoveRow) -> None:
        match, game = outcome.match, outcome.game
        if game is None:
            return
        cleared: list[tuple[int, str]] = []
        for premoves in taken:
            expected = move.kind == "turn" and not game.is_over
            rest = followed(premoves.lines, move.notation) if expected else []
            if not rest:
                why = why_cleared(premoves.user_id, move, game)
                if why is not None:
                    cleared.append((premoves.user_id, why))
            elif user_to_move(match, game) == premoves.user_id and outcome.answered is None:
                if not await self._answer(outcome, premoves.user_id, rest):
                    cleared.append((premoves.user_id, "illegal"))
            else:  # several seats: the line goes on with someone else's turn
                await self.store.keep_premoves(match.id, premoves.user_id, match.version, rest, self.clock.now())
        outcome.premoves_cleared = tuple(cleared)

    async def _answer(self, outcome: Outcome, user_id: int, lines: list[list[str]]) -> bool:
        """Play the player's conditional answer on the position of ``outcome``; keep the rest of its lines.
        False if the answer is not legal (it was when entered: a changed engine); a position that moved on
        meanwhile (a takeback landing first) plays nothing."""
        match, game = outcome.match, outcome.game
        assert game is not None and game.to_move is not None
        answer = lines[0][0]
        trial = game.copy()
        seat = trial.to_move
        assert seat is not None
        holder = player_row(match, trial, seat).user_id
        before = (trial.to_move, trial.ply)
        try:
            events = trial.play_turn(answer)
        except GameError:
            log.warning("match %s: a conditional answer %r is not legal; cleared", match.id, answer)
            return False
        notation = trial.last_turn_notation
        move = MoveRow(
            0, before[1], seat, user_id, "turn", notation, [e.to_json() for e in events], 0.0, answer, conditional=True
        )
        change = Change(
            "turn",
            user_id=user_id,
            seat=seat,
            holder_id=holder,
            notation=notation,
            events=tuple(events),
            conditional=True,
        )
        try:
            answered = await self.core.commit_without_following(match, trial, before, move, change)
        except Refusal as refusal:
            log.info("match %s: a conditional answer was not played (%s)", match.id, refusal.reason)
            return True  # the position moved on: the answer no longer applies, and nothing is said
        rest = [line[1:] for line in lines if line[0] == answer and len(line) > 1]
        if rest and not trial.is_over:
            await self.store.keep_premoves(match.id, user_id, answered.match.version, rest, self.clock.now())
        outcome.answered = answered
        outcome.mention_user_id = None  # they answered at once: no ping for a turn already played
        await self.after_move(match.version, answered, move)  # others' lines may expect this answer
        return True

    async def left_behind(self, changed_by: float | None = None, unless: Collection[int] = ()) -> list[Outcome]:
        """Conditional moves a stop left behind between a move and its answer (at start-up, and by any live
        process's look for them). Those made for the position the match's last move left are followed now
        (the answer played, the rest kept, or cleared and told), as that move would have; older ones can no
        longer apply and are dropped. A match changed after ``changed_by`` (the games' clock), or one of
        ``unless`` (its move's board not posted yet), is left alone: the process that stored its move may be
        following them right now, and posts that board after it has."""
        outcomes = []
        for match_id, version in await self.store.premoves_left_behind():
            if match_id in unless:
                continue
            outcome = await self.core.for_one_match(match_id, self._follow_left(match_id, version, changed_by))
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    async def _follow_left(self, match_id: int, version: int, changed_by: float | None) -> Outcome | None:
        match = await self.core.get(match_id)
        if changed_by is not None and match.updated_at > changed_by:
            return None
        moves = await self.store.moves(match_id)
        if version != match.version - 1 or not moves:
            await self.store.take_premoves(match_id, version)  # stale: a later change already moved on
            return None
        last = moves[-1]
        change = Change(last.kind, user_id=last.user_id, seat=last.seat, notation=last.notation)
        outcome = await self.core.announcement(match, game_of(match), (change,))
        await self.after_move(version, outcome, last)
        return outcome
