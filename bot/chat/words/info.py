"""``/board``, ``/history`` and ``/games``: a board's line (its status, time and banks, who is on
vacation), the move list (cut to its latest moves when long), the pages of /games, and the refusals of looking
(zoom, cells, replays)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from games import AnyGame
from i18n import N_, number, t, tn

from ...domain.model import MatchRow, MoveRow
from ...domain.seats import game_of, player_row, title
from .markup import escape
from .outcomes import status_line
from .shared import bank_note, bounded, held_label, seat_name, semicolon, time_note, vacation_note, versus, waited


def board_line(match: MatchRow, game: AnyGame, vacations: list[tuple[str, float]], now: float) -> str:
    text = status_line(match, game) + time_note(match, now, " — ") + bank_note(match, game, now, semicolon(), vacations)
    away = vacation_note(vacations)
    return text + (f"\n{away}." if away else "")


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
    return bounded(header + "\n".join(shown)) + footer


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
        state += time_note(match, now, ", ") + bank_note(match, game, now, semicolon())
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
    lines = []
    for match in matches:
        game = game_of(match)
        names = versus([escape(seat_name(s)) for s in sorted(match.seats, key=lambda s: s.seat)])
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
                banks=bank_note(match, game, now, semicolon()),
                channel=match.home_channel_id,
                link=link,
            )
        )
    return _page(lines, page, t("**Matches in play in this server**") + "\n")


# -- refusals --------------------------------------------------------------------------------------


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
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
}
