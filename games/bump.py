"""Bump (the seed ``003``): the rules in :data:`RULES_SUMMARY`, issue 8's and this project's decisions in docs/rules.md.

Where the game lives
--------------------
The board (two areas, six gates, walls, space names, set-up) is :mod:`games.bumpboard`;
the bump phase (``settle(X)``, choices, stasis records) is :mod:`games.bumpresolve`; the
position and the rules of a turn (movement, the legal turns, playing one) are
:class:`games.bumprules.BumpRules`, which :class:`Bump` builds on; a turn's events in words
are :mod:`games.bumpwords`. This module is the game as the project sees it: notation, the
position document, the text board and the game's info. The board and the bump phase are
re-exported here.

Turns
-----
A turn is one action: ``pass``; a move ``FROM[,TO][-F]`` followed by the
mover's choices ``(a) (b)…``; or a reinforcement ``R,TO[-F]``. A move written
out that changes nothing (``03``, ``03,03``, ``03-0`` facing 0 already) is refused
(issue 26: a typo must not cost the turn), and so is the action.
Choices name the space the bumped piece would be pushed into (``x`` for a
push into a wall, else for any capturing option; several pushes into walls
at one choice are one turn, the first); entries are taken in the
order the choices arise; missing ones take the default — the bumper whose
facing (the bump's direction) is lowest. Canonical notation writes every
choice of the turn, each in its own parentheses: ``03,04-0 (06)``.

Bumps are resolved by the rules' ``settle(X)`` procedure (an explicit stack, so a long
chain cannot overflow Python's recursion). Stasis: every bump is recorded as
(every piece's space, owner and facing just before the bump; the bumped
piece's space; the direction); the records last the whole game and the third
occurrence of one captures the bumped piece in stasis.

Position form (``Bump.position()``)::

    {"pieces": {"01": [1, 0], "011": [1, 1], "09": [2, 3]},
     "to_move": 1, "reserves": [0, 0], "captured": [0, 0], "held_centre": []}

``pieces`` maps a space to ``[seat, facing]``; ``held_centre`` lists the seats
that had a piece on the opponent's centre at the end of their previous turn.
Once the game is over ``to_move`` is ``null`` and ``"winners"`` and
``"end_reason"`` are added (``winners`` is ``[]`` for a draw). The stasis
history is kept in the full state (``to_json()["extra"]["stasis"]``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .bumpboard import (
    AREAS,
    C1,
    C2,
    CENTRE,
    CENTRE_COORDS,
    COORDS,
    DIRECTIONS,
    GATES,
    INDEX,
    NAMES,
    NEIGHBOURS,
    OPPONENT_CENTRE,
    OPPOSITE,
    SPACE_COUNT,
    START,
    WALL,
    SpaceNameError,
    gate_part,
    parse_space,
    rotation_cost,
    space_at,
)
from .bumpresolve import (
    PASS,
    BumpAction,
    ChoicePoint,
    Chooser,
    MoveAction,
    Outcome,
    PassAction,
    PieceBoard,
    ReinforceAction,
    Resolution,
    default_chooser,
    move_action,
    reinforce_action,
)
from .bumprules import BumpRules, _not_a_start
from .bumpwords import SEAT_COLOURS, describe_events
from .interface import (
    Event,
    GameInfo,
    IllegalMove,
    OptionSpec,
    Say,
    StateError,
    plain,
)

# The board (games.bumpboard) and the bump phase (games.bumpresolve) live in their own modules
# but are part of this game's API, so they are exported from here too.
__all__ = [
    "AREAS",
    "C1",
    "C2",
    "CENTRE",
    "CENTRE_COORDS",
    "COORDS",
    "DIRECTIONS",
    "GATES",
    "INDEX",
    "MAX_RESERVES",
    "MAX_TURNS",
    "NAMES",
    "NEIGHBOURS",
    "OPPONENT_CENTRE",
    "OPPOSITE",
    "PASS",
    "RULES_SUMMARY",
    "SPACE_COUNT",
    "START",
    "WALL",
    "Bump",
    "BumpAction",
    "ChoicePoint",
    "Chooser",
    "MoveAction",
    "Outcome",
    "PassAction",
    "PieceBoard",
    "ReinforceAction",
    "Resolution",
    "SpaceNameError",
    "default_chooser",
    "gate_part",
    "move_action",
    "parse_space",
    "reinforce_action",
    "rotation_cost",
    "space_at",
]

MAX_RESERVES = 3
MAX_TURNS = 600

RULES_SUMMARY = """\
**Bump** — 2 players, 12 pieces each, on two hexagonal areas joined by six
gates. Every piece has one **bumper** (its facing); its other sides are blind.
**Win:** start your turn with a piece on your opponent's centre.
**Move** one piece with up to 3 points: shift to empty adjacent spaces first
(never through a wall, a piece or your own centre), then rotate 60° per point.
**Bumps:** a bumper facing a blind side of an adjacent piece pushes it one
space away; the pushed piece may bump in turn (chains). A push that would be
an illegal shift (a wall, a piece, its own centre) **captures** it. Several
bumpers on one piece: you choose. A bump repeating three times captures
(stasis). Bumpers facing each other are stable.
Notation: `03,05-4` (from 03 to 05, facing 4), `03-2`, `pass`; choices in
parentheses `03,04-0 (06)`; reinforcement `R,01-0`. Spaces: `C1`, `C2`,
axis+step `05` (gate 0 is `05`), axis+step+offset `011`."""


_MOVE_RE = re.compile(r"^\s*(?P<body>[^()]*?)\s*(?P<choices>(?:\([^()]*\)\s*)*)$")


class Bump(BumpRules):
    """The game: :class:`~games.bumprules.BumpRules` with notation, words, the position document and text."""

    # -- creation ------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 2, options: Mapping[str, Any] | None = None) -> Bump:
        cls.info.check_players(players)
        game = cls(players, cls.info.resolve_options(options))
        for seat in (1, 2):
            for space, facing in sorted(START[seat].items()):
                game.board.add(space, seat, facing)
        return game

    def copy(self) -> Bump:
        twin = object.__new__(Bump)
        twin.__dict__.update(self.__dict__)
        twin.board = self.board.copy()
        twin.reserves = self.reserves[:]
        twin.captured = self.captured[:]
        twin.held = self.held[:]
        twin.stasis = dict(self.stasis)
        twin._turn = self._turn[:]
        twin.options = dict(self.options)
        return twin

    # -- the turn ------------------------------------------------------------------------

    def _last_notation(self) -> str:
        """The canonical notation of the last action applied (its choices included)."""
        action = self.last_action
        if action is None or action[0] == "pass":
            return "pass"
        if action[0] == "reinforce":
            return self._plain(action)
        turned, points = self._last_spelling
        _, src, dst, facing, _ = action
        text = NAMES[src] + (f",{NAMES[dst]}" if dst != src else "") + (f"-{facing}" if turned else "")
        return text + "".join(f" ({p.label(p.chosen)})" for p in points)

    def play_turn(self, text: str | Sequence[str]) -> list[Event]:
        """A Bump turn is one action, whose notation contains commas: no splitting."""
        token = text if isinstance(text, str) else " ".join(text)
        if self.is_over:
            raise IllegalMove("the game is over")
        if self.turn_in_progress():
            raise IllegalMove("another turn is in progress")
        if not token.strip():
            raise IllegalMove("empty move: write a move such as 03,04 or pass")
        trial = self.copy()
        action = trial.parse_action(token)
        events = trial.apply_action(action)
        notation = trial._last_notation()
        if not trial.is_over:
            events.extend(trial.end_turn())
        self.__dict__.update(trial.__dict__)
        self.last_turn_notation = notation
        return events

    # -- notation ------------------------------------------------------------------------

    def parse_action(self, text: str) -> BumpAction:
        if self._result is not None:
            raise IllegalMove("the game is over")
        match = _MOVE_RE.match(text.replace("\u2013", "-"))
        if not match:
            raise IllegalMove(
                "cannot read {text!r}: parentheses go after the move, like 03,04-0 (06)", text=text.strip()
            )
        body = match.group("body").strip().lower()
        entries = [
            e for group in re.findall(r"\(([^()]*)\)", match.group("choices")) for e in group.replace(",", " ").split()
        ]
        if body in ("pass", "p"):
            if entries:
                raise IllegalMove("a pass has no choices: remove the parentheses")
            return PASS
        if not body:
            raise IllegalMove("empty move: write a move such as 03,04 or pass")
        action: BumpAction
        try:
            if body.startswith("r"):
                action = self._parse_reinforcement(body)
                if entries:
                    raise IllegalMove("a reinforcement bumps nothing: remove the parentheses")
            else:
                action = self._parse_move(body)
        except SpaceNameError as error:
            raise IllegalMove(error.template, **error.fields) from None
        self._check_legal(action)
        if action[0] == "move":
            action = self._resolve_entries(action, entries)
        return action

    def _parse_reinforcement(self, body: str) -> ReinforceAction:
        m = re.fullmatch(r"r\s*,\s*([^\s,-]+)\s*(?:-\s*(\S+))?", body)
        if not m and re.fullmatch(r"r\s*,?", body):
            raise self._why_no_bare_reinforcement()
        if not m:
            raise IllegalMove(
                "cannot read {text!r}: a reinforcement is written R,TO or R,TO-F (e.g. R,01-0)", text=body
            )
        dst = parse_space(m.group(1))
        seat = self.current
        assert seat is not None
        if m.group(2) is None:
            if dst not in START[seat]:
                raise _not_a_start(dst, seat)
            facing = START[seat][dst]
        else:
            facing = self._parse_facing(m.group(2))
        return reinforce_action(dst, facing)

    def _why_no_bare_reinforcement(self) -> IllegalMove:
        """`R` alone names no space: say whether a reinforcement can come on at all, and where (issue 26)."""
        seat = self.current
        assert seat is not None
        if self.reserves[seat - 1] <= 0:
            return IllegalMove("you have no reserve pieces left to bring on")
        starts = sorted(START[seat])
        empty = [NAMES[s] for s in starts if self.board.cells[s] < 0]
        if not empty:
            return IllegalMove(
                "no starting space of yours is empty ({spaces}): free one before bringing a reserve piece on",
                spaces=", ".join(NAMES[s] for s in starts),
            )
        return IllegalMove(
            "write where it comes on: R,{space} (empty starting spaces: {spaces})",
            space=empty[0],
            spaces=", ".join(empty),
        )

    @staticmethod
    def _parse_facing(text: str) -> int:
        if not (text.isdigit() and text.isascii()) or int(text) > 5:
            raise IllegalMove(
                "facing {text!r} is not a direction: facings are 0–5 (0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE)", text=text
            )
        return int(text)

    def _parse_move(self, body: str) -> MoveAction:
        m = re.fullmatch(r"([^\s,-]+)\s*(?:,\s*([^\s,-]+))?\s*(?:-\s*(\S+))?", body)
        if not m:
            raise IllegalMove(
                "cannot read {text!r}: a move is written FROM,TO-F (e.g. 03,05-4, 03,04 or 03-2), or pass", text=body
            )
        src = parse_space(m.group(1))
        dst = parse_space(m.group(2)) if m.group(2) else src
        pid = self.board.cells[src]
        if pid < 0:
            raise IllegalMove("there is no piece on {space}", space=NAMES[src])
        if self.board.owner[pid] != self.current:
            raise IllegalMove("the piece on {space} is your opponent's", space=NAMES[src])
        facing = self._parse_facing(m.group(3)) if m.group(3) else self.board.facing[pid]
        return move_action(src, dst, facing)

    def _resolve_entries(self, action: MoveAction, entries: list[str]) -> MoveAction:
        """Turn the written choices into bump directions by resolving the move."""

        def chooser(i: int, point: ChoicePoint) -> int:
            if i >= len(entries):
                return point.options[0][0]
            entry = entries[i].lower()
            # "x" is first the push into a wall (the canonical notation writes it so), else any capture.
            walls = [d for d, target in point.options if target < 0]
            if entry == "x" and walls:
                return walls[0]
            for (d, target), captures in zip(point.options, point.captures, strict=True):
                if (target >= 0 and NAMES[target].lower() == entry) or (entry == "x" and captures):
                    return d
            raise IllegalMove(
                "choice {number} ({entry}) names no option: the piece on {space} can be pushed to {labels}",
                number=i + 1,
                entry=entries[i],
                space=NAMES[point.space],
                labels=" or ".join(f"({label})" for label in point.labels()),
            )

        _, res = self._simulate(action, chooser, record=False)
        if len(entries) > len(res.points):
            if not res.points:
                raise IllegalMove("{move} has no choice to make: remove the parentheses", move=self._plain(action))
            facts = {
                "move": self._plain(action),
                "count": len(res.points),
                "extra": " ".join(f"({e})" for e in entries[len(res.points) :]),
            }
            if len(res.points) == 1:
                raise IllegalMove("{move} has {count} choice; remove {extra}", **facts)
            raise IllegalMove("{move} has {count} choices; remove {extra}", **facts)
        return move_action(*action[1:4], tuple(p.chosen for p in res.points))

    def _plain(self, action: BumpAction) -> str:
        if action[0] == "pass":
            return "pass"
        if action[0] == "reinforce":
            return f"R,{NAMES[action[1]]}-{action[2]}"
        _, src, dst, facing, _ = action
        pid = self.board.cells[src]
        text = NAMES[src]
        if dst != src:
            text += f",{NAMES[dst]}"
        if pid < 0 or self.board.facing[pid] != facing:
            text += f"-{facing}"
        return text

    def format_action(self, action: BumpAction) -> str:
        """Canonical notation; a move's choices are written in full, each in parentheses.

        Formats an action of the current position (before it is applied), or
        the last action applied (its choices are then already known).
        """
        if action[0] == "pass":
            return "pass"
        if action[0] == "reinforce":
            return self._plain(action)
        if self._turn and self._turn[-1] == action:
            return self._last_notation()
        text = self._plain(action)
        cached = self._cache["outcomes"].get(action) if self._cache else None
        if cached is not None:
            points = cached.choice_points
        elif not action[4] and not self._would_bump(action[1], action[2], action[3], self.current or 1):
            points = []
        else:
            points = self._simulate(action, self._fixed_chooser(action), record=False)[1].points
        return text + "".join(f" ({p.label(p.chosen)})" for p in points)

    def describe_action(self, action: BumpAction, say: Say = plain) -> str:
        notation = self.format_action(action)
        if action == PASS:
            return say("{action} — move nothing", action=notation)
        if action[0] == "reinforce":
            return say("{action} — bring on a reserve piece facing {facing}", action=notation, facing=action[2])
        out = self.outcome(action)
        seat = self.current or 1
        parts = []
        if out.bumps == 0:
            parts.append(say("no bumps"))
        else:
            parts.append(say("bumps {count}", count=out.bumps))
            mine, theirs = out.captured[seat - 1], out.captured[2 - seat]
            if theirs:
                parts.append(say("captures {count} of theirs", count=theirs))
            if mine:
                parts.append(say("loses {count} of yours", count=mine))
        if out.guard:
            parts.append(say("on their centre: Guard your center!"))
        parts.extend(
            say("choosing {space} to {choice}", space=NAMES[point.space], choice=point.label(point.chosen))
            for point in out.choice_points
        )
        return f"{notation} — " + ", ".join(parts)

    def rank_actions(self, actions: list[BumpAction]) -> list[BumpAction]:
        """Suggestions: moves that occupy the centre or capture, then the rest, then reinforcements, and
        pass last (the first suggestion is what Tab picks: it must not be a turn that does nothing)."""
        seat = self.current or 1

        def key(action: BumpAction) -> tuple[int | tuple[int, ...], ...]:
            if action[0] == "pass":
                return (4,)
            if action[0] == "reinforce":
                return (3, action[1], action[2])
            out = self._enumerate()["outcomes"].get(action)
            if out is None:
                return (2, action[1], action[2], action[3])
            gain = out.captured[2 - seat] - out.captured[seat - 1]
            return (1, -out.guard, -gain, action[1], action[2], action[3], action[4])

        return sorted(actions, key=key)

    def builder_path(self, action: BumpAction, say: Say = plain) -> tuple[str, ...]:
        """The turn builder's menus: the piece, then where it goes, then the turn (facing, choices)."""
        if action[0] == "move":
            src, dst = NAMES[action[1]], NAMES[action[2]]
            target = say("to {space}", space=dst) if dst != src else say("stay on {space} (turn it)", space=src)
            return (say("Piece on {space}", space=src), target)
        if action[0] == "reinforce":
            return (say("Reserve piece"), say("on {space}", space=NAMES[action[1]]))
        return ()

    # -- words -----------------------------------------------------------------------------

    def describe_turn(self, events: Sequence[Event], notation: str = "", say: Say = plain) -> str:
        """The turn and its chain in words: "03,05-4 — bumps 06 to 07, which bumps 17 (captured
        against the wall). Guard your center!" (only the words when no notation is given)."""
        words = describe_events(events, say)
        if not notation:
            return words
        return f"{notation} — {words}" if words else notation

    # -- cells -------------------------------------------------------------------------------

    def cell_names(self) -> tuple[str, ...]:
        return tuple(NAMES)

    def parse_cell(self, text: str) -> str:
        try:
            return NAMES[parse_space(text)]
        except SpaceNameError as error:
            raise IllegalMove(error.template, **error.fields) from None

    # -- serialization -----------------------------------------------------------------------

    def position(self) -> dict[str, Any]:
        b = self.board
        doc: dict[str, Any] = {
            "pieces": {NAMES[s]: [b.owner[p], b.facing[p]] for s, p in enumerate(b.cells) if p >= 0},
            "to_move": self.to_move,
            "reserves": list(self.reserves),
            "captured": list(self.captured),
            "held_centre": self.held_centre,
        }
        if self._result is not None:
            doc["winners"] = list(self._result)
            doc["end_reason"] = self._end_reason
        return doc

    @classmethod
    def from_position(cls, players: int, options: Mapping[str, Any] | None, position: Mapping[str, Any]) -> Bump:
        cls.info.check_players(players)
        game = cls(players, cls.info.resolve_options(options))
        try:
            pieces = position.get("pieces", {})
            if not isinstance(pieces, Mapping):
                raise StateError("pieces must map spaces to [seat, facing]")
            for name, value in pieces.items():
                try:
                    space = parse_space(str(name))
                except SpaceNameError as error:
                    raise StateError(error.template, **error.fields) from None
                if game.board.cells[space] >= 0:
                    raise StateError("{name} is listed twice", name=NAMES[space])
                if (
                    not isinstance(value, (list, tuple))
                    or len(value) != 2
                    or any(not isinstance(v, int) or isinstance(v, bool) for v in value)
                ):
                    raise StateError("{name}: a piece is [seat, facing], not {value!r}", name=name, value=value)
                seat, facing = value
                if seat not in (1, 2):
                    raise StateError("{name}: seat {seat} is not 1 or 2", name=name, seat=seat)
                if not 0 <= facing <= 5:
                    raise StateError("{name}: facing {facing} is not 0–5", name=name, facing=facing)
                if space == CENTRE[seat]:
                    raise StateError("{name}: a piece never stands on its own centre", name=name)
                game.board.add(space, seat, facing)
            for key in ("reserves", "captured"):
                values = position.get(key, [0, 0] if key == "captured" else game.reserves)
                if (
                    not isinstance(values, list)
                    or len(values) != 2
                    or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values)
                ):
                    raise StateError("{key} must list two counts of zero or more", key=key)
                setattr(game, key, list(values))
            if any(r > MAX_RESERVES for r in game.reserves):
                raise StateError("at most {most} reserve pieces a side", most=MAX_RESERVES)
            for seat in (1, 2):
                total = game.on_board(seat) + game.captured[seat - 1] + game.reserves[seat - 1]
                if total > 12 + MAX_RESERVES:
                    raise StateError(
                        "seat {seat} has {total} pieces in all; at most {most}",
                        seat=seat,
                        total=total,
                        most=12 + MAX_RESERVES,
                    )
            b = game.board
            for space, pid in enumerate(b.cells):
                front = NEIGHBOURS[space][b.facing[pid]] if pid >= 0 else -1
                if front >= 0 and b.cells[front] >= 0 and b.facing[b.cells[front]] != OPPOSITE[b.facing[pid]]:
                    raise StateError(
                        "{space} (facing {facing}) bumps {front}: a position must be stable",
                        space=NAMES[space],
                        facing=b.facing[pid],
                        front=NAMES[front],
                    )
            held = position.get("held_centre", [])
            if not isinstance(held, list) or any(s not in (1, 2) for s in held):
                raise StateError("held_centre lists seats 1 and/or 2")
            for seat in held:
                game.held[seat] = True
            to_move = position.get("to_move", 1)
            winners = position.get("winners")
        except (AttributeError, TypeError, ValueError) as error:
            if isinstance(error, StateError):
                raise
            raise StateError("malformed Bump position: {error}", error=error) from None
        if winners is not None:
            if not isinstance(winners, list) or len(winners) > 1 or any(w not in (1, 2) for w in winners):
                raise StateError("winners lists one seat, or none for a draw")
            game._result = tuple(winners)
            game._end_reason = str(position.get("end_reason") or ("draw by agreement" if not winners else "centre"))
            if game._end_reason == "resignation" and winners:
                game._resigned = 3 - winners[0]
            game.current = None
            return game
        if to_move not in (1, 2):
            raise StateError("to_move must be 1 or 2 (or null with winners for a finished game)")
        game.current = to_move
        game._victory_phase(None)
        return game

    def _state_extra(self) -> dict[str, Any]:
        return {**super()._state_extra(), "stasis": [[key, count] for key, count in self.stasis.items()]}

    def _load_state_extra(self, extra: Mapping[str, Any]) -> None:
        super()._load_state_extra(extra)
        stasis = extra.get("stasis") or []
        try:
            self.stasis = {str(key): int(count) for key, count in stasis}
        except (TypeError, ValueError):
            raise StateError("stasis must list [record, count] pairs") from None

    # -- text ---------------------------------------------------------------------------------

    def render_text(self) -> str:
        """Both areas: ``.`` empty, ``C`` a centre, ``:`` a gate, a piece as its seat's letter
        (``b`` Blue, ``o`` Orange) followed by its facing."""
        b = self.board
        marks: dict[tuple[int, int], str] = {}
        for i, cells in enumerate(COORDS):
            pid = b.cells[i]
            for k, cell in enumerate(cells):
                if pid >= 0 and (AREAS[i] or gate_part(i, b.facing[pid]) == k):
                    marks[cell] = "bo"[b.owner[pid] - 1] + str(b.facing[pid])
                else:
                    marks[cell] = " C" if i in (C1, C2) else (" :" if AREAS[i] == 0 else " .")
        rows = sorted({r for _, r in marks})
        left = min(2 * q + r for q, r in marks)
        lines = []
        for r in rows:
            line = [" "] * (2 * (max(2 * q + r for q, rr in marks if rr == r) - left) + 2)
            for (q, rr), mark in marks.items():
                if rr == r:
                    x = 2 * (2 * q + r - left)
                    line[x : x + 2] = mark
            lines.append("".join(line).rstrip())
        lines.append("")
        for seat in (1, 2):
            flags = []
            if self.held[seat]:
                flags.append("held the centre")
            if self.to_move == seat:
                flags.append("to move")
            extra = f" ({', '.join(flags)})" if flags else ""
            lines.append(
                f"{seat} {SEAT_COLOURS[seat - 1]:<6} pieces {self.on_board(seat):>2}  "
                f"captured {self.captured[seat - 1]:>2}  reserves {self.reserves[seat - 1]}{extra}"
            )
        if self.is_over:
            if self.drawn:
                lines.append("Game over: drawn by agreement.")
            else:
                how = "by resignation" if self._end_reason == "resignation" else "on the centre"
                lines.append(f"Game over: {SEAT_COLOURS[self.winners[0] - 1]} wins {how}.")
        return "\n".join(lines)


Bump.info = GameInfo(
    id="bump",
    name="Bump",
    min_players=2,
    max_players=2,
    options=(
        OptionSpec("reserve1", 0, (0, 1, 2, 3), "reserve pieces for seat 1 (reinforcement variant): 0–3"),
        OptionSpec("reserve2", 0, (0, 1, 2, 3), "reserve pieces for seat 2 (reinforcement variant): 0–3"),
    ),
    summary=RULES_SUMMARY,
    seat_names=SEAT_COLOURS,
    grouped_turns=True,
    allows_draws=True,
    max_turns=MAX_TURNS,
    game_class=Bump,
)
