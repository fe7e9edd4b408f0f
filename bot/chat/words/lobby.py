"""``/play`` and its lobby: the lobby's message (its terms, its seats, who may start), invitations and
rematches, and the refusals of creating, joining, accepting or starting a match (a challenge refused by
someone's limits names them, never pings them)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from games import get as get_game
from i18n import number, pt, t, tn

from ...domain.model import ChallengeCaps, ChallengeRefusal, MatchRow
from ...domain.seats import title
from .markup import escape, fit, quoted
from .shared import bank_clock_text, engine_words, mention, semicolon


def lobby_text(match: MatchRow, can_start_early: bool) -> str:
    options = ", ".join(f"{k}={v}" for k, v in match.options.items())
    terms = [options] if options else []
    if match.days_per_move:
        terms.append(tn("{count} day per move", "{count} days per move", match.days_per_move))
    if match.clock is not None:
        terms.append(t("bank clock {clock}", clock=bank_clock_text(match.clock)))
    if match.has_computer:
        terms.append(t("not rated: the computer plays"))
    elif not match.rated:
        terms.append(t("unrated"))
    if match.hints:
        terms.append(t("hints allowed: joining agrees to /hint for everyone"))
    # TRANSLATORS: a lobby's first line; the match's terms follow in parentheses.
    head = tn("**{title}** — {count} seat", "**{title}** — {count} seats", match.players, title=title(match))
    lines = [head + (f" ({semicolon().join(terms)})" if terms else "")]
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


# -- refusals --------------------------------------------------------------------------------------


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


def _computer_level(f: dict[str, Any]) -> str:
    levels = [pt("choice", level) for level in f["levels"]]  # the names /play shows for its level choices
    return t(
        "The computer plays at {levels} or {last}, not `{level}`.",
        levels=", ".join(levels[:-1]),
        last=levels[-1],
        level=quoted(f["level"], 20),
    )


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


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
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
    "not_over_yet": lambda f: t("{match} is not over yet.", match=title(f["match"])),
    "only_players_rematch": lambda f: t("Only the players of {match} can ask for a rematch.", match=title(f["match"])),
    "channel_gone": lambda f: t("The match's channel is gone; start a new match with /play."),
}
