"""A board's buttons, gathered from the features that own them; given to the announcer by the runtime."""

from __future__ import annotations

import discord

from ...domain.outcome import Outcome
from ...service.history import zoom_offered
from ..game_words import quick_label
from .activity import OpenBoardButton
from .info import ZoomButton
from .lobby import RematchButton
from .moves import QuickActionButton, TurnBuilderButton


def board_view(outcome: Outcome, open_board: bool = False) -> discord.ui.View | None:
    """Quick-action buttons that are legal in the new position; Rematch on a final board; Zoom on every
    board a phone cannot read whole (Bump, Begird's standard board); Open board (the Activity) on every
    board when this bot serves one."""
    game, match = outcome.game, outcome.match
    view = _play_buttons(outcome) or discord.ui.View(timeout=None)
    if game is not None and zoom_offered(game):
        view.add_item(ZoomButton(match.id))
    if open_board and game is not None:
        view.add_item(OpenBoardButton(match.id))
    return view if view.children else None


def _play_buttons(outcome: Outcome) -> discord.ui.View | None:
    game, match = outcome.game, outcome.match
    if game is not None and game.is_over:  # the final board offers the same players another match
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton(match.id))
        return view
    if game is None or game.turn_in_progress() or game.to_move is None:
        return None
    mover = match.user_of(game.player_of_seat(game.to_move))
    if mover is not None and mover.is_computer:  # the computer's turn: nothing for anyone to press
        return None
    legal = set(game.legal_notations())
    view = discord.ui.View(timeout=None)
    for quick in game.info.quick_actions:
        if quick.notation in legal:
            view.add_item(QuickActionButton(match.id, match.version, quick.notation, quick_label(quick)))
    if (game.info.multi_action_turns or game.info.grouped_turns) and legal:  # a turn picked from menus
        view.add_item(TurnBuilderButton("open", match.id, match.version))
    return view if view.children else None
