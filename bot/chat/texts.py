"""Every sentence the bot says, in one place.

The service decides and returns data (refusals with their facts, outcomes with their changes, jobs);
this module words them for Discord: markdown, mentions (``<@id>``), channel links and Discord's
relative times (``<t:…:R>``). Names people chose are escaped here (:func:`escape`), and every message
is bounded by the caller (2,000 characters). The wording is the players' interface:
``tests/golden/service_texts.txt`` holds a reviewed transcript of it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from games import AnyGame, Event, GameError
from games import get as get_game
from i18n import N_, number, pt, t, tn

from ..domain.bank import BankClock
from ..domain.errors import Refusal
from ..domain.model import (
    PROVISIONAL_GAMES,
    RATING_START,
    ChallengeCaps,
    ChallengeRefusal,
    GuildSettings,
    MatchRow,
    MoveRow,
    Preferences,
    RatingRow,
)
from ..domain.outcome import Change, DeadlineJob, OfferAnswer, OfferNotice, Outcome, ReminderJob
from ..domain.seats import info, player_row, title, user_to_move
from ..domain.tournament import TournamentRow
from ..service.describe import Group, LastTurn, material, position_groups
from ..service.premoves import Exploration, Premoves
from ..service.review import Review, TurningPoint
from ..service.tournaments import Standings
from .markup import MESSAGE_LIMIT, escape, fit, fit_words, quoted

HOUR, DAY = 3600.0, 86400.0
COMPUTER_MARK = "🤖"  # in messages

# -- names, people and times ------------------------------------------------------------------


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


def _joined(items: Sequence[str], pattern: Callable[[str, str], str]) -> str:
    """Items joined pairwise by a translated pattern (``a or b or c``), as the English always joined them."""
    if not items:
        return ""
    text = items[0]
    for item in items[1:]:
        text = pattern(text, item)
    return text


def _either(items: Sequence[str]) -> str:
    return _joined(items, lambda first, last: t("{first} or {last}", first=first, last=last))


def _both(items: Sequence[str]) -> str:
    return _joined(items, lambda first, last: t("{first} and {last}", first=first, last=last))


def _then(items: Sequence[str]) -> str:
    return _joined(items, lambda first, last: t("{first}, then {last}", first=first, last=last))


def _versus(items: Sequence[str]) -> str:
    # TRANSLATORS: the players of a match, "alice (Red) vs bob (Blue)"
    return _joined(items, lambda first, last: t("{first} vs {last}", first=first, last=last))


def time_note(match: MatchRow, now: float, prefix: str = "") -> str:
    """The time left on the current turn, for boards and lists (Discord shows it relative)."""
    if match.status != "active" or match.deadline_at is None:
        return ""
    if match.deadline_at <= now:
        return prefix + t("out of time")
    # TRANSLATORS: Discord shows <t:…:R> as a relative time in the reader's language ("in 3 days")
    return prefix + t("time runs out <t:{deadline}:R>", deadline=int(match.deadline_at))


def clock_text(clock: BankClock) -> str:
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
    return prefix + t("banks ({clock}): {banks}", clock=clock_text(match.clock), banks=", ".join(shown))


def vacation_note(vacations: list[tuple[str, float]]) -> str:
    """Players of the match on vacation, shown to their opponents."""
    return "; ".join(
        t("{name} is on vacation until <t:{until}:f>", name=escape(name), until=int(until)) for name, until in vacations
    )


# -- refusals -----------------------------------------------------------------------------------


def engine_words(why: object) -> str:
    """An engine's reason in the language being spoken: a :class:`games.GameError` carries its English template
    and fields (the engines keep no language), anything else is already words."""
    template = getattr(why, "template", "") if isinstance(why, GameError) else ""
    if template:
        return t(template, **getattr(why, "fields", {}))
    return str(why)


def _not_your_turn(f: dict[str, Any]) -> str:
    match, game = f["match"], f["game"]
    return t(
        "It is not your turn in {match}: {player} is to move.",
        match=title(match),
        player=seat_label(match, game, game.to_move),
    )


def _preview_not_your_turn(f: dict[str, Any]) -> str:
    match, game = f["match"], f["game"]
    return t(
        "It is not your turn in {match}: {player} is to move, and a preview shows your own move when it is your turn.",
        match=title(match),
        player=seat_label(match, game, game.to_move),
    )


def _several(f: dict[str, Any]) -> str:
    names = ", ".join(f"#{m.id} {info(m).name}" for m in f["matches"])
    return t(
        "You are in several matches ({matches}): use the match option, or type the command in the match's thread.",
        matches=names,
    )


def _player_count(f: dict[str, Any]) -> str:
    why = engine_words(f["why"])
    if not f["counted"]:
        return f"{why}."
    invited, computers = f["invited"], f["computers"]
    # TRANSLATORS: {why} is the game's own sentence about its player count, e.g. "Bide is for 2 to 6 players"
    return t(
        "{why} (you, {invited} and {computers}).",
        why=why,
        invited=tn("{count} invited player", "{count} invited players", invited),
        computers=tn("{count} computer seat", "{count} computer seats", computers),
    )


def _too_many(f: dict[str, Any]) -> str:
    count = f["computers"]
    if not count:
        return t("{players} players do not fit in {seats} seats.", players=f["players"], seats=f["seats"])
    return t(
        "{players} and {computers} do not fit in {seats} seats.",
        players=tn("{count} player", "{count} players", f["players"]),
        computers=tn("{count} computer seat", "{count} computer seats", count),
        seats=f["seats"],
    )


def _lobby_closed(f: dict[str, Any]) -> str:
    match = f["match"]
    if match.status == "finished":
        return t("{match} is over.", match=title(match))
    return t("{match} has already started.", match=title(match))


def _offer_pending(f: dict[str, Any]) -> str:
    match = title(f["match"])
    if f["kind"] == "draw":
        if f["yours"]:
            return t("You have already asked for a draw in {match}; it is waiting for an answer.", match=match)
        return t(
            "<@{maker}> has already asked for a draw in {match}; it is waiting for an answer.",
            maker=f["maker_id"],
            match=match,
        )
    assert f["kind"] == "undo", f["kind"]
    if f["yours"]:
        return t(
            "You have already asked for to take back their last turn in {match}; it is waiting for an answer.",
            match=match,
        )
    return t(
        "<@{maker}> has already asked for to take back their last turn in {match}; it is waiting for an answer.",
        maker=f["maker_id"],
        match=match,
    )


def _not_out_of_time(f: dict[str, Any]) -> str:
    if f["deadline"] is None:
        return t("{name} has not run out of time.", name=escape(f["name"]))
    return t(
        "{name} has not run out of time: their time runs out <t:{deadline}:R>.",
        name=escape(f["name"]),
        deadline=int(f["deadline"]),
    )


def _vacation_allowance(f: dict[str, Any]) -> str:
    return tn(
        "You have {count} vacation day left in the last 365 days (the allowance is {allowance} a year).",
        "You have {count} vacation days left in the last 365 days (the allowance is {allowance} a year).",
        f["left"],
        allowance=number(f["allowance"]),
    )


def _paused(f: dict[str, Any]) -> str:
    return quarantine_notice(f["match"] if "match" in f else f["match_id"])


ECHO_LIMIT = 40  # characters of a player's typed move a refusal quotes back (a 3,000-character paste: issue 26)
_ENGINE_ECHO = re.compile(rf"'([^'\n]{{{ECHO_LIMIT},}})'|\"([^\"\n]{{{ECHO_LIMIT},}})\"")


def short_echoes(why: str) -> str:
    """An engine's reason with each quoted echo of the typed text cut to a short prefix."""

    def cut(found: re.Match[str]) -> str:
        echo = found.group(1) if found.group(1) is not None else found.group(2)
        return f"'{echo[: ECHO_LIMIT - 10]}…'"

    return _ENGINE_ECHO.sub(cut, why)


def _computer_level(f: dict[str, Any]) -> str:
    levels = [pt("choice", level) for level in f["levels"]]  # the names /play shows for its level choices
    return t(
        "The computer plays at {levels} or {last}, not `{level}`.",
        levels=", ".join(levels[:-1]),
        last=levels[-1],
        level=quoted(f["level"], 20),
    )


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    # finding a match
    "no_match": lambda f: t("There is no match #{match_id}.", match_id=f["match_id"]),
    "no_match_here": lambda f: t("There is no match #{match_id} in this server.", match_id=f["match_id"]),
    "another_matchs_thread": lambda f: t(
        "This is the thread of {here}, but you named {named}: nothing was played. "
        "Play {named} in its own thread, or leave out `match:` to play {here}.",
        here=title(f["here"]),
        named=title(f["named"]),
    ),
    "paused": _paused,
    "not_started": lambda f: t("{match} has not started yet.", match=title(f["match"])),
    "over": lambda f: t("{match} is over.", match=title(f["match"])),
    "no_match_in_progress": lambda f: t("You have no match in progress here. Start one with /play."),
    "several_matches": _several,
    "not_a_player": lambda f: t("You are not a player in {match}.", match=title(f["match"])),
    "changed_meanwhile": lambda f: t(
        "The position changed at the same moment (another turn or button came "
        "first), so nothing was done: look at the latest board and try again."
    ),
    "disk_full": lambda f: t(
        "Nothing was saved: the bot's disk is full. Its operator has been told (see the log); try again later."
    ),
    "storage_down": lambda f: t(
        "Your move was **not** stored: the bot's database is not answering right now. Nothing changed; "
        "play it again in a moment."
    ),
    "storage_unknown": lambda f: t(
        "The bot's database stopped answering while your move was being stored, so it cannot tell yet whether "
        "it was. Look at the board (/board) in a moment before playing it again."
    ),
    "servers_only": lambda f: t("Hexplay matches live in servers: use this command in a server channel."),
    # the lobby
    "option_not_key_value": lambda f: t(
        "Options are written key=value, like side=4; `{text}` is not.", text=quoted(f["text"], 40)
    ),
    "time_limit_range": lambda f: t(
        "A time limit is between {low} and {high} days per move.", low=number(f["low"]), high=number(f["high"])
    ),
    "game_says": lambda f: fit(engine_words(f["why"]), 300),
    "invite_yourself": lambda f: t("You cannot invite yourself; you are already seated."),
    "player_count": _player_count,
    "too_many_players": _too_many,
    "computer_level": _computer_level,
    "computer_seats": lambda f: t("The computer can take 1 to 5 seats (a match keeps at least one for you)."),
    "challenge_limit": lambda f: challenge_refusal(f["rule"], f["names"], f["caps"]),
    "lobby_closed": _lobby_closed,
    "not_invited": lambda f: t("You were not invited to {match}.", match=title(f["match"])),
    "already_accepted": lambda f: t("You have already accepted."),
    "only_invited_decline": lambda f: t("Only an invited player can decline."),
    "already_seated": lambda f: t("You are already seated in {match}.", match=title(f["match"])),
    "no_open_seat": lambda f: t("{match} has no open seat.", match=title(f["match"])),
    "only_creator_cancels": lambda f: t("Only the player who created the match can cancel it."),
    "only_creator_starts": lambda f: t("Only the player who created the match can start it."),
    "not_enough_ready": lambda f: t(
        "{game} needs at least {needed} ready players; {ready} so far.",
        game=f["game"],
        needed=f["needed"],
        ready=f["ready"],
    ),
    "a_bot_cannot_play": lambda f: t(
        "{name} is a bot and cannot play; to play the computer, invite {me} or use the computer option.",
        name=f["name"],
        me=f["me"],
    ),
    # playing
    "not_your_turn": _not_your_turn,
    "preview_not_your_turn": _preview_not_your_turn,
    "old_button": lambda f: t("That button belongs to an older position; use the latest board."),
    "illegal_move": lambda f: t(
        "`{text}` is not a legal move: {why}.",
        text=quoted(f["text"], ECHO_LIMIT),
        why=fit(short_echoes(engine_words(f["why"])), 300),
    ),
    "already_resigned": lambda f: t("You have already resigned from this match."),
    "builder_expired": lambda f: t(
        "This turn builder has expired: the match has moved on since it was opened. "
        "Open a new one from the latest board (or /turn)."
    ),
    "builder_says": lambda f: t("Turn builder: {why}.", why=engine_words(f["why"])),
    "turn_not_finished": lambda f: t("The turn cannot end yet: {why}.", why=engine_words(f["why"])),
    "pick_an_action": lambda f: t("Pick an action from the menu."),
    "not_your_confirmation": lambda f: t("This confirmation belongs to another player."),
    # looking
    "no_zoom": lambda f: t("{game} boards have no zoom: they are readable whole.", game=f["game"]),
    "not_a_cell": lambda f: t(
        "`{text}` is not a cell of this board: give a cell name such as `{example}`, or `last`.",
        text=f["text"],
        example=f["example"],
    ),
    "replay_drawing": lambda f: t(
        "A replay of {match} is being drawn right now; ask again in a moment.", match=title(f["match"])
    ),
    "replay_wait": lambda f: t(
        "One replay every {every} s: try again in {wait} s.", every=number(f["every"]), wait=math.ceil(f["wait"])
    ),
    # offers
    "you_resigned": lambda f: t("You have resigned from {match}.", match=title(f["match"])),
    "no_draws": lambda f: t("{game} cannot be drawn: every game has a winner.", game=f["game"]),
    "takeback_not_yours": lambda f: t(
        "Only the player who made the last turn can ask to take it back, and only before the next turn is played."
    ),
    "offer_pending": _offer_pending,
    "offer_closed": lambda f: t("This offer is no longer open: it was answered, or a turn was played since."),
    "own_offer": lambda f: t("You made this offer; the other players answer it."),
    "not_asked": lambda f: t("Only the other players of this match can answer this offer."),
    "offer_thread_gone": lambda f: t("The match's thread is gone; the offer cannot be shown to the other players."),
    # time limits and vacations
    "only_players_claim": lambda f: t("Only a player still in {match} can claim.", match=title(f["match"])),
    "claim_out_of_date": lambda f: t("That claim is out of date: the turn has moved on since."),
    "claim_own_time": lambda f: t("It is your own time that ran out: play your move instead."),
    "not_out_of_time": _not_out_of_time,
    "vacation_length": lambda f: t("A vacation lasts from 1 to 60 days."),
    # bank clocks and quiet hours
    "clock_format": lambda f: t(
        "I cannot read the clock `{text}`: write it as `72h+36h max 120h` (initial bank, + increment "
        "per turn, max the cap; hours `h` or days `d`), or `off`.",
        text=quoted(f["text"]),
    ),
    "clock_negative": lambda f: t(
        "The clock `{text}` has a negative amount: no part of a clock can be.", text=quoted(f["text"])
    ),
    "clock_zero": lambda f: t(
        "The clock `{text}` has an empty bank or cap: both must hold some time.", text=quoted(f["text"])
    ),
    "clock_absurd": lambda f: t(
        "The clock `{text}` is too long: no part may exceed {days} days.",
        text=quoted(f["text"]),
        days=number(f["most"] / DAY),
    ),
    "clock_too_short": lambda f: tn(
        "The clock `{text}` starts too short: the bank must hold at least {count} hour.",
        "The clock `{text}` starts too short: the bank must hold at least {count} hours.",
        f["least"] / HOUR,
        text=quoted(f["text"]),
    ),
    "clock_cap_below_bank": lambda f: t(
        "The clock `{text}` caps the bank below what it starts with: the cap must be at least the bank.",
        text=quoted(f["text"]),
    ),
    "two_time_controls": lambda f: t("Choose days per move or a bank clock, not both."),
    "quiet_zone": lambda f: t(
        "`{zone}` is not a time zone I know: give an IANA name such as `Europe/Paris` or "
        "`America/New_York` (or `off`).",
        zone=quoted(f["zone"]),
    ),
    "quiet_hours": lambda f: t(
        "I cannot read the hours `{text}`: write them as `22:00-08:00`.", text=quoted(f["text"])
    ),
    "quiet_hours_empty": lambda f: t(
        "The quiet hours `{text}` start and end at the same time.", text=quoted(f["text"])
    ),
    "quiet_needs_zone": lambda f: t("Quiet hours need your time zone: give `quiet_zone` too (e.g. `Europe/Paris`)."),
    "on_vacation": lambda f: t("You are already on vacation until <t:{until}:f>.", until=int(f["until"])),
    "vacation_allowance": _vacation_allowance,
    # reminders, preferences and challenges
    "reminder_out_of_date": lambda f: t("That reminder is out of date: the turn has already moved on."),
    "reminder_delay_range": lambda f: t("The reminder delay must be between 1 hour and 14 days (336 hours)."),
    "reminder_via": lambda f: t("Reminders come by direct message (dm) or by a ping in the match (ping)."),
    "challenges_choice": lambda f: t(
        "Challenges come from everyone or nobody, not `{text}`.", text=quoted(f["text"], 20)
    ),
    "block_yourself": lambda f: t("You cannot block yourself."),
    "too_many_blocks": lambda f: t(
        "You have blocked {most} players, the most Hexplay keeps: unblock one "
        "first, or refuse challenges from everyone with challenges:nobody.",
        most=f["most"],
    ),
    "not_blocked": lambda f: t("{name} is not blocked.", name=escape(f["name"])),
    "block_a_bot": lambda f: t(
        "{name} is a bot: bots never challenge anyone, so there is nothing to block.", name=escape(f["name"])
    ),
    # servers, rematches, the computer
    "config_needs_manage_server": lambda f: t(
        "Only members with the Manage Server permission can change Hexplay's "
        "server settings; /config without options shows them."
    ),
    "default_time_limit_range": lambda f: t(
        "The default time limit is 0 (none) or {low} to {high} days per move.",
        low=number(f["low"]),
        high=number(f["high"]),
    ),
    "not_over_yet": lambda f: t("{match} is not over yet.", match=title(f["match"])),
    "only_players_rematch": lambda f: t("Only the players of {match} can ask for a rematch.", match=title(f["match"])),
    "channel_gone": lambda f: t("The match's channel is gone; start a new match with /play."),
    "hint_not_in_play": lambda f: t(
        "{match} is not in play: hints are for a turn of a game going on.", match=title(f["match"])
    ),
    "no_hints": lambda f: t(
        "No hints in {match}: hints are for matches against the computer, "
        "or matches created with `hints: True` (every player agreed by joining).",
        match=title(f["match"]),
    ),
    "you_left": lambda f: t("You have left {match}.", match=title(f["match"])),
    "hint_unavailable": lambda f: t(
        "No hint this time: the computer players did not answer in time (busy, or none is running). "
        "Try /hint again in a moment."
    ),
    "hint_not_your_turn": lambda f: t(
        "A hint is for your own turn: in {match} {player} is to move.",
        match=title(f["match"]),
        player=seat_label(f["match"], f["game"], f["game"].to_move),
    ),
    # conditional moves and the analysis board (nothing is stored on any of these)
    "premove_empty": lambda f: t(
        "Type a line of turns separated by `;`, e.g. `e5; d4` (if they play e5, you answer d4)."
    ),
    "premove_too_long": lambda f: t("A line holds at most {limit} turns; nothing was saved.", limit=f["limit"]),
    "premove_your_turn": lambda f: t(
        "It is your turn in {match}: play it with `/move`. Conditional moves start on an opponent's turn.",
        match=title(f["match"]),
    ),
    "premove_after_end": lambda f: t(
        "Turn {number} of your line (`{text}`) comes after the game would be over; nothing was saved.",
        number=f["number"],
        text=quoted(f["text"]),
    ),
    "premove_illegal": lambda f: t(
        "Turn {number} of your line, `{text}` ({mover} to move), is not legal: {why}. Nothing was saved.",
        number=f["number"],
        text=quoted(f["text"]),
        mover=escape(f["mover"]),
        why=fit(engine_words(f["why"]), 300),
    ),
    "premove_no_answer": lambda f: t(
        "That line holds none of your turns, so there is nothing to answer with: add your answer after theirs, "
        "e.g. `e5; d4`. Nothing was saved."
    ),
    "premove_too_many": lambda f: t(
        "You already have {limit} conditional lines in this match, the most it keeps: clear them with "
        "`/premove clear: True` first. Nothing was saved.",
        limit=f["limit"],
    ),
    "no_analysis": lambda f: t(
        "{match} forbids conditional moves and private analysis (its creator chose so at /play).",
        match=title(f["match"]),
    ),
    "explore_too_long": lambda f: t(
        "Your analysis board already holds {limit} turns, the most it keeps: step back, or start afresh "
        "with `step: new`.",
        limit=f["limit"],
    ),
    "explore_over": lambda f: t("The game is over on your analysis board: step back to try another turn."),
    "explore_at_start": lambda f: t("Your analysis board is at the match's position already: nothing to step back."),
    "explore_at_end": lambda f: t("Your analysis board shows its last turn already: nothing to step forward to."),
    "explore_out_of_date": lambda f: t(
        "{match} has moved on since you copied its position: open a fresh board with `step: new` "
        "to save a line from the position as it is now.",
        match=title(f["match"]),
    ),
    # post-game reviews (/review)
    "review_which_match": lambda f: t(
        "Which match? Use `/review match:<id>`, or ask in the thread of a finished match."
    ),
    "review_not_finished": lambda f: t(
        "{match} is not finished: a review is only for finished matches, "
        "so the computer never helps anyone during a game.",
        match=title(f["match"]),
    ),
    "review_one_at_a_time": lambda f: t(
        "You already wait for the review of match #{match_id}: one review at a time. Ask again when it is posted.",
        match_id=f["match_id"],
    ),
    "review_queue_full": lambda f: t(
        "{waiting} reviews are waiting to be searched already: try again in a few minutes.", waiting=f["waiting"]
    ),
    "review_no_turns": lambda f: t(
        "{match} ended before any turn was played: there is nothing to review.", match=title(f["match"])
    ),
    "review_unavailable": lambda f: t(
        "The review of {match} could not be finished this time (the bot restarted, or the computer "
        "players are busy or not running). Ask again with /review.",
        match=title(f["match"]),
    ),
    "review_not_ready": lambda f: t("{match} has no review yet: ask for one with /review.", match=title(f["match"])),
    "review_no_turning_points": lambda f: t(
        "No turning points in {match}: no turn lost 5 points of winning chance or more.", match=title(f["match"])
    ),
}


def refusal(error: Refusal) -> str:
    """The sentence for a refusal, written for the player who caused it."""
    return REFUSALS[error.reason](error.facts)


def challenge_refusal(rule: ChallengeRefusal, names: dict[int, str], caps: ChallengeCaps) -> str:
    """A refused challenge in words: a display name (never a mention, which would ping the person who said no)."""
    name = escape(names.get(rule.user_id or 0, t("That player")))
    if rule.rule == "blocked":
        return t("{name} is not taking challenges from you, so nothing was sent.", name=name)
    if rule.rule == "nobody":
        return t(
            "{name} is not taking challenges in this server, so nothing was sent. They can still join "
            "matches with open seats.",
            name=name,
        )
    if rule.rule == "open_lobbies":
        return t(
            "You already have {count} open challenges in this server: wait for answers, or "
            "cancel one with its Cancel button, before making another.",
            count=caps.open_lobbies,
        )
    if rule.rule == "rate":
        # never more than the window: a count stamped ahead of the clock was brought back to now
        wait = min(int(rule.wait) + 1, int(caps.window))
        return t("You can make {count} challenges a minute; try again in {wait} s.", count=caps.per_window, wait=wait)
    if rule.rule == "same_player":
        return t(
            "You have challenged {name} {times} times in the last 24 hours (cancelled challenges "
            "count), so nothing was sent. Try again in {wait}.",
            name=name,
            times=caps.same_player,
            wait=_later(min(rule.wait, caps.same_player_window)),
        )
    assert rule.rule == "waiting", rule
    return t(
        "{name} already has {count} challenges waiting for an answer in this server, so "
        "nothing was sent. Try again once they have answered some.",
        name=name,
        count=caps.invitations_waiting,
    )


def _later(seconds: float) -> str:
    if seconds >= 3600:
        return t("{hours} h", hours=math.ceil(seconds / 3600))
    if seconds >= 60:
        return t("{minutes} min", minutes=math.ceil(seconds / 60))
    return t("{seconds} s", seconds=max(1, math.ceil(seconds)))


# Not the player's doing: what they are told instead of a refusal.
def something_went_wrong() -> str:
    return t(
        "Something went wrong on our side. Look at the match (/board) before trying again: "
        "your action may or may not have been recorded."
    )


# A write failed for want of disk space somewhere after the start of a request (the change itself, if refused,
# says "Nothing was saved"): what came before it may be stored, so the player is sent to look.
def disk_full_after() -> str:
    return t(
        "The bot's disk is full, so part of what you asked may not have been saved (its operator has been "
        "told). Look at the match (/board) before trying again."
    )


def restarting() -> str:
    return t("Hexplay is restarting, so nothing was done: try again in a minute.")


def storage_down_after() -> str:
    return t(
        "The bot's database is not answering right now, so part of what you asked may not have been "
        "done. Look at the match (/board) before trying again."
    )


def cannot_use_here() -> str:
    return t("You cannot use this command here.")


def quarantine_notice(match: MatchRow | int) -> str:
    match_id = match if isinstance(match, int) else match.id
    reason = "" if isinstance(match, int) else match.quarantine or ""
    if "move log" in reason or "differs" in reason:
        return t(
            "Match #{match_id} is paused: its saved move list does not lead to its saved position, so nothing can "
            "be played or shown in it until the bot's operator repairs it (they have been told; see the log). "
            "Your other matches are not affected.",
            match_id=match_id,
        )
    return t(
        "Match #{match_id} is paused: part of its saved record cannot be read, so nothing can be played or shown "
        "in it until the bot's operator repairs it (they have been told; see the log). Your other matches are "
        "not affected.",
        match_id=match_id,
    )


# -- what happened: announcements -----------------------------------------------------------------


def _effects(events: Sequence[Event]) -> str:
    pushes = sum(1 for e in events if e.kind == "push")
    captures = sum(1 for e in events if e.kind == "capture")
    parts = []
    if pushes:
        parts.append(tn("{count} disc pushed", "{count} discs pushed", pushes))
    if captures:
        # TRANSLATORS: how many pieces a turn captured, e.g. "1 captured", "3 captured"
        parts.append(tn("{count} captured", "{count} captured", captures))
    if any(e.kind == "release" for e in events):
        parts.append(t("a release: every opponent must release next turn"))
    if any(e.kind == "swap" for e in events):
        parts.append(t("the players swapped sides"))
    return f" — {', '.join(parts)}" if parts else ""


def turn_line(label: str, game: AnyGame | None, notation: str, events: Sequence[Event]) -> str:
    """A played turn, in the engine's words when it has them (Game.describe_turn: Bump's chains,
    "alice: 03,05-4 — bumps 06 to 07, which bumps 17 (captured against the wall)."), else counted."""
    described = game.describe_turn(list(events), notation, say=t) if game is not None else ""
    if described and described != notation:
        return f"{label}: {described}" + ("" if described.endswith(("!", ".")) else ".")
    # TRANSLATORS: {effects} is empty or " — 2 discs pushed, 1 captured" (the turn's effects, listed)
    return t("{player} played `{notation}`{effects}.", player=label, notation=notation, effects=_effects(events))


def result_line(match: MatchRow, game: AnyGame) -> str:
    winners = [seat_label(match, game, s) for s in game.winners]
    scores = game.scores()
    score_text = ""
    if scores is not None:  # each score named by its player, so nobody guesses whose is whose
        named = [
            f"{escape(player_row(match, game, seat).name)} {number(value)}"
            for seat, value in enumerate(scores, start=1)
        ]
        score_text = " (" + ", ".join(named) + ")"
    # TRANSLATORS: {scores} is empty or each player's score in brackets, " (alice 2, bob 1)"
    if len(winners) > 1:
        return t("Game over: {winners} share the win{scores}.", winners=_both(winners), scores=score_text)
    if winners:
        return t("Game over: {winner} wins{scores}.", winner=winners[0], scores=score_text)
    return t("Game over: a draw{scores}.", scores=score_text)


def status_line(match: MatchRow, game: AnyGame) -> str:
    if game.is_over:
        return f"{title(match)}: {result_line(match, game)}"
    assert game.to_move is not None
    return t(
        "{match}, turn {turn}: {player} to move.",
        match=title(match),
        turn=game.ply + 1,
        player=seat_label(match, game, game.to_move),
    )


def change_line(match: MatchRow, game: AnyGame | None, change: Change) -> str:
    """One change, as the announcement says it."""
    kind = change.kind
    if kind == "accepted":
        return t("<@{user}> accepted.", user=change.user_id)
    if kind == "declined":
        if change.seat_open:
            return t("<@{user}> declined; the seat is open.", user=change.user_id)
        return t("<@{user}> declined: {match} is cancelled.", user=change.user_id, match=title(match))
    if kind == "joined":
        return t("<@{user}> joined.", user=change.user_id)
    if kind == "cancelled":
        return t("{match} was cancelled.", match=title(match))
    if kind == "status":
        assert game is not None
        return status_line(match, game)
    if kind == "started":
        assert game is not None and game.to_move is not None
        return t("{match} begins. {player} to move.", match=title(match), player=seat_label(match, game, game.to_move))
    if kind == "draw":
        return t("The players agreed a draw.")
    assert change.seat is not None
    label = held_label(match, change.holder_id, change.seat)
    if kind == "resign":
        return t("{player} resigned.", player=label)
    if kind == "timeout":
        if change.user_id is not None:
            return t(
                "{player} ran out of time and is out of the game (claimed by <@{user}>).",
                player=label,
                user=change.user_id,
            )
        return t("{player} ran out of time and is out of the game.", player=label)
    if kind == "takeback":
        if change.notation:
            return t(
                "By agreement, {player}'s turn `{notation}` was taken back.", player=label, notation=change.notation
            )
        return t("By agreement, {player}'s last turn was taken back.", player=label)
    played = turn_line(label, game, change.notation, change.events)
    # TRANSLATORS: {turn} is a whole sentence saying the turn ("alice played `d4`.")
    return t("{turn} (a conditional move, played at once)", turn=played) if change.conditional else played


def what_happened(outcome: Outcome) -> str:
    """The start of an outcome's announcement, what happened: the same whenever it is written (what follows
    may say how long the next turn has left, which depends on the moment and on outages)."""
    return " ".join(change_line(outcome.match, outcome.game, change) for change in outcome.changes)


def line(outcome: Outcome, now: float) -> str:
    """The announcement of an outcome: what happened, then who is to move (pinged) or the result."""
    match, game = outcome.match, outcome.game
    text = what_happened(outcome)
    if not outcome.moved or game is None:
        return text
    if game.is_over:
        everyone = outcome.ending_user_ids or tuple(match.human_ids())
        return f"{text} {result_line(match, game)} " + " ".join(f"<@{u}>" for u in everyone)
    mover = user_to_move(match, game)
    if mover is not None and match.is_computer(mover):
        return f"{text} " + t("{player} is thinking…", player=mention(match, mover))
    # TRANSLATORS: {deadline} is empty or " — time runs out …", {banks} empty or "; banks (…): …"
    return f"{text} " + t(
        "<@{user}>, your move{deadline}{banks}.",
        user=mover,
        deadline=time_note(match, now, " — "),
        banks=bank_note(match, game, now, "; "),
    )


def ending_dm(outcome: Outcome, now: float) -> str:
    """The direct message a player gets when a game ends."""
    return t("**{match}** has ended. {announcement}", match=title(outcome.match), announcement=line(outcome, now))


def begins(match: MatchRow, game: AnyGame, now: float) -> str:
    """The first board's text: who plays, who is to move, how to play."""
    mentions = " ".join(mention(match, s.user_id) for s in sorted(match.seats, key=lambda s: s.seat))
    status = status_line(match, game) + time_note(match, now, " — ") + bank_note(match, game, now, "; ")
    return t(
        "**{match}** begins: {players}\n{status}\nPlay with `/move` here; `/rules` explains the game.",
        match=title(match),
        players=mentions,
        status=status,
    )


def thread_name(match: MatchRow) -> str:
    return f"{title(match)}: {_versus([s.name for s in match.seats])}"[:100]


def starter(match: MatchRow) -> str:
    """The short post a match's thread opens on, when there is no lobby message to open it on."""
    return f"**{title(match)}**: {_versus([escape(s.name) for s in match.seats])}"


def posted_after_restart() -> str:
    return t("(Posted after a restart.)") + " "


def delayed() -> str:
    return t("(Delayed by a Discord problem.)") + " "


def after_commit(outcome: Outcome, now: float, reason: str) -> str:
    """The truth for a mover whose change was stored but whose board could not be shown yet."""
    return t(
        "Played and saved: {announcement}\nThe board could not be posted in the match yet ({reason}); "
        "it will be posted there as soon as Discord allows. Do not play the turn again.",
        announcement=line(outcome, now),
        reason=reason,
    )


def discord_refused() -> str:
    return t("Discord refused the message")


def discord_slow() -> str:
    return t("Discord is slow to accept it")


def done_elsewhere(outcome: Outcome, now: float, channel_id: int, note: str) -> str:
    text = t("Done: {announcement} (see <#{channel}>)", announcement=line(outcome, now), channel=channel_id)
    return text + (f"\n{note}" if note else "")


def lapsed(content: str) -> str:
    return f"{content}\n" + t("(Lapsed: a turn was played first.)")


# Why a board went elsewhere than the match's thread (said to the players, and in the log).
def thread_locked() -> str:
    return t("the match's thread is locked")


def thread_deleted() -> str:
    return t("the match's thread was deleted")


def channel_gone() -> str:
    return t("the match's channel is gone")


def thread_refuses(why: str) -> str:
    return t("the match's thread refuses posts ({why})", why=why)


def channel_refused(why: str) -> str:
    return t("the match's channel refused it ({why})", why=why)


def and_channel_gone(problem: str) -> str:
    # TRANSLATORS: {problem} is one of the reasons above, e.g. "the match's thread was deleted"
    return t("{problem} and its channel is gone too", problem=problem)


def and_channel_refused(problem: str, why: str) -> str:
    return t("{problem}, and the channel refused it too ({why})", problem=problem, why=why)


def posted_in_channel(problem: str, channel_id: int, new_thread_id: int | None, thread_tried: bool) -> str:
    problem = f"{problem[0].upper()}{problem[1:]}"
    if new_thread_id is not None:
        return t(
            "({problem}, so the board was posted in <#{channel}> with a new thread for the match: <#{thread}>.)",
            problem=problem,
            channel=channel_id,
            thread=new_thread_id,
        )
    if thread_tried:
        return t(
            "({problem}, so the board was posted in <#{channel}>; play on there.)", problem=problem, channel=channel_id
        )
    return t("({problem}, so the board was posted in <#{channel}>.)", problem=problem, channel=channel_id)


DISCORD_FAILURES = {
    "timeout": N_("Discord did not answer in time"),
    "locked": N_("it is locked"),
    "archived": N_("it is archived and locked"),
    "unreachable": N_("Discord could not be reached"),
}


def discord_failure(kind: str, status: int = 0, text: str = "") -> str:
    """Why Discord did not take a post, for players and the log."""
    if kind in DISCORD_FAILURES:
        return t(DISCORD_FAILURES[kind])
    if kind == "server" or not text:
        return t("Discord answered {status}", status=status)
    return text


# -- lobbies ----------------------------------------------------------------------------------------


def lobby_text(match: MatchRow, can_start_early: bool) -> str:
    options = ", ".join(f"{k}={v}" for k, v in match.options.items())
    terms = [options] if options else []
    if match.days_per_move:
        terms.append(tn("{count} day per move", "{count} days per move", match.days_per_move))
    if match.clock is not None:
        terms.append(t("bank clock {clock}", clock=clock_text(match.clock)))
    if match.has_computer:
        terms.append(t("not rated: the computer plays"))
    elif not match.rated:
        terms.append(t("unrated"))
    if match.hints:
        terms.append(t("hints allowed: joining agrees to /hint for everyone"))
    # TRANSLATORS: a lobby's first line; the match's terms follow in parentheses.
    head = tn("**{title}** — {count} seat", "**{title}** — {count} seats", match.players, title=title(match))
    lines = [head + (f" ({'; '.join(terms)})" if terms else "")]
    for seat in match.seats:
        if seat.is_computer:
            lines.append(
                t("{seat}. {player} — the computer, always ready", seat=seat.seat, player=mention(match, seat.user_id))
            )
        elif seat.accepted:
            lines.append(t("{seat}. <@{user}> — ready", seat=seat.seat, user=seat.user_id))
        else:
            lines.append(t("{seat}. <@{user}> — invited, waiting for an answer", seat=seat.seat, user=seat.user_id))
    if match.status != "lobby":
        return "\n".join(lines)
    open_seats = match.players - len(match.seats)
    if open_seats:
        lines.append(
            tn(
                "{count} open seat: press **Join** to take one.",
                "{count} open seats: press **Join** to take one.",
                open_seats,
            )
        )
    if can_start_early:
        lines.append(
            t("<@{creator}> can press **Start** to begin with the players who are ready.", creator=match.creator_id)
        )
    return "\n".join(lines)


def invitation(match: MatchRow, creator_id: int, invited: Sequence[int], lobby: str) -> str:
    invitees = " ".join(f"<@{uid}>" for uid in invited)
    if not invitees:
        return lobby
    return t(
        "{invitees}: <@{creator}> invites you to play {game}.\n{lobby}",
        invitees=invitees,
        creator=creator_id,
        game=get_game(match.game).name,
        lobby=lobby,
    )


def rematch_asked(presser_id: int, invited: Sequence[int], lobby: str) -> str:
    if not invited:
        return t("<@{presser}> asks for a rematch.\n{lobby}", presser=presser_id, lobby=lobby)
    invitees = " ".join(f"<@{u}>" for u in invited)
    return t(
        "{invitees}: <@{presser}> asks for a rematch.\n{lobby}", invitees=invitees, presser=presser_id, lobby=lobby
    )


def played_in(channel_id: int) -> str:
    """Said on a lobby whose match opened its thread elsewhere (the games channel, not a thread in a thread)."""
    return t("Played in <#{channel}>.", channel=channel_id)


def rematch_where(channel_id: int, started: bool) -> str:
    if started:
        return t("Rematch started in <#{channel}>.", channel=channel_id)
    return t("Rematch offered in <#{channel}>.", channel=channel_id)


# -- looking ----------------------------------------------------------------------------------------


def board_line(match: MatchRow, game: AnyGame, vacations: list[tuple[str, float]], now: float) -> str:
    text = status_line(match, game) + time_note(match, now, " — ") + bank_note(match, game, now, "; ", vacations)
    away = vacation_note(vacations)
    return text + (f"\n{away}." if away else "")


def preview_line(
    match: MatchRow,
    before: AnyGame,
    seat: int,
    game: AnyGame,
    notation: str,
    events: Sequence[Event],
    unfinished: str | None,
) -> str:
    if unfinished is not None:
        return t(
            "Preview of a turn in progress (not played): `{notation}` — not a whole turn yet: {why}.",
            notation=notation,
            why=fit(unfinished, 300),
        )
    return t("Preview (not played): {turn}", turn=turn_line(seat_label(match, before, seat), game, notation, events))


def hint(notation: str, preview: str) -> str:
    return t(
        "Hint: the medium computer would play `{notation}` (only you see this).\n"
        "{preview}\nPlay it with `/move {notation}`.",
        notation=notation,
        preview=preview,
    )


LOG_WORDS = {"draw": N_("draw agreed"), "timeout": N_("ran out of time"), "resign": N_("resign")}
"""What the move list says for a turn that is not a move."""


def log_text(move: MoveRow) -> str:
    return t(LOG_WORDS[move.kind]) if move.kind in LOG_WORDS else move.notation


def history_line(match: MatchRow, number: int, move: MoveRow, holder_id: int | None) -> str:
    if move.kind == "takeback":
        return t("{number}. takeback: turn {taken} was taken back by agreement", number=number, taken=number - 1)
    player = held_label(match, holder_id, move.seat)
    if move.conditional:
        return t("{number}. {player}: {move} (conditional)", number=number, player=player, move=log_text(move))
    # TRANSLATORS: a line of the move list: its number, who played, what.
    return t("{number}. {player}: {move}", number=number, player=player, move=log_text(move))


def history(match: MatchRow, lines: list[str], limit: int = 2000) -> str:
    """The move list, the latest moves kept when it is long (the GIF shows the whole game)."""
    header = tn("**{title}** — {count} move", "**{title}** — {count} moves", len(lines), title=title(match)) + "\n"
    body = "\n".join(lines) or t("No moves yet.")
    if len(header) + len(body) > limit - 20:
        kept: list[str] = []
        budget = limit - len(header) - 40
        for entry in reversed(lines):
            if budget - len(entry) - 1 < 0:
                break
            kept.insert(0, entry)
            budget -= len(entry) + 1
        cut = tn("… {count} earlier move", "… {count} earlier moves", len(lines) - len(kept))
        body = cut + "\n" + "\n".join(kept)
    return header + body


def resign_question(match: MatchRow) -> str:
    return t("Resign from **{title}**? This cannot be undone.", title=title(match))


def resign_cancelled(match: MatchRow) -> str:
    return t("Not resigned: you are still playing **{title}**.", title=title(match))


MATCHES_PER_PAGE = 10  # /games lines per page: ten usual lines fit in 2,000 (a page of six-seat long names is cut)


def match_pages(count: int) -> int:
    """How many pages /games needs for ``count`` matches (at least one)."""
    return max(1, math.ceil(count / MATCHES_PER_PAGE))


def _page(lines: list[str], page: int, header: str = "") -> str:
    """One page of /games (``page`` from 0), with where it stands when there are several."""
    pages = match_pages(len(lines))
    page = min(max(page, 0), pages - 1)
    shown = lines[page * MATCHES_PER_PAGE : (page + 1) * MATCHES_PER_PAGE]
    footer = ""
    if pages > 1:
        footer = "\n" + t(
            "Page {page} of {pages} ({count} matches)",
            page=number(page + 1),
            pages=number(pages),
            count=number(len(lines)),
        )
    return _bounded(header + "\n".join(shown)) + footer


def my_matches(listed: list[tuple[MatchRow, AnyGame | None, bool]], user_id: int, now: float, page: int = 0) -> str:
    if not listed:
        return t("You have no matches here. Start one with /play.")
    lines = []
    for match, game, waiting in listed:
        where = f"<#{match.home_channel_id}>"
        if game is None:
            state = t("waiting for players")
        elif waiting:
            state = t("**your move** (waiting {waited})", waited=waited(match, now))
        else:
            assert game.to_move is not None
            state = t("{player} to move", player=escape(player_row(match, game, game.to_move).name))
        state += time_note(match, now, ", ") + bank_note(match, game, now, "; ")
        others = ", ".join(escape(s.name) for s in match.seats if s.user_id != user_id) or t("open seats")
        lines.append(
            t(
                "• {title} with {others} — {state} — {where}",
                title=title(match),
                others=others,
                state=state,
                where=where,
            )
        )
    return _page(lines, page)


def server_matches(matches: list[MatchRow], now: float, page: int = 0) -> str:
    if not matches:
        return t("No match is in play in this server. Start one with /play.")
    from ..domain.seats import game_of

    lines = []
    for match in matches:
        game = game_of(match)
        names = _versus([escape(seat_name(s)) for s in sorted(match.seats, key=lambda s: s.seat)])
        mover = escape(player_row(match, game, game.to_move).name) if game.to_move else "?"
        link = f"https://discord.com/channels/{match.guild_id}/{match.home_channel_id}"
        lines.append(
            # TRANSLATORS: {time} and {banks} are notes on the time left, each with its own punctuation first.
            t(
                "• {title}: {players} — {mover} to move{time}{banks} — <#{channel}> ({link})",
                title=title(match),
                players=names,
                mover=mover,
                time=time_note(match, now, ", "),
                banks=bank_note(match, game, now, "; "),
                channel=match.home_channel_id,
                link=link,
            )
        )
    return _page(lines, page, t("**Matches in play in this server**") + "\n")


def _bounded(text: str, limit: int = 2000) -> str:
    if len(text) > limit:
        return text[: limit - 30].rsplit("\n", 1)[0] + "\n" + t("… and more")
    return text


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


def suggestion_choices(
    match: MatchRow, choices: list[tuple[str, str]], note: str | None, mover: str, typed: str
) -> list[tuple[str, str]]:
    """/move's autocomplete: the legal continuations, after a first line saying why you cannot play now."""
    if note is None:
        return choices
    shown = clip_choice(suggestion_note(match, note, mover))
    return [(shown, clip_choice(typed) if note == "not_your_turn" else "-"), *choices]


def clip_choice(text: str) -> str:
    """A choice's name or value: 1 to 100 characters."""
    text = text.strip() or "-"
    return text if len(text) <= 100 else text[:99] + "…"


def suggestion_note(match: MatchRow, note: str, mover: str) -> str:
    """Why the player cannot play now, as the first autocomplete choice."""
    if note == "over":
        return t("{title} is over", title=title(match))
    if note == "left":
        return t("You have left {title}; /board shows its position", title=title(match))
    if note == "not_playing":
        return t("You are not playing in {title}; /board shows its position", title=title(match))
    return t("Not your turn: {player} is to move", player=mover)


def not_in_play(match: MatchRow) -> str:
    return t("{title} is not in play", title=title(match))


def builder_summary(state: Any) -> str:
    """The turn builder's line: the actions picked so far, and what to do next."""
    if state.path:  # part way down a game's groups (Bump: a piece, then its target, then the turn)
        done = t("So far: `{notation}`.", notation=state.notation) + " " if state.notations else ""
        path = " → ".join(state.path)
        if len(state.path) == 1:
            return done + t("{path}: pick its target (Undo goes back a step).", path=path)
        return done + t("{path}: pick the turn (Undo goes back a step).", path=path)
    if not state.notations and not state.can_end:
        return t("No action yet: pick your first action from the menu.")
    head = t("So far: `{notation}`.", notation=state.notation) if state.notations else t("No action yet.")
    if state.game.is_over or (state.can_end and not state.choices):
        return t("{so_far} Press **End turn** to play it.", so_far=head)
    if state.can_end:
        return t("{so_far} Pick another action, or press **End turn** to play it.", so_far=head)
    if state.why_not_end and state.notations:
        return t("{so_far} Pick the next action ({why}).", so_far=head, why=state.why_not_end)
    return t("{so_far} Pick the next action.", so_far=head)


def turn_builder(match: MatchRow, summary: str, more: int, full: bool) -> str:
    content = t("**Your turn in {title}** (only you see this). {summary}", title=title(match), summary=summary)
    if more:
        content += " " + tn(
            "{count} more action is not in the menus: type it with /move.",
            "{count} more actions are not in the menus: type them with /move.",
            more,
        )
    if full:
        content += " " + t("That is as many actions as the builder holds: end the turn, or undo.")
    return content


def played(notation: str) -> str:
    return t("Played `{notation}`.", notation=notation)


def you_resigned() -> str:
    return t("You resigned.")


# -- reminders and time limits ----------------------------------------------------------------------


def reminder(job: ReminderJob, now: float) -> str:
    match = job.match
    text = t(
        "It is your turn in **{title}** (waiting {waited}{time_left}).",
        title=title(match),
        waited=duration(job.waited),
        time_left=time_note(match, now, "; "),
    )
    if job.last_turn is not None:
        seat, notation = job.last_turn
        text += " " + t(
            "Last move: {player} played `{notation}`.", player=seat_label(match, job.game, seat), notation=notation
        )
    return text


def board_link(text: str, link: str) -> str:
    return t("{text}\nBoard: {link}", text=text, link=link)


def dms_closed() -> str:
    return t("direct messages from the bot are closed")


def both(first: str, second: str) -> str:
    """Two reasons a notice could not be delivered."""
    return t("{first}, and {second}", first=first, second=second)


def reminders_stopped(job: ReminderJob, why: str) -> str:
    return t(
        "<@{user}> Your reminders for **{title}** have stopped for this turn: none could reach you ({why}). "
        "It is still your turn: play with /move.",
        user=job.user_id,
        title=title(job.match),
        why=why,
    )


def snoozed(match: MatchRow) -> str:
    return t("No more reminders for this turn of {title}.", title=title(match))


def deadline(job: DeadlineJob) -> str:
    match = job.match
    if job.level == 3:
        claimants = " ".join(f"<@{u}>" for u in job.claimant_ids)
        if len(job.claimant_ids) == 1:
            return t(
                "<@{user}> has run out of time in **{title}**. {claimants}: press **Claim** to claim the win "
                "(until then they may still move).",
                user=job.user_id,
                title=title(match),
                claimants=claimants,
            )
        return t(
            "<@{user}> has run out of time in **{title}**. {claimants}: press **Claim** to drop them from the game "
            "(as if they resigned) (until then they may still move).",
            user=job.user_id,
            title=title(match),
            claimants=claimants,
        )
    assert match.deadline_at is not None
    return t(
        "Your time in **{title}** runs out <t:{when}:R> ({left} left). Play with /move, or take a /vacation.",
        title=title(match),
        when=int(match.deadline_at),
        left=duration(job.left),
    )


def claim_label(claimants: int) -> str:
    return t("Claim win") if claimants == 1 else t("Claim: drop the seat")


def vacation(until: float, days: int, left: float, paused: int) -> str:
    return tn(
        "You are on vacation until <t:{until}:f> ({count} day; {left} left this year). Your clocks are paused "
        "({paused} running now), your opponents see it on the board, and no reminders come meanwhile.",
        "You are on vacation until <t:{until}:f> ({count} days; {left} left this year). Your clocks are paused "
        "({paused} running now), your opponents see it on the board, and no reminders come meanwhile.",
        days,
        until=int(until),
        left=number(left),
        paused=number(paused),
    )


# -- offers -----------------------------------------------------------------------------------------

OFFER_KINDS = {"draw": N_("a draw"), "undo": N_("to take back their last turn")}
"""What an offer asks for, said as t(OFFER_KINDS[kind]) after "asked for" or "declined"."""


def offer(notice: OfferNotice) -> str:
    match = notice.match
    asked = " ".join(mention(match, u) for u in notice.asked_ids)
    if notice.kind == "draw":
        made = t("**{title}**: <@{maker}> offers a draw.", title=title(match), maker=notice.maker_id)
    else:
        made = t(
            "**{title}**: <@{maker}> asks to take back their last turn.", title=title(match), maker=notice.maker_id
        )
    if notice.answerer_ids:
        how = t("{asked}: accept or decline (the offer lapses if a turn is played first).", asked=asked)
    else:
        how = t("{asked}: the computer is considering it (the offer lapses if a turn is played first).", asked=asked)
    return f"{made} {how}"


def offer_answer(answer: OfferAnswer, now: float) -> str:
    match = answer.match
    if answer.kind == "withdrawn":
        return t("<@{user}> withdrew the offer.", user=answer.user_id)
    if answer.kind == "declined":
        return t(
            "{player} declined {offer} (asked by <@{maker}>).",
            player=mention(match, answer.user_id),
            offer=t(OFFER_KINDS[answer.offer_kind]),
            maker=answer.maker_id,
        )
    if answer.kind == "accepted":
        waiting = " ".join(mention(match, u) for u in answer.waiting_ids)
        return t("{player} accepted; waiting for {waiting}.", player=mention(match, answer.user_id), waiting=waiting)
    assert answer.outcome is not None
    return t("Accepted: {outcome}", outcome=line(answer.outcome, now))


def sent_in(channel_id: int) -> str:
    return t("Sent in <#{channel}>.", channel=channel_id)


# -- settings ---------------------------------------------------------------------------------------


def preferences(prefs: Preferences, default_hours: float) -> str:
    hours = prefs.delay_hours or default_hours
    if not prefs.reminders:
        return t("Reminders are **off** in this server.")
    if prefs.via == "dm":
        said = t("Reminders are **on**: after {hours} h without your move, by a direct message.", hours=number(hours))
    else:
        said = t(
            "Reminders are **on**: after {hours} h without your move, by a ping in the match thread.",
            hours=number(hours),
        )
    return said + quiet_note(prefs)


def _clock_time(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def quiet_note(prefs: Preferences) -> str:
    """The player's quiet hours, after their reminder settings."""
    if prefs.quiet_zone is None:
        return ""
    return " " + t(
        "Quiet hours: **{start}–{end}** in {zone}: no reminder or time warning then; it waits for your morning "
        "(a time limit itself never waits).",
        start=_clock_time(prefs.quiet_start),
        end=_clock_time(prefs.quiet_end),
        zone=escape(prefs.quiet_zone),
    )


SHOWN_BLOCKS = 20  # a reply lists this many, then counts the rest (Discord's 2,000 characters)


def challenge_settings(challenges: str, blocked: list[int]) -> str:
    """For the player only (an ephemeral reply): blocked people appear as mentions, which ping nobody there."""
    listed = ", ".join(f"<@{b}>" for b in blocked[:SHOWN_BLOCKS])
    if len(blocked) > SHOWN_BLOCKS:
        listed = t("{listed} and {count} more", listed=listed, count=number(len(blocked) - SHOWN_BLOCKS))
    if challenges == "nobody":
        text = t(
            "Challenges: you are **not taking challenges in this server** (you can still challenge others "
            "and join matches with open seats)."
        )
        return text + (" " + t("Blocked in every server: {blocked}.", blocked=listed) if blocked else "")
    if blocked:
        return t("Challenges: **from everyone except** {blocked} (a block holds in every server).", blocked=listed)
    return t("Challenges: you take them **from everyone**.")


def saved() -> str:
    return t("Saved.") + " "


def server_settings(settings: GuildSettings, default_reminder_hours: float) -> str:
    if settings.match_channel_id:
        channel = f"<#{settings.match_channel_id}>"
    else:
        channel = t("the channel where /play is used (default)")
    if settings.days_per_move is None:
        days = t("none (default)")
    elif settings.days_per_move == 0:
        days = t("none")
    else:
        days = tn("{count} day per move", "{count} days per move", settings.days_per_move)
    hours = number(settings.reminder_hours or default_reminder_hours)
    if settings.clock is not None:
        days = t("a bank clock, {clock} (instead of days per move)", clock=clock_text(settings.clock))
    if settings.reminder_hours:
        delay = t("• Default reminder delay: {hours} h (each player may set their own with /settings)", hours=hours)
    else:
        delay = t(
            "• Default reminder delay: {hours} h (default) (each player may set their own with /settings)", hours=hours
        )
    return "\n".join(
        [
            t("**Hexplay settings of this server**"),
            t("• Match threads open in: {channel}", channel=channel),
            t("• Default time limit: {limit} (a player may choose another at /play)", limit=days),
            delay,
            t(
                "• Conditional moves and analysis boards: {allowed} (a match may choose at /play)",
                allowed=_allowed(settings.analysis),
            ),
        ]
    )


def _allowed(analysis: bool | None) -> str:
    # TRANSLATORS: said of "conditional moves and analysis boards".
    return t("allowed (default)") if analysis is None else t("allowed") if analysis else t("forbidden")


# -- ratings ----------------------------------------------------------------------------------------

TOP = 10


def ratings_explained() -> str:
    return t(
        "-# Ratings read like chess's Elo: everyone starts at {start}, and 200 points ahead means winning "
        "about 3 games in 4. A rating with ? is provisional (fewer than {games} rated games of this "
        "game) and is listed after the settled ones.",
        start=number(RATING_START),
        games=number(PROVISIONAL_GAMES),
    )


def shown_rating(row: RatingRow) -> str:
    return f"{row.rating}{'?' if row.provisional else ''}"


def _rating_line(rank: int, row: RatingRow) -> str:
    # TRANSLATORS: W, L, D: wins, losses, draws.
    return tn(
        "{rank}. <@{user}> — {rating} ({count} game: {wins} W / {losses} L / {draws} D)",
        "{rank}. <@{user}> — {rating} ({count} games: {wins} W / {losses} L / {draws} D)",
        row.games,
        rank=rank,
        user=row.user_id,
        rating=shown_rating(row),
        wins=number(row.wins),
        losses=number(row.losses),
        draws=number(row.draws),
    )


def leaderboard(game_name: str, board: list[RatingRow], user_id: int) -> str:
    if not board:
        return t("No rated {game} matches in this server yet.", game=game_name)
    lines = [t("**{game} leaderboard**", game=game_name)]
    for rank, row in enumerate(board[:TOP], start=1):
        lines.append(_rating_line(rank, row))
    mine = next((i for i, r in enumerate(board, start=1) if r.user_id == user_id), None)
    if mine is None:
        lines.append(t("You have no rated match of this game here yet."))
    elif mine > TOP:
        lines.append("…")
        lines.append(t("{line} ← you", line=_rating_line(mine, board[mine - 1])))
    lines.append(ratings_explained())
    return "\n".join(lines)


def profile(user_id: int, ratings: list[tuple[RatingRow, int | None, int]], playing: list[MatchRow]) -> str:
    lines = [t("**Profile of <@{user}>**", user=user_id)]
    for row, rank, of in ratings:
        lines.append(
            # TRANSLATORS: {provisional} is empty or " (provisional)"; {place} is empty or ", #3 of 12".
            # W, L, D: wins, losses, draws.
            tn(
                "• {game}: rating {rating}{provisional}{place} — {count} rated game: {wins} W / {losses} L / {draws} D",
                "• {game}: rating {rating}{provisional}{place} — {count} rated games: "
                "{wins} W / {losses} L / {draws} D",
                row.games,
                game=get_game(row.game).name,
                rating=shown_rating(row),
                provisional=" " + t("(provisional)") if row.provisional else "",
                place=t(", #{rank} of {players}", rank=rank, players=number(of)) if rank else "",
                wins=number(row.wins),
                losses=number(row.losses),
                draws=number(row.draws),
            )
        )
    if not ratings:
        lines.append(t("No rated matches yet."))
    if playing:
        listed = ", ".join(f"{title(m)} (<#{m.home_channel_id}>)" for m in playing[:10])
        lines.append(t("Playing now: {matches}", matches=listed) + (" …" if len(playing) > 10 else ""))
    else:
        lines.append(t("Playing now: nothing."))
    return "\n".join(lines)


# -- the bot itself ---------------------------------------------------------------------------------


def connected(user: str, user_id: int | str, servers: int, dev_guild_ids: Sequence[int], invite: str) -> str:
    """One line for the operator: who, where, how commands were synced, and the invite link."""
    if dev_guild_ids:
        ids = ", ".join(str(g) for g in dev_guild_ids)
        synced = t("commands synced to the dev servers {ids} (they appear at once)", ids=ids)
    else:
        synced = t("commands synced globally (the first time they may take up to an hour to appear)")
    return tn(
        "Connected as {user} (id {user_id}) in {count} server; {synced}. Invite it to a server: {invite}",
        "Connected as {user} (id {user_id}) in {count} servers; {synced}. Invite it to a server: {invite}",
        servers,
        user=user,
        user_id=user_id,
        synced=synced,
        invite=invite,
    )


def help_page(commands: Sequence[tuple[str, str]]) -> str:
    """Every slash command with its description, read from the command tree so it never goes stale."""
    lines = [t("**Hexplay** — correspondence play of hexagonal board games. Commands:")]
    for name, description in sorted(commands):
        lines.append(f"`/{name}` — {description}")
    lines.append(
        t("Rules of each game: `/rules game`. Play in the match's thread; the buttons on the boards do the rest.")
    )
    return "\n".join(lines)[:2000]


# -- conditional moves and the private analysis board --------------------------------------------------


def premove_how() -> str:
    return t(
        "Add a line with `/premove line: e5; d4` (if they play `e5`, you answer `d4`); "
        "longer lines go on turn by turn, and several lines make branches."
    )


def _premove_line(turns: Sequence[tuple[str, bool]]) -> str:
    return ", ".join(t("you `{move}`", move=n) if mine else t("if `{move}`", move=n) for n, mine in turns)


def premoves(shown: Premoves) -> str:
    """A player's conditional moves shown back to them (privately): the list, and what the picture shows."""
    if not shown.lines:
        return t("You have no conditional moves in {title}.", title=title(shown.match)) + " " + premove_how()
    head = t("**Your conditional moves in {title}** (only you see them)", title=title(shown.match))
    said = t("Saved.") + " " if shown.added else ""
    if shown.replaced:
        said += (
            tn(
                "It replaced {count} line with another answer.",
                "It replaced {count} lines with another answer.",
                shown.replaced,
            )
            + " "
        )
    listed = [f"{i}. {_premove_line(line.turns)}" for i, line in enumerate(shown.lines, start=1)]
    picture = "\n" + t("The picture shows the board at the end of the line just added.") if shown.line else ""
    text = f"{said}{head}:\n" + "\n".join(listed)
    footer = (
        picture
        + "\n"
        + t(
            "When their turn matches a line, your answer is played at once; when it matches none, "
            "all of them are cleared and you are told. `/premove clear: True` removes them."
        )
    )
    return _bounded(text, 2000 - len(footer)) + footer


def premoves_cleared(match: MatchRow, why: str, notation: str) -> str:
    """The private notice that a player's conditional moves were cleared."""
    if why == "unexpected":
        reason = t("the turn played, `{notation}`, matched none of your lines", notation=notation)
    elif why == "illegal":
        reason = t("your answer could not be played there")
    elif why == "changed":
        reason = t("the position changed (a takeback, a resignation, a draw or a time-out)")
    else:
        reason = t("the position changed")
    return t(
        "Your conditional moves in **{title}** were cleared: {reason}. It is for you to play now; "
        "`/premove` sets new ones.",
        title=title(match),
        reason=reason,
    )


def premoves_removed() -> str:
    return t("Your conditional moves in this match were removed.")


EXPLORE_SAID = {
    "open": N_("Your analysis board: a private copy of the position."),
    "new": N_("A fresh analysis board from the match's position."),
    "back": N_("One turn back."),
    "forward": N_("One turn forward."),
    "turn": N_("Played on your board."),
    "save": N_("Saved as conditional moves."),
    "close": N_("Your analysis board is closed; the match is as it was."),
}


def exploration(shown: Exploration) -> str:
    """A step on the analysis board, said privately: what it did, the line, who is to move there."""
    match, game = shown.match, shown.game
    said = t(EXPLORE_SAID[shown.step]) if shown.step in EXPLORE_SAID else ""
    lines = [f"{said} " + t("Nothing here reaches {title}.", title=title(match))]
    if shown.turns:
        played = []
        for i, (notation, who) in enumerate(shown.turns, start=1):
            seat = None if who is None else match.seat_of(who)
            name = escape(seat.name) if seat is not None else "?"
            mark = "**" if i == shown.shown else ""
            played.append(f"{mark}{i}. {name} `{notation}`{mark}" if i <= shown.shown else f"({i}. `{notation}`)")
        lines.append(_bounded(" · ".join(played), 1200))
    if game.is_over:
        lines.append(t("On this board: {result}", result=result_line(match, game)))
    elif game.to_move is not None:
        lines.append(
            t(
                "On this board {player} is to move (turn {turn}).",
                player=seat_label(match, game, game.to_move),
                turn=game.ply + 1,
            )
        )
    if shown.out_of_date:
        lines.append(t("The match has moved on since this copy: `step: new` copies the position as it is now."))
    if shown.saved is not None:
        lines.append(premoves(shown.saved))
    else:
        lines.append(
            t(
                "`/explore turn:` plays for whoever is to move; `step:` back, forward, new, save (as conditional "
                "moves) or close."
            )
        )
    return _bounded("\n".join(lines))


# -- tournaments ----------------------------------------------------------------------------------


def tournament_title(tournament: TournamentRow) -> str:
    """``Bide Swiss tournament #3``, said inside sentences (French puts its article before it: ``le tournoi…``);
    :func:`_standing_alone` capitalises it where it is a heading."""
    game = get_game(tournament.game).name
    if tournament.format == "round-robin":
        # TRANSLATORS: a tournament's name, used inside sentences ("You have already joined {title}."): no capital
        return t("{game} round robin tournament #{tournament_id}", game=game, tournament_id=tournament.id)
    # TRANSLATORS: a tournament's name, used inside sentences ("You have already joined {title}."): no capital
    return t("{game} Swiss tournament #{tournament_id}", game=game, tournament_id=tournament.id)


def _standing_alone(text: str) -> str:
    """A title as a heading: its first letter a capital (English titles start with the game's name already)."""
    return text[:1].upper() + text[1:]


def _tournament_refusal(text: str) -> Callable[[dict[str, Any]], str]:
    # without the tournament in the facts the sentence keeps its "{title}", as it always did
    return lambda f: t(text, title=tournament_title(f["tournament"]) if "tournament" in f else "{title}")


_FORMAT_NAMES = {"round-robin": N_("round-robin"), "swiss": N_("swiss")}

REFUSALS.update(
    {
        "no_tournament": lambda f: t(
            "There is no tournament #{tournament_id} in this server.", tournament_id=f["tournament_id"]
        ),
        "no_tournaments": lambda f: t("There is no tournament in this server. Create one with /tournament create."),
        "which_tournament": lambda f: t(
            "This server has several tournaments: say which with the `tournament` option ({ids}).",
            ids=", ".join(f"#{i}" for i in f["ids"][:20]),
        ),
        "tournament_format": lambda f: t(
            "A tournament is {formats}.", formats=_either([t(_FORMAT_NAMES.get(x, x)) for x in f["formats"]])
        ),
        "tournament_tables_swiss": lambda f: t(
            "{game} is played at tables of three or four, which a round robin cannot schedule: "
            "choose Swiss (tables of players with close scores each round).",
            game=f["game"],
        ),
        "tournament_rounds": lambda f: t(
            "A Swiss tournament has {low} to {high} rounds.", low=number(f["low"]), high=number(f["high"])
        ),
        "tournament_size": lambda f: t(
            "A tournament takes {low} to {high} players.", low=number(f["low"]), high=number(f["high"])
        ),
        "tournament_start_hours": lambda f: t(
            "A tournament starts by itself at most {days} days ahead; leave `start_in_hours` out to "
            "start it yourself with /tournament start.",
            days=number(f["high"] // 24),
        ),
        "tournament_limit": lambda f: t(
            "You already run {most} tournaments in this server that are open or under way: finish or "
            "cancel one before creating another.",
            most=number(f["most"]),
        ),
        "tournament_already_joined": _tournament_refusal(N_("You have already joined {title}.")),
        "tournament_full": _tournament_refusal(N_("{title} is full.")),
        "tournament_started": _tournament_refusal(N_("{title} has already started: it takes no more players.")),
        "tournament_over": _tournament_refusal(N_("{title} is over.")),
        "tournament_not_joined": _tournament_refusal(N_("You are not a player of {title}.")),
        "tournament_leave_started": _tournament_refusal(
            N_("{title} has started: use /tournament withdraw to leave it (your remaining games are forfeited).")
        ),
        "tournament_withdraw_before_start": _tournament_refusal(
            N_("{title} has not started: use /tournament leave (or its Leave button) instead.")
        ),
        "tournament_already_withdrawn": _tournament_refusal(N_("You have already withdrawn from {title}.")),
        "tournament_only_organizer_starts": _tournament_refusal(N_("Only the organizer can start {title}.")),
        "tournament_only_organizer_cancels": _tournament_refusal(
            N_("Only the organizer or a server manager can cancel {title}.")
        ),
        "tournament_too_few": lambda f: tn(
            "{title} needs at least {needed} players to start; {count} has joined.",
            "{title} needs at least {needed} players to start; {count} have joined.",
            f["joined"],
            title=tournament_title(f["tournament"]),
            needed=number(f["needed"]),
        ),
    }
)


def tournament_announcement(tournament: TournamentRow, now: float) -> str:
    """The event's public message: what it is, when it starts, who has joined (kept current as it fills)."""
    info_ = get_game(tournament.game)
    if tournament.format != "swiss":
        rounds = t("everyone plays everyone (divisions of up to ten above ten players), all games at once")
    elif info_.max_players > 2:
        rounds = tn(
            "{count} round, tables of three or four, points by placement",
            "{count} rounds, tables of three or four, points by placement",
            tournament.rounds,
        )
    else:
        rounds = tn("{count} round", "{count} rounds", tournament.rounds)
    if tournament.days_per_move is None:
        clock = t("no time limit")
    else:
        clock = tn("{count} day per move", "{count} days per move", tournament.days_per_move)
    title_ = _standing_alone(tournament_title(tournament))
    lines = [
        t("🏆 **{title}** organized by <@{organizer}>", title=title_, organizer=tournament.organizer_id),
        t("{rounds}; {clock}; rated.", rounds=rounds, clock=clock)
        if tournament.rated
        else t("{rounds}; {clock}; not rated.", rounds=rounds, clock=clock),
    ]
    if tournament.status == "open":
        if tournament.starts_at is not None:
            lines.append(t("Starts <t:{when}:R>.", when=int(tournament.starts_at)))
        else:
            lines.append(t("Starts when the organizer runs `/tournament start`."))
    elif tournament.status == "running":
        lines.append(t("Under way: `/tournament standings` shows the table."))
    elif tournament.status == "finished":
        lines.append(t("Finished: `/tournament standings` shows the final table."))
    elif tournament.status == "cancelled":
        lines.append(t("Cancelled."))
    else:
        raise KeyError(tournament.status)
    names = ", ".join(escape(p.name) for p in tournament.players) or t("nobody yet")
    lines.append(
        t(
            "Players ({joined}/{most}): {names}",
            joined=len(tournament.players),
            most=tournament.max_players,
            names=names,
        )
    )
    return _bounded("\n".join(lines))


def tournament_joined(tournament: TournamentRow, user_id: int, joined: bool) -> str:
    fields = {
        "title": tournament_title(tournament),
        "joined": len(tournament.players),
        "most": tournament.max_players,
    }
    if joined:
        return t("You joined {title} ({joined}/{most} players).", **fields)
    return t("You left {title} ({joined}/{most} players).", **fields)


def tournament_round(tournament: TournamentRow, round_number: int, tables: list[MatchRow], byes: list[int]) -> str:
    """A round's pairings, in the event's channel (each match's thread pings its own players)."""
    names = {p.user_id: escape(p.name) for p in tournament.players}
    if tournament.format == "swiss":
        head = t(
            "**{title}**: round {round} of {rounds} has started.",
            title=tournament_title(tournament),
            round=round_number,
            rounds=tournament.rounds,
        )
    else:  # English has always said "games" here
        head = tn(
            "**{title}** has started: all {count} games at once.",
            "**{title}** has started: all {count} games at once.",
            len(tables),
            title=tournament_title(tournament),
        )
    lines = [head]
    for match in tables:
        players = _versus([names.get(s.user_id, escape(s.name)) for s in sorted(match.seats, key=lambda s: s.seat)])
        where = f" <#{match.thread_id}>" if match.thread_id else ""
        lines.append(t("• {match}: {players}{thread}", match=title(match), players=players, thread=where))
    lines += [t("• {name} has the bye (1 point).", name=names.get(user_id, "?")) for user_id in byes]
    return _bounded("\n".join(lines))


def tournament_started(tournament: TournamentRow) -> str:
    return t(
        "**{title}** has started with {players} players: each game opens in its own thread, its players pinged there.",
        title=tournament_title(tournament),
        players=len(tournament.players),
    )


def tournament_called_off(tournament: TournamentRow) -> str:
    return t(
        "{title} was called off: too few players had joined when it was due to start.",
        title=tournament_title(tournament),
    )


def tournament_withdrawn(tournament: TournamentRow, user_ids: list[int], inactive: bool) -> str:
    withdrawn = [escape(p.name) for p in tournament.players if p.user_id in user_ids]
    fields = {"names": ", ".join(withdrawn), "title": tournament_title(tournament)}
    if inactive:  # English forms are the same: the French verb agrees with how many withdrew
        return tn(
            "{names} withdrew from {title} (lost on time and no turn played for 30 days): "
            "remaining games are forfeited.",
            "{names} withdrew from {title} (lost on time and no turn played for 30 days): "
            "remaining games are forfeited.",
            len(withdrawn),
            **fields,
        )
    return tn(
        "{names} withdrew from {title}: remaining games are forfeited.",
        "{names} withdrew from {title}: remaining games are forfeited.",
        len(withdrawn),
        **fields,
    )


def you_withdrew(tournament: TournamentRow, forfeited: int) -> str:
    if forfeited:
        return tn(
            "You withdrew from {title}; {count} game forfeited. Your played games stand.",
            "You withdrew from {title}; {count} games forfeited. Your played games stand.",
            forfeited,
            title=tournament_title(tournament),
        )
    return t("You withdrew from {title}. Your played games stand.", title=tournament_title(tournament))


def tournament_cancelled(tournament: TournamentRow, user_id: int) -> str:
    return t(
        "<@{user}> cancelled {title}. Games already under way go on as ordinary matches.",
        user=user_id,
        title=tournament_title(tournament),
    )


def _rounded(value: float) -> float:
    """Points as shown: two decimals at most (``number`` then writes them in the language's style)."""
    return float(f"{value:.2f}")


def _points(value: float) -> str:
    return number(_rounded(value))


_TIEBREAK_NAMES = {"head-to-head": N_("head-to-head"), "wins": N_("wins")}  # the others are people's names
_TIEBREAK_SHORT = {"Buchholz": "BH", "Sonneborn-Berger": "SB", "head-to-head": N_("H2H"), "wins": N_("W")}


def _tiebreak_name(name: str) -> str:
    return t(_TIEBREAK_NAMES[name]) if name in _TIEBREAK_NAMES else name


def _withdrawn_name(name: str) -> str:
    return t("{name} (withdrawn)", name=name)


def standings_rows(table: Standings) -> tuple[list[str], list[list[str]], list[bool]]:
    """The standings as table cells (headers, rows, withdrawn), for the picture."""
    shorts = [
        t(_TIEBREAK_SHORT[name]) if name in _TIEBREAK_NAMES else _TIEBREAK_SHORT[name] for name in table.tiebreaks
    ]
    headers = ["#", pt("standings column", "Player"), pt("standings column", "Pts"), *shorts]
    rows = []
    for row in table.rows:
        name = _withdrawn_name(row.name) if row.withdrawn else row.name
        if len({r.division for r in table.rows}) > 1:
            name = f"D{row.division} · {name}"
        rows.append([str(row.place), name, _points(row.points), *(_points(value) for value in row.tiebreaks)])
    return headers, rows, [row.withdrawn for row in table.rows]


def standings_title(table: Standings) -> tuple[str, str]:
    """(title, subtitle) of the standings picture."""
    tournament = table.tournament
    if tournament.status == "finished":
        stage = t("Final standings")
    elif tournament.format == "swiss":
        stage = t("Round {round} of {rounds}", round=tournament.round, rounds=tournament.rounds)
    else:
        stage = tn("{count} game in play", "{count} games in play", table.games_left)
    ties = _then([_tiebreak_name(name) for name in table.tiebreaks])
    return _standing_alone(tournament_title(tournament)), t("{stage} · ties: {tiebreaks}", stage=stage, tiebreaks=ties)


def standings_text(table: Standings) -> str:
    """The standings as text (the picture's words, for screen readers and search)."""
    title_, subtitle = standings_title(table)
    lines = [f"**{title_}** — {subtitle}"]
    divisions = len({r.division for r in table.rows}) > 1
    for row in table.rows:
        breaks = ", ".join(
            f"{_tiebreak_name(name)} {_points(value)}"
            for name, value in zip(table.tiebreaks, row.tiebreaks, strict=True)
        )
        where = f"D{row.division} " if divisions else ""
        name = _withdrawn_name(escape(row.name)) if row.withdrawn else escape(row.name)
        line = tn(
            "{place}. {name} — {count} pt ({tiebreaks})",
            "{place}. {name} — {count} pts ({tiebreaks})",
            _rounded(row.points),
            place=row.place,
            name=name,
            tiebreaks=breaks,
        )
        lines.append(f"{where}{line}")
    if table.tournament.status == "running" and table.games_left:
        if table.tournament.format == "swiss":
            lines.append(
                tn(
                    "{count} game of this round still in play.",
                    "{count} games of this round still in play.",
                    table.games_left,
                )
            )
        else:
            lines.append(tn("{count} game still in play.", "{count} games still in play.", table.games_left))
    return _bounded("\n".join(lines))


def podium(table: Standings) -> str:
    """The final announcement: the first three (of each division), pinged."""
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = [t("🏆 **{title}** is over!", title=tournament_title(table.tournament))]
    divisions = sorted({r.division for r in table.rows})
    for division in divisions:
        top = [r for r in table.rows if r.division == division and r.place <= 3 and not r.withdrawn]
        podium_ = ", ".join(f"{medals.get(r.place, '')} <@{r.user_id}> ({_points(r.points)})" for r in top)
        lines.append(
            t("Division {division}: {podium}", division=division, podium=podium_) if len(divisions) > 1 else podium_
        )
    ties = _then([_tiebreak_name(name) for name in table.tiebreaks])
    lines.append(t("Final standings below; ties broken by {tiebreaks}.", tiebreaks=ties))
    return _bounded("\n".join(lines))


# -- post-game reviews (/review) -------------------------------------------------------------------

REVIEW_THRESHOLDS = N_(
    "Inaccuracy, mistake, blunder: a turn that lost 5, 10 or 15 points of the mover's winning chance "
    "(Lichess's thresholds; the chances are the computer's search, not a formula)."
)
REVIEW_LABELS = {"blunder": N_("blunder ??"), "mistake": N_("mistake ?"), "inaccuracy": N_("inaccuracy ?!")}


def _ordinal(n: int) -> str:
    """A place in line: 1st, 2nd, 23rd (French: 1re, 2e, 23e)."""
    if n == 1:
        return pt("place in line", "1st")
    if 10 <= n % 100 <= 20:
        return pt("place in line", "{n}th", n=n)
    if n % 10 == 1:
        return pt("place in line", "{n}st", n=n)
    if n % 10 == 2:
        return pt("place in line", "{n}nd", n=n)
    if n % 10 == 3:
        return pt("place in line", "{n}rd", n=n)
    return pt("place in line", "{n}th", n=n)


def review_progress(match: MatchRow, done: int, total: int, ahead: int) -> str:
    """The review's message while it is searched (edited as it goes)."""
    if ahead > 0:
        return tn(
            "Review of {match}: waiting, {place} in line ({count} review before it).",
            "Review of {match}: waiting, {place} in line ({count} reviews before it).",
            ahead,
            match=title(match),
            place=_ordinal(ahead + 1),
        )
    filled = round(10 * done / total) if total else 0
    return t(
        "Reviewing {match}: the computer searches every position, {done}/{total} done `{bar}`",
        match=title(match),
        done=done,
        total=total,
        bar="█" * filled + "░" * (10 - filled),
    )


def _reviewed_name(review: Review, player: int) -> str:
    return review.names[player - 1] if player <= len(review.names) else t("Player {number}", number=player)


def review_turn_line(review: Review, turn: Any) -> str:
    """One turn of a review: who played what, what the computer preferred, and the drop."""
    name = (
        escape(review.names[turn.player - 1])
        if turn.player <= len(review.names)
        else _reviewed_name(review, turn.player)
    )
    label = REVIEW_LABELS.get(turn.label or "", "")
    drop = f"{100 * turn.drop:.0f}"
    loss = t("−{drop} points, {label}", drop=drop, label=t(label)) if label else t("−{drop} points", drop=drop)
    fields = {
        "turn": turn.index + 1,
        "name": name,
        "move": turn.played,
        "before": f"{100 * turn.before:.0f}",
        "after": f"{100 * turn.after:.0f}",
        "loss": loss,
    }
    if turn.best and turn.best != turn.played:
        return t(
            "Turn {turn}: **{name}** played `{move}`, the computer preferred `{best}` — winning chance "
            "{before}% → {after}% ({loss})",
            best=turn.best,
            **fields,
        )
    return t("Turn {turn}: **{name}** played `{move}` — winning chance {before}% → {after}% ({loss})", **fields)


def review_summary(review: Review) -> str:
    """The review's message: accuracy per player, the biggest mistakes, the thresholds."""
    result = review.result
    lines = [t("**Review of {match}**", match=title(review.match))]
    for player, name in enumerate(review.names, start=1):
        own = [turn for turn in result.turns if turn.player == player]
        accuracy = result.accuracy.get(player)
        counts = {label: sum(turn.label == label for turn in own) for label in ("inaccuracy", "mistake", "blunder")}
        figure = t("accuracy {percent}%", percent=f"{accuracy:.0f}") if accuracy is not None else t("no turns")
        tally = ", ".join(
            (
                tn("{count} inaccuracy", "{count} inaccuracies", counts["inaccuracy"]),
                tn("{count} mistake", "{count} mistakes", counts["mistake"]),
                tn("{count} blunder", "{count} blunders", counts["blunder"]),
            )
        )
        lines.append(t("**{name}**: {accuracy} · {tally}", name=escape(name), accuracy=figure, tally=tally))
    if result.turning_points:
        lines.append(t("Biggest mistakes (the turning points, marked on the graph):"))
        lines += [review_turn_line(review, result.turns[i]) for i in result.turning_points]
    else:
        lines.append(t("No turn lost 5 points of winning chance or more."))
    lines.append(t("-# {thresholds} Accuracy: Lichess's formula, on those chances.", thresholds=t(REVIEW_THRESHOLDS)))
    return fit("\n".join(lines), 2000)


def review_point(point: TurningPoint) -> str:
    """A turning point shown over its board."""
    count = len(point.review.result.turning_points)
    return fit(
        t(
            "Turning point {index}/{total} of {match}",
            index=point.index + 1,
            total=count,
            match=title(point.review.match),
        )
        + "\n"
        + review_turn_line(point.review, point.turn),
        2000,
    )


def review_legend(review: Review, turn: Any) -> tuple[str, str]:
    """The overlay's two colours in words: the turn played (red) and the computer's (green)."""
    name = _reviewed_name(review, turn.player)
    best = turn.best if turn.best and turn.best != turn.played else t("the same")
    return (t("red: {name} played {move}", name=name, move=turn.played), t("green: the computer: {move}", move=best))


def review_first_point() -> str:
    return t("Turning points")


def review_previous() -> str:
    return t("◀ Previous")


def review_next() -> str:
    return t("Next ▶")


# -- boards in words: a picture's description (alt text) and /board text ---------------------------

DESCRIPTION_LIMIT = 1024  # Discord's limit on an attachment's description; the words are cut in the language said


def _plain_label(match: MatchRow, game: AnyGame, seat: int | None) -> str:
    """``alice (Red)`` without markdown: alt text and screen readers read it as it is."""
    if seat is None:
        return t("nobody")
    colours = info(match).seat_names
    colour = t(colours[seat - 1]) if seat - 1 < len(colours) else t("seat {seat}", seat=seat)
    row = match.user_of(game.player_of_seat(seat))
    return f"{seat_name(row) if row is not None else '?'} ({colour})"


_MATERIAL_WORDS: dict[str, Callable[[int], str]] = {
    "score": lambda n: t("score {score}", score=number(n)),
    "hand": lambda n: t("{count} in hand", count=number(n)),
    "pool": lambda n: t("{count} in the pool", count=number(n)),
    "stones": lambda n: tn("{count} stone", "{count} stones", n),
    "goals": lambda n: tn("{count} goal", "{count} goals", n),
    "playballers": lambda n: tn("{count} playballer", "{count} playballers", n),
    "on board": lambda n: t("{count} on the board", count=number(n)),
    # English forms are the same: French agrees "prise(s)" with the count
    "captured": lambda n: tn("{count} captured", "{count} captured", n),
    "reserves": lambda n: t("{count} in reserve", count=number(n)),
}


def _material_line(match: MatchRow, game: AnyGame) -> str:
    parts = []
    for m in material(game):
        counts = ", ".join(_MATERIAL_WORDS.get(k, lambda n, k=k: f"{k} {n}")(n) for k, n in m.counts)
        parts.append(t("{player}: {counts}", player=_plain_label(match, game, m.seat), counts=counts) if counts else "")
    shown = [p for p in parts if p]
    return ("; ".join(shown) + ".") if shown else ""


def _state_line(match: MatchRow, game: AnyGame) -> str:
    if game.is_over:
        winners = [_plain_label(match, game, s) for s in game.winners]
        if len(winners) > 1:
            return t("Game over: {winners} share the win.", winners=_both(winners))
        return t("Game over: {winner} wins.", winner=winners[0]) if winners else t("Game over: a draw.")
    return t("Turn {turn}: {player} to move.", turn=game.ply + 1, player=_plain_label(match, game, game.to_move))


_EVENT_WORDS: dict[str, Callable[[Event], str]] = {
    "place": lambda e: t("placed on {cell}", cell=e.cell),
    "move": lambda e: t("moved {src} to {dst}", src=e.src, dst=e.dst),
    "jump": lambda e: t("jumped {src} to {dst}", src=e.src, dst=e.dst),
    "push": lambda e: t("pushed {src} to {dst}", src=e.src or "", dst=e.dst or e.cell),
    "capture": lambda e: t("captured on {cell}", cell=e.cell),
    "swap": lambda e: t("swapped sides"),
    "pass": lambda e: t("passed"),
    "resign": lambda e: t("resigned"),
    "goal": lambda e: t("scored a goal"),
    "shift": lambda e: (
        t("moved {src} to {dst}", src=e.src, dst=e.dst) if e.src != e.dst else t("turned {cell}", cell=e.src)
    ),
    "rotate": lambda e: t("turned {cell}", cell=e.cell),
    "reinforce": lambda e: t("brought a reserve piece onto {cell}", cell=e.cell),
    "guard": lambda e: t("stands on the opponent's centre {cell}: guard your centre", cell=e.cell),
}


def _last_turn_line(match: MatchRow, game: AnyGame, turn: LastTurn | None) -> str:
    """The last move by whom, and what it did: the engine's words (Game.describe_turn), else its events'."""
    if turn is None:
        return t("No move yet.")
    who = _plain_label(match, game, turn.seat) if turn.seat is not None else ""
    described = game.describe_turn(list(turn.events), turn.notation, say=t) if turn.notation else ""
    if not described or described == turn.notation:
        effects = [_EVENT_WORDS[e.kind](e) for e in turn.events if e.kind in _EVENT_WORDS][:8]
        described = ", ".join(effects)
        if turn.notation:
            described = f"{turn.notation}" + (f" ({described})" if described else "")
    described = described.rstrip(".") or t("a turn")
    if who:
        return t("Last move, by {player}: {move}.", player=who, move=described)
    return t("Last move: {move}.", move=described)


def board_description(match: MatchRow, game: AnyGame, turn: LastTurn | None) -> str:
    """A board picture's description (alt text): the match, whose turn or the result, each player's
    scores or material, and the last move and what it did; at most 1,024 characters of the words said
    (French runs longer than English), cut at a word."""
    names = _versus([_plain_label(match, game, s) for s in range(1, game.players + 1)])
    parts = [
        t("{match} board, {players}.", match=title(match), players=names),
        _state_line(match, game),
        _last_turn_line(match, game, turn),
        _material_line(match, game),
    ]
    return fit_words(" ".join(p for p in parts if p), DESCRIPTION_LIMIT)


def picture_description(what: str, match: MatchRow | None = None) -> str:
    """A picture that is not the match's current board (a preview, a hint, a review graph, standings)."""
    about = t("{match}: {picture}", match=title(match), picture=what) if match is not None else what
    return fit_words(about, DESCRIPTION_LIMIT)


# the compass words of a Bump piece's facing, by the digit the notation uses (0 = east, clockwise)
_COMPASS: tuple[Callable[[], str], ...] = (
    lambda: pt("compass point", "E"),
    lambda: pt("compass point", "SE"),
    lambda: pt("compass point", "SW"),
    lambda: pt("compass point", "W"),
    lambda: pt("compass point", "NW"),
    lambda: pt("compass point", "NE"),
)

_GROUP_WORDS: dict[str, Callable[[int], str]] = {
    "disc": lambda n: tn("{count} disc", "{count} discs", n),
    "stone": lambda n: tn("{count} stone", "{count} stones", n),
    "playballer": lambda n: tn("{count} playballer", "{count} playballers", n),
    "piece": lambda n: tn("{count} piece", "{count} pieces", n),
}


def _facing(cell: str, facing: int) -> str:
    direction = f"{_COMPASS[facing]()} ({facing})" if 0 <= facing < len(_COMPASS) else str(facing)
    return t("{cell} facing {direction}", cell=cell, direction=direction)


def _group_line(match: MatchRow, game: AnyGame, group: Group) -> str:
    if group.kind == "ball":
        cell = group.cells[0]
        if group.seat:
            return t("The ball: on {cell}, held by {player}.", cell=cell, player=_plain_label(match, game, group.seat))
        return t("The ball: loose on {cell}.", cell=cell)
    cells = list(group.cells)
    if group.facings:
        cells = [_facing(c, f) for c, f in zip(group.cells, group.facings, strict=True)]
    count = len(cells)
    things = _GROUP_WORDS[group.kind](count)  # every kind describe.py gives has its words
    if group.kind == "stone":
        if not group.where:
            things = t("{stones} in open water", stones=things)
        else:
            islands = tn(
                "island {numbers}", "islands {numbers}", len(group.where), numbers=_both([str(k) for k in group.where])
            )
            things = t("{stones} touching {islands}", stones=things, islands=islands)
    listed = ", ".join(cells) if cells else pt("no cells", "none")
    return t("{player}, {things}: {cells}.", player=_plain_label(match, game, group.seat), things=things, cells=listed)


def board_text(match: MatchRow, game: AnyGame, turn: LastTurn | None) -> list[str]:
    """``/board text``: the position in words for screen readers, as private messages of at most
    2,000 characters each. A large position is split over several messages (at line breaks, a long
    list at its commas) rather than summarised: every piece is named."""
    names = _versus([_plain_label(match, game, s) for s in range(1, game.players + 1)])
    lines = [
        t("{match}, {players}.", match=title(match), players=names),
        _state_line(match, game),
        _last_turn_line(match, game, turn),
        _material_line(match, game),
        t("Position:"),
        *(_group_line(match, game, g) for g in position_groups(game)),
    ]
    return _pack([line for line in lines if line])


def _pack(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines gathered into messages of at most ``limit`` characters; a longer line split at ", "."""
    pieces: list[str] = []
    for line in lines:
        while len(line) > limit:
            cut = line.rfind(", ", 0, limit - 1)
            cut = cut if cut > 0 else limit - 1
            pieces.append(line[: cut + 1])
            line = line[cut + 2 :] if line[cut : cut + 2] == ", " else line[cut + 1 :]
        pieces.append(line)
    messages: list[str] = []
    for piece in pieces:
        if messages and len(messages[-1]) + 1 + len(piece) <= limit:
            messages[-1] += "\n" + piece
        else:
            messages.append(piece)
    return messages


def review_point_picture() -> str:
    return t("A turning point of the review: the position, the move played and the computer's choice.")


def review_graph_picture() -> str:
    return t("The review's graph: each side's chances turn by turn.")


def premove_picture() -> str:
    return t("Your conditional moves drawn on the board.")


def explore_picture() -> str:
    return t("Your exploration board (nothing is played).")


def standings_picture() -> str:
    return t("The standings table.")


_MENTION_OR_TIME = re.compile(r"<@!?\d+>|<t:\d+(?::[a-zA-Z])?>")
_MARKS = re.compile(r"\*\*|__|`|\|\||\\(?=[^\w\s])")


def plain(text: str) -> str:
    """A message's words for alt text: no markdown, no pings (a screen reader reads them as symbols)."""
    text = _MENTION_OR_TIME.sub(lambda m: t("a player") if m.group().startswith("<@") else "", text)
    return " ".join(_MARKS.sub("", text).split())


def described(lead: str, content: str = "", match: MatchRow | None = None) -> str:
    """A picture beside a message that already says it in words: what the picture is, then those words."""
    return picture_description(f"{lead} {plain(content)}".strip(), match)


def preview_description(match: MatchRow, game: AnyGame, turn: LastTurn | None, hint: str = "") -> str:
    """A position after a turn that is not played: /preview, /hint (``hint``: the suggested turn), the turn builder."""
    board = board_description(match, game, turn)
    if hint:
        return fit_words(
            t("Hint: the computer suggests {move}; the board after it, not played. {board}", move=hint, board=board),
            DESCRIPTION_LIMIT,
        )
    return fit_words(t("Preview, not played. {board}", board=board), DESCRIPTION_LIMIT)


def replay_description(match: MatchRow, game: AnyGame) -> str:
    """A GIF replay: how many turns it shows, and where the match stands at its end."""
    replay = tn(
        "an animated replay of the match, {count} turn. At its end: {state}",
        "an animated replay of the match, {count} turns. At its end: {state}",
        game.ply,
        state=_state_line(match, game),
    )
    return picture_description(replay, match)


# -- languages --------------------------------------------------------------------------------------


def language_name(code: str) -> str:
    """A language by its own name ("Français"), as people look for it in a list."""
    return {"en": "English", "fr": "Français"}.get(code, code)


def language_setting(chosen: str | None, spoken: str) -> str:
    """/settings: the language of a person's answers and DMs."""
    if chosen is not None:
        return t(
            "Language: {language} (your choice; `language: My Discord's language` to undo it).",
            language=language_name(chosen),
        )
    return t("Language: {language}, as your Discord is set.", language=language_name(spoken))


def server_language(chosen: str | None, spoken: str) -> str:
    """/config: the language of the server's public posts."""
    if chosen is not None:
        return t("Language of public posts: {language}.", language=language_name(chosen))
    return t("Language of public posts: {language}, the server's preferred locale.", language=language_name(spoken))


REFUSALS["unknown_language"] = lambda f: t(
    "Hexplay does not speak `{language}`; it speaks {known}.",
    language=quoted(str(f["language"]), 20),
    known=", ".join(language_name(code) for code in f["known"]),
)


# -- issue 34 (reliability, round 4): an event set aside ---------------------------------------------
# (one block, for the split of this module into a package: it moves as it stands)

REFUSALS["tournament_paused"] = lambda f: t(
    "Tournament #{tournament_id} is paused: part of its saved record cannot be read, so nothing can be done in "
    "it until the bot's operator repairs it (they have been told; see the log). Its games go on as matches.",
    tournament_id=f["tournament_id"],
)


def tournament_set_aside(tournament_id: int) -> str:
    """A DM to the organizer of an event set aside (once)."""
    return t(
        "Your tournament #{tournament_id} is paused: part of its saved record cannot be read, so no round, "
        "notice or standings come from it until the bot's operator repairs it (they have been told; see the "
        "log). Its games already started go on as matches.",
        tournament_id=tournament_id,
    )
