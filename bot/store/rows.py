"""Reading rows back into the domain's types, defensively: shared by both backends (sqlite/, postgres/).

SQLite keeps whatever was written, whatever a column's declared type: a value that is not what the
schema says (a damaged disk, a hand-edited file) is damage confined to its match, never an exception
for whoever read it. A match row names its damage (``MatchRow.damage``); a logged move or an offer
that cannot be read raises DamagedMatch.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from ..domain.bank import BankClock
from ..domain.errors import DamagedMatch, DamagedTournament
from ..domain.model import ExplorationRow, GuildSettings, MatchRow, MoveRow, PremoveRow, ReviewRow, SeatRow
from ..domain.tournament import FORMATS, TOURNAMENT_STATUSES, TournamentGame, TournamentPlayer, TournamentRow

RATING_COLUMNS = "guild_id, game, user_id, name, mu, sigma, games, wins, losses, draws"

MATCH_COLUMNS = (
    "id, game, options, players, guild_id, channel_id, thread_id, lobby_message_id, board_channel_id,"
    " board_message_id, creator_id, status, state, version, created_at, updated_at, turn_started_at, result,"
    " announced_version, days_per_move, deadline_at, deadline_notice, rated, hints, analysis, clock_bank,"
    " clock_increment, clock_cap, turn_allowance, warnings_held_until, premoves_held"
)

# How each column of a match row must read (SQLite keeps whatever was written, whatever the declared type):
# a value that does not is damage confined to that match, never an exception for the caller.
_INT, _OPT_INT, _REAL, _OPT_REAL, _JSON, _OPT_JSON, _TEXT = "int", "int?", "real", "real?", "json", "json?", "text"

_MATCH_COLUMN_KINDS = (
    ("id", _INT),
    ("game", _TEXT),
    ("options", _JSON),
    ("players", _INT),
    ("guild_id", _INT),
    ("channel_id", _INT),
    ("thread_id", _OPT_INT),
    ("lobby_message_id", _OPT_INT),
    ("board_channel_id", _OPT_INT),
    ("board_message_id", _OPT_INT),
    ("creator_id", _INT),
    ("status", _TEXT),
    ("state", _OPT_JSON),
    ("version", _INT),
    ("created_at", _REAL),
    ("updated_at", _REAL),
    ("turn_started_at", _OPT_REAL),
    ("result", _OPT_JSON),
    ("announced_version", _INT),
    ("days_per_move", _OPT_REAL),
    ("deadline_at", _OPT_REAL),
    ("deadline_notice", _INT),
    ("rated", _INT),
    ("hints", _INT),
    ("analysis", _INT),
    ("clock_bank", _OPT_REAL),
    ("clock_increment", _OPT_REAL),
    ("clock_cap", _OPT_REAL),
    ("turn_allowance", _OPT_REAL),
    ("warnings_held_until", _OPT_REAL),
    ("premoves_held", _INT),
)

# What a damaged column reads as, so the row can still be shown and its players found; the match is paused.
_DAMAGED_DEFAULTS: dict[str, Any] = {
    _INT: 0,
    _OPT_INT: None,
    _REAL: 0.0,
    _OPT_REAL: None,
    _JSON: {},
    _OPT_JSON: None,
    _TEXT: "",
}

_STATUSES = ("lobby", "active", "finished", "cancelled")


def _decode(kind: str, value: Any) -> Any:
    """One column's value as its kind; ValueError if it cannot be."""
    if value is None and kind.endswith("?"):
        return None
    if kind in (_INT, _OPT_INT):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"holds {_shown(value)}, not a whole number")
        return value
    if kind in (_REAL, _OPT_REAL):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"holds {_shown(value)}, not a number")
        return float(value)
    if kind == _TEXT:
        if not isinstance(value, str):
            raise ValueError(f"holds {_shown(value)}, not text")
        return value
    if not isinstance(value, str):
        raise ValueError(f"holds {_shown(value)}, not JSON text")
    try:
        decoded = json.loads(value)
    except ValueError:
        raise ValueError(f"holds {_shown(value)}, which is not valid JSON") from None
    if not isinstance(decoded, dict):
        raise ValueError(f"holds {_shown(value)}, not a JSON object")
    return decoded


def _shown(value: Any) -> str:
    """A stored value quoted briefly for the operator's log."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def match_from(row: Sequence[Any]) -> MatchRow:
    """A match row decoded; columns that cannot be read are named in ``damage`` (never an exception)."""
    values: dict[str, Any] = {}
    problems = []
    for (name, kind), raw in zip(_MATCH_COLUMN_KINDS, row, strict=True):
        try:
            values[name] = _decode(kind, raw)
        except ValueError as error:
            values[name] = _DAMAGED_DEFAULTS[kind]
            problems.append(f"{name} {error}")
    if values["status"] not in _STATUSES:
        problems.append(f"status holds {_shown(values['status'])}, not a match status")
        values["status"] = "active"  # treated as in play, so it is set aside and its players are told
    rated, hints, analysis = values.pop("rated"), values.pop("hints"), values.pop("analysis")
    premoves_held = values.pop("premoves_held")
    clock = clock_from(values.pop("clock_bank"), values.pop("clock_increment"), values.pop("clock_cap"))
    if clock is False:
        problems.append("its clock is partly stored (bank, increment and cap go together)")
    match = MatchRow(
        **values,
        rated=bool(rated),
        hints=bool(hints),
        analysis=bool(analysis),
        premoves_held=bool(premoves_held),
        clock=clock if isinstance(clock, BankClock) else None,
    )
    if problems:
        match.damage = "its stored row cannot be read (" + "; ".join(problems) + ")"
    return match


def move_from(match_id: int, row: Sequence[Any]) -> MoveRow:
    """A logged move decoded; DamagedMatch if any of it cannot be read (the log is then not trusted)."""
    seq, ply, seat, user_id, kind, notation, events, created_at, entered, conditional = row
    checks = (
        ("seq", _INT, seq),
        ("ply", _INT, ply),
        ("seat", _INT, seat),
        ("user_id", _INT, user_id),
        ("kind", _TEXT, kind),
        ("notation", _TEXT, notation),
        ("entered", _TEXT, entered),
        ("conditional", _INT, conditional),
        ("created_at", _REAL, created_at),
    )
    for column, column_kind, value in checks:
        try:
            _decode(column_kind, value)
        except ValueError as error:
            raise DamagedMatch(match_id, f"its logged move {_shown(seq)} cannot be read ({column} {error})") from None
    try:
        decoded_events = _decode_list(events)
        if not all(isinstance(event, dict) for event in decoded_events):
            raise ValueError("holds a list whose items are not all JSON objects")
    except ValueError as error:
        raise DamagedMatch(match_id, f"its logged move {_shown(seq)} cannot be read (events {error})") from None
    return MoveRow(
        seq, ply, seat, user_id, kind, notation, decoded_events, float(created_at), entered, bool(conditional)
    )


def _decode_list(value: Any) -> list[Any]:
    """A JSON list column (a move's events, an offer's acceptances); ValueError if it is not one."""
    if not isinstance(value, str):
        raise ValueError(f"holds {_shown(value)}, not JSON text")
    try:
        decoded = json.loads(value)
    except ValueError:
        raise ValueError(f"holds {_shown(value)}, which is not valid JSON") from None
    if not isinstance(decoded, list):
        raise ValueError(f"holds {_shown(value)}, not a JSON list")
    return decoded


def accepted_from(match_id: int, value: Any) -> list[int]:
    """An offer's acceptances (user ids); DamagedMatch if they cannot be read."""
    try:
        accepted = _decode_list(value)
        if not all(isinstance(u, int) and not isinstance(u, bool) for u in accepted):
            raise ValueError(f"holds {_shown(value)}, not a list of user ids")
    except ValueError as error:
        raise DamagedMatch(match_id, f"its pending offer cannot be read (accepted {error})") from None
    return accepted


def clock_from(bank: float | None, increment: float | None, cap: float | None) -> BankClock | bool | None:
    """A stored bank clock (its three columns), None for none, False when only some of them are set."""
    parts = (bank, increment, cap)
    if all(part is None for part in parts):
        return None
    if bank is None or increment is None or cap is None:
        return False
    return BankClock(bank, increment, cap)


def seat_from(row: Sequence[Any]) -> tuple[SeatRow, str | None]:
    """A seat decoded, and what in it cannot be read (None when all of it can)."""
    seat, user_id, name, accepted, resigned, computer, bank = row
    problems = []
    try:
        bank = _decode(_OPT_REAL, bank)
    except ValueError as error:
        problems.append(f"bank {error}")
        bank = None
    for column, value in (("seat", seat), ("user_id", user_id), ("accepted", accepted), ("resigned", resigned)):
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(f"{column} holds {_shown(value)}")
    if not isinstance(name, str):
        problems.append(f"name holds {_shown(name)}")
    decoded = SeatRow(
        seat if isinstance(seat, int) else 0,
        user_id if isinstance(user_id, int) else 0,
        name if isinstance(name, str) else "?",
        bool(accepted),
        bool(resigned),
        computer,
        bank,
    )
    return decoded, ("; ".join(problems) or None)


def clock_columns(clock: BankClock | None) -> tuple[float | None, float | None, float | None]:
    return (clock.initial, clock.increment, clock.cap) if clock else (None, None, None)


def guild_settings_from(row: Any) -> GuildSettings:
    """A server's settings row (None: all inherited); a partly stored clock counts as none."""
    if row is None:
        return GuildSettings()
    clock = clock_from(row[3], row[4], row[5])
    analysis = None if row[6] is None else bool(row[6])
    clock = clock if isinstance(clock, BankClock) else None
    share = None if row[8] is None else bool(row[8])
    return GuildSettings(row[0], row[1], row[2], clock, analysis, language=row[7], share_puzzles=share)


def _turn_list(value: Any) -> list[str]:
    """A JSON list of turn notations; ValueError if it is not one."""
    decoded = json.loads(value) if isinstance(value, str) else None
    if not isinstance(decoded, list) or not all(isinstance(turn, str) for turn in decoded):
        raise ValueError(f"holds {_shown(value)}, not a list of turns")
    return decoded


def premove_from(row: Sequence[Any]) -> PremoveRow | None:
    """Conditional moves decoded (match_id, user_id, version, lines); None when they cannot be read: a
    conditional move that cannot be trusted is never played (the player can enter it again)."""
    match_id, user_id, version, lines = row
    try:
        decoded = json.loads(lines) if isinstance(lines, str) else None
        if not isinstance(decoded, list):
            raise ValueError("not a list")
        return PremoveRow(int(match_id), int(user_id), int(version), [_turn_list(json.dumps(line)) for line in decoded])
    except (TypeError, ValueError):
        return None


def exploration_from(row: Sequence[Any]) -> ExplorationRow | None:
    """An analysis board decoded (match_id, user_id, version, base, turns, shown); None when it cannot be read."""
    match_id, user_id, version, base, turns, shown = row
    try:
        return ExplorationRow(
            int(match_id), int(user_id), int(version), _decode(_JSON, base), _turn_list(turns), int(shown)
        )
    except (TypeError, ValueError):
        return None


def review_from(values: Any) -> ReviewRow:
    """A ``reviews`` row (match_id, done, total, data, claimed_until): data that does not read as a JSON object
    comes back as None, and the service lets such a review go (it is searched again; nothing else depends on it)."""
    match_id, done, total, data, claimed_until = values
    try:
        document = json.loads(data) if data is not None else None
    except (TypeError, ValueError):
        document = None
    if not isinstance(document, dict):
        document = None
    return ReviewRow(
        int(match_id), int(done), int(total), document, None if claimed_until is None else float(claimed_until)
    )


# How each column of an event's rows must read (as a match's, above): a value that does not
# is damage confined to that event (DamagedTournament), never an exception for whoever asked.
_TOURNAMENT_KINDS = (
    ("id", _INT),
    ("guild_id", _INT),
    ("channel_id", _INT),
    ("message_id", _OPT_INT),
    ("organizer_id", _INT),
    ("game", _TEXT),
    ("options", _JSON),
    ("format", _TEXT),
    ("rounds", _INT),
    ("days_per_move", _OPT_REAL),
    ("max_players", _INT),
    ("starts_at", _OPT_REAL),
    ("rated", _INT),
    ("status", _TEXT),
    ("round", _INT),
    ("version", _INT),
    ("created_at", _REAL),
    ("standings_told", _INT),
)
_PLAYER_KINDS = (
    ("user_id", _INT),
    ("name", _TEXT),
    ("joined_at", _REAL),
    ("rating", _OPT_REAL),
    ("withdrawn_at", _OPT_REAL),
)
_GAME_KINDS = (("round", _INT), ("board", _INT), ("division", _INT), ("match_id", _OPT_INT), ("bye_user_id", _OPT_INT))


def _decoded(
    tournament_id: int, what: str, kinds: tuple[tuple[str, str], ...], values: Sequence[Any]
) -> dict[str, Any]:
    """One row's values by column name; DamagedTournament naming every column that cannot be read."""
    decoded, problems = {}, []
    for (name, kind), raw in zip(kinds, values, strict=True):
        try:
            decoded[name] = _decode(kind, raw)
        except ValueError as error:
            problems.append(f"{name} {error}")
    if problems:
        raise DamagedTournament(tournament_id, f"its stored {what} cannot be read ({'; '.join(problems)})")
    return decoded


def tournament_from(values: Sequence[Any], players: list[Sequence[Any]]) -> TournamentRow:
    """An event (its columns, then why it is set aside or None) and its players as stored; DamagedTournament if
    any of it cannot be read (a damaged disk, a hand-edited file: SQLite keeps whatever was written), or breaks
    what the schema's constraints say."""
    tournament_id = values[0] if isinstance(values[0], int) else 0
    row = _decoded(tournament_id, "row", _TOURNAMENT_KINDS, values[:-1])
    if row["status"] not in TOURNAMENT_STATUSES:
        raise DamagedTournament(tournament_id, f"its stored row cannot be read (status holds {_shown(row['status'])})")
    if row["format"] not in FORMATS:
        raise DamagedTournament(tournament_id, f"its stored row cannot be read (format holds {_shown(row['format'])})")
    rated = row.pop("rated")
    tournament = TournamentRow(**row, rated=bool(rated), set_aside=values[-1])
    tournament.players = [TournamentPlayer(**_decoded(tournament_id, "player", _PLAYER_KINDS, p)) for p in players]
    return tournament


def game_from(tournament_id: int, values: Sequence[Any]) -> TournamentGame:
    """A table of a round; DamagedTournament if it cannot be read (or is neither a match nor a bye)."""
    game = TournamentGame(**_decoded(tournament_id, "game", _GAME_KINDS, values))
    if (game.match_id is None) == (game.bye_user_id is None):
        raise DamagedTournament(
            tournament_id, f"its stored game {game.round}.{game.board} is neither a match nor a bye"
        )
    return game
