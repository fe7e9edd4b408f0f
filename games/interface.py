"""The one interface every game engine implements.

A game is a set of rules (a :class:`Game` subclass plus its :class:`GameInfo`
metadata) and a serializable state (an instance of that subclass). The shape
follows OpenSpiel: whose turn it is, the legal actions, applying an action,
whether the game is over and its returns; and python-chess: the notation is a
first-class citizen, parsed with errors that say why a move is illegal.

Turns and actions
-----------------
A *turn* is one seat's contribution between two changes of the seat to move.
It is made of one or more *actions* (a Bide release places several discs; a
Play Bai turn has several moves and passes). The engine exposes the turn in
progress: :meth:`Game.legal_actions` lists what may come next,
:meth:`Game.can_end_turn` says whether the turn may end now, and
:meth:`Game.end_turn` closes it. :meth:`Game.play_turn` does all of this
atomically from notation: the state changes only if the whole turn is valid.

Actions are opaque, hashable engine values; the outside world talks in
notation (:meth:`Game.parse_action`, :meth:`Game.format_action`). ``Game`` is
generic in its action type (``Bide(Game[int])``) so that each engine's methods
keep their own action type; code that handles any game uses :data:`AnyGame`.

Cells
-----
Every board here has named cells; :meth:`Game.cell_names` lists them and
:meth:`Game.parse_cell` reads one, so a client can take a cell from a player
(to enlarge part of the board, say) without knowing the engine's board.

Events
------
Every change an action causes is reported as :class:`Event` values (a disc
placed, a disc pushed from a cell to another, a capture, a goal, a swap…), so
pictures and messages can show what happened without re-deriving the rules.

The quiet path (for searches)
-----------------------------
A search applies millions of actions and reads none of their events. It calls
:meth:`Game.apply_quiet` and :meth:`Game.end_turn_quiet`, the quiet twins of
:meth:`Game.apply_action` and :meth:`Game.end_turn`: the same position
afterwards (``position()``, ``to_json()``, whose turn, the result), the same
refusals with the same reasons, but no :class:`Event` and nothing else that
only pictures and words read (a turn's notation, ``last_turn_notation``).
Every engine has them (by default they call the full path); the engines whose
apply is a search's main cost (Bide, Bump, Play Bai, Begird) override them.
The property tests play random games both ways and compare the positions.

Serialization
-------------
:meth:`Game.to_json` is the full, versioned state stored in the database;
:meth:`Game.position` is the smaller, human-editable position form used by
tests, puzzles and bug reports (:meth:`Game.from_position` reads it back).
"""

from __future__ import annotations

import copy as _copy
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeAlias, TypeVar

STATE_FORMAT_VERSION = 1

Action: TypeAlias = Hashable
"""What every engine's actions have in common: they can be set members and dict keys."""

ActionT = TypeVar("ActionT", bound=Hashable)


class Say(Protocol):
    """How an engine words something for players: a sentence template and its named fields.

    The engines keep no language: the bot hands them its translator (``i18n.t``); alone they speak
    English through :func:`plain`.
    """

    def __call__(self, template: str, /, **fields: Any) -> str: ...


def plain(template: str, /, **fields: Any) -> str:
    """The engines' own English: ``template`` with its ``{fields}`` filled in."""
    return template.format(**fields)


class GameError(ValueError):
    """Base class of every error an engine raises for bad input.

    The reason is a sentence template with named fields (``IllegalMove("no such cell: {cell!r}",
    cell=text)``), so a client can say it in the player's language (``t(error.template, **error.fields)``);
    ``str(error)`` is the English. Literal braces in a template are doubled.
    """

    def __init__(self, template: str, /, **fields: Any) -> None:
        super().__init__(template.format(**fields))
        self.template = template
        self.fields = fields

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (process pools) and deep-copied with its template, not re-read from the English.
        return (_rebuilt, (type(self), self.template, self.fields))


def _rebuilt(kind: type[GameError], template: str, fields: dict[str, Any]) -> GameError:
    return kind(template, **fields)


class IllegalMove(GameError):
    """A move that cannot be parsed or is not legal now; the message says why."""


class OptionError(GameError):
    """A game created with an unknown option, a bad value or a wrong seat count."""


class StateError(GameError):
    """A state or position document that is malformed or inconsistent."""


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its key, default, allowed values and a line for players."""

    key: str
    default: Any
    allowed: tuple[Any, ...]
    description: str

    def parse(self, raw: Any) -> Any:
        """Convert ``raw`` (possibly a string from a command line) to an allowed value."""
        for value in self.allowed:
            if raw == value or (isinstance(raw, str) and raw.strip().lower() == str(value).lower()):
                return value
        allowed = ", ".join(str(v) for v in self.allowed)
        raise OptionError(
            "option {key} cannot be {value!r}: choose one of {allowed}", key=self.key, value=raw, allowed=allowed
        )


@dataclass(frozen=True)
class QuickAction:
    """An action a client may offer as a button when it is legal (Bide's "Bide", Begird's "Swap")."""

    notation: str
    label: str


@dataclass(frozen=True)
class GameInfo:
    """Registry metadata of a game: everything a client needs without playing it."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    summary: str
    seat_names: tuple[str, ...]
    quick_actions: tuple[QuickAction, ...] = ()
    multi_action_turns: bool = False
    # Offer a turn builder (menus) on the board even though a turn is one action: the actions are many
    # and grouped by ``Game.builder_path`` (Bump: piece, then target, then the turn itself).
    grouped_turns: bool = False
    allows_draws: bool = False
    game_class: type[AnyGame] | None = field(default=None, compare=False, repr=False)
    # A hint for random play, searches and benchmarks: games that can go on forever
    # (Bump may pass) are cut off after this many turns. None: the game always ends.
    max_turns: int | None = None

    def option(self, key: str) -> OptionSpec:
        for spec in self.options:
            if spec.key == key:
                return spec
        known = ", ".join(s.key for s in self.options) or "none"
        raise OptionError("{game} has no option {key!r} (options: {known})", game=self.name, key=key, known=known)

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate ``options`` and fill in defaults, with a clear error for a bad one."""
        resolved = {spec.key: spec.default for spec in self.options}
        for key, raw in (options or {}).items():
            resolved[key] = self.option(key).parse(raw)
        return resolved

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise OptionError(
                    "{game} is played by exactly {count} players, not {players}",
                    game=self.name,
                    count=self.min_players,
                    players=players,
                )
            raise OptionError(
                "{game} is played by {least} to {most} players, not {players}",
                game=self.name,
                least=self.min_players,
                most=self.max_players,
                players=players,
            )

    def new(self, players: int | None = None, options: Mapping[str, Any] | None = None) -> AnyGame:
        assert self.game_class is not None
        return self.game_class.new(players or self.min_players, options)


@dataclass(frozen=True)
class Event:
    """Something an action caused.

    ``kind`` is one of: ``draw``, ``place``, ``push``, ``bide``, ``pass``,
    ``swap``, ``move``, ``jump``, ``ball``, ``capture``, ``goal``, ``release``,
    ``owe``, ``resign``, ``end`` (engines may add their own). ``seat`` is the
    acting seat when there is one; ``cell``/``src``/``dst`` are cell names.
    """

    kind: str
    seat: int | None = None
    cell: str | None = None
    src: str | None = None
    dst: str | None = None
    data: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for key in ("seat", "cell", "src", "dst"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.data:
            out["data"] = dict(self.data)
        return out

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Event:
        return cls(
            kind=doc["kind"],
            seat=doc.get("seat"),
            cell=doc.get("cell"),
            src=doc.get("src"),
            dst=doc.get("dst"),
            data=tuple(sorted((doc.get("data") or {}).items())),
        )


def split_turn(text: str) -> list[str]:
    """Split one turn's notation into action tokens (separated by commas or spaces)."""
    return [tok for tok in text.replace(",", " ").split() if tok]


def split_turns(text: str) -> list[str]:
    """Split a move list into turns (separated by semicolons), dropping empty ones."""
    return [t.strip() for t in text.split(";") if t.strip()]


class Game(ABC, Generic[ActionT]):
    """A game in progress. Subclasses implement one game's rules.

    Seats are numbered from 1 in turn order. A game object is mutable; use
    :meth:`copy` to explore without changing it. ``ActionT`` is the engine's
    action type (a cell index for Bide and Begird, a tuple for Play Bai and Bump).
    """

    info: ClassVar[GameInfo]

    players: int
    options: dict[str, Any]
    last_turn_notation: str = ""  # canonical notation of the last turn played with play_turn

    # -- creation --------------------------------------------------------------

    @classmethod
    @abstractmethod
    def new(cls, players: int, options: Mapping[str, Any] | None = None) -> Self:
        """A game at its initial position, after validating seats and options."""

    # -- whose turn, and the end ------------------------------------------------

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to move, or ``None`` once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Winning seats (several for a shared win); empty while the game goes on."""

    @abstractmethod
    def scores(self) -> tuple[float, ...] | None:
        """One score per seat, or ``None`` for games without scores."""

    @property
    @abstractmethod
    def ply(self) -> int:
        """How many turns have been completed."""

    # -- the turn in progress ----------------------------------------------------

    @abstractmethod
    def legal_actions(self) -> list[ActionT]:
        """Actions that may come next in the current turn (empty once it must end)."""

    @abstractmethod
    def can_end_turn(self) -> bool:
        """Whether the current turn may end now."""

    @abstractmethod
    def apply_action(self, action: ActionT) -> list[Event]:
        """Apply one legal action of the current turn. Raises :class:`IllegalMove`."""

    @abstractmethod
    def end_turn(self) -> list[Event]:
        """Close the current turn and pass play on. Raises :class:`IllegalMove` if it may not end."""

    def apply_quiet(self, action: ActionT) -> None:
        """:meth:`apply_action` without its events: the same position after it and the same refusals
        (see "The quiet path" above). What a search calls."""
        self.apply_action(action)

    def end_turn_quiet(self) -> None:
        """:meth:`end_turn` without its events, as :meth:`apply_quiet` is :meth:`apply_action`."""
        self.end_turn()

    @property
    @abstractmethod
    def turn_actions(self) -> tuple[ActionT, ...]:
        """Actions already applied in the current turn."""

    def turn_in_progress(self) -> bool:
        return bool(self.turn_actions)

    # -- notation ------------------------------------------------------------------

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """Parse one action in the context of the current turn; the error says why it is illegal."""

    @abstractmethod
    def format_action(self, action: ActionT) -> str:
        """Canonical notation of an action."""

    def format_turn(self, actions: Iterable[ActionT]) -> str:
        return ",".join(self.format_action(a) for a in actions)

    def describe_action(self, action: ActionT, say: Say = plain) -> str:
        """A short explanation for players (autocomplete hints), worded through ``say``. Override for
        richer text."""
        return self.format_action(action)

    def describe_actions(self, actions: Sequence[ActionT], say: Say = plain) -> list[str]:
        """:meth:`describe_action` of each action of a list shown together (an autocomplete, a menu): a game may
        say once there what would repeat on every line (Begird's winning rule)."""
        return [self.describe_action(action, say) for action in actions]

    def describe_turn(self, events: Sequence[Event], notation: str = "", say: Say = plain) -> str:
        """A played turn in words for announcements, from its events and canonical
        notation, called on the game after the turn and worded through ``say``. The default is the
        notation; games with richer turns (Play Bai's passes, Bump's chains) override it."""
        return notation

    def rank_actions(self, actions: list[ActionT]) -> list[ActionT]:
        """Order actions for suggestions, most useful first. Override per game."""
        return actions

    def builder_path(self, action: ActionT, say: Say = plain) -> tuple[str, ...]:
        """The menus a turn builder walks before offering ``action`` (e.g. Bump: its piece, then its target),
        labelled through ``say``.

        Empty (the default): the action is offered directly. A game with hundreds of single-action turns
        groups them so each menu stays small (Discord's menus hold 25 options).
        """
        return ()

    def player_of_seat(self, seat: int) -> int:
        """Which player (numbered in the order they sat down) controls ``seat`` now.

        Identity for most games; Begird's pie rule exchanges the two.
        """
        return seat

    def legal_notations(self) -> list[str]:
        return [self.format_action(a) for a in self.legal_actions()]

    def play_turn(self, text: str | Sequence[str]) -> list[Event]:
        """Play a whole turn given in notation, atomically.

        The state changes only if every action is legal and the turn may end
        after the last one; otherwise :class:`IllegalMove` is raised and the
        game is untouched.
        """
        tokens = split_turn(text) if isinstance(text, str) else list(text)
        if self.is_over:
            raise IllegalMove("the game is over")
        if self.turn_in_progress():
            raise IllegalMove("another turn is in progress")
        if not tokens:
            raise IllegalMove("empty move: write at least one action")
        trial = self.copy()
        events: list[Event] = []
        canonical: list[str] = []
        for position, token in enumerate(tokens):
            if trial.is_over:
                done = ",".join(tokens[:position])
                rest = " ".join(tokens[position:])
                raise IllegalMove("the game ended after {done}; remove {rest}", done=done, rest=rest)
            # parse_action explains why a token cannot come next (e.g. a full hand).
            action = trial.parse_action(token)
            canonical.append(trial.format_action(action))
            events.extend(trial.apply_action(action))
        if not trial.is_over:
            events.extend(trial.end_turn())
        self.__dict__.update(trial.__dict__)
        self.last_turn_notation = ",".join(canonical)
        return events

    # -- cells ---------------------------------------------------------------------

    @abstractmethod
    def cell_names(self) -> tuple[str, ...]:
        """The names of the board's cells, in the engine's own order."""

    @abstractmethod
    def parse_cell(self, text: str) -> str:
        """The canonical name of the cell ``text`` names (any case, spaces around).

        Raises :class:`IllegalMove` with the message a move naming that cell
        would get, so a player reads the same words wherever they type a cell.
        """

    # -- resignation and draws -------------------------------------------------------

    @abstractmethod
    def resign(self, seat: int) -> list[Event]:
        """The player in ``seat`` resigns (allowed on any seat's turn)."""

    @abstractmethod
    def agree_draw(self) -> list[Event]:
        """The players agree a draw: the game ends without a winner.

        Raises :class:`IllegalMove` when the game's info does not allow draws
        (``info.allows_draws``), when it is over, or in the middle of a turn.
        """

    # -- serialization -------------------------------------------------------------

    @abstractmethod
    def position(self) -> dict[str, Any]:
        """The game's position form (see each game's docstring)."""

    @classmethod
    @abstractmethod
    def from_position(cls, players: int, options: Mapping[str, Any] | None, position: Mapping[str, Any]) -> Self:
        """A game set up at ``position``; raises :class:`StateError` when it is inconsistent."""

    @abstractmethod
    def _state_extra(self) -> dict[str, Any]:
        """Engine-specific parts of the full state beyond the position."""

    @abstractmethod
    def _load_state_extra(self, extra: Mapping[str, Any]) -> None: ...

    def to_json(self) -> dict[str, Any]:
        """The full, versioned state document (stable: stored in the database)."""
        if self.turn_in_progress():
            raise StateError("cannot serialize a game in the middle of a turn")
        return {
            "format": STATE_FORMAT_VERSION,
            "game": self.info.id,
            "players": self.players,
            "options": dict(self.options),
            "position": self.position(),
            "extra": self._state_extra(),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Self:
        if doc.get("format") != STATE_FORMAT_VERSION:
            raise StateError("unsupported state format {format!r}", format=doc.get("format"))
        if doc.get("game") != cls.info.id:
            raise StateError("state of {found!r}, not {game!r}", found=doc.get("game"), game=cls.info.id)
        game = cls.from_position(doc["players"], doc["options"], doc["position"])
        game._load_state_extra(doc.get("extra") or {})
        return game

    def copy(self) -> Self:
        return _copy.deepcopy(self)

    # -- a readable text form ----------------------------------------------------

    @abstractmethod
    def render_text(self) -> str:
        """The position as text a person can read in a terminal."""

    def returns(self) -> tuple[float, ...]:
        """OpenSpiel-style returns: 1 for each winner (shared equally), 0 otherwise."""
        wins = self.winners
        if not wins:
            return tuple(0.0 for _ in range(self.players))
        share = 1.0 / len(wins)
        return tuple(share if seat in wins else 0.0 for seat in range(1, self.players + 1))


AnyGame: TypeAlias = Game[Any]
"""A game of any engine: what the registry, the pictures and the bot hold. ``Any`` because the
engines' action types differ and ``Game`` is invariant in it (it takes and returns actions)."""


class TurnBookkeeping(Game[ActionT]):
    """The state every engine here keeps for the interface's bookkeeping properties.

    Subclasses set ``current`` (seat to move), ``_ply``, ``_turn`` (actions of
    the turn in progress), ``_result`` (winners once over, else ``None``) and
    ``_end_reason``; the two-seat games also ``_resigned``.
    """

    current: int | None
    _ply: int
    _turn: list[ActionT]
    _result: tuple[int, ...] | None
    _end_reason: str | None
    _resigned: int | None  # the two-seat games' resigning seat (Bide keeps one flag per seat)

    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self.current

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def winners(self) -> tuple[int, ...]:
        return self._result or ()

    @property
    def end_reason(self) -> str | None:
        """Why the game ended (``"board full"``, ``"resignation"``…), or ``None``."""
        return self._end_reason

    @property
    def ply(self) -> int:
        return self._ply

    def agree_draw(self) -> list[Event]:
        if not self.info.allows_draws:
            raise IllegalMove("{game} cannot be drawn", game=self.info.name)
        if self._result is not None:
            raise IllegalMove("the game is over")
        if self._turn:
            raise IllegalMove("cannot agree a draw in the middle of a turn")
        self._result = ()
        self._end_reason = "draw by agreement"
        self.current = None
        return [Event("end", data=(("reason", "draw by agreement"),))]

    @property
    def turn_actions(self) -> tuple[ActionT, ...]:
        return tuple(self._turn)

    def _state_extra(self) -> dict[str, Any]:
        return {
            "ply": self._ply,
            "winners": list(self._result) if self._result is not None else None,
            "end_reason": self._end_reason,
        }

    def _load_state_extra(self, extra: Mapping[str, Any]) -> None:
        # The position form may already imply the ply and the reason (Begird counts stones): keep those
        # unless the stored state says otherwise.
        if "ply" in extra:
            self._ply = int(extra["ply"])
        if extra.get("winners") is not None:
            self._result = tuple(extra["winners"])
            self._end_reason = extra.get("end_reason") or self._end_reason
            self.current = None

    def _check_two_seat_resignation(self, seat: int) -> None:
        """Refusals shared by the two-seat games (Begird, Play Bai, Bump)."""
        if self._result is not None:
            raise IllegalMove("the game is over")
        if seat not in (1, 2):
            raise IllegalMove("seat {seat} is not in play", seat=seat)
        if self._turn:
            raise IllegalMove("cannot resign in the middle of a turn")

    def _resign_two_seat(self, seat: int) -> list[Event]:
        """A two-seat resignation: the other seat wins at once."""
        self._check_two_seat_resignation(seat)
        self._resigned = seat
        self._result = (3 - seat,)
        self._end_reason = "resignation"
        return [Event("resign", seat=seat), Event("end", seat=3 - seat, data=(("reason", "resignation"),))]
