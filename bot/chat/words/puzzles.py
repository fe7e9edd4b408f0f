"""``/puzzle``: what to find, right or wrong and the solution, a hint, the player's puzzle stats, the picture's
description and the position in words, and the refusals. Never who played the source match: it is named by
its number only, once the puzzle is over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import AnyGame
from games import get as get_game
from i18n import number, t, tn

from ...domain.model import MatchRow, SeatRow
from ...domain.puzzles import DailyPuzzleRow, PuzzlePlayerRow
from ...service.puzzles import Hint, PuzzleAnswer, PuzzleView
from . import boards
from .markup import escape


def _colour(game: AnyGame, seat: int) -> str:
    names = game.info.seat_names
    return t(names[seat - 1]) if 0 < seat <= len(names) else t("seat {seat}", seat=seat)


def _task(goal: Any, turns_left: int) -> str:
    """What to find (``ai.puzzles.Goal``), as Lichess says it ("win in 2")."""
    if goal.kind == "win":
        return tn("win in {count}", "win in {count}", turns_left)
    if goal.kind == "goal":
        return (
            t("score now")
            if turns_left == 1
            else tn("score within {count} turn", "score within {count} turns", turns_left)
        )
    if goal.kind == "take":
        return t("take the opponent's centre for good")
    if goal.kind == "save":
        return t("save your centre (only one turn does)")
    return tn(
        "find the turn that leaves you furthest ahead, by {count} point more than any other",
        "find the turn that leaves you furthest ahead, by {count} points more than any other",
        goal.margin or 0,
    )


def heading(view: PuzzleView) -> str:
    """``Puzzle #4 · Begird (rated 1530): Black to move, win in 2.``"""
    return t(
        "Puzzle #{id} · {game} (rated {rating}): {colour} to move, {task}.",
        id=view.row.id,
        game=view.game.info.name,
        rating=number(round(view.row.rating)),
        colour=_colour(view.game, view.seat),
        task=_task(view.goal, view.turns_left),
    )


def puzzle_message(view: PuzzleView) -> str:
    how = t("Answer with `/puzzle answer` (the same autocomplete as /move); `/puzzle text` says the board in words.")
    return f"**{heading(view)}**\n{how}"


def colours(game: AnyGame) -> list[str]:
    """The picture's names by seat for everyone (the daily post): the seats' colours."""
    return [_colour(game, seat) for seat in range(1, game.players + 1)]


def player_names(view: PuzzleView) -> list[str]:
    """The picture's names by seat: the player and the opponent (never the source match's players)."""
    return [t("you") if seat == view.seat else t("opponent") for seat in range(1, view.game.players + 1)]


def _as_match(view: PuzzleView) -> MatchRow:
    """The puzzle as the board words read a match: its seats named you and opponent (nothing else is read)."""
    seats = [SeatRow(seat, 0, name) for seat, name in enumerate(player_names(view), start=1)]
    return MatchRow(
        id=view.row.id,
        game=view.row.game,
        options={},
        players=view.game.players,
        guild_id=0,
        channel_id=0,
        thread_id=None,
        lobby_message_id=None,
        board_channel_id=None,
        board_message_id=None,
        creator_id=0,
        status="active",
        state=None,
        version=0,
        created_at=0.0,
        updated_at=0.0,
        turn_started_at=None,
        result=None,
        seats=seats,
    )


def picture_description(view: PuzzleView) -> str:
    return boards.board_description(_as_match(view), view.game, None, heading=heading(view))


def board_text(view: PuzzleView) -> list[str]:
    """``/puzzle text``: the puzzle's position in words, for screen readers."""
    return boards.board_text(_as_match(view), view.game, None, heading=heading(view))


def answer_message(answer: PuzzleAnswer, guild_id: int | None) -> str:
    """The verdict told in server ``guild_id``: a puzzle of another server's game (shared by both) names no match
    of it, which would lead to its players."""
    check = answer.check
    if check.status == "continue":
        return t(
            "✅ Right: `{move}`. Your opponent answers `{reply}`. Your turn again: {task}.",
            move=escape(check.expected),
            reply=escape(check.reply or ""),
            task=_task(answer.view.goal, answer.view.turns_left),
        )
    line = " ".join(answer.solution)
    source = answer.view.row.source_match_id
    lines = [
        t("🎉 Solved!")
        if check.status == "right"
        else t("❌ Not this time: the answer was `{move}`.", move=escape(check.expected)),
        t("The solution: `{line}`.", line=escape(line)),
    ]
    if answer.rating_change is not None and answer.player is not None:
        lines.append(
            t(
                "Your puzzle rating: {rating} ({change}).",
                rating=number(round(answer.player.rating)),
                change=f"{answer.rating_change:+.0f}",
            )
        )
    if source is not None and answer.view.row.guild_id == guild_id:
        lines.append(t("From match #{match} of this server (`/history match:{match}`).", match=source))
    elif source is not None:
        lines.append(t("From a game of another server that shares its puzzles with this one."))
    return "\n".join(lines)


def reply_picture(answer: PuzzleAnswer) -> str:
    return t("The puzzle after your opponent's answer. {board}", board=picture_description(answer.view))


def hint_message(hint: Hint) -> str:
    if hint.kind == "row":
        where = t("The answer is a cell of row {row}.", row=hint.value)
    else:
        where = t("The answer starts from {cell}.", cell=escape(hint.value))
    return t("💡 {where} (A solve after a hint gains no rating.)", where=where)


def stats_message(player: PuzzlePlayerRow) -> str:
    if not player.solved and not player.failed:
        return t("You have not tried a puzzle yet: `/puzzle start` gives you one.")
    return t(
        "Your puzzle rating: {rating} (± {deviation}). Solved {solved}, missed {failed}; "
        "streak {streak} (best {best}).",
        rating=number(round(player.rating)),
        deviation=number(round(2 * player.deviation)),
        solved=number(player.solved),
        failed=number(player.failed),
        streak=number(player.streak),
        best=number(player.best_streak),
    )


def leaderboard(board: list[PuzzlePlayerRow]) -> str:
    """The server's best puzzle ratings (players who solved one of its puzzles)."""
    if not board:
        return t("Nobody has solved a puzzle of this server yet: `/puzzle start` gives you one.")
    lines = [t("**Puzzle leaderboard**")]
    for rank, row in enumerate(board, start=1):
        lines.append(
            tn(
                "{rank}. <@{user}> — {rating} ({count} solved)",
                "{rank}. <@{user}> — {rating} ({count} solved)",
                row.solved,
                rank=rank,
                user=row.user_id,
                rating=number(round(row.rating)),
            )
        )
    return "\n".join(lines)


def daily_post(puzzle: Any, game: AnyGame, daily: DailyPuzzleRow) -> str:
    """The daily puzzle's public post (``puzzle``: ``ai.puzzles.Puzzle``): what to find, and who solved it."""
    lines = [
        t(
            "**Daily puzzle · {game}**: {colour} to move, {task}.",
            game=game.info.name,
            colour=_colour(game, puzzle.to_move),
            task=_task(puzzle.goal, puzzle.goal.turns),
        ),
        t("Press **Solve** to try it privately."),
    ]
    if daily.solvers:
        lines.append(tn("Solved by {count} player.", "Solved by {count} players.", daily.solvers))
    if daily.fastest_user_id is not None and daily.fastest_seconds is not None:
        lines.append(
            t(
                "Fastest: <@{user}> in {seconds} s.",
                user=daily.fastest_user_id,
                seconds=number(round(daily.fastest_seconds)),
            )
        )
    return "\n".join(lines)


def daily_picture(puzzle: Any, game: AnyGame) -> str:
    return boards.picture_description(
        t(
            "The daily puzzle: {colour} to move, {task}.",
            colour=_colour(game, puzzle.to_move),
            task=_task(puzzle.goal, puzzle.goal.turns),
        )
    )


def daily_set(channel_id: int | None, hour: int) -> str:
    if channel_id is None:
        return t("No daily puzzle will be posted any more.")
    return t("A daily puzzle will be posted in <#{channel}> at {hour}:00 UTC.", channel=channel_id, hour=hour)


def daily_setting(setting: tuple[int, int] | None) -> str:
    """The daily puzzle's line of ``/config``."""
    if setting is None:
        return t("• Daily puzzle: none (choose a channel with `puzzle_channel`)")
    channel, hour = setting
    return t("• Daily puzzle: in <#{channel}> at {hour}:00 UTC", channel=channel, hour=hour)


def solve_label() -> str:
    return t("Solve")


def hint_label() -> str:
    return t("Hint")


REFUSALS: dict[str, Callable[[dict[str, Any]], str]] = {
    "puzzle_none_left": lambda f: (
        t(
            "No puzzle of {game} is left for you here yet: they come from this server's finished games.",
            game=get_game(f["game"]).name,
        )
        if f.get("game")
        else t("No puzzle is left for you here yet: they come from this server's finished games.")
    ),
    "puzzle_busy": lambda f: t("Your puzzle is being opened in another window: try again."),
    "puzzle_other_open": lambda f: t("Finish the puzzle you are solving first (`/puzzle answer`)."),
    "puzzle_already_tried": lambda f: t("You have already tried this puzzle."),
    "puzzle_not_daily": lambda f: t("This is not a daily puzzle of this server."),
    "puzzle_daily_hour": lambda f: t("The hour is a whole hour from 0 to 23 (UTC)."),
    "puzzle_daily_needs_channel": lambda f: t(
        "Choose the daily puzzle's channel first (`/config puzzle_channel`), then its hour."
    ),
    "puzzle_daily_cannot_post": lambda f: t(
        "I cannot post in <#{channel}> (I need to see it, send messages and attach files there): "
        "choose another channel or give me those permissions.",
        channel=f["channel"],
    ),
    "puzzle_daily_stop_and_channel": lambda f: t(
        "Choose either a channel for the daily puzzle or to stop it, not both."
    ),
    "puzzle_daily_needs_manage_server": lambda f: t(
        "Only members with the Manage Server permission can set the daily puzzle."
    ),
    "puzzle_not_started": lambda f: t("You are not solving a puzzle: `/puzzle start` gives you one."),
    "puzzle_not_yours": lambda f: t("This puzzle is not yours to answer: `/puzzle start` gives you your own."),
    "puzzle_finished": lambda f: t("That puzzle is over: `/puzzle start` gives you the next."),
    "puzzle_moved_on": lambda f: t("Your puzzle has moved on since (another answer came first): look again."),
    "puzzle_unreadable": lambda f: t(
        "That puzzle cannot be read any more and has been set aside (your rating is unchanged): "
        "`/puzzle start` gives you another."
    ),
}
