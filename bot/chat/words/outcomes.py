"""A stored change announced: each change of an :class:`Outcome` (accepted, joined, a turn and what it did,
a resignation, a time-out, a takeback, a draw), the result with its scores, who is to move and how long they
have; the first board's text, and the direct message at a game's end."""

from __future__ import annotations

from collections.abc import Sequence

from games import AnyGame, Event
from i18n import number, t, tn

from ...domain.model import MatchRow
from ...domain.outcome import Change, Outcome
from ...domain.seats import player_row, title, user_to_move
from .markup import escape
from .shared import bank_note, held_label, joined_and, mention, seat_label, semicolon, time_note


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


def turn_line(label: str, game: AnyGame | None, notation: str, events: Sequence[Event], played: bool = True) -> str:
    """A turn, in the engine's words when it has them (Game.describe_turn: Bump's chains,
    "alice: 03,05-4 — bumps 06 to 07, which bumps 17 (captured against the wall)."), else counted. A turn
    not ``played`` (a preview, a hint) is said as one that would be: never "played" for a turn nobody made."""
    described = game.describe_turn(list(events), notation, say=t) if game is not None else ""
    if described and described != notation:
        # TRANSLATORS: a turn in the engine's words after who made it: "alice: 03,05-4 — bumps 06 to 07"
        said = t("{player}: {turn}", player=label, turn=described)
        return said + ("" if described.endswith(("!", ".")) else ".")
    effects = _effects(events)
    if not played:
        # TRANSLATORS: a turn previewed, not played; {effects} as in "{player} played `{notation}`{effects}."
        return t("{player} would play `{notation}`{effects}.", player=label, notation=notation, effects=effects)
    # TRANSLATORS: {effects} is empty or " — 2 discs pushed, 1 captured" (the turn's effects, listed)
    return t("{player} played `{notation}`{effects}.", player=label, notation=notation, effects=effects)


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
        return t("Game over: {winners} share the win{scores}.", winners=joined_and(winners), scores=score_text)
    if winners:
        return t("Game over: {winner} wins{scores}.", winner=winners[0], scores=score_text)
    return t("Game over: a draw{scores}.", scores=score_text)


def status_line(match: MatchRow, game: AnyGame) -> str:
    if game.is_over:
        return t("{match}: {result}", match=title(match), result=result_line(match, game))
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
        if game is not None and game.is_over:  # two players (or the last two): the game is lost on time
            if change.user_id is not None:
                return t("{player} lost on time (claimed by <@{user}>).", player=label, user=change.user_id)
            return t("{player} lost on time.", player=label)
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


def announcement_text(outcome: Outcome, now: float) -> str:
    """The announcement of an outcome: what happened, then who is to move (pinged) or the result."""
    match, game = outcome.match, outcome.game
    text = what_happened(outcome)
    if not outcome.moved or game is None:
        return text
    if game.is_over:
        everyone = outcome.ending_user_ids or tuple(match.human_ids())
        unrated = f" {unrated_line(outcome.unrated)}" if outcome.unrated else ""
        return f"{text} {result_line(match, game)}{unrated} " + " ".join(f"<@{u}>" for u in everyone)
    mover = user_to_move(match, game)
    if mover is not None and match.is_computer(mover):
        return f"{text} " + t("{player} is thinking…", player=mention(match, mover))
    # TRANSLATORS: {deadline} is empty or " — time runs out …", {banks} empty or "; banks (…): …"
    return f"{text} " + t(
        "<@{user}>, your move{deadline}{banks}.",
        user=mover,
        deadline=time_note(match, now, " — "),
        banks=bank_note(match, game, now, semicolon()),
    )


def unrated_line(reason: str) -> str:
    """Why a rated match's result does not count for the ratings (``Outcome.unrated``)."""
    if reason == "too_short":
        return t("Not rated: the game ended before its second turn, so it counts as an abort.")
    return t("Not rated.")


def ending_dm(outcome: Outcome, now: float) -> str:
    """The direct message a player gets when a game ends."""
    return t(
        "**{match}** has ended. {announcement}",
        match=title(outcome.match),
        announcement=announcement_text(outcome, now),
    )


def begins(match: MatchRow, game: AnyGame, now: float) -> str:
    """The first board's text: who plays, who is to move, how to play."""
    mentions = " ".join(mention(match, s.user_id) for s in sorted(match.seats, key=lambda s: s.seat))
    status = status_line(match, game) + time_note(match, now, " — ") + bank_note(match, game, now, semicolon())
    return t(
        "**{match}** begins: {players}\n{status}\nPlay with `/move` here; `/rules` explains the game.",
        match=title(match),
        players=mentions,
        status=status,
    )
