"""``/tournament``: a tournament's name (said inside sentences), its announcement kept current, joining and
leaving, a round's pairings, withdrawals, cancelling, and the refusals of each (``standings.py`` says the
table)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import get as get_game
from i18n import N_, number, t, tn

from ...domain.model import MatchRow
from ...domain.seats import title
from ...domain.tournament import TournamentRow
from .markup import escape
from .shared import bounded, joined_or, versus


def tournament_title(tournament: TournamentRow) -> str:
    """``Bide Swiss tournament #3``, said inside sentences (French puts its article before it: ``le tournoi…``);
    :func:`as_heading` capitalises it where it is a heading."""
    game = get_game(tournament.game).name
    if tournament.format == "round-robin":
        # TRANSLATORS: a tournament's name, used inside sentences ("You have already joined {title}."): no capital
        return t("{game} round robin tournament #{tournament_id}", game=game, tournament_id=tournament.id)
    # TRANSLATORS: a tournament's name, used inside sentences ("You have already joined {title}."): no capital
    return t("{game} Swiss tournament #{tournament_id}", game=game, tournament_id=tournament.id)


def as_heading(text: str) -> str:
    """A title as a heading: its first letter a capital (English titles start with the game's name already)."""
    return text[:1].upper() + text[1:]


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
    title_ = as_heading(tournament_title(tournament))
    lines = [t("🏆 **{title}** organized by <@{organizer}>", title=title_, organizer=tournament.organizer_id)]
    if tournament.options:  # the variant its games are played in (board=small), written as /play's lobby writes it
        options = ", ".join(f"{key}={value}" for key, value in tournament.options.items())
        lines.append(t("Options: {options}.", options=escape(options)))
    lines.append(
        t("{rounds}; {clock}; rated.", rounds=rounds, clock=clock)
        if tournament.rated
        else t("{rounds}; {clock}; not rated.", rounds=rounds, clock=clock)
    )
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
    return bounded("\n".join(lines))


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
        players = versus([names.get(s.user_id, escape(s.name)) for s in sorted(match.seats, key=lambda s: s.seat)])
        where = f" <#{match.thread_id}>" if match.thread_id else ""
        lines.append(t("• {match}: {players}{thread}", match=title(match), players=players, thread=where))
    lines += [t("• {name} has the bye (1 point).", name=names.get(user_id, "?")) for user_id in byes]
    return bounded("\n".join(lines))


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


# -- refusals --------------------------------------------------------------------------------------


def _tournament_refusal(text: str) -> Callable[[dict[str, Any]], str]:
    # without the tournament in the facts the sentence keeps its "{title}", as it always did
    return lambda f: t(text, title=tournament_title(f["tournament"]) if "tournament" in f else "{title}")


_FORMAT_NAMES = {"round-robin": N_("round-robin"), "swiss": N_("swiss")}


def tournament_set_aside(tournament_id: int) -> str:
    """A DM to the organizer of an event set aside because its saved record cannot be read (once)."""
    return t(
        "Your tournament #{tournament_id} is paused: part of its saved record cannot be read, so no round, "
        "notice or standings come from it until the bot's operator repairs it (they have been told; see the "
        "log). Its games already started go on as matches.",
        tournament_id=tournament_id,
    )


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "tournament_paused": lambda f: t(
        "Tournament #{tournament_id} is paused: part of its saved record cannot be read, so nothing can be done in "
        "it until the bot's operator repairs it (they have been told; see the log). Its games go on as matches.",
        tournament_id=f["tournament_id"],
    ),
    "no_tournament": lambda f: t(
        "There is no tournament #{tournament_id} in this server.", tournament_id=f["tournament_id"]
    ),
    "no_tournaments": lambda f: t("There is no tournament in this server. Create one with /tournament create."),
    "which_tournament": lambda f: t(
        "This server has several tournaments: say which with the `tournament` option ({ids}).",
        ids=", ".join(f"#{i}" for i in f["ids"][:20]),
    ),
    "tournament_format": lambda f: t(
        "A tournament is {formats}.", formats=joined_or([t(_FORMAT_NAMES.get(x, x)) for x in f["formats"]])
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
