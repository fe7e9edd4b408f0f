"""``/leaderboard``, ``/profile``, ``/config`` and ``/help``: ratings (explained as Elo), a server's settings
and its language of public posts, every command's line, the operator's line at connection, and the refusals of
``/config``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games import get as get_game
from i18n import number, t, tn

from ...domain.model import PROVISIONAL_GAMES, RATING_START, GuildSettings, MatchRow, RatingRow
from ...domain.seats import title
from .shared import bank_clock_text, language_name


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
        days = t("a bank clock, {clock} (instead of days per move)", clock=bank_clock_text(settings.clock))
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
            t("• Puzzles shared with other servers that share theirs: yes")
            if settings.share_puzzles
            else t("• Puzzles shared with other servers that share theirs: no (default)")
            if settings.share_puzzles is None
            else t("• Puzzles shared with other servers that share theirs: no"),
        ]
    )


def _allowed(analysis: bool | None) -> str:
    # TRANSLATORS: said of "conditional moves and analysis boards".
    return t("allowed (default)") if analysis is None else t("allowed") if analysis else t("forbidden")


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


def server_language(chosen: str | None, spoken: str) -> str:
    """/config: the language of the server's public posts."""
    if chosen is not None:
        return t("Language of public posts: {language}.", language=language_name(chosen))
    return t("Language of public posts: {language}, the server's preferred locale.", language=language_name(spoken))


# -- refusals --------------------------------------------------------------------------------------


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "config_needs_manage_server": lambda f: t(
        "Only members with the Manage Server permission can change Hexplay's "
        "server settings; /config without options shows them."
    ),
    "default_time_limit_range": lambda f: t(
        "The default time limit is 0 (none) or {low} to {high} days per move.",
        low=number(f["low"]),
        high=number(f["high"]),
    ),
}
