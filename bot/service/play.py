"""Playing: a turn, a resignation, a preview of a turn, the turn builder's menus, move autocomplete."""

from __future__ import annotations

from dataclasses import dataclass

from games import AnyGame, Event, GameError
from games.interface import Say, split_turn

from ..domain.errors import BuilderExpired, Refusal, StalePosition
from ..domain.model import MatchRow, MoveRow
from ..domain.outcome import Change, Outcome
from ..domain.seats import engine_seat_of, game_of, player_row, user_to_move
from .core import MatchCore
from .locks import one_at_a_time
from .suggestions import MAX_CHOICES, MoveChoice, suggest_moves
from .turn_builder import BuilderError, BuilderState, NextAction, follow, next_actions
from .turn_builder import build as build_turn


@dataclass
class Preview:
    """A turn tried on a copy of the position (nothing stored): the picture and what it would do."""

    match: MatchRow
    game: AnyGame
    """The position after the turn (or after the actions so far, for a turn half-built)."""
    png: bytes
    seat: int
    """The mover's engine seat, before the turn."""
    notation: str
    events: list[Event]
    unfinished: GameError | None = None
    """The engine's reason the actions so far are not a whole turn yet, or None for a whole turn."""


@dataclass
class Suggestion:
    """Autocomplete for /move: the choices, and why the player cannot play now (None if they can)."""

    choices: list[MoveChoice]
    """Legal continuations of what was typed (``bot/chat/words/moves.py`` words them)."""
    note: str | None = None
    """"over", "left", "not_playing" or "not_your_turn"."""
    mover: str = ""
    """Who is to move, for "not_your_turn"."""


class PlayFlow(MatchCore):
    @one_at_a_time
    async def play(
        self,
        match_id: int,
        user_id: int,
        text: str,
        expected_version: int | None = None,
        seen: MatchRow | None = None,
    ) -> Outcome:
        """Play a turn. ``seen`` is the match as the caller has just read it (finding it by its thread), which
        saves reading it again: the turn is stored only if the match is still at that version (the store's
        compare-and-set), and if it has moved on, or ``seen`` says no, the turn is decided again on a fresh read.
        """
        if seen is not None and seen.id == match_id and seen.status == "active":
            try:
                turn = self._turn(seen, game_of(seen), user_id, text, expected_version)
            except Refusal:
                turn = None  # perhaps only because ``seen`` is out of date: asked again below
            if turn is not None:
                try:
                    return await self.commit_move(*turn)
                except Refusal as refusal:
                    if refusal.reason != "changed_meanwhile":  # stored, or not known: never played twice
                        raise
        match, game = await self.active(match_id)
        return await self.commit_move(*self._turn(match, game, user_id, text, expected_version))

    def _turn(
        self, match: MatchRow, game: AnyGame, user_id: int, text: str, expected_version: int | None
    ) -> tuple[MatchRow, AnyGame, tuple[int | None, int], MoveRow, Change]:
        """The turn decided on ``match`` as read (``game`` becomes the position after it): commit_move's arguments."""
        seat = engine_seat_of(match, game, user_id)
        if game.to_move != seat:
            raise Refusal("not_your_turn", match=match, game=game)
        if expected_version is not None and expected_version != match.version:
            raise StalePosition("old_button")
        before_ply, before_mover = game.ply, game.to_move
        holder = player_row(match, game, seat).user_id  # before the turn: a swap changes who owns the seat
        try:
            events = game.play_turn(text)
        except GameError as error:
            raise Refusal("illegal_move", text=text, why=error) from None
        notation = game.last_turn_notation
        move = MoveRow(0, before_ply, seat, user_id, "turn", notation, [e.to_json() for e in events], 0.0, entered=text)
        change = Change("turn", user_id=user_id, seat=seat, holder_id=holder, notation=notation, events=tuple(events))
        return match, game, (before_mover, before_ply), move, change

    @one_at_a_time
    async def resign(self, match_id: int, user_id: int) -> Outcome:
        match, game = await self.active(match_id)
        seat = engine_seat_of(match, game, user_id)
        if player_row(match, game, seat).resigned:
            raise Refusal("already_resigned")
        before = (game.to_move, game.ply)
        try:
            events = game.resign(seat)
        except GameError as error:
            raise Refusal("game_says", why=error) from None
        move = MoveRow(0, game.ply, seat, user_id, "resign", "resign", [e.to_json() for e in events], 0.0)
        change = Change("resign", user_id=user_id, seat=seat, holder_id=user_id, events=tuple(events))
        return await self.commit_move(match, game, before, move, change, resigned_seat=game.player_of_seat(seat))

    async def confirm_resign(self, match_id: int, user_id: int) -> MatchRow:
        """Before asking "are you sure": refuse those who cannot resign here now, not at the button."""
        match, game = await self.active(match_id)
        engine_seat_of(match, game, user_id)
        return match

    async def preview(self, match_id: int, user_id: int, text: str) -> Preview:
        match, game = await self.active(match_id)
        if match.seat_of(user_id) is None:
            raise Refusal("not_a_player", match=match)
        if user_to_move(match, game) != user_id:  # the engine can only try the mover's turn
            raise Refusal("preview_not_your_turn", match=match, game=game)
        assert game.to_move is not None
        seat = game.to_move
        trial = game.copy()
        try:
            events = trial.play_turn(text)
        except GameError as error:
            # Not a whole turn: show the actions so far, if each of them is legal (a turn half-built).
            partial = self._partial_turn(game, text)
            if partial is None:
                raise Refusal("illegal_move", text=text, why=error) from None
            trial, events = partial
            png = await self.render(match, trial, events)
            return Preview(match, trial, png, seat, trial.format_turn(trial.turn_actions), events, error)
        return Preview(match, trial, await self.render(match, trial, events), seat, trial.last_turn_notation, events)

    @staticmethod
    def _partial_turn(game: AnyGame, text: str) -> tuple[AnyGame, list[Event]] | None:
        """The game after the actions of ``text`` when each is legal but the turn is not finished."""
        trial = game.copy()
        events: list[Event] = []
        tokens = split_turn(text)
        if not tokens:
            return None
        try:
            for token in tokens:
                if trial.is_over:
                    return None
                events.extend(trial.apply_action(trial.parse_action(token)))
        except GameError:
            return None
        return (trial, events) if trial.turn_in_progress() else None

    async def builder(
        self, match_id: int, user_id: int, version: int | None, picks: list[int], say: Say
    ) -> tuple[MatchRow, BuilderState]:
        """The turn builder's state for the mover (see :mod:`bot.service.turn_builder`); its menus labelled
        through ``say``."""
        match, game = await self.active(match_id)
        seat = engine_seat_of(match, game, user_id)
        if version is not None and version != match.version:
            raise BuilderExpired("builder_expired")
        if game.to_move != seat:
            raise Refusal("not_your_turn", match=match, game=game)
        try:
            return match, build_turn(game, picks, say)
        except BuilderError as error:
            raise Refusal("builder_says", why=error) from None

    async def tapped(
        self, match_id: int, user_id: int, version: int, actions: list[str], say: Say
    ) -> tuple[MatchRow, BuilderState, list[NextAction]]:
        """The turn built by tapping (the Activity): the mover's position after ``actions`` and what may follow
        (labelled through ``say``). The same checks as the menus' builder; an action the game refuses is refused
        with the game's reason."""
        match, game = await self.active(match_id)
        seat = engine_seat_of(match, game, user_id)
        if version != match.version:
            raise StalePosition("old_button")
        if game.to_move != seat:
            raise Refusal("not_your_turn", match=match, game=game)
        try:
            state = follow(game, actions)
        except BuilderError as error:
            raise Refusal("builder_says", why=error) from None
        except GameError as error:
            raise Refusal("illegal_move", text=",".join(actions), why=error) from None
        return match, state, next_actions(state, say)

    @staticmethod
    def suggestions(match: MatchRow, game: AnyGame, user_id: int, typed: str) -> Suggestion:
        """Autocomplete for /move: legal continuations of ``typed``, with a note when it is not your turn."""
        if game.is_over:
            return Suggestion([], "over")
        seat = match.seat_of(user_id)
        if seat is None or seat.resigned:
            return Suggestion([], "left" if seat is not None else "not_playing")
        choices = suggest_moves(game, typed)
        if user_to_move(match, game) != user_id:
            assert game.to_move is not None
            mover = player_row(match, game, game.to_move).name
            return Suggestion(choices[: MAX_CHOICES - 1], "not_your_turn", mover)
        return Suggestion(choices[:MAX_CHOICES])
