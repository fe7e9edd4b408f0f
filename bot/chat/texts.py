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

from games import AnyGame, Event
from games import get as get_game
from i18n import N_, number, t, tn

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
    colour = colours[seat - 1] if seat - 1 < len(colours) else f"seat {seat}"
    return f"**{escape(seat_name(row) if row is not None else '?')}** ({colour})"


def duration(seconds: float) -> str:
    hours = seconds / 3600
    if hours >= 48:
        return f"{hours / 24:.0f} days"
    if hours >= 1:
        return f"{hours:.0f} h"
    return f"{max(1, int(seconds // 60))} min"


def waited(match: MatchRow, now: float) -> str:
    """How long the current turn has waited, for digests."""
    return duration(now - (match.turn_started_at or match.created_at))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _plural(count: float, word: str) -> str:
    return f"{word}{'s' * (count != 1)}"


def time_note(match: MatchRow, now: float, prefix: str = "") -> str:
    """The time left on the current turn, for boards and lists (Discord shows it relative)."""
    if match.status != "active" or match.deadline_at is None:
        return ""
    if match.deadline_at <= now:
        return f"{prefix}out of time"
    return f"{prefix}time runs out <t:{int(match.deadline_at)}:R>"


def clock_text(clock: BankClock) -> str:
    """A bank clock as players write it: ``72h+36h max 120h``."""
    return f"{_number(clock.initial / HOUR)}h+{_number(clock.increment / HOUR)}h max {_number(clock.cap / HOUR)}h"


def bank_amount(seconds: float) -> str:
    """Time in a bank, in hours as the clock is written (minutes in the last hour)."""
    if seconds >= HOUR:
        return f"{_number(math.floor(seconds / HOUR * 10) / 10)} h"
    return f"{max(0, int(seconds // 60))} min"


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
            state = "paused: vacation" if until is not None else "running"
            shown.append(f"{escape(seat.name)} {bank_amount(left)} ({state})")
        else:
            shown.append(f"{escape(seat.name)} {bank_amount(seat.bank)}")
    return f"{prefix}banks ({clock_text(match.clock)}): {', '.join(shown)}" if shown else ""


def vacation_note(vacations: list[tuple[str, float]]) -> str:
    """Players of the match on vacation, shown to their opponents."""
    return "; ".join(f"{escape(name)} is on vacation until <t:{int(until)}:f>" for name, until in vacations)


# -- refusals -----------------------------------------------------------------------------------


def _not_your_turn(f: dict[str, Any]) -> str:
    match, game = f["match"], f["game"]
    return f"It is not your turn in {title(match)}: {seat_label(match, game, game.to_move)} is to move."


def _several(f: dict[str, Any]) -> str:
    names = ", ".join(f"#{m.id} {info(m).name}" for m in f["matches"])
    return f"You are in several matches ({names}): use the match option, or type the command in the match's thread."


def _player_count(f: dict[str, Any]) -> str:
    counted = ""
    if f["counted"]:
        invited, computers = f["invited"], f["computers"]
        counted = (
            f" (you, {invited} invited {_plural(invited, 'player')} and {computers} computer "
            f"{_plural(computers, 'seat')})"
        )
    return f"{f['why']}{counted}."


def _too_many(f: dict[str, Any]) -> str:
    count = f["computers"]
    computers_too = f" and {count} computer {_plural(count, 'seat')}" if count else ""
    return f"{f['players']} players{computers_too} do not fit in {f['seats']} seats."


def _lobby_closed(f: dict[str, Any]) -> str:
    match = f["match"]
    return f"{title(match)} {'is over' if match.status == 'finished' else 'has already started'}."


def _offer_pending(f: dict[str, Any]) -> str:
    who = "You have" if f["yours"] else f"<@{f['maker_id']}> has"
    return f"{who} already asked for {OFFER_KINDS[f['kind']]} in {title(f['match'])}; it is waiting for an answer."


def _not_out_of_time(f: dict[str, Any]) -> str:
    left = "" if f["deadline"] is None else f": their time runs out <t:{int(f['deadline'])}:R>"
    return f"{escape(f['name'])} has not run out of time{left}."


def _vacation_allowance(f: dict[str, Any]) -> str:
    left = f["left"]
    return (
        f"You have {left:g} vacation {_plural(left, 'day')} left in the last "
        f"365 days (the allowance is {f['allowance']:g} a year)."
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


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    # finding a match
    "no_match": lambda f: f"There is no match #{f['match_id']}.",
    "no_match_here": lambda f: f"There is no match #{f['match_id']} in this server.",
    "another_matchs_thread": lambda f: (
        f"This is the thread of {title(f['here'])}, but you named {title(f['named'])}: nothing was played. "
        f"Play {title(f['named'])} in its own thread, or leave out `match:` to play {title(f['here'])}."
    ),
    "paused": _paused,
    "not_started": lambda f: f"{title(f['match'])} has not started yet.",
    "over": lambda f: f"{title(f['match'])} is over.",
    "no_match_in_progress": lambda f: "You have no match in progress here. Start one with /play.",
    "several_matches": _several,
    "not_a_player": lambda f: f"You are not a player in {title(f['match'])}.",
    "changed_meanwhile": lambda f: (
        "The position changed at the same moment (another turn or button came "
        "first), so nothing was done: look at the latest board and try again."
    ),
    "disk_full": lambda f: (
        "Nothing was saved: the bot's disk is full. Its operator has been told (see the log); try again later."
    ),
    "storage_down": lambda f: (
        "Your move was **not** stored: the bot's database is not answering right now. Nothing changed; "
        "play it again in a moment."
    ),
    "storage_unknown": lambda f: (
        "The bot's database stopped answering while your move was being stored, so it cannot tell yet whether "
        "it was. Look at the board (/board) in a moment before playing it again."
    ),
    "servers_only": lambda f: "Hexplay matches live in servers: use this command in a server channel.",
    # the lobby
    "option_not_key_value": lambda f: f"Options are written key=value, like side=4; `{quoted(f['text'], 40)}` is not.",
    "time_limit_range": lambda f: f"A time limit is between {f['low']:g} and {f['high']:g} days per move.",
    "game_says": lambda f: fit(f["why"], 300),
    "invite_yourself": lambda f: "You cannot invite yourself; you are already seated.",
    "player_count": _player_count,
    "too_many_players": _too_many,
    "computer_level": lambda f: (
        f"The computer plays at {', '.join(f['levels'][:-1])} or {f['levels'][-1]}, not `{quoted(f['level'], 20)}`."
    ),
    "computer_seats": lambda f: "The computer can take 1 to 5 seats (a match keeps at least one for you).",
    "challenge_limit": lambda f: challenge_refusal(f["rule"], f["names"], f["caps"]),
    "lobby_closed": _lobby_closed,
    "not_invited": lambda f: f"You were not invited to {title(f['match'])}.",
    "already_accepted": lambda f: "You have already accepted.",
    "only_invited_decline": lambda f: "Only an invited player can decline.",
    "already_seated": lambda f: f"You are already seated in {title(f['match'])}.",
    "no_open_seat": lambda f: f"{title(f['match'])} has no open seat.",
    "only_creator_cancels": lambda f: "Only the player who created the match can cancel it.",
    "only_creator_starts": lambda f: "Only the player who created the match can start it.",
    "not_enough_ready": lambda f: f"{f['game']} needs at least {f['needed']} ready players; {f['ready']} so far.",
    "a_bot_cannot_play": lambda f: (
        f"{f['name']} is a bot and cannot play; to play the computer, invite {f['me']} or use the computer option."
    ),
    # playing
    "not_your_turn": _not_your_turn,
    "preview_not_your_turn": lambda f: (
        _not_your_turn(f)[:-1] + ", and a preview shows your own move when it is your turn."
    ),
    "old_button": lambda f: "That button belongs to an older position; use the latest board.",
    "illegal_move": lambda f: (
        f"`{quoted(f['text'], ECHO_LIMIT)}` is not a legal move: {fit(short_echoes(f['why']), 300)}."
    ),
    "already_resigned": lambda f: "You have already resigned from this match.",
    "builder_expired": lambda f: (
        "This turn builder has expired: the match has moved on since it was opened. "
        "Open a new one from the latest board (or /turn)."
    ),
    "builder_says": lambda f: f"Turn builder: {f['why']}.",
    "turn_not_finished": lambda f: f"The turn cannot end yet: {f['why']}.",
    "pick_an_action": lambda f: "Pick an action from the menu.",
    "not_your_confirmation": lambda f: "This confirmation belongs to another player.",
    # looking
    "no_zoom": lambda f: f"{f['game']} boards have no zoom: they are readable whole.",
    "not_a_cell": lambda f: (
        f"`{f['text']}` is not a cell of this board: give a cell name such as `{f['example']}`, or `last`."
    ),
    "replay_drawing": lambda f: f"A replay of {title(f['match'])} is being drawn right now; ask again in a moment.",
    "replay_wait": lambda f: f"One replay every {f['every']:g} s: try again in {math.ceil(f['wait'])} s.",
    # offers
    "you_resigned": lambda f: f"You have resigned from {title(f['match'])}.",
    "no_draws": lambda f: f"{f['game']} cannot be drawn: every game has a winner.",
    "takeback_not_yours": lambda f: (
        "Only the player who made the last turn can ask to take it back, and only before the next turn is played."
    ),
    "offer_pending": _offer_pending,
    "offer_closed": lambda f: "This offer is no longer open: it was answered, or a turn was played since.",
    "own_offer": lambda f: "You made this offer; the other players answer it.",
    "not_asked": lambda f: "Only the other players of this match can answer this offer.",
    "offer_thread_gone": lambda f: "The match's thread is gone; the offer cannot be shown to the other players.",
    # time limits and vacations
    "only_players_claim": lambda f: f"Only a player still in {title(f['match'])} can claim.",
    "claim_out_of_date": lambda f: "That claim is out of date: the turn has moved on since.",
    "claim_own_time": lambda f: "It is your own time that ran out: play your move instead.",
    "not_out_of_time": _not_out_of_time,
    "vacation_length": lambda f: "A vacation lasts from 1 to 60 days.",
    # bank clocks and quiet hours
    "clock_format": lambda f: (
        f"I cannot read the clock `{quoted(f['text'])}`: write it as `72h+36h max 120h` (initial bank, + increment "
        "per turn, max the cap; hours `h` or days `d`), or `off`."
    ),
    "clock_negative": lambda f: f"The clock `{quoted(f['text'])}` has a negative amount: no part of a clock can be.",
    "clock_zero": lambda f: f"The clock `{quoted(f['text'])}` has an empty bank or cap: both must hold some time.",
    "clock_absurd": lambda f: (
        f"The clock `{quoted(f['text'])}` is too long: no part may exceed {f['most'] / DAY:g} days."
    ),
    "clock_too_short": lambda f: (
        f"The clock `{quoted(f['text'])}` starts too short: the bank must hold at least {f['least'] / HOUR:g} hour."
    ),
    "clock_cap_below_bank": lambda f: (
        f"The clock `{quoted(f['text'])}` caps the bank below what it starts with: the cap must be at least the bank."
    ),
    "two_time_controls": lambda f: "Choose days per move or a bank clock, not both.",
    "quiet_zone": lambda f: (
        f"`{quoted(f['zone'])}` is not a time zone I know: give an IANA name such as `Europe/Paris` or "
        "`America/New_York` (or `off`)."
    ),
    "quiet_hours": lambda f: f"I cannot read the hours `{quoted(f['text'])}`: write them as `22:00-08:00`.",
    "quiet_hours_empty": lambda f: f"The quiet hours `{quoted(f['text'])}` start and end at the same time.",
    "quiet_needs_zone": lambda f: "Quiet hours need your time zone: give `quiet_zone` too (e.g. `Europe/Paris`).",
    "on_vacation": lambda f: f"You are already on vacation until <t:{int(f['until'])}:f>.",
    "vacation_allowance": _vacation_allowance,
    # reminders, preferences and challenges
    "reminder_out_of_date": lambda f: "That reminder is out of date: the turn has already moved on.",
    "reminder_delay_range": lambda f: "The reminder delay must be between 1 hour and 14 days (336 hours).",
    "reminder_via": lambda f: "Reminders come by direct message (dm) or by a ping in the match (ping).",
    "challenges_choice": lambda f: f"Challenges come from everyone or nobody, not `{quoted(f['text'], 20)}`.",
    "block_yourself": lambda f: "You cannot block yourself.",
    "too_many_blocks": lambda f: (
        f"You have blocked {f['most']} players, the most Hexplay keeps: unblock one "
        "first, or refuse challenges from everyone with challenges:nobody."
    ),
    "not_blocked": lambda f: f"{escape(f['name'])} is not blocked.",
    "block_a_bot": lambda f: (
        f"{escape(f['name'])} is a bot: bots never challenge anyone, so there is nothing to block."
    ),
    # servers, rematches, the computer
    "config_needs_manage_server": lambda f: (
        "Only members with the Manage Server permission can change Hexplay's "
        "server settings; /config without options shows them."
    ),
    "default_time_limit_range": lambda f: (
        f"The default time limit is 0 (none) or {f['low']:g} to {f['high']:g} days per move."
    ),
    "not_over_yet": lambda f: f"{title(f['match'])} is not over yet.",
    "only_players_rematch": lambda f: f"Only the players of {title(f['match'])} can ask for a rematch.",
    "channel_gone": lambda f: "The match's channel is gone; start a new match with /play.",
    "hint_not_in_play": lambda f: f"{title(f['match'])} is not in play: hints are for a turn of a game going on.",
    "no_hints": lambda f: (
        f"No hints in {title(f['match'])}: hints are for matches against the computer, "
        "or matches created with `hints: True` (every player agreed by joining)."
    ),
    "you_left": lambda f: f"You have left {title(f['match'])}.",
    "hint_unavailable": lambda f: (
        "No hint this time: the computer players did not answer in time (busy, or none is running). "
        "Try /hint again in a moment."
    ),
    "hint_not_your_turn": lambda f: (
        f"A hint is for your own turn: in {title(f['match'])} "
        f"{seat_label(f['match'], f['game'], f['game'].to_move)} is to move."
    ),
    # conditional moves and the analysis board (nothing is stored on any of these)
    "premove_empty": lambda f: "Type a line of turns separated by `;`, e.g. `e5; d4` (if they play e5, you answer d4).",
    "premove_too_long": lambda f: f"A line holds at most {f['limit']} turns; nothing was saved.",
    "premove_your_turn": lambda f: (
        f"It is your turn in {title(f['match'])}: play it with `/move`. Conditional moves start on an opponent's turn."
    ),
    "premove_after_end": lambda f: (
        f"Turn {f['number']} of your line (`{quoted(f['text'])}`) comes after the game would be over; "
        "nothing was saved."
    ),
    "premove_illegal": lambda f: (
        f"Turn {f['number']} of your line, `{quoted(f['text'])}` ({escape(f['mover'])} to move), is not legal: "
        f"{fit(f['why'], 300)}. Nothing was saved."
    ),
    "premove_no_answer": lambda f: (
        "That line holds none of your turns, so there is nothing to answer with: add your answer after theirs, "
        "e.g. `e5; d4`. Nothing was saved."
    ),
    "premove_too_many": lambda f: (
        f"You already have {f['limit']} conditional lines in this match, the most it keeps: clear them with "
        "`/premove clear: True` first. Nothing was saved."
    ),
    "no_analysis": lambda f: (
        f"{title(f['match'])} forbids conditional moves and private analysis (its creator chose so at /play)."
    ),
    "explore_too_long": lambda f: (
        f"Your analysis board already holds {f['limit']} turns, the most it keeps: step back, or start afresh "
        "with `step: new`."
    ),
    "explore_over": lambda f: "The game is over on your analysis board: step back to try another turn.",
    "explore_at_start": lambda f: "Your analysis board is at the match's position already: nothing to step back.",
    "explore_at_end": lambda f: "Your analysis board shows its last turn already: nothing to step forward to.",
    "explore_out_of_date": lambda f: (
        f"{title(f['match'])} has moved on since you copied its position: open a fresh board with `step: new` "
        "to save a line from the position as it is now."
    ),
    # post-game reviews (/review)
    "review_which_match": lambda f: "Which match? Use `/review match:<id>`, or ask in the thread of a finished match.",
    "review_not_finished": lambda f: (
        f"{title(f['match'])} is not finished: a review is only for finished matches, "
        "so the computer never helps anyone during a game."
    ),
    "review_one_at_a_time": lambda f: (
        f"You already wait for the review of match #{f['match_id']}: one review at a time. Ask again when it is posted."
    ),
    "review_queue_full": lambda f: (
        f"{f['waiting']} reviews are waiting to be searched already: try again in a few minutes."
    ),
    "review_no_turns": lambda f: f"{title(f['match'])} ended before any turn was played: there is nothing to review.",
    "review_unavailable": lambda f: (
        f"The review of {title(f['match'])} could not be finished this time (the bot restarted, or the computer "
        "players are busy or not running). Ask again with /review."
    ),
    "review_not_ready": lambda f: f"{title(f['match'])} has no review yet: ask for one with /review.",
    "review_no_turning_points": lambda f: (
        f"No turning points in {title(f['match'])}: no turn lost 5 points of winning chance or more."
    ),
}


def refusal(error: Refusal) -> str:
    """The sentence for a refusal, written for the player who caused it."""
    return REFUSALS[error.reason](error.facts)


def challenge_refusal(rule: ChallengeRefusal, names: dict[int, str], caps: ChallengeCaps) -> str:
    """A refused challenge in words: a display name (never a mention, which would ping the person who said no)."""
    name = escape(names.get(rule.user_id or 0, "That player"))
    if rule.rule == "blocked":
        return f"{name} is not taking challenges from you, so nothing was sent."
    if rule.rule == "nobody":
        return (
            f"{name} is not taking challenges in this server, so nothing was sent. They can still join "
            "matches with open seats."
        )
    if rule.rule == "open_lobbies":
        return (
            f"You already have {caps.open_lobbies} open challenges in this server: wait for answers, or "
            "cancel one with its Cancel button, before making another."
        )
    if rule.rule == "rate":
        # never more than the window: a count stamped ahead of the clock was brought back to now
        wait = min(int(rule.wait) + 1, int(caps.window))
        return f"You can make {caps.per_window} challenges a minute; try again in {wait} s."
    if rule.rule == "same_player":
        return (
            f"You have challenged {name} {caps.same_player} times in the last 24 hours (cancelled challenges "
            f"count), so nothing was sent. Try again in {_later(min(rule.wait, caps.same_player_window))}."
        )
    assert rule.rule == "waiting", rule
    return (
        f"{name} already has {caps.invitations_waiting} challenges waiting for an answer in this server, so "
        "nothing was sent. Try again once they have answered some."
    )


def _later(seconds: float) -> str:
    if seconds >= 3600:
        return f"{math.ceil(seconds / 3600)} h"
    if seconds >= 60:
        return f"{math.ceil(seconds / 60)} min"
    return f"{max(1, math.ceil(seconds))} s"


# Not the player's doing: what they are told instead of a refusal.
def something_went_wrong() -> str:
    return (
        "Something went wrong on our side. Look at the match (/board) before trying again: "
        "your action may or may not have been recorded."
    )


# A write failed for want of disk space somewhere after the start of a request (the change itself, if refused,
# says "Nothing was saved"): what came before it may be stored, so the player is sent to look.
def disk_full_after() -> str:
    return (
        "The bot's disk is full, so part of what you asked may not have been saved (its operator has been "
        "told). Look at the match (/board) before trying again."
    )


def restarting() -> str:
    return "Hexplay is restarting, so nothing was done: try again in a minute."


def storage_down_after() -> str:
    return (
        "The bot's database is not answering right now, so part of what you asked may not have been "
        "done. Look at the match (/board) before trying again."
    )


def cannot_use_here() -> str:
    return "You cannot use this command here."


def quarantine_notice(match: MatchRow | int) -> str:
    match_id = match if isinstance(match, int) else match.id
    reason = "" if isinstance(match, int) else match.quarantine or ""
    why = (
        "its saved move list does not lead to its saved position"
        if "move log" in reason or "differs" in reason
        else "part of its saved record cannot be read"
    )
    return (
        f"Match #{match_id} is paused: {why}, so nothing can be played or shown in it until the bot's "
        "operator repairs it (they have been told; see the log). Your other matches are not affected."
    )


# -- what happened: announcements -----------------------------------------------------------------


def _effects(events: Sequence[Event]) -> str:
    pushes = sum(1 for e in events if e.kind == "push")
    captures = sum(1 for e in events if e.kind == "capture")
    parts = []
    if pushes:
        parts.append(f"{pushes} {_plural(pushes, 'disc')} pushed")
    if captures:
        parts.append(f"{captures} captured")
    if any(e.kind == "release" for e in events):
        parts.append("a release: every opponent must release next turn")
    if any(e.kind == "swap" for e in events):
        parts.append("the players swapped sides")
    return f" — {', '.join(parts)}" if parts else ""


def turn_line(label: str, game: AnyGame | None, notation: str, events: Sequence[Event]) -> str:
    """A played turn, in the engine's words when it has them (Game.describe_turn: Bump's chains,
    "alice: 03,05-4 — bumps 06 to 07, which bumps 17 (captured against the wall)."), else counted."""
    described = game.describe_turn(list(events), notation) if game is not None else ""
    if described and described != notation:
        return f"{label}: {described}" + ("" if described.endswith(("!", ".")) else ".")
    return f"{label} played `{notation}`{_effects(events)}."


def result_line(match: MatchRow, game: AnyGame) -> str:
    winners = [seat_label(match, game, s) for s in game.winners]
    scores = game.scores()
    score_text = ""
    if scores is not None:  # each score named by its player, so nobody guesses whose is whose
        named = [
            f"{escape(player_row(match, game, seat).name)} {_number(value)}"
            for seat, value in enumerate(scores, start=1)
        ]
        score_text = " (" + ", ".join(named) + ")"
    if len(winners) > 1:
        return f"Game over: {' and '.join(winners)} share the win{score_text}."
    if winners:
        return f"Game over: {winners[0]} wins{score_text}."
    return f"Game over: a draw{score_text}."


def status_line(match: MatchRow, game: AnyGame) -> str:
    if game.is_over:
        return f"{title(match)}: {result_line(match, game)}"
    assert game.to_move is not None
    return f"{title(match)}, turn {game.ply + 1}: {seat_label(match, game, game.to_move)} to move."


def change_line(match: MatchRow, game: AnyGame | None, change: Change) -> str:
    """One change, as the announcement says it."""
    kind = change.kind
    if kind == "accepted":
        return f"<@{change.user_id}> accepted."
    if kind == "declined":
        if change.seat_open:
            return f"<@{change.user_id}> declined; the seat is open."
        return f"<@{change.user_id}> declined: {title(match)} is cancelled."
    if kind == "joined":
        return f"<@{change.user_id}> joined."
    if kind == "cancelled":
        return f"{title(match)} was cancelled."
    if kind == "status":
        assert game is not None
        return status_line(match, game)
    if kind == "started":
        assert game is not None and game.to_move is not None
        return f"{title(match)} begins. {seat_label(match, game, game.to_move)} to move."
    if kind == "draw":
        return "The players agreed a draw."
    assert change.seat is not None
    label = held_label(match, change.holder_id, change.seat)
    if kind == "resign":
        return f"{label} resigned."
    if kind == "timeout":
        claimed = f" (claimed by <@{change.user_id}>)" if change.user_id is not None else ""
        return f"{label} ran out of time and is out of the game{claimed}."
    if kind == "takeback":
        if change.notation:
            return f"By agreement, {label}'s turn `{change.notation}` was taken back."
        return f"By agreement, {label}'s last turn was taken back."
    played = turn_line(label, game, change.notation, change.events)
    return f"{played} (a conditional move, played at once)" if change.conditional else played


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
        return f"{text} {mention(match, mover)} is thinking…"
    return f"{text} <@{mover}>, your move{time_note(match, now, ' — ')}{bank_note(match, game, now, '; ')}."


def ending_dm(outcome: Outcome, now: float) -> str:
    """The direct message a player gets when a game ends."""
    return f"**{title(outcome.match)}** has ended. {line(outcome, now)}"


def begins(match: MatchRow, game: AnyGame, now: float) -> str:
    """The first board's text: who plays, who is to move, how to play."""
    mentions = " ".join(mention(match, s.user_id) for s in sorted(match.seats, key=lambda s: s.seat))
    status = status_line(match, game) + time_note(match, now, " — ") + bank_note(match, game, now, "; ")
    return f"**{title(match)}** begins: {mentions}\n{status}\nPlay with `/move` here; `/rules` explains the game."


def thread_name(match: MatchRow) -> str:
    return f"{title(match)}: {' vs '.join(s.name for s in match.seats)}"[:100]


def starter(match: MatchRow) -> str:
    """The short post a match's thread opens on, when there is no lobby message to open it on."""
    return f"**{title(match)}**: {' vs '.join(escape(s.name) for s in match.seats)}"


def posted_after_restart() -> str:
    return "(Posted after a restart.) "


def delayed() -> str:
    return "(Delayed by a Discord problem.) "


def after_commit(outcome: Outcome, now: float, reason: str) -> str:
    """The truth for a mover whose change was stored but whose board could not be shown yet."""
    return (
        f"Played and saved: {line(outcome, now)}\nThe board could not be posted in the match yet ({reason}); "
        "it will be posted there as soon as Discord allows. Do not play the turn again."
    )


def discord_refused() -> str:
    return "Discord refused the message"


def discord_slow() -> str:
    return "Discord is slow to accept it"


def done_elsewhere(outcome: Outcome, now: float, channel_id: int, note: str) -> str:
    text = f"Done: {line(outcome, now)} (see <#{channel_id}>)"
    return text + (f"\n{note}" if note else "")


def lapsed(content: str) -> str:
    return f"{content}\n(Lapsed: a turn was played first.)"


# Why a board went elsewhere than the match's thread (said to the players, and in the log).
def thread_locked() -> str:
    return "the match's thread is locked"


def thread_deleted() -> str:
    return "the match's thread was deleted"


def channel_gone() -> str:
    return "the match's channel is gone"


def thread_refuses(why: str) -> str:
    return f"the match's thread refuses posts ({why})"


def channel_refused(why: str) -> str:
    return f"the match's channel refused it ({why})"


def and_channel_gone(problem: str) -> str:
    return f"{problem} and its channel is gone too"


def and_channel_refused(problem: str, why: str) -> str:
    return f"{problem}, and the channel refused it too ({why})"


def posted_in_channel(problem: str, channel_id: int, new_thread_id: int | None, thread_tried: bool) -> str:
    note = f"({problem[0].upper()}{problem[1:]}, so the board was posted in <#{channel_id}>"
    if new_thread_id is not None:
        note += f" with a new thread for the match: <#{new_thread_id}>"
    elif thread_tried:
        note += "; play on there"
    return note + ".)"


def discord_failure(kind: str, status: int = 0, text: str = "") -> str:
    """Why Discord did not take a post, for players and the log."""
    return (
        {
            "timeout": "Discord did not answer in time",
            "locked": "it is locked",
            "archived": "it is archived and locked",
            "server": f"Discord answered {status}",
            "unreachable": "Discord could not be reached",
        }.get(kind)
        or text
        or f"Discord answered {status}"
    )


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
        # TRANSLATORS: the English says "moves" even for one; translate both forms properly.
        cut = tn("… {count} earlier moves", "… {count} earlier moves", len(lines) - len(kept))
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


def _versus(names: Sequence[str]) -> str:
    """``alice vs bob vs carol``: the players of a match, in seat order."""
    shown = names[0] if names else ""
    for name in names[1:]:
        shown = t("{first} vs {second}", first=shown, second=name)
    return shown


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
        # TRANSLATORS: the English says "actions" even for one; translate both forms properly.
        content += " " + tn(
            "{count} more actions are not in the menus: type them with /move.",
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
        left=_hours(job.left),
    )


def _hours(seconds: float) -> str:
    if seconds >= 48 * HOUR:
        return tn("{count} day", "{count} days", round(seconds / DAY))
    if seconds >= HOUR:
        return t("{hours} h", hours=number(round(seconds / HOUR)))
    return t("{minutes} min", minutes=number(max(1, int(seconds // 60))))


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
        # TRANSLATORS: the English says "days" even for one; translate both forms properly.
        days = tn("{count} days per move", "{count} days per move", settings.days_per_move)
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
    kind = "round robin" if tournament.format == "round-robin" else "Swiss"
    return f"{get_game(tournament.game).name} {kind} tournament #{tournament.id}"


def _tournament_refusal(text: str) -> Callable[[dict[str, Any]], str]:
    return lambda f: text.format(title=tournament_title(f["tournament"])) if "tournament" in f else text


REFUSALS.update(
    {
        "no_tournament": lambda f: f"There is no tournament #{f['tournament_id']} in this server.",
        "no_tournaments": lambda f: "There is no tournament in this server. Create one with /tournament create.",
        "which_tournament": lambda f: (
            "This server has several tournaments: say which with the `tournament` option ("
            + ", ".join(f"#{i}" for i in f["ids"][:20])
            + ")."
        ),
        "tournament_format": lambda f: f"A tournament is {' or '.join(f['formats'])}.",
        "tournament_tables_swiss": lambda f: (
            f"{f['game']} is played at tables of three or four, which a round robin cannot schedule: "
            "choose Swiss (tables of players with close scores each round)."
        ),
        "tournament_rounds": lambda f: f"A Swiss tournament has {f['low']} to {f['high']} rounds.",
        "tournament_size": lambda f: f"A tournament takes {f['low']} to {f['high']} players.",
        "tournament_start_hours": lambda f: (
            f"A tournament starts by itself at most {f['high'] // 24} days ahead; leave `start_in_hours` out to "
            "start it yourself with /tournament start."
        ),
        "tournament_limit": lambda f: (
            f"You already run {f['most']} tournaments in this server that are open or under way: finish or "
            "cancel one before creating another."
        ),
        "tournament_already_joined": _tournament_refusal("You have already joined {title}."),
        "tournament_full": _tournament_refusal("{title} is full."),
        "tournament_started": _tournament_refusal("{title} has already started: it takes no more players."),
        "tournament_over": _tournament_refusal("{title} is over."),
        "tournament_not_joined": _tournament_refusal("You are not a player of {title}."),
        "tournament_leave_started": _tournament_refusal(
            "{title} has started: use /tournament withdraw to leave it (your remaining games are forfeited)."
        ),
        "tournament_withdraw_before_start": _tournament_refusal(
            "{title} has not started: use /tournament leave (or its Leave button) instead."
        ),
        "tournament_already_withdrawn": _tournament_refusal("You have already withdrawn from {title}."),
        "tournament_only_organizer_starts": _tournament_refusal("Only the organizer can start {title}."),
        "tournament_only_organizer_cancels": _tournament_refusal(
            "Only the organizer or a server manager can cancel {title}."
        ),
        "tournament_too_few": lambda f: (
            f"{tournament_title(f['tournament'])} needs at least {f['needed']} players to start; "
            f"{f['joined']} {'has' if f['joined'] == 1 else 'have'} joined."
        ),
    }
)


def tournament_announcement(tournament: TournamentRow, now: float) -> str:
    """The event's public message: what it is, when it starts, who has joined (kept current as it fills)."""
    info_ = get_game(tournament.game)
    rounds = (
        f"{tournament.rounds} {_plural(tournament.rounds, 'round')}"
        if tournament.format == "swiss"
        else "everyone plays everyone (divisions of up to ten above ten players), all games at once"
    )
    if tournament.format == "swiss" and info_.max_players > 2:
        rounds += ", tables of three or four, points by placement"
    clock = (
        "no time limit" if tournament.days_per_move is None else f"{_number(tournament.days_per_move)} days per move"
    )
    lines = [
        f"🏆 **{tournament_title(tournament)}** organized by <@{tournament.organizer_id}>",
        f"{rounds}; {clock}; {'rated' if tournament.rated else 'not rated'}.",
    ]
    if tournament.status == "open":
        if tournament.starts_at is not None:
            lines.append(f"Starts <t:{int(tournament.starts_at)}:R>.")
        else:
            lines.append("Starts when the organizer runs `/tournament start`.")
    else:
        lines.append(
            {
                "running": "Under way: `/tournament standings` shows the table.",
                "finished": "Finished: `/tournament standings` shows the final table.",
                "cancelled": "Cancelled.",
            }[tournament.status]
        )
    names = ", ".join(escape(p.name) for p in tournament.players) or "nobody yet"
    lines.append(f"Players ({len(tournament.players)}/{tournament.max_players}): {names}")
    return _bounded("\n".join(lines))


def tournament_joined(tournament: TournamentRow, user_id: int, joined: bool) -> str:
    verb = "joined" if joined else "left"
    return f"You {verb} {tournament_title(tournament)} ({len(tournament.players)}/{tournament.max_players} players)."


def tournament_round(tournament: TournamentRow, round_number: int, tables: list[MatchRow], byes: list[int]) -> str:
    """A round's pairings, in the event's channel (each match's thread pings its own players)."""
    names = {p.user_id: escape(p.name) for p in tournament.players}
    if tournament.format == "swiss":
        head = f"**{tournament_title(tournament)}**: round {round_number} of {tournament.rounds} has started."
    else:
        head = f"**{tournament_title(tournament)}** has started: all {len(tables)} games at once."
    lines = [head]
    for match in tables:
        players = " vs ".join(names.get(s.user_id, escape(s.name)) for s in sorted(match.seats, key=lambda s: s.seat))
        where = f" <#{match.thread_id}>" if match.thread_id else ""
        lines.append(f"• {title(match)}: {players}{where}")
    lines += [f"• {names.get(user_id, '?')} has the bye (1 point)." for user_id in byes]
    return _bounded("\n".join(lines))


def tournament_started(tournament: TournamentRow) -> str:
    return (
        f"**{tournament_title(tournament)}** has started with {len(tournament.players)} players: each game opens "
        "in its own thread, its players pinged there."
    )


def tournament_called_off(tournament: TournamentRow) -> str:
    return f"{tournament_title(tournament)} was called off: too few players had joined when it was due to start."


def tournament_withdrawn(tournament: TournamentRow, user_ids: list[int], inactive: bool) -> str:
    names = ", ".join(escape(p.name) for p in tournament.players if p.user_id in user_ids)
    why = " (lost on time and no turn played for 30 days)" if inactive else ""
    return f"{names} withdrew from {tournament_title(tournament)}{why}: remaining games are forfeited."


def you_withdrew(tournament: TournamentRow, forfeited: int) -> str:
    games = f"; {forfeited} {_plural(forfeited, 'game')} forfeited" if forfeited else ""
    return f"You withdrew from {tournament_title(tournament)}{games}. Your played games stand."


def tournament_cancelled(tournament: TournamentRow, user_id: int) -> str:
    return f"<@{user_id}> cancelled {tournament_title(tournament)}. Games already under way go on as ordinary matches."


def _points(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def standings_rows(table: Standings) -> tuple[list[str], list[list[str]], list[bool]]:
    """The standings as table cells (headers, rows, withdrawn), for the picture."""
    short = {"Buchholz": "BH", "Sonneborn-Berger": "SB", "head-to-head": "H2H", "wins": "W"}
    headers = ["#", "Player", "Pts", *(short[name] for name in table.tiebreaks)]
    rows = []
    for row in table.rows:
        name = row.name + (" (withdrawn)" if row.withdrawn else "")
        if len({r.division for r in table.rows}) > 1:
            name = f"D{row.division} · {name}"
        rows.append([str(row.place), name, _points(row.points), *(_points(t) for t in row.tiebreaks)])
    return headers, rows, [row.withdrawn for row in table.rows]


def standings_title(table: Standings) -> tuple[str, str]:
    """(title, subtitle) of the standings picture."""
    tournament = table.tournament
    if tournament.status == "finished":
        stage = "Final standings"
    elif tournament.format == "swiss":
        stage = f"Round {tournament.round} of {tournament.rounds}"
    else:
        stage = f"{table.games_left} {_plural(table.games_left, 'game')} in play"
    return tournament_title(tournament), f"{stage} · ties: {', then '.join(table.tiebreaks)}"


def standings_text(table: Standings) -> str:
    """The standings as text (the picture's words, for screen readers and search)."""
    title_, subtitle = standings_title(table)
    lines = [f"**{title_}** — {subtitle}"]
    divisions = len({r.division for r in table.rows}) > 1
    for row in table.rows:
        breaks = ", ".join(f"{name} {_points(t)}" for name, t in zip(table.tiebreaks, row.tiebreaks, strict=True))
        where = f"D{row.division} " if divisions else ""
        gone = " (withdrawn)" if row.withdrawn else ""
        pts = "pt" if row.points == 1 else "pts"
        lines.append(f"{where}{row.place}. {escape(row.name)}{gone} — {_points(row.points)} {pts} ({breaks})")
    if table.tournament.status == "running" and table.games_left:
        which = " of this round" if table.tournament.format == "swiss" else ""
        lines.append(f"{table.games_left} {_plural(table.games_left, 'game')}{which} still in play.")
    return _bounded("\n".join(lines))


def podium(table: Standings) -> str:
    """The final announcement: the first three (of each division), pinged."""
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = [f"🏆 **{tournament_title(table.tournament)}** is over!"]
    divisions = sorted({r.division for r in table.rows})
    for division in divisions:
        top = [r for r in table.rows if r.division == division and r.place <= 3 and not r.withdrawn]
        label = f"Division {division}: " if len(divisions) > 1 else ""
        podium_ = ", ".join(f"{medals.get(r.place, '')} <@{r.user_id}> ({_points(r.points)})" for r in top)
        lines.append(f"{label}{podium_}")
    lines.append("Final standings below; ties broken by " + ", then ".join(table.tiebreaks) + ".")
    return _bounded("\n".join(lines))


# -- post-game reviews (/review) -------------------------------------------------------------------

REVIEW_THRESHOLDS = (
    "Inaccuracy, mistake, blunder: a turn that lost 5, 10 or 15 points of the mover's winning chance "
    "(Lichess's thresholds; the chances are the computer's search, not a formula)."
)
REVIEW_LABELS = {"blunder": "blunder ??", "mistake": "mistake ?", "inaccuracy": "inaccuracy ?!"}


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def review_progress(match: MatchRow, done: int, total: int, ahead: int) -> str:
    """The review's message while it is searched (edited as it goes)."""
    if ahead > 0:
        return (
            f"Review of {title(match)}: waiting, {_ordinal(ahead + 1)} in line "
            f"({ahead} review{'s' if ahead != 1 else ''} before it)."
        )
    filled = round(10 * done / total) if total else 0
    return (
        f"Reviewing {title(match)}: the computer searches every position, {done}/{total} done "
        f"`{'█' * filled}{'░' * (10 - filled)}`"
    )


def review_turn_line(review: Review, turn: Any) -> str:
    """One turn of a review: who played what, what the computer preferred, and the drop."""
    name = escape(review.names[turn.player - 1]) if turn.player <= len(review.names) else f"Player {turn.player}"
    better = f", the computer preferred `{turn.best}`" if turn.best and turn.best != turn.played else ""
    label = REVIEW_LABELS.get(turn.label or "", "")
    named = f", {label}" if label else ""
    return (
        f"Turn {turn.index + 1}: **{name}** played `{turn.played}`{better} — winning chance "
        f"{100 * turn.before:.0f}% → {100 * turn.after:.0f}% (−{100 * turn.drop:.0f} points{named})"
    )


def review_summary(review: Review) -> str:
    """The review's message: accuracy per player, the biggest mistakes, the thresholds."""
    result = review.result
    lines = [f"**Review of {title(review.match)}**"]
    for player, name in enumerate(review.names, start=1):
        own = [t for t in result.turns if t.player == player]
        accuracy = result.accuracy.get(player)
        counts = {label: sum(t.label == label for t in own) for label in ("inaccuracy", "mistake", "blunder")}
        figure = f"accuracy {accuracy:.0f}%" if accuracy is not None else "no turns"
        tally = ", ".join(
            f"{counts[label]} {label if counts[label] == 1 else plural}"
            for label, plural in (("inaccuracy", "inaccuracies"), ("mistake", "mistakes"), ("blunder", "blunders"))
        )
        lines.append(f"**{escape(name)}**: {figure} · {tally}")
    if result.turning_points:
        lines.append("Biggest mistakes (the turning points, marked on the graph):")
        lines += [review_turn_line(review, result.turns[i]) for i in result.turning_points]
    else:
        lines.append("No turn lost 5 points of winning chance or more.")
    lines.append(f"-# {REVIEW_THRESHOLDS} Accuracy: Lichess's formula, on those chances.")
    return fit("\n".join(lines), 2000)


def review_point(point: TurningPoint) -> str:
    """A turning point shown over its board."""
    count = len(point.review.result.turning_points)
    return fit(
        f"Turning point {point.index + 1}/{count} of {title(point.review.match)}\n"
        + review_turn_line(point.review, point.turn),
        2000,
    )


def review_legend(review: Review, turn: Any) -> tuple[str, str]:
    """The overlay's two colours in words: the turn played (red) and the computer's (green)."""
    name = review.names[turn.player - 1] if turn.player <= len(review.names) else f"Player {turn.player}"
    best = turn.best if turn.best and turn.best != turn.played else "the same"
    return (f"red: {name} played {turn.played}", f"green: the computer: {best}")


def review_first_point() -> str:
    return "Turning points"


REVIEW_PREVIOUS, REVIEW_NEXT = "◀ Previous", "Next ▶"


# -- boards in words: a picture's description (alt text) and /board text ---------------------------

DESCRIPTION_LIMIT = 1024  # Discord's limit on an attachment's description


def _plain_label(match: MatchRow, game: AnyGame, seat: int | None) -> str:
    """``alice (Red)`` without markdown: alt text and screen readers read it as it is."""
    if seat is None:
        return "nobody"
    colours = info(match).seat_names
    colour = colours[seat - 1] if seat - 1 < len(colours) else f"seat {seat}"
    row = match.user_of(game.player_of_seat(seat))
    return f"{seat_name(row) if row is not None else '?'} ({colour})"


_MATERIAL_WORDS: dict[str, Callable[[int], str]] = {
    "score": lambda n: f"score {n}",
    "hand": lambda n: f"{n} in hand",
    "pool": lambda n: f"{n} in the pool",
    "stones": lambda n: f"{n} {_plural(n, 'stone')}",
    "goals": lambda n: f"{n} {_plural(n, 'goal')}",
    "playballers": lambda n: f"{n} {_plural(n, 'playballer')}",
    "on board": lambda n: f"{n} on the board",
    "captured": lambda n: f"{n} captured",
    "reserves": lambda n: f"{n} in reserve",
}


def _material_line(match: MatchRow, game: AnyGame) -> str:
    parts = []
    for m in material(game):
        counts = ", ".join(_MATERIAL_WORDS.get(k, lambda n, k=k: f"{k} {n}")(n) for k, n in m.counts)
        parts.append(f"{_plain_label(match, game, m.seat)}: {counts}" if counts else "")
    shown = [p for p in parts if p]
    return ("; ".join(shown) + ".") if shown else ""


def _state_line(match: MatchRow, game: AnyGame) -> str:
    if game.is_over:
        winners = [_plain_label(match, game, s) for s in game.winners]
        if len(winners) > 1:
            return f"Game over: {' and '.join(winners)} share the win."
        return f"Game over: {winners[0]} wins." if winners else "Game over: a draw."
    return f"Turn {game.ply + 1}: {_plain_label(match, game, game.to_move)} to move."


_EVENT_WORDS: dict[str, Callable[[Event], str]] = {
    "place": lambda e: f"placed on {e.cell}",
    "move": lambda e: f"moved {e.src} to {e.dst}",
    "jump": lambda e: f"jumped {e.src} to {e.dst}",
    "push": lambda e: f"pushed {e.src or ''} to {e.dst or e.cell}",
    "capture": lambda e: f"captured on {e.cell}",
    "swap": lambda e: "swapped sides",
    "pass": lambda e: "passed",
    "resign": lambda e: "resigned",
    "goal": lambda e: "scored a goal",
    "shift": lambda e: f"moved {e.src} to {e.dst}" if e.src != e.dst else f"turned {e.src}",
    "rotate": lambda e: f"turned {e.cell}",
    "reinforce": lambda e: f"brought a reserve piece onto {e.cell}",
    "guard": lambda e: f"stands on the opponent's centre {e.cell}: guard your centre",
}


def _last_turn_line(match: MatchRow, game: AnyGame, turn: LastTurn | None) -> str:
    """The last move by whom, and what it did: the engine's words (Game.describe_turn), else its events'."""
    if turn is None:
        return "No move yet."
    who = _plain_label(match, game, turn.seat) if turn.seat is not None else ""
    described = game.describe_turn(list(turn.events), turn.notation) if turn.notation else ""
    if not described or described == turn.notation:
        effects = [_EVENT_WORDS[e.kind](e) for e in turn.events if e.kind in _EVENT_WORDS][:8]
        described = ", ".join(effects)
        if turn.notation:
            described = f"{turn.notation}" + (f" ({described})" if described else "")
    described = described.rstrip(".") or "a turn"
    return f"Last move, by {who}: {described}." if who else f"Last move: {described}."


def board_description(match: MatchRow, game: AnyGame, turn: LastTurn | None) -> str:
    """A board picture's description (alt text): the match, whose turn or the result, each player's
    scores or material, and the last move and what it did; at most 1,024 characters, cut at a word."""
    names = " vs ".join(_plain_label(match, game, s) for s in range(1, game.players + 1))
    parts = [
        f"{title(match)} board, {names}.",
        _state_line(match, game),
        _last_turn_line(match, game, turn),
        _material_line(match, game),
    ]
    return fit_words(" ".join(p for p in parts if p), DESCRIPTION_LIMIT)


def picture_description(what: str, match: MatchRow | None = None) -> str:
    """A picture that is not the match's current board (a preview, a hint, a review graph, standings)."""
    about = f"{title(match)}: " if match is not None else ""
    return fit_words(about + what, DESCRIPTION_LIMIT)


def _group_line(match: MatchRow, game: AnyGame, group: Group) -> str:
    if group.kind == "ball":
        cell = group.cells[0]
        return (
            f"The ball: on {cell}, held by {_plain_label(match, game, group.seat)}."
            if group.seat
            else (f"The ball: loose on {cell}.")
        )
    cells = list(group.cells)
    if group.facings:
        cells = [f"{c} facing {f}" for c, f in zip(group.cells, group.facings, strict=True)]
    kind = _plural(len(cells), group.kind)
    if group.kind == "stone":
        islands = group.where
        if not islands:
            where = "in open water"
        else:
            where = f"touching {_plural(len(islands), 'island')} " + " and ".join(str(k) for k in islands)
        kind = f"{kind} {where}"
    listed = ", ".join(cells) if cells else "none"
    return f"{_plain_label(match, game, group.seat)}, {len(cells)} {kind}: {listed}."


def board_text(match: MatchRow, game: AnyGame, turn: LastTurn | None) -> list[str]:
    """``/board text``: the position in words for screen readers, as private messages of at most
    2,000 characters each. A large position is split over several messages (at line breaks, a long
    list at its commas) rather than summarised: every piece is named."""
    names = " vs ".join(_plain_label(match, game, s) for s in range(1, game.players + 1))
    lines = [
        f"{title(match)}, {names}.",
        _state_line(match, game),
        _last_turn_line(match, game, turn),
        _material_line(match, game),
        "Position:",
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
    return "A turning point of the review: the position, the move played and the computer's choice."


def review_graph_picture() -> str:
    return "The review's graph: each side's chances turn by turn."


def premove_picture() -> str:
    return "Your conditional moves drawn on the board."


def explore_picture() -> str:
    return "Your exploration board (nothing is played)."


def standings_picture() -> str:
    return "The standings table."


_MENTION_OR_TIME = re.compile(r"<@!?\d+>|<t:\d+(?::[a-zA-Z])?>")
_MARKS = re.compile(r"\*\*|__|`|\|\||\\(?=[^\w\s])")


def plain(text: str) -> str:
    """A message's words for alt text: no markdown, no pings (a screen reader reads them as symbols)."""
    text = _MENTION_OR_TIME.sub(lambda m: "a player" if m.group().startswith("<@") else "", text)
    return " ".join(_MARKS.sub("", text).split())


def described(lead: str, content: str = "", match: MatchRow | None = None) -> str:
    """A picture beside a message that already says it in words: what the picture is, then those words."""
    return picture_description(f"{lead} {plain(content)}".strip(), match)


def preview_description(match: MatchRow, game: AnyGame, turn: LastTurn | None, hint: str = "") -> str:
    """A position after a turn that is not played: /preview, /hint (``hint``: the suggested turn), the turn builder."""
    lead = f"Hint: the computer suggests {hint}; the board after it, not played." if hint else "Preview, not played."
    return fit_words(f"{lead} {board_description(match, game, turn)}", DESCRIPTION_LIMIT)


def replay_description(match: MatchRow, game: AnyGame) -> str:
    """A GIF replay: how many turns it shows, and where the match stands at its end."""
    turns = game.ply
    return picture_description(
        f"an animated replay of the match, {turns} {_plural(turns, 'turn')}. At its end: {_state_line(match, game)}",
        match,
    )
