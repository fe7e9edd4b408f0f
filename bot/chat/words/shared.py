"""What every feature says alike: people and seats (a computer seat is named, never pinged), durations,
clocks and banks, lists joined in words ("a, b or c" in the language spoken), an engine's reason, a bounded
message, a language's own name, and the autocomplete choices every command's ``match`` option shows."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from games import AnyGame, GameError
from i18n import number, t, tn

from ...domain.bank import BankClock
from ...domain.model import MatchRow
from ...domain.seats import info, player_row, title, user_to_move
from .markup import escape

HOUR, DAY = 3600.0, 86400.0


# -- people and seats ------------------------------------------------------------------------------


COMPUTER_MARK = "🤖"  # in messages


def seat_name(seat: Any) -> str:
    """A seat's name for messages: computer seats carry a robot, so nobody mistakes them for a person."""
    return f"{COMPUTER_MARK} {seat.name}" if seat.is_computer else seat.name


def mention(match: MatchRow, user_id: int) -> str:
    """A ping for a person; a computer seat is named, never pinged (its id is not a Discord user)."""
    seat = match.seat_of(user_id)
    if seat is not None and seat.is_computer:
        return f"**{escape(seat_name(seat))}**"
    return f"<@{user_id}>"


def seat_label(match: MatchRow, game: AnyGame, seat: int) -> str:
    """``**alice** (Red)``: whoever holds engine seat ``seat`` now, with its colour."""
    return _label(match, player_row(match, game, seat), seat)


def held_label(match: MatchRow, holder_id: int | None, seat: int) -> str:
    """A seat's label naming who held it at the time (a swap changes holders afterwards)."""
    return _label(match, match.seat_of(holder_id) if holder_id is not None else None, seat)


def _label(match: MatchRow, row: Any, seat: int) -> str:
    colours = info(match).seat_names
    # a colour comes from the game's data; the catalog holds its translation
    colour = t(colours[seat - 1]) if seat - 1 < len(colours) else t("seat {seat}", seat=seat)
    return f"**{escape(seat_name(row) if row is not None else '?')}** ({colour})"


# -- times, clocks and banks -----------------------------------------------------------------------


def duration(seconds: float) -> str:
    hours = seconds / 3600
    if hours >= 48:
        return tn("{count} day", "{count} days", int(f"{hours / 24:.0f}"))
    if hours >= 1:
        return t("{hours} h", hours=f"{hours:.0f}")
    return t("{minutes} min", minutes=max(1, int(seconds // 60)))


def waited(match: MatchRow, now: float) -> str:
    """How long the current turn has waited, for digests."""
    return duration(now - (match.turn_started_at or match.created_at))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def time_note(match: MatchRow, now: float, prefix: str = "") -> str:
    """The time left on the current turn, for boards and lists (Discord shows it relative)."""
    if match.status != "active" or match.deadline_at is None:
        return ""
    if match.deadline_at <= now:
        return prefix + t("out of time")
    # TRANSLATORS: Discord shows <t:…:R> as a relative time in the reader's language ("in 3 days")
    return prefix + t("time runs out <t:{deadline}:R>", deadline=int(match.deadline_at))


def bank_clock_text(clock: BankClock) -> str:
    """A bank clock as players write it: ``72h+36h max 120h`` (notation: the same in every language, as typed)."""
    return f"{_number(clock.initial / HOUR)}h+{_number(clock.increment / HOUR)}h max {_number(clock.cap / HOUR)}h"


def bank_amount(seconds: float) -> str:
    """Time in a bank, in hours as the clock is written (minutes in the last hour)."""
    if seconds >= HOUR:
        return t("{hours} h", hours=number(math.floor(seconds / HOUR * 10) / 10))
    return t("{minutes} min", minutes=max(0, int(seconds // 60)))


def bank_note(
    match: MatchRow,
    game: AnyGame | None,
    now: float,
    prefix: str = "",
    vacations: Sequence[tuple[str, float]] = (),
) -> str:
    """Each person's bank (a bank clock): the mover's running down (standing while they are on one of the
    ``vacations``, (name, until)), the others' as their next turn finds it."""
    if match.clock is None or game is None or match.status != "active":
        return ""
    mover = user_to_move(match, game)
    away = dict(vacations)
    shown = []
    for seat in sorted(match.seats, key=lambda s: s.seat):
        if seat.is_computer or seat.resigned or seat.bank is None:
            continue
        if seat.user_id == mover and match.deadline_at is not None:
            until = away.get(seat.name)
            left = min(seat.bank, max(0.0, match.deadline_at - max(now, until or now)))
            # TRANSLATORS: the bank of the player to move, its clock stopped while they are on vacation
            state = t("paused: vacation") if until is not None else t("running")
            shown.append(t("{name} {time} ({state})", name=escape(seat.name), time=bank_amount(left), state=state))
        else:
            shown.append(f"{escape(seat.name)} {bank_amount(seat.bank)}")
    if not shown:
        return ""
    # TRANSLATORS: each player's bank of time, e.g. "banks (72h+36h max 120h): alice 71.5 h (running), bob 72 h"
    return prefix + t("banks ({clock}): {banks}", clock=bank_clock_text(match.clock), banks=", ".join(shown))


def semicolon() -> str:
    """« ; » between two parts of a sentence, as the language writes it (French: a narrow no-break space before)."""
    # TRANSLATORS: the separator between two parts of a sentence; French typography puts a narrow no-break space
    # (U+202F) before « ; »
    return t("; ")


def vacation_note(vacations: list[tuple[str, float]]) -> str:
    """Players of the match on vacation, shown to their opponents."""
    return semicolon().join(
        t("{name} is on vacation until <t:{until}:f>", name=escape(name), until=int(until)) for name, until in vacations
    )


# -- lists in words --------------------------------------------------------------------------------


def _joined(items: Sequence[str], pattern: Callable[[str, str], str]) -> str:
    """Items joined pairwise by a translated pattern (``a or b or c``), as the English always joined them."""
    if not items:
        return ""
    text = items[0]
    for item in items[1:]:
        text = pattern(text, item)
    return text


def joined_or(items: Sequence[str]) -> str:
    return _joined(items, lambda first, last: t("{first} or {last}", first=first, last=last))


def joined_and(items: Sequence[str]) -> str:
    return _joined(items, lambda first, last: t("{first} and {last}", first=first, last=last))


def joined_then(items: Sequence[str]) -> str:
    return _joined(items, lambda first, last: t("{first}, then {last}", first=first, last=last))


def versus(items: Sequence[str]) -> str:
    # TRANSLATORS: the players of a match, "alice (Red) vs bob (Blue)"
    return _joined(items, lambda first, last: t("{first} vs {last}", first=first, last=last))


# -- what every feature says alike -----------------------------------------------------------------


#: Fields of an engine's reason that hold a word of the game's data (a seat's colour name, "Red", marked for
#: the catalogs by bot/chat/game_words.py): said in the language spoken too.
TRANSLATED_FIELDS = ("colour",)


def engine_words(why: object) -> str:
    """An engine's reason in the language being spoken, the one function that words a :class:`games.GameError`
    (it carries its English template and fields: the engines keep no language); anything else is already
    words."""
    template = getattr(why, "template", "") if isinstance(why, GameError) else ""
    if template:
        fields = getattr(why, "fields", {})
        return t(template, **{key: t(value) if key in TRANSLATED_FIELDS else value for key, value in fields.items()})
    return str(why)


def bounded(text: str, limit: int = 2000) -> str:
    """A long message cut at a line within ``limit`` characters, saying there was more."""
    if len(text) > limit:
        return text[: limit - 30].rsplit("\n", 1)[0] + "\n" + t("… and more")
    return text


def saved() -> str:
    """What a settings command says before showing the settings it saved."""
    return t("Saved.") + " "


def language_name(code: str) -> str:
    """A language by its own name ("Français"), as people look for it in a list."""
    return {"en": "English", "fr": "Français"}.get(code, code)


# -- autocomplete choices --------------------------------------------------------------------------


def match_choice(match: MatchRow, user_id: int, game: AnyGame | None, waiting: bool) -> str:
    """A match in the /move … match: autocomplete list."""
    others = ", ".join(s.name for s in match.seats if s.user_id != user_id)
    if others:
        label = t("#{match_id} {game} with {others}", match_id=match.id, game=info(match).name, others=others)
    else:
        label = f"#{match.id} {info(match).name}"
    if waiting:
        label = t("{match} — your move", match=label)
    elif game is None:
        label = t("{match} — waiting to start", match=label)
    return label[:100]


def clip_choice(text: str) -> str:
    """A choice's name or value: 1 to 100 characters."""
    text = text.strip() or "-"
    return text if len(text) <= 100 else text[:99] + "…"


def not_in_play(match: MatchRow) -> str:
    """The one choice a command's autocomplete offers in a match nobody can play now."""
    return t("{title} is not in play", title=title(match))
