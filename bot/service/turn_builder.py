"""The turn builder: a turn of several actions picked one at a time from menus.

Pure (no discord): the Discord view in :mod:`bot.ui` only draws what
:func:`build` returns. The builder keeps no state on the bot: the actions
picked so far travel in the components' custom ids as their indices in the
ranked list of legal actions at each step (``"3.0.12"``), together with the
position's version. Any change to the match (a turn, a takeback) changes the
version, so an old builder answers clearly instead of acting, and a restart
loses nothing. When the picks are done the whole turn goes through the same
service call as ``/move``: one stored turn, one announcement.

Discord's limits are applied here: at most 25 options per select menu, at
most 4 menus (the fifth row holds the buttons), custom ids of at most 100
characters, option labels and descriptions of at most 100.

No words of its own: the engines label the menus through the ``say`` they are handed (the chat layer hands
``i18n.t``), a refusal is a :class:`BuilderError` of a kind, the engine's reason a :class:`games.GameError`,
and a group's count a number (``bot/chat/words/moves.py`` says them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import AnyGame, Event, GameError
from games.interface import Say

OPTIONS_PER_SELECT = 25
MAX_SELECTS = 4
CUSTOM_ID_LIMIT = 100
ID_BUDGET = 60  # characters of a custom id left for the picks (the rest names op, match, version)
TEXT_LIMIT = 100


class BuilderError(ValueError):
    """The picks no longer fit the position (an old builder) or are malformed: ``kind`` says which
    ("damaged_buttons", "game_over", "turn_in_progress", "older_position", "too_many_actions" with ``count``,
    "engine" with the engine's ``error``), ``fields`` what its wording needs."""

    def __init__(self, kind: str, **fields: Any) -> None:
        super().__init__(kind)
        self.kind = kind
        self.fields = fields


def encode(indices: list[int]) -> str:
    return ".".join(format(i, "x") for i in indices)


def decode(text: str) -> list[int]:
    if not text:
        return []
    try:
        return [int(part, 16) for part in text.split(".")]
    except ValueError:
        raise BuilderError("damaged_buttons") from None


def _clip(text: str) -> str:
    text = text.strip() or "-"
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"


@dataclass
class Choice:
    index: int  # position in the ranked legal actions: the value sent back by the menu
    label: str
    description: str  # what the action does ("" for a group: ``count`` says how many turns it holds)
    count: int = 0  # a group's actions (0: an action)


@dataclass
class BuilderState:
    """The turn so far: the game after the picked actions, their events and what may come next."""

    game: AnyGame  # a copy, mid-turn
    picks: list[int]
    notations: list[str]
    events: list[Event] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)  # at most MAX_SELECTS * OPTIONS_PER_SELECT
    more: int = 0  # legal actions left out of the menus (use /move for them)
    can_end: bool = False
    why_not_end: GameError | None = None  # the engine's reason the turn cannot end yet
    full: bool = False  # no room left in the custom ids: end the turn or undo
    path: list[str] = field(default_factory=list)  # groups picked towards the next action (Bump: piece, target)

    @property
    def notation(self) -> str:
        return ",".join(self.notations)

    def menus(self) -> list[list[Choice]]:
        """The choices cut into select menus of at most 25 options."""
        return [self.choices[k : k + OPTIONS_PER_SELECT] for k in range(0, len(self.choices), OPTIONS_PER_SELECT)]


def ranked_actions(game: AnyGame) -> list[Any]:
    if game.is_over:
        return []
    return game.rank_actions(game.legal_actions())


@dataclass
class Option:
    """One entry of the next menu: a group of actions (``Game.builder_path``) or an action itself."""

    group: str | None  # the group's label, or None for an action
    action: Any = None
    count: int = 1  # actions in the group


def menu_options(game: AnyGame, path: list[str], say: Say) -> list[Option]:
    """What the next menu offers below ``path``: each group once, where its best action ranks, and the
    actions whose path ends here. A game without groups offers its ranked actions, index for index."""
    depth = len(path)
    options: list[Option] = []
    groups: dict[str, Option] = {}
    for action in ranked_actions(game):
        steps = game.builder_path(action, say=say)  # the labels in the reader's language (same for every pick)
        if list(steps[:depth]) != path:
            continue
        if len(steps) == depth:
            options.append(Option(None, action))
        elif steps[depth] in groups:
            groups[steps[depth]].count += 1
        else:
            groups[steps[depth]] = Option(steps[depth], count=1)
            options.append(groups[steps[depth]])
    return options


def build(game: AnyGame, picks: list[int], say: Say) -> BuilderState:
    """Replay ``picks`` on a copy of ``game`` (at the start of the mover's turn) and list what may follow.

    A pick is an index in the menu of its step: a group (a step down, e.g. Bump's piece then target) or
    an action (played on the copy).
    """
    if game.is_over:
        raise BuilderError("game_over")
    if game.turn_in_progress():
        raise BuilderError("turn_in_progress")
    trial = game.copy()
    notations: list[str] = []
    events: list[Event] = []
    path: list[str] = []
    for index in picks:
        options = [] if trial.is_over else menu_options(trial, path, say)
        if not 0 <= index < len(options):
            raise BuilderError("older_position")
        picked = options[index]
        if picked.group is not None:
            path.append(picked.group)
            continue
        notations.append(trial.format_action(picked.action))
        path = []
        try:
            events.extend(trial.apply_action(picked.action))
        except GameError as error:  # pragma: no cover - legal_actions only lists applicable actions
            raise BuilderError("engine", error=error) from None
    state = BuilderState(trial, list(picks), notations, events, path=path)
    _can_end(state)
    state.full = len(encode(picks + [0xFFF])) > ID_BUDGET
    if trial.is_over or state.full:
        return state
    options = menu_options(trial, path, say)
    room = OPTIONS_PER_SELECT * MAX_SELECTS
    hints = iter(trial.describe_actions([o.action for o in options[:room] if o.group is None], say=say))
    for index, option in enumerate(options[:room]):
        if option.group is not None:
            state.choices.append(Choice(index, _clip(option.group), "", option.count))
            continue
        notation = trial.format_action(option.action)
        hint = next(hints)
        description = hint.split(" — ", 1)[1] if " — " in hint else ""
        state.choices.append(Choice(index, _clip(notation), _clip(description) if description else ""))
    state.more = max(0, len(options) - room)
    return state


def _can_end(state: BuilderState) -> None:
    """Whether the turn may end after the actions so far, and if not, the game's reason."""
    trial = state.game
    state.can_end = trial.is_over or trial.can_end_turn()
    if not state.can_end:
        probe = trial.copy()
        try:
            probe.end_turn()
        except GameError as error:
            state.why_not_end = error


# -- the same turn, built by tapping (the Activity: docs/activity.md) ------------------------------------------

MAX_ACTIONS = 16  # more actions than any turn of these games has: a longer list is refused unread
MOVING = ("move", "jump", "shift", "pass")  # events of the acting piece (not of what it pushes or bumps)


@dataclass
class NextAction:
    """One legal next action as a board shows it: its notation, its words and the cells it touches."""

    notation: str
    label: str  # the notation and what it does, as the menus' options say it
    cells: tuple[str, ...]  # every cell it touches, in the order its events name them
    start: str | None  # the cell a tap starts on (the piece moved, the point placed on); None: a button
    end: str | None  # the cell it ends on; None for a placement (``start`` says it)


def follow(game: AnyGame, actions: list[str]) -> BuilderState:
    """The turn builder after ``actions`` given in notation (the Activity names actions, the menus number
    them): each is read in the position the ones before it made, by the game's own rules. Raises the game's
    GameError for an action that cannot come next."""
    if game.is_over:
        raise BuilderError("game_over")
    if game.turn_in_progress():
        raise BuilderError("turn_in_progress")
    if len(actions) > MAX_ACTIONS:
        raise BuilderError("too_many_actions", count=MAX_ACTIONS)
    trial = game.copy()
    notations: list[str] = []
    events: list[Event] = []
    for text in actions:
        if trial.is_over or not trial.legal_actions():
            raise GameError("the turn is complete: nothing can follow {done}", done=",".join(notations) or "-")
        action = trial.parse_action(text)
        notations.append(trial.format_action(action))
        events.extend(trial.apply_action(action))
    state = BuilderState(trial, [], notations, events)
    _can_end(state)
    return state


def next_actions(state: BuilderState, say: Say) -> list[NextAction]:
    """Every action that may come next, most useful first (the order of the menus), with its cells."""
    trial = state.game
    listed = []
    actions = ranked_actions(trial)
    hints = trial.describe_actions(actions, say=say)
    for action, hint in zip(actions, hints, strict=True):
        probe = trial.copy()
        touched: list[str] = []
        start = end = None
        for event in probe.apply_action(action):
            for name in (event.src, event.cell, event.dst):
                if name and name not in touched:
                    touched.append(name)
            if start is None:
                start = event.src or event.cell
            if event.kind in MOVING and event.dst:
                end = event.dst
            elif event.kind == "rotate" and event.cell and end is None:
                end = event.cell
        listed.append(NextAction(trial.format_action(action), hint, tuple(touched), start, end))
    return listed
