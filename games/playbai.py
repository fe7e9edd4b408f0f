"""Play Bai (David Florsch and Pauline Détraz, 2025): the rules in :data:`RULES_SUMMARY`, this project's
decisions in docs/rules.md.

The field (:mod:`games.playbaifield`), the turn search (:mod:`games.playbaisearch`) and the rules of a turn
(:mod:`games.playbairules`, the base of :class:`PlayBai`) have modules of their own; this one is the game
as the project sees it: creation, notation, words, the position document and the text field.

Position form (``PlayBai.position()``)::

    {"pieces": {"b2": 1, "e2": 1, "h2": 1, "b5": 2, "e8": 2, "h5": 2},
     "ball": "e5", "goals": [0, 0], "to_move": 1, "kickoff": true, "last_goal": null}

``ball`` is the ball's cell (its carrier's cell, or where it lies loose);
``kickoff`` is true when the mover is on the first turn of a set (at most 2
moves); ``last_goal`` is the seat that scored the latest goal (``null``
before any). ``to_move`` is ``null`` once the game is over: after the winning
goal the position shows the scorer on the end-zone cell with the ball.
``"resigned": [seat]`` is added when the game ended by resignation, and
``"drawn": true`` when it ended without a winner (an agreed draw). A
position may give each team 1 to 3 playballers (puzzles); play always
restores 3 at the next set-up.

Actions and notation
--------------------
An action is a tuple: ``(STEP, src, dst)``, ``(JUMP, src, direction)`` or
``(PASS, src, dst)`` with cell indices and a direction 0–5 (RULES §0).
Canonical notation: step ``b2-c2``, jump ``b2^se``, pass ``e5>b5``; on input a
non-bouncing jump may be written by its landing cell (``b2-d2``) and a pass by
its receiver alone (``>b5``). A turn is its actions separated by spaces or
commas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .hexgrid import DIRECTION_NAMES, CellNameError, direction_index
from .interface import Event, GameInfo, IllegalMove, OptionSpec, Say, StateError, plain, split_turn

# Re-exported (`X as X`): the computer's knowledge and puzzles (ai/) read the field, the turn search and
# the rules' constants from the game, and ai/ is another part's to change.
from .playbaifield import field as field
from .playbairules import GOALS_TO_WIN as GOALS_TO_WIN
from .playbairules import MOVES_PER_TURN as MOVES_PER_TURN
from .playbairules import PlayBaiRules
from .playbaisearch import GOAL as GOAL
from .playbaisearch import JUMP as JUMP
from .playbaisearch import KEY_SHIFT as KEY_SHIFT
from .playbaisearch import PASS as PASS
from .playbaisearch import STEP as STEP
from .playbaisearch import Path as Path
from .playbaisearch import PlayBaiAction
from .playbaisearch import ResultKey as ResultKey
from .playbaisearch import search_turns as search_turns

SEAT_COLOURS = ("Orange", "Blue")

RULES_SUMMARY = """\
**Play Bai** — 2 teams of 3 playballers on a hexagonal field of 61 cells.
Each team defends the 3 dotted **end zones** on its side (Orange the left
corners, Blue the right ones) and scores by carrying the ball into one of the
opponent's. A turn is **1 to 3 moves** (only 1 or 2 on a set's kick-off),
by any of your playballers:
• **step** to an adjacent empty cell;
• **jump** over an unbroken line of playballers (either team) to the first
  free cell beyond; at the edge you **bounce back** (still a move).
Jumping over the ball carrier takes the ball; so does entering the loose
ball's cell. Between and around moves, **pass** as often as you like to a
team-mate in a straight line with no opponent in between.
No playballer may be on a dot when the turn ends, and the turn must change
the position. Enter an opponent's end zone only with the ball: that is a
**goal**, the turn ends, and the conceding team kicks off the next set.
First to **3 goals** wins (expert: two goals in a row).
Notation: step `b2-c2`, jump `b2^se` (or `b2-d2`), pass `e5>b5`; a turn is
e.g. `b2-c2 e5>b5 b5^ne`."""


class PlayBai(PlayBaiRules):
    """Play Bai as the project sees it: the rules of :class:`~games.playbairules.PlayBaiRules` with notation,
    words, the position document and the text field."""

    # -- creation ------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 2, options: Mapping[str, Any] | None = None) -> PlayBai:
        cls.info.check_players(players)
        return cls(players, cls.info.resolve_options(options))

    # -- notation ------------------------------------------------------------------

    def _cell(self, text: str) -> int:
        try:
            return self.board.parse(text)
        except CellNameError as error:
            raise IllegalMove(error.template, **error.fields) from None

    def parse_action(self, text: str) -> PlayBaiAction:
        token = text.strip().lower()
        if self._result is not None:
            raise IllegalMove("the game is over")
        if self._scored is not None:
            raise self._after_goal_message()
        if ">" in token:
            left, _, right = token.partition(">")
            dst = self._cell(right)
            src = self._cell(left) if left else self.ball
            if not left and self.seat_of[self.ball] != self.current:
                why = self._why_no_pass(src, dst)
                raise why or IllegalMove("your team does not have the ball")
            action = (PASS, src, dst)
        elif "^" in token:
            left, _, right = token.partition("^")
            src = self._cell(left)
            d = direction_index(right)  # its IllegalMove names the directions
            action = (JUMP, src, d)
        elif "-" in token:
            left, _, right = token.partition("-")
            src = self._cell(left)
            dst = self._cell(right)
            action = (STEP, src, dst) if dst in self.field.nbr[src] else self._jump_to(src, dst)
        else:
            raise IllegalMove(
                "{text!r} is not an action: write a step b2-c2, a jump b2^se (or b2-d2), or a pass e5>b5",
                text=text.strip(),
            )
        why = self._why_illegal(action)
        if why:
            raise why
        return action

    def _jump_to(self, src: int, dst: int) -> PlayBaiAction:
        """A jump written by its landing cell, ``b2-d2``."""
        names = self.board.names
        d = self.field.direction_between.get((src, dst))
        if src == dst:
            raise IllegalMove(
                "{src}-{dst} goes nowhere (a bounce is written {src}^direction)", src=names[src], dst=names[dst]
            )
        if d is None:
            raise IllegalMove("{dst} is not in line with {src}", dst=names[dst], src=names[src])
        if self.seat_of[src] == self.current and self.seat_of[self.field.nbr[src][d]]:
            land, _ = self._jump_line(src, d)
            if land != dst:
                facts = {"src": names[src], "dst": names[dst], "direction": DIRECTION_NAMES[d]}
                if land == src:
                    raise IllegalMove(
                        "{src} cannot reach {dst}: its jump {direction} bounces back (write {src}^{direction})", **facts
                    )
                raise IllegalMove(
                    "{src} cannot reach {dst}: its jump {direction} lands on {land} (write {src}^{direction})",
                    land=names[land],
                    **facts,
                )
        elif self.seat_of[src] == self.current:
            raise IllegalMove(
                "{dst} is not next to {src}, and there is nothing to jump over towards {direction}",
                dst=names[dst],
                src=names[src],
                direction=DIRECTION_NAMES[d],
            )
        return (JUMP, src, d)

    def format_action(self, action: PlayBaiAction) -> str:
        kind, src, x = action
        names = self.board.names
        if kind == STEP:
            return f"{names[src]}-{names[x]}"
        if kind == JUMP:
            return f"{names[src]}^{DIRECTION_NAMES[x]}"
        return f"{names[src]}>{names[x]}"

    def describe_action(self, action: PlayBaiAction, say: Say = plain) -> str:
        text = self.format_action(action)
        kind, _, x = action
        names = self.board.names
        if kind == PASS:
            return say("{action} — pass to {cell}", action=text, cell=names[x])
        trial = self.copy()
        try:
            events = trial.apply_action(action)
        except IllegalMove:
            return text
        parts = []
        jump = next((e for e in events if e.kind == "jump"), None)
        if kind == STEP:
            parts.append(say("step to {cell}", cell=names[x]))
        elif jump is not None:
            over = len(dict(jump.data)["over"])
            if dict(jump.data)["bounced"]:
                parts.append(say("jump {count}, bounces back", count=over))
            else:
                parts.append(say("jump {count} to {cell}", count=over, cell=jump.dst))
        if any(e.kind == "ball" for e in events):
            parts.append(say("takes the ball"))
        goal = next((e for e in events if e.kind == "goal"), None)
        if goal is not None:
            parts.append(say("wins the game!") if dict(goal.data)["wins"] else say("GOAL"))
        return f"{text} — {', '.join(parts)}"

    def rank_actions(self, actions: list[PlayBaiAction]) -> list[PlayBaiAction]:
        """Goals first, then taking the ball, then moves towards the opponent's end zones, passes last."""
        seat = self.current
        if seat is None:
            return list(actions)
        fld = self.field
        targets = [fld.board.cells[i] for i in fld.zones[2 - seat]]

        def closeness(i: int) -> int:
            q, r = fld.board.cells[i]
            return min(max(abs(q - a), abs(r - b), abs(q + r - a - b)) for a, b in targets)

        def key(action: PlayBaiAction) -> tuple[int, ...]:
            kind, src, x = action
            if kind == PASS:
                return (3, closeness(x))
            if kind == STEP:
                dst = x
                over: list[int] = []
            else:
                dst, over = self._jump_line(src, x)
            goal = fld.zone_owner[dst] == 3 - seat
            takes = self.ball in over or (dst == self.ball and self.ball != src)
            return (0 if goal else 1 if takes else 2, closeness(dst) - closeness(src), kind)

        return sorted(actions, key=key)

    def play_turn(self, text: str | Sequence[str]) -> list[Event]:
        """As :meth:`Game.play_turn`, but anything written after a goal is refused
        with the reason (the goal ended the turn), the winning goal included."""
        tokens = split_turn(text) if isinstance(text, str) else list(text)
        if not self.is_over and not self.turn_in_progress():
            trial = self.copy()
            for position, token in enumerate(tokens):
                if (trial._scored is not None or trial.is_over) and position < len(tokens):
                    done = ",".join(tokens[:position])
                    raise IllegalMove(
                        "the goal after {done} already ended the turn: remove {rest}",
                        done=done,
                        rest=" ".join(tokens[position:]),
                    )
                try:
                    trial.apply_action(trial.parse_action(token))
                except IllegalMove:
                    break  # the base method reports it, with the same reason
        return super().play_turn(tokens)

    def describe_turn(self, events: Sequence[Event], notation: str = "", say: Say = plain) -> str:
        """The turn in words: "b2-c2, e5>b5, b5^ne (took the ball) — GOAL! 2–1"."""
        moves: list[_MoveWords] = []
        tail: list[Event] = []  # the goal (it ends the turn), then any seat that could not move
        for e in events:
            data = dict(e.data)
            if e.kind == "move":
                moves.append(_MoveWords(f"{e.src}-{e.dst}"))
            elif e.kind == "jump":
                moves.append(_MoveWords(f"{e.src}^{data.get('direction')}", bounced=bool(data.get("bounced"))))
            elif e.kind == "ball" and moves:
                moves[-1].took = True
            elif e.kind == "pass" and e.src:
                moves.append(_MoveWords(f"{e.src}>{e.dst}"))
            elif e.kind == "goal":
                tail = [e]
            elif e.kind == "pass" and data.get("automatic"):
                tail.append(e)
        text = ", ".join(move.said(say) for move in moves)
        for e in tail:
            data = dict(e.data)
            if e.kind == "goal":
                score = "–".join(str(v) for v in data.get("score", ()))
                if data.get("wins"):
                    text = say("{turn} — GOAL! {score} and the game", turn=text, score=score)
                else:
                    text = say("{turn} — GOAL! {score}", turn=text, score=score)
            else:
                colour = say(SEAT_COLOURS[(e.seat or 1) - 1])  # the colour's name in the reader's language
                text = say("{turn}; {colour} cannot move and passes", turn=text, colour=colour)
        return text

    def copy(self) -> PlayBai:
        # The field is immutable and shared; only the mutable lists are copied.
        twin = object.__new__(PlayBai)
        twin.__dict__.update(self.__dict__)
        twin.seat_of = self.seat_of[:]
        twin.goals = self.goals[:]
        twin._turn = self._turn[:]
        twin.options = dict(self.options)
        return twin

    # -- cells -----------------------------------------------------------------------

    def cell_names(self) -> tuple[str, ...]:
        return self.board.names

    def parse_cell(self, text: str) -> str:
        return self.board.names[self._cell(text)]

    # -- resignation ---------------------------------------------------------------

    def resign(self, seat: int) -> list[Event]:
        return self._resign_two_seat(seat)

    # -- serialization -------------------------------------------------------------

    def position(self) -> dict[str, Any]:
        names = self.board.names
        doc: dict[str, Any] = {
            "pieces": {names[i]: seat for seat in (1, 2) for i in self.pieces(seat)},
            "ball": names[self.ball],
            "goals": list(self.goals),
            "to_move": self.to_move,
            "kickoff": self.kickoff and self._result is None,
            "last_goal": self.last_goal,
        }
        if self._resigned is not None:
            doc["resigned"] = [self._resigned]
        elif self._result == ():
            doc["drawn"] = True  # over without a winner: an agreed draw (or nobody able to move)
        return doc

    @classmethod
    def from_position(cls, players: int, options: Mapping[str, Any] | None, position: Mapping[str, Any]) -> PlayBai:
        cls.info.check_players(players)
        game = cls(players, cls.info.resolve_options(options))
        names = game.board.names
        try:
            cells = [0] * len(game.seat_of)
            pieces = position["pieces"]
            if not isinstance(pieces, Mapping):
                raise StateError("pieces must map cell names to seats 1 or 2")
            for name, seat in pieces.items():
                i = game.board.parse(name)
                if cells[i]:
                    raise StateError("{name} is listed twice", name=names[i])
                if type(seat) is not int or seat not in (1, 2):
                    raise StateError("{name}: seat {seat!r} is not 1 or 2", name=name, seat=seat)
                cells[i] = seat
            ball = game.board.parse(str(position["ball"]))
            goals = position.get("goals", [0, 0])
            if not isinstance(goals, list) or len(goals) != 2 or any(type(g) is not int or g < 0 for g in goals):
                raise StateError("goals must list two counts of zero or more")
            to_move = position.get("to_move", 1)
            kickoff = position.get("kickoff", False)
            last_goal = position.get("last_goal")
            resigned = position.get("resigned")
            drawn = position.get("drawn", False)
        except CellNameError as error:
            raise StateError(error.template, **error.fields) from None
        except KeyError as error:
            raise StateError("a Play Bai position needs {key!r}", key=error.args[0]) from None
        except (AttributeError, TypeError, ValueError) as error:
            if isinstance(error, StateError):
                raise
            raise StateError("malformed Play Bai position: {error}", error=error) from None
        for seat in (1, 2):
            count = cells.count(seat)
            if not 1 <= count <= 3:
                raise StateError("seat {seat} has {count} playballers: a team has 1 to 3", seat=seat, count=count)
        if not isinstance(kickoff, bool):
            raise StateError("kickoff must be true or false")
        if last_goal is not None and (last_goal not in (1, 2) or goals[last_goal - 1] == 0):
            raise StateError("last_goal must be null or a seat (1 or 2) that has scored")
        if last_goal is None and sum(goals):
            raise StateError("last_goal must name who scored the latest goal")
        if isinstance(resigned, list):
            resigned = resigned[0] if len(resigned) == 1 else 0
        if resigned is not None and resigned not in (1, 2):
            raise StateError("resigned must list one seat, 1 or 2")
        game.seat_of = cells
        game.ball = ball
        game.goals = list(goals)
        game.last_goal = last_goal
        game.kickoff = kickoff
        normal_winner = [s for s in (1, 2) if goals[s - 1] >= GOALS_TO_WIN]
        if drawn is True:
            game._result = ()
            game._end_reason = "draw by agreement"
            game.current = None
            game.kickoff = False
            return game
        if resigned is not None:
            game._resigned = resigned
            game._result = (3 - resigned,)
            game._end_reason = "resignation"
            game.current = 3 - resigned
            game.kickoff = False
            return game
        if to_move is None:
            # Over on the board: the latest goal won (3 goals, or two in a row in expert play).
            if last_goal is None or (not game.options["expert"] and last_goal not in normal_winner):
                raise StateError("to_move is null but nobody has won")
            if game.kickoff:
                raise StateError("a finished game has no kick-off")
            game._result = (last_goal,)
            game._end_reason = "goals"
            game.current = last_goal
            return game
        if to_move not in (1, 2):
            raise StateError("to_move must be 1, 2 or null")
        if normal_winner and not game.options["expert"]:
            raise StateError(
                "seat {seat} already has {count} goals: to_move must be null", seat=normal_winner[0], count=GOALS_TO_WIN
            )
        on_dots = [names[i] for i in sorted(game.field.dots) if cells[i]]
        if on_dots:
            raise StateError("a playballer stands on a dot ({cells}) between turns", cells=", ".join(on_dots))
        game.current = to_move
        game._skip_blocked(None)
        return game

    # -- text ----------------------------------------------------------------------

    def render_text(self) -> str:
        """The field: ``x`` Orange, ``o`` Blue (capital: with the ball), ``*`` the loose
        ball, ``:`` an empty end zone, ``.`` an empty cell."""
        board = self.board
        lines = []
        widest = max(len(r) for r in board.rows)
        for row_number, row in enumerate(board.rows):
            letter = chr(ord("a") + row_number)
            marks = []
            for i in row:
                s = self.seat_of[i]
                if s:
                    mark = "xo"[s - 1]
                    marks.append(mark.upper() if i == self.ball else mark)
                elif i == self.ball:
                    marks.append("*")
                else:
                    marks.append(":" if i in self.field.dots else ".")
            lines.append(f"{letter} {' ' * (widest - len(row))}" + " ".join(marks))
        lines.append("")
        lines.append(f"Goals: Orange {self.goals[0]} – {self.goals[1]} Blue   (set {self.set_number})")
        if self.is_over:
            if self.winners:
                how = "by resignation" if self._end_reason == "resignation" else "on goals"
                lines.append(f"Game over: {SEAT_COLOURS[self.winners[0] - 1]} wins {how}.")
            else:
                lines.append(f"Game over ({self._end_reason}): a draw.")
        else:
            seat = self.current or 1
            kick = " (kick-off: at most 2 moves)" if self.kickoff else ""
            lines.append(f"{SEAT_COLOURS[seat - 1]} to move{kick}.")
        return "\n".join(lines)


PlayBai.info = GameInfo(
    id="playbai",
    name="Play Bai",
    min_players=2,
    max_players=2,
    options=(
        OptionSpec("side", 5, (5, 6), "field side: 5 (61 cells) or 6 (91 cells)"),
        OptionSpec("expert", False, (False, True), "expert: true = two goals in a row win (instead of 3 goals)"),
        OptionSpec("first", 1, (1, 2), "first: the seat (1 or 2) that kicks off the first set"),
    ),
    summary=RULES_SUMMARY,
    seat_names=SEAT_COLOURS,
    multi_action_turns=True,
    allows_draws=True,
    max_turns=500,  # sets can follow each other for ever: tools (random play, the AI) stop here, unfinished
    game_class=PlayBai,
)


@dataclass
class _MoveWords:
    """One move of a described turn: its notation, and what happened on the way."""

    notation: str
    bounced: bool = False
    took: bool = False

    def said(self, say: Say) -> str:
        if self.bounced and self.took:
            return say("{move} (bounced, took the ball)", move=self.notation)
        if self.bounced:
            return say("{move} (bounced)", move=self.notation)
        if self.took:
            return say("{move} (took the ball)", move=self.notation)
        return self.notation
