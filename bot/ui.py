"""Buttons and message helpers shared by the cogs.

Every button is a :class:`discord.ui.DynamicItem` whose custom id carries the
match (and, for board buttons, the position's version), so buttons keep
working after a restart and a stale one answers with a clear private message.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import discord

from .service import MatchService, Outcome, ServiceError
from .domain.errors import DamagedMatch, StorageFull
from .domain.model import MatchRow
from .text import fit
from .turn_builder import BuilderState, Choice, decode, encode

if TYPE_CHECKING:
    from .app import HexplayBot

log = logging.getLogger(__name__)

BOARD_FILENAME = "board.png"
# Never "nothing was changed": an unexpected error may come after a change was stored.
SOMETHING_WENT_WRONG = ("Something went wrong on our side. Look at the match (/board) before trying again: "
                        "your action may or may not have been recorded.")
NO_MENTIONS = discord.AllowedMentions.none()
# A write failed for want of disk space somewhere after the start of a request (the change itself, if refused,
# says "Nothing was saved"): what came before it may be stored, so the player is sent to look.
DISK_FULL_AFTER = ("The bot's disk is full, so part of what you asked may not have been saved (its operator has been "
                   "told). Look at the match (/board) before trying again.")
# While the bot stops, new commands and presses are refused before any work (those in flight finish).
RESTARTING = "Hexplay is restarting, so nothing was done: try again in a minute."


def mention_only(user_id: int | list[int] | None) -> discord.AllowedMentions:
    """Allow pings of exactly these users (one id, a list, or nobody)."""
    ids = [] if user_id is None else [user_id] if isinstance(user_id, int) else list(user_id)
    if not ids:
        return NO_MENTIONS
    return discord.AllowedMentions(users=[discord.Object(u) for u in ids], everyone=False, roles=False)


def png_file(data: bytes, filename: str = BOARD_FILENAME) -> discord.File:
    return discord.File(io.BytesIO(data), filename=filename)


ALREADY_ACKNOWLEDGED = 40060


def landed_anyway(error: BaseException) -> bool:
    """Discord accepted a reply but answered 5xx; discord.py's retry of it then met "already acknowledged".

    The player has the reply: answering again would only add a second error.
    """
    return isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED


async def reply_error(interaction: discord.Interaction, message: str) -> None:
    """A private answer, whether or not the interaction was already answered."""
    message = fit(message)
    try:
        if not interaction.response.is_done():
            try:
                await interaction.response.send_message(message, ephemeral=True)
                return
            except discord.HTTPException as error:
                if not landed_anyway(error):
                    raise
        await interaction.followup.send(message, ephemeral=True)  # answered already: a follow-up
    except discord.HTTPException:
        log.exception("could not deliver an error message")


async def guarded(interaction: discord.Interaction, action: Callable[[], Awaitable[Any]]) -> None:
    """Run a handler; a ServiceError becomes a private message, anything else is logged."""
    if getattr(interaction.client, "stopping", False):
        await reply_error(interaction, RESTARTING)
        return
    try:
        await action()
    except ServiceError as error:
        await reply_error(interaction, str(error))
    except DamagedMatch as damaged:
        await reply_error(interaction, await _bot(interaction).service.paused_by(damaged))
    except StorageFull:
        log.error("a write failed: the bot's disk is full")
        await reply_error(interaction, DISK_FULL_AFTER)
    except Exception as error:
        if landed_anyway(error):
            log.info("a reply landed although Discord answered it with an error; not answering again")
            return
        log.exception("unexpected error in a button or command")
        await reply_error(interaction, SOMETHING_WENT_WRONG)


class HexplayTree(discord.app_commands.CommandTree):
    """The command tree: while the bot stops, a new command is refused before it runs."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if not getattr(self.client, "stopping", False):
            return True
        if interaction.type is not discord.InteractionType.autocomplete:  # suggestions simply stop
            await reply_error(interaction, RESTARTING)
        return False


def _bot(interaction: discord.Interaction) -> "HexplayBot":
    return interaction.client  # type: ignore[return-value]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hx:lobby:(?P<action>accept|decline|join|start|cancel):(?P<match>\d+)"):
    STYLES = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.danger),
        "join": ("Join", discord.ButtonStyle.primary),
        "start": ("Start", discord.ButtonStyle.success),
        "cancel": ("Cancel", discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, match_id: int) -> None:
        label, style = self.STYLES[action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"hx:lobby:{action}:{match_id}"))
        self.action = action
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(match["action"], int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _bot(interaction).lobby_button(interaction, self.action, self.match_id))


class QuickActionButton(discord.ui.DynamicItem[discord.ui.Button],
                        template=r"hx:q:(?P<match>\d+):(?P<version>\d+):(?P<notation>[a-z0-9]+)"):
    """A whole turn in one tap (Bide's "Bide", Begird's "Swap")."""

    def __init__(self, match_id: int, version: int, notation: str, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or notation.capitalize(), style=discord.ButtonStyle.primary,
                                           custom_id=f"hx:q:{match_id}:{version}:{notation}"))
        self.match_id, self.version, self.notation = match_id, version, notation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]), int(match["version"]), match["notation"], item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _bot(interaction).play_and_announce(
            interaction, self.match_id, self.notation, expected_version=self.version))


class ResignConfirmButton(discord.ui.DynamicItem[discord.ui.Button],
                          template=r"hx:resign:(?P<match>\d+):(?P<user>\d+)"):
    def __init__(self, match_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Yes, resign", style=discord.ButtonStyle.danger,
                                           custom_id=f"hx:resign:{match_id}:{user_id}"))
        self.match_id, self.user_id = match_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            if interaction.user.id != self.user_id:
                raise ServiceError("This confirmation belongs to another player.")
            await _bot(interaction).resign_and_announce(interaction, self.match_id)

        await guarded(interaction, run)


class SnoozeButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"hx:snooze:(?P<match>\d+):(?P<ply>\d+)"):
    def __init__(self, match_id: int, ply: int) -> None:
        super().__init__(discord.ui.Button(label="Snooze for this turn", style=discord.ButtonStyle.secondary,
                                           custom_id=f"hx:snooze:{match_id}:{ply}"))
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            text = await _bot(interaction).service.snooze(self.match_id, interaction.user.id, self.ply)
            await interaction.response.send_message(text, ephemeral=True)

        await guarded(interaction, run)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hx:gif:(?P<match>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(label="Replay (GIF)", style=discord.ButtonStyle.secondary,
                                           custom_id=f"hx:gif:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            service = _bot(interaction).service
            service.check_guild(await service.get(self.match_id), interaction.guild_id)  # before any work
            await interaction.response.defer(ephemeral=True, thinking=True)
            gif = await service.history_gif(self.match_id, interaction.user.id, interaction.guild_id)
            await interaction.followup.send(file=png_file(gif, f"match-{self.match_id}.gif"), ephemeral=True)

        await guarded(interaction, run)


class OfferButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"hx:offer:(?P<kind>draw|undo):(?P<answer>yes|no):(?P<match>\d+):(?P<seq>\d+)"):
    """Accept or Decline a draw offer or takeback request; the custom id names the log length it was made at."""

    def __init__(self, kind: str, accept: bool, match_id: int, at_seq: int) -> None:
        label, style = ("Accept", discord.ButtonStyle.success) if accept else ("Decline", discord.ButtonStyle.danger)
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"hx:offer:{kind}:{'yes' if accept else 'no'}:{match_id}:{at_seq}"))
        self.kind, self.accept, self.match_id, self.at_seq = kind, accept, match_id, at_seq

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(match["kind"], match["answer"] == "yes", int(match["match"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _bot(interaction).offer_button(
            interaction, self.kind, self.match_id, self.at_seq, self.accept))


class ClaimButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hx:claim:(?P<match>\d+):(?P<ply>\d+)"):
    """Claim a time-out: the custom id names the turn (ply) that ran out, so a later turn's claim is refused."""

    def __init__(self, match_id: int, ply: int, label: str = "Claim win") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"hx:claim:{match_id}:{ply}"))
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]), int(match["ply"]), item.label or "Claim win")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _bot(interaction).claim_button(interaction, self.match_id, self.ply))


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hx:rematch:(?P<match>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.primary,
                                           custom_id=f"hx:rematch:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _bot(interaction).rematch_button(interaction, self.match_id))


class TurnBuilderButton(discord.ui.DynamicItem[discord.ui.Button],
                        template=r"hx:tb:(?P<op>open|undo|end):(?P<match>\d+):(?P<version>\d+):(?P<picks>[0-9a-f.]*)"):
    """Open the turn builder, Undo its last action, or End the turn (see :mod:`bot.turn_builder`)."""

    LABELS = {"open": ("Build your turn", discord.ButtonStyle.primary),
              "undo": ("Undo last action", discord.ButtonStyle.secondary),
              "end": ("End turn", discord.ButtonStyle.success)}

    def __init__(self, op: str, match_id: int, version: int, picks: str = "", disabled: bool = False) -> None:
        label, style = self.LABELS[op]
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled,
                                           custom_id=f"hx:tb:{op}:{match_id}:{version}:{picks}"))
        self.op, self.match_id, self.version, self.picks = op, match_id, version, picks

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(match["op"], int(match["match"]), int(match["version"]), match["picks"])

    async def callback(self, interaction: discord.Interaction) -> None:
        picks = decode(self.picks) if self.op != "open" else []
        await guarded(interaction, lambda: _bot(interaction).turn_builder(
            interaction, self.op, self.match_id, self.version, picks))


class TurnBuilderSelect(discord.ui.DynamicItem[discord.ui.Select],
                        template=r"hx:tb:pick(?P<menu>\d):(?P<match>\d+):(?P<version>\d+):(?P<picks>[0-9a-f.]*)"):
    """One menu of next actions; the chosen option's value is its index among the legal actions."""

    def __init__(self, menu: int, match_id: int, version: int, picks: str,
                 choices: list[Choice] | None = None, placeholder: str = "Next action") -> None:
        options = [discord.SelectOption(label=c.label, value=str(c.index), description=c.description or None)
                   for c in (choices or [])] or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"hx:tb:pick{menu}:{match_id}:{version}:{picks}",
                                           placeholder=placeholder, options=options, min_values=1, max_values=1))
        self.match_id, self.version, self.picks = match_id, version, picks

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        made = cls(int(match["menu"]), int(match["match"]), int(match["version"]), match["picks"])
        made.item.options = item.options
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
            if not values or not str(values[0]).isdigit():
                raise ServiceError("Pick an action from the menu.")
            picks = decode(self.picks) + [int(values[0])]
            await _bot(interaction).turn_builder(interaction, "pick", self.match_id, self.version, picks)

        await guarded(interaction, run)


def builder_view(match_id: int, version: int, state: BuilderState) -> discord.ui.View:
    """Up to 4 menus of next actions (25 options each) and a row of Undo / End turn."""
    view = discord.ui.View(timeout=None)
    picks = encode(state.picks)
    menus = state.menus()
    for k, chunk in enumerate(menus):
        first, last = chunk[0].index + 1, chunk[-1].index + 1
        placeholder = "Next action" if len(menus) == 1 else f"Next action ({first}–{last})"
        select = TurnBuilderSelect(k, match_id, version, picks, chunk, placeholder)
        select.item.row = k
        view.add_item(select)
    row = len(menus)
    for op, disabled in (("undo", not state.picks), ("end", not state.can_end)):
        button = TurnBuilderButton(op, match_id, version, picks, disabled=disabled)
        button.item.row = row
        view.add_item(button)
    return view


def offer_view(match_id: int, kind: str, at_seq: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OfferButton(kind, True, match_id, at_seq))
    view.add_item(OfferButton(kind, False, match_id, at_seq))
    return view


DYNAMIC_ITEMS = (LobbyButton, QuickActionButton, ResignConfirmButton, SnoozeButton, ReplayButton, OfferButton,
                 ClaimButton, RematchButton, TurnBuilderButton, TurnBuilderSelect)


def lobby_view(match: MatchRow, service: MatchService) -> discord.ui.View | None:
    """The lobby's buttons: Accept/Decline while invitations are open, Join for open seats, Start, Cancel."""
    if match.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    if any(not s.accepted for s in match.seats):
        view.add_item(LobbyButton("accept", match.id))
        view.add_item(LobbyButton("decline", match.id))
    if len(match.seats) < match.players:
        view.add_item(LobbyButton("join", match.id))
    if service.can_start_early(match):
        view.add_item(LobbyButton("start", match.id))
    view.add_item(LobbyButton("cancel", match.id))
    return view


def board_view(outcome: Outcome) -> discord.ui.View | None:
    """Quick-action buttons that are legal in the new position; Rematch on a final board."""
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
            view.add_item(QuickActionButton(match.id, match.version, quick.notation, quick.label))
    if game.info.multi_action_turns and legal:  # a turn of several actions, picked from menus
        view.add_item(TurnBuilderButton("open", match.id, match.version))
    return view if view.children else None
