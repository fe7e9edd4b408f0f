"""Looking at a match: its board, its move list, its replay, and announcements a stop left unposted."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games import AnyGame, Event
from render import can_zoom, zoom_helps

from ..domain.errors import Refusal
from ..domain.model import MatchRow, MoveRow
from ..domain.outcome import Change, Outcome
from ..domain.replay import apply_logged, effective_moves, replay
from ..domain.seats import game_of, person_to_move, player_names, player_row, title
from .core import MatchCore
from .describe import LastTurn, last_turn
from .reminders import CLAIM_LEASE


def zoom_offered(game: AnyGame) -> bool:
    """Whether the game's board posts offer the zoom: a phone cannot read its names on the whole board
    (Bump, Begird's standard board; render.zoom_helps)."""
    return zoom_helps(game)


@dataclass
class Board:
    """A match's board as a player asks for it, with what is said beside it."""

    match: MatchRow
    game: AnyGame
    png: bytes
    vacations: list[tuple[str, float]]
    """(name, until) of its players on vacation."""
    last: LastTurn | None = None
    """The turn the board is drawn with (for its description and /board text)."""


@dataclass
class Logged:
    """One row of a match's move list."""

    number: int
    move: MoveRow
    holder_id: int | None
    """Who held the move's seat when it was made (None for a takeback row)."""


@dataclass
class Position:
    """A match as it stood after ``ply`` moves of its log (taken-back turns left out): the Activity's view."""

    match: MatchRow
    game: AnyGame
    ply: int
    plies: int
    """How many moves the log has (taken-back turns left out): ``ply == plies`` is the latest position."""
    move: MoveRow | None
    """The move that led here (None at the start)."""
    events: list[Event]


class HistoryFlow(MatchCore):
    async def position_at(self, match_id: int, ply: int | None = None) -> Position:
        """The position after ``ply`` moves (None, or beyond the log: the latest), with the move that led there."""
        match = await self.get(match_id)
        if match.status == "lobby" or match.state is None:
            raise Refusal("not_started", match=match)
        moves = effective_moves(await self.store.moves(match.id))
        plies = len(moves)
        if ply is None or ply >= plies:
            ply, game = plies, game_of(match)  # the stored position (the log replays to it: MatchCore checks)
        else:
            game = replay(match, moves[: max(0, ply)])
            ply = max(0, ply)
        move = moves[ply - 1] if ply else None
        events = [Event.from_json(e) for e in move.events] if move is not None else []
        return Position(match, game, ply, plies, move, events)

    async def last_events(self, match: MatchRow) -> list[Event]:
        turn = await self.last_turn(match)
        return list(turn.events) if turn is not None else []

    async def last_turn(self, match: MatchRow) -> LastTurn | None:
        """The last turn played (its notation and events), as the board is drawn with it."""
        moves = effective_moves(await self.store.moves(match.id))
        for move in reversed(moves):
            if move.kind == "turn":
                return last_turn([Event.from_json(e) for e in move.events], move.notation)
        return None

    async def board(self, match_id: int, zoom: str | None = None, picture: bool = True) -> Board:
        """The board picture; ``zoom`` ("last" or a cell) enlarges part of it, for games that can.
        Without ``picture`` (/board text) nothing is drawn: ``png`` is empty."""
        match = await self.get(match_id)
        if match.status == "lobby":
            raise Refusal("not_started", match=match)
        game = game_of(match)
        zoom = (zoom or "").strip()[:20] or None
        if zoom is not None:
            if not can_zoom(game.info.id):
                raise Refusal("no_zoom", game=game.info.name)
            try:
                if zoom.lower() != "last":
                    game.parse_cell(zoom)
            except ValueError:
                raise Refusal("not_a_cell", text=zoom, example=game.cell_names()[0]) from None
        turn = await self.last_turn(match)
        png = await self.render(match, game, list(turn.events) if turn else [], zoom=zoom) if picture else b""
        return Board(match, game, png, await self.schedule.vacations(match, self.clock.now()), turn)

    async def history(self, match_id: int) -> tuple[MatchRow, list[Logged]]:
        match = await self.get(match_id)
        moves = await self.store.moves(match.id)
        game = replay(match, [])
        rows = []
        for number, move in enumerate(moves, start=1):
            if move.kind == "takeback":  # the log keeps both the turn and its takeback
                game = replay(match, moves[:number])
                rows.append(Logged(number, move, None))
                continue
            rows.append(Logged(number, move, player_row(match, game, move.seat).user_id))
            apply_logged(game, move)
        return match, rows

    async def history_gif(self, match_id: int, user_id: int | None = None, guild_id: int | None = None) -> bytes:
        """The whole match as an animated GIF, drawn apart from boards (Pictures.gif) so turns never wait behind it."""
        match = await self.get(match_id)
        if guild_id is not None:
            self.check_guild(match, guild_id)
        if match.status == "lobby":
            raise Refusal("not_started", match=match)
        if self.replays.drawing(match_id):
            raise Refusal("replay_drawing", match=match)
        now = self.clock.now()
        if user_id is not None:
            wait = self.replays.wait_for(user_id, now)
            if wait > 0:
                raise Refusal("replay_wait", every=self.replays.cooldown, wait=wait)
            self.replays.asked(user_id, now)
        self.replays.start(match_id)
        try:
            game = replay(match, [])
            frames: list[tuple[AnyGame, list[Event]]] = [(game.copy(), [])]
            for move in effective_moves(await self.store.moves(match.id)):
                events = apply_logged(game, move)
                frames.append((game.copy(), events))
            return await self.pictures.gif(frames, player_names=player_names(match), title=title(match))
        finally:
            self.replays.done(match_id)

    async def unannounced(self, changed_by: float | None = None) -> list[tuple[int, float]]:
        """(match id, when it last changed) of the matches whose latest board was stored but never shown (a stop
        came between the two), oldest change first; only those changed at ``changed_by`` (the games' clock) or
        before, when given. Nothing is claimed here: each board is claimed as it is posted
        (:meth:`claim_missed`), so a process that dies holds one at most, and only until its heartbeat stops."""
        return [
            (m, changed) for m, changed in await self.store.unannounced() if changed_by is None or changed <= changed_by
        ]

    async def claim_missed(self, match_id: int) -> Outcome | None:
        """Claim the posting of the match's latest board and rebuild it from the log; None when it is posted,
        a live process holds it, or it cannot be rebuilt (then let go, or the match set aside)."""
        if not await self.claim_announcement(match_id):
            return None
        outcome = await self.for_one_match(match_id, self.missed(match_id))  # one bad match stops no other
        if outcome is None:
            await self.release_announcement(match_id)
        return outcome

    async def claim_announcement(self, match_id: int) -> bool:
        """Hold the posting of the match's latest board: False if it is posted, or a live process holds it."""
        return await self.store.claim_announcement(match_id, self.clock.lease_now(), CLAIM_LEASE)

    async def release_announcement(self, match_id: int) -> None:
        """Give back this process's claim on the match's board (not posted this time)."""
        await self.store.release_announcement(match_id)

    async def missed(self, match_id: int) -> Outcome:
        """The announcement of the match's latest stored change, rebuilt from its log."""
        match = await self.get(match_id)
        moves = await self.store.moves(match_id)
        return await self._rebuilt(match, game_of(match), moves)

    async def missed_turns(self, match_id: int) -> list[Outcome]:
        """The boards the match's last turns still owe, oldest first: the latest change's and, when that was a
        conditional answer, the turn it answered if its board was not posted either (a worker stored both:
        the process that stores them itself posts both, the answered turn first)."""
        match = await self.get(match_id)
        moves = await self.store.moves(match_id)
        outcomes = [await self._rebuilt(match, game_of(match), moves)]
        back = 0
        while (
            back + 1 < len(moves)
            and moves[-1 - back].conditional
            and match.version - back - 1 > match.announced_version
        ):
            back += 1  # a conditional answer is stored at the version after the turn it answers
            earlier = moves[:-back]
            game = replay(match, earlier)
            then = dataclasses.replace(
                match, version=match.version - back, state=game.to_json(), status="active", result=None
            )
            answered = await self._rebuilt(then, game, earlier)
            answered.mention_user_id = None  # answered at once: no ping for a turn already played
            outcomes.insert(0, answered)
        return outcomes

    async def _rebuilt(self, match: MatchRow, game: AnyGame, moves: list[MoveRow]) -> Outcome:
        """The announcement of the last of ``moves`` (the match's log up to ``match``'s version)."""
        if not moves:
            return Outcome(match, game, (Change("status"),), started=True, mention_user_id=person_to_move(match, game))
        last = moves[-1]
        before = replay(match, moves[:-1])  # whose seat it was then (a swap changes it)
        events = tuple(Event.from_json(e) for e in last.events)
        holder = player_row(match, before, last.seat).user_id
        change = Change(
            last.kind,
            user_id=None,
            seat=last.seat,
            holder_id=holder,
            notation=last.notation if last.kind == "turn" else "",
            events=events,
            conditional=last.conditional,
        )
        return await self.announcement(match, game, (change,), events)
