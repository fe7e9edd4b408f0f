"""A match's seats beside its game: who holds a seat, whose move it is, what computer seats are called.

Plain functions of a stored match and its engine (games/), shared by the service and the chat layer.
"""

from __future__ import annotations

from games import AnyGame, GameInfo, load_state
from games import get as get_game

from .errors import Refusal
from .model import MatchRow, SeatRow

# Computer seats (docs/ai.md, "Computer seats in Discord"): the levels a player may pick, the default one
# (inviting the bot itself), and how a computer seat is named: pseudo user ids below zero, one per seat.
COMPUTER_LEVELS = ("easy", "medium", "hard", "expert")
DEFAULT_COMPUTER_LEVEL = "medium"
COMPUTER_NAME = "Hexplay"
PICTURE_MARK = "⚙"  # in pictures (the bundled font has no robot)


def computer_seat_name(level: str, number: int, count: int) -> str:
    """``Hexplay (hard)``; several computer seats are numbered: ``Hexplay 2 (easy)``."""
    return f"{COMPUTER_NAME}{f' {number}' if count > 1 else ''} ({level})"


def picture_name(seat: SeatRow) -> str:
    """A computer seat's name on pictures, short for the narrowest player table (Bide's, which cuts a name
    at about ten letters): ``⚙ AI hard``, ``⚙ AI 2 easy`` (the number first, so it is never the part cut)."""
    number = seat.name.removeprefix(COMPUTER_NAME).split("(")[0].strip()
    return f"{PICTURE_MARK} AI{f' {number}' if number else ''} {seat.computer}"


def info(match: MatchRow) -> GameInfo:
    return get_game(match.game)


def title(match: MatchRow) -> str:
    """``Bide #12``: how a match is named everywhere, pictures included."""
    return f"{get_game(match.game).name} #{match.id}"


def game_of(match: MatchRow) -> AnyGame:
    assert match.state is not None
    return load_state(match.state)


def player_row(match: MatchRow, game: AnyGame, seat: int) -> SeatRow:
    """The seat row of whoever holds engine seat ``seat`` now (a swap changes it)."""
    row = match.user_of(game.player_of_seat(seat))
    assert row is not None, (match.id, seat)
    return row


def player_names(match: MatchRow) -> list[str]:
    """Names in sitting order, as pictures take them (a computer seat marked as such)."""
    return [picture_name(s) if s.is_computer else s.name for s in sorted(match.seats, key=lambda s: s.seat)]


def user_to_move(match: MatchRow, game: AnyGame) -> int | None:
    seat = game.to_move
    return None if seat is None else player_row(match, game, seat).user_id


def computer_to_move(match: MatchRow, game: AnyGame) -> SeatRow | None:
    """The computer seat whose turn it is, if any."""
    mover = user_to_move(match, game)
    seat = None if mover is None else match.seat_of(mover)
    return seat if seat is not None and seat.is_computer else None


def person_to_move(match: MatchRow, game: AnyGame) -> int | None:
    """Whom "your move" pings: the person to move; never a computer seat."""
    mover = user_to_move(match, game)
    return None if mover is None or match.is_computer(mover) else mover


def engine_seat_of(match: MatchRow, game: AnyGame, user_id: int) -> int:
    """The engine seat the user holds; Refusal "not_a_player" if none."""
    for seat in range(1, game.players + 1):
        if player_row(match, game, seat).user_id == user_id:
            return seat
    raise Refusal("not_a_player", match=match)
