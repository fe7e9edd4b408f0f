"""A tournament's standings: the table's cells for the picture, its title, the same table in text, and the
podium (as ``bot/service/standings.py`` computes the points and tie-breaks)."""

from __future__ import annotations

from i18n import N_, number, pt, t, tn

from ...service.tournaments import Standings
from .markup import escape
from .shared import bounded, joined_then
from .tournaments import as_heading, tournament_title


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
    if table.after_round:
        stage = t("After round {round} of {rounds}", round=table.after_round, rounds=tournament.rounds)
    elif tournament.status == "finished":
        stage = t("Final standings")
    elif tournament.format == "swiss":
        stage = t("Round {round} of {rounds}", round=tournament.round, rounds=tournament.rounds)
    else:
        stage = tn("{count} game in play", "{count} games in play", table.games_left)
    ties = joined_then([_tiebreak_name(name) for name in table.tiebreaks])
    return as_heading(tournament_title(tournament)), t("{stage} · ties: {tiebreaks}", stage=stage, tiebreaks=ties)


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
    return bounded("\n".join(lines))


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
    ties = joined_then([_tiebreak_name(name) for name in table.tiebreaks])
    lines.append(t("Final standings below; ties broken by {tiebreaks}.", tiebreaks=ties))
    return bounded("\n".join(lines))


def standings_picture() -> str:
    return t("The standings table.")
