"""What the Activity is sent: matches, a match's view at a ply, the turn being built, and refusals, as JSON
(docs/activity.md). The board comes from ``render.scenes`` (the pictures' own geometry and words), every
sentence from the chat layer's words (``bot/chat/words/``) with Discord's markup turned into plain text.
"""

from __future__ import annotations

import re
from typing import Any

from games import AnyGame
from i18n import t
from render.scenes import view as board_view

from ..chat import words
from ..chat.words import moves as move_words
from ..domain.errors import Refusal
from ..domain.model import MatchRow, OfferRow
from ..domain.seats import game_of, info, player_names, title, user_to_move
from ..service.history import Position
from ..service.turn_builder import BuilderState, NextAction

_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_TIME = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
_MARKUP = re.compile(r"\*\*|__|~~|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)")
_ESCAPED = re.compile(r"\\([\\*_`~|>#\-()\[\]])")


def plain(text: str, match: MatchRow | None = None) -> str:
    """A sentence written for Discord, for a page: mentions become names, markup and escapes go."""
    names = {s.user_id: s.name for s in match.seats} if match is not None else {}
    text = _MENTION.sub(lambda m: names.get(int(m.group(1)), t("a player")), text)
    text = _CHANNEL.sub(lambda m: t("the match's thread"), text)
    text = _TIME.sub(lambda m: t("soon"), text)
    text = _MARKUP.sub("", text)
    return _ESCAPED.sub(r"\1", text).replace("`", "")


def refusal(error: Refusal) -> str:
    match = error.facts.get("match")
    return plain(words.refusal(error), match if isinstance(match, MatchRow) else None)


def summary(match: MatchRow, viewer_id: int) -> dict[str, Any]:
    """One match in a list: whose turn, who plays, where it lives."""
    game = game_of(match) if match.state is not None else None
    mover = user_to_move(match, game) if game is not None and match.status == "active" else None
    mover_seat = match.seat_of(mover) if mover is not None else None
    return {
        "id": match.id,
        "game": match.game,
        "title": title(match),
        "status": match.status,
        "your_turn": mover == viewer_id,
        "to_move": mover_seat.name if mover_seat is not None else None,
        "players": [s.name for s in sorted(match.seats, key=lambda s: s.seat)],
        "guild_id": str(match.guild_id),
        "channel_id": str(match.channel_id),
        "thread_id": str(match.thread_id) if match.thread_id else None,
        "version": match.version,
        "ply": game.ply if game is not None else 0,
        "updated_at": match.updated_at,
    }


def board(match: MatchRow, game: AnyGame, events: list[Any], have: str | None = None) -> dict[str, Any]:
    """The scene and the panel, as the picture of this position draws them; without the static layers when the
    page says it has them (``have``: the scene's key)."""
    scene, panel = board_view(game, player_names=player_names(match), last_events=events, title=title(match))
    return {"scene": scene.to_json(static=have != scene.key), "panel": panel.to_json()}


def match_view(position: Position, viewer_id: int, offers: list[OfferRow], have: str | None = None) -> dict[str, Any]:
    """A match's view at a ply, for this viewer (what they may do; the board; the turn that led here)."""
    match, game = position.match, position.game
    latest = position.ply == position.plies
    seat = match.seat_of(viewer_id)
    active = match.status == "active" and not game.is_over
    to_move = latest and active and user_to_move(match, game) == viewer_id
    drawn = board(match, game, position.events, have)
    move = position.move
    turn = None
    if move is not None:
        by = next((s.name for s in match.seats if s.user_id == move.user_id), "?")
        words = game.describe_turn(position.events, move.notation, say=t) if move.kind == "turn" else move.notation
        turn = {"notation": move.notation, "kind": move.kind, "by": by, "words": words}
    playing = seat is not None and not seat.resigned and active
    return {
        "match": summary(match, viewer_id),
        "ply": position.ply,
        "plies": position.plies,
        "latest": latest,
        "you": {
            "seat": seat.seat if seat is not None else None,
            "player": seat is not None,
            "to_move": to_move,
            "can_act": bool(playing and to_move),
        },
        "turn": turn,
        "offers": [
            {
                "kind": offer.kind,
                "by": next((s.name for s in match.seats if s.user_id == offer.user_id), "?"),
                "yours": offer.user_id == viewer_id,
                "yours_to_answer": playing and offer.user_id != viewer_id and viewer_id not in offer.accepted,
            }
            for offer in offers
        ]
        if latest
        else [],
        "actions": {
            "resign": bool(playing and latest),
            "offer_draw": bool(playing and latest and info(match).allows_draws),
            "offer_undo": bool(
                playing and latest and move is not None and move.kind == "turn" and move.user_id == viewer_id
            ),
        },
        **drawn,
    }


def built_turn(
    match: MatchRow, state: BuilderState, legal: list[NextAction], have: str | None = None
) -> dict[str, Any]:
    """The turn builder's answer: the actions so far, what may come next, and the position they make."""
    return {
        "version": match.version,
        "actions": list(state.notations),
        "notation": state.notation,
        "legal": [
            {"notation": a.notation, "label": a.label, "cells": list(a.cells), "from": a.start, "to": a.end}
            for a in legal
        ],
        "can_end": state.can_end and bool(state.notations),
        "why_not_end": move_words.why_not_end(state) if state.notations else "",
        "view": board(match, state.game, state.events, have),
    }
