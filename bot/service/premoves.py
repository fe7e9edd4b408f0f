"""Conditional moves (/premove) and the private analysis board (/explore) of a player in a match.

Conditional moves are stored with the match's version, in a transaction that holds that version: the move
that follows answers or clears them (``premove_following.py``), and any other change of the match leaves them
stale, never played. An exploration is a copy of the position kept for its player alone:
nothing played on it reaches the match, and a line of it can be saved as conditional moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from games import AnyGame, Event, GameError
from games.interface import split_turns

from ..domain.errors import Refusal
from ..domain.model import ExplorationRow, MatchRow
from ..domain.seats import game_of, player_names, title
from .core import MatchCore
from .locks import one_at_a_time
from .premove_lines import MAX_EXPLORED_TURNS, checked_line, explored, movers, with_line
from .suggestions import MAX_CHOICES, MoveChoice, suggest_moves

EXPLORE_STEPS = ("open", "new", "back", "forward", "save", "close")


@dataclass
class PremoveLine:
    turns: list[tuple[str, bool]]
    """(notation, the player's own turn) for each turn of the line."""


@dataclass
class Premoves:
    """A player's conditional moves in a match, as shown back to them."""

    match: MatchRow
    lines: list[PremoveLine]
    line: list[str] = field(default_factory=list)
    """The line just added (empty when nothing was), as stored: :meth:`PremoveFlow.line_picture` draws it."""
    added: bool = False
    replaced: int = 0
    """Lines the one just added replaced (they gave another answer to the same position)."""
    dropped: list[str] = field(default_factory=list)
    """Turns at the end of the line entered that were not saved: others' turns after the player's last answer."""


@dataclass
class Exploration:
    """A player's private analysis board, after a step."""

    match: MatchRow
    game: AnyGame
    """The position shown."""
    turns: list[tuple[str, int | None]]
    """(notation, who made it) of every turn explored, shown or not."""
    shown: int
    step: str
    png: bytes
    events: list[Event] = field(default_factory=list)
    saved: Premoves | None = None
    out_of_date: bool = False
    """The match has moved on since the position was copied (its line can no longer be saved)."""


class PremoveFlow(MatchCore):
    # -- conditional moves ----------------------------------------------------------------------

    async def _analysable(self, match_id: int, user_id: int) -> tuple[MatchRow, AnyGame]:
        """The match in play, the player in it, and private analysis allowed in it; Refusal otherwise."""
        match, game = await self.active(match_id)
        seat = match.seat_of(user_id)
        if seat is None or seat.is_computer:
            raise Refusal("not_a_player", match=match)
        if seat.resigned:
            raise Refusal("you_left", match=match)
        if not match.analysis:
            raise Refusal("no_analysis", match=match)
        return match, game

    @one_at_a_time
    async def add_premove(self, match_id: int, user_id: int, text: str) -> Premoves:
        """Add a line ("X; Y; Z", turns separated by semicolons) to the player's conditional moves."""
        match, game = await self._analysable(match_id, user_id)
        return await self._add_line(match, game, user_id, split_turns(text))

    async def _add_line(self, match: MatchRow, game: AnyGame, user_id: int, entered: list[str]) -> Premoves:
        line, dropped = checked_line(match, game, user_id, entered)
        held = await self.store.premoves_of(match.id, user_id)
        lines = held.lines if held is not None and held.version == match.version else []
        lines, replaced = with_line(match, game, user_id, lines, line)
        await self.stored_or_refused(self.store.set_premoves(match.id, user_id, match.version, lines, self.clock.now()))
        shown = self._shown(match, game, user_id, lines)
        return Premoves(match, shown, line, added=True, replaced=replaced, dropped=dropped)

    async def line_picture(self, shown: Premoves) -> bytes | None:
        """The board at the end of the line just added (drawn after it is stored: nothing waits on it)."""
        if not shown.line:
            return None
        after = game_of(shown.match)
        events: list[Event] = []
        for notation in shown.line:
            events = after.play_turn(notation)
        return await self._picture(shown.match, after, events, "conditional line")

    async def premoves(self, match_id: int, user_id: int) -> Premoves:
        """The player's conditional moves as they stand (none once the match moved on without them)."""
        match, game = await self._analysable(match_id, user_id)
        held = await self.store.premoves_of(match.id, user_id)
        lines = held.lines if held is not None and held.version == match.version else []
        return Premoves(match, self._shown(match, game, user_id, lines))

    @one_at_a_time
    async def clear_premoves(self, match_id: int, user_id: int) -> Premoves:
        match, _ = await self.active(match_id)
        if match.seat_of(user_id) is None:
            raise Refusal("not_a_player", match=match)
        await self.stored_or_refused(self.store.set_premoves(match.id, user_id, match.version, [], self.clock.now()))
        return Premoves(match, [])

    @staticmethod
    def _shown(match: MatchRow, game: AnyGame, user_id: int, lines: list[list[str]]) -> list[PremoveLine]:
        shown = []
        for line in lines:
            try:
                who = movers(match, game, line)
            except GameError:  # stored for this very position: cannot happen, but a picture is not worth a crash
                continue
            shown.append(PremoveLine([(n, w == user_id) for n, w in zip(line, who, strict=True)]))
        return shown

    def premove_suggestions(self, match: MatchRow, user_id: int, typed: str) -> list[MoveChoice]:
        """Autocomplete for a line: legal continuations of its last turn, on the position after the turns
        before it (those already typed are kept in each choice's value). Empty when a typed turn is illegal."""
        game = game_of(match)
        *before, last = typed.split(";") if typed else [""]
        done = ";".join(before)
        for text in before:
            if not text.strip():
                continue
            if game.is_over:
                return []
            try:
                game.play_turn(text)
            except GameError:
                return []
        prefix = f"{done}; " if before else ""
        choices = suggest_moves(game, last.strip())
        return [replace(choice, value=prefix + choice.value, before=prefix) for choice in choices][:MAX_CHOICES]

    # -- the private analysis board -------------------------------------------------------------

    async def explore(self, match_id: int, user_id: int, step: str = "open", turn: str | None = None) -> Exploration:
        """A step on the player's analysis board: open it (a copy of the current position, or the one kept),
        start it afresh, step back or forward, play a turn for whoever is to move there (a turn after a step
        back starts a new branch from there), save the line shown as conditional moves, or close it."""
        match, game = await self._analysable(match_id, user_id)
        kept = await self.store.get_exploration(match.id, user_id)
        if kept is None or step == "new" or (step == "open" and turn is None and kept.version != match.version):
            kept = ExplorationRow(match.id, user_id, match.version, game.to_json(), [], 0)
        turns, shown = list(kept.turns), kept.shown
        saved = None
        if step == "close":
            await self.store.drop_exploration(match.id, user_id)
            return await self._explored(match, kept, "close")
        if turn is not None and turn.strip():
            if shown >= MAX_EXPLORED_TURNS:
                raise Refusal("explore_too_long", limit=MAX_EXPLORED_TURNS)
            position, _ = explored(kept.base, turns[:shown])
            if position.is_over:
                raise Refusal("explore_over")
            try:
                position.play_turn(turn)
            except GameError as error:
                raise Refusal("illegal_move", text=turn, why=error) from None
            turns, shown = [*turns[:shown], position.last_turn_notation], shown + 1
            step = "turn"
        elif step == "back":
            if shown == 0:
                raise Refusal("explore_at_start")
            shown -= 1
        elif step == "forward":
            if shown >= len(turns):
                raise Refusal("explore_at_end")
            shown += 1
        elif step == "save":
            if kept.version != match.version:
                raise Refusal("explore_out_of_date", match=match)
            saved = await self._add_line(match, game, user_id, turns[:shown])
        kept = ExplorationRow(match.id, user_id, kept.version, kept.base, turns, shown)
        await self.store.put_exploration(kept, self.clock.now())
        return await self._explored(match, kept, step, saved)

    async def _explored(
        self, match: MatchRow, kept: ExplorationRow, step: str, saved: Premoves | None = None
    ) -> Exploration:
        position, events = explored(kept.base, kept.turns[: kept.shown])
        start, _ = explored(kept.base, [])
        who = movers(match, start, kept.turns)
        png = await self._picture(match, position, events, "analysis (private)")
        return Exploration(
            match,
            position,
            list(zip(kept.turns, who, strict=True)),
            kept.shown,
            step,
            png,
            events,
            saved,
            out_of_date=kept.version != match.version,
        )

    async def _picture(self, match: MatchRow, game: AnyGame, events: list[Event], what: str) -> bytes:
        """A board that is not the match's: its title says so, so nobody takes it for the real one."""
        return await self.pictures.png(
            game, player_names=player_names(match), last_events=events, title=f"{title(match)} · {what}"
        )

    def explore_suggestions(self, kept: ExplorationRow | None, match: MatchRow, typed: str) -> list[MoveChoice]:
        """Autocomplete for a turn on the analysis board: legal turns at the position it shows."""
        if kept is None or kept.version != match.version:
            position = game_of(match)
        else:
            position, _ = explored(kept.base, kept.turns[: kept.shown])
        return suggest_moves(position, typed)[:MAX_CHOICES]

    async def exploration_of(self, match_id: int, user_id: int) -> ExplorationRow | None:
        return await self.store.get_exploration(match_id, user_id)
