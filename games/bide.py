"""Bide (Alek Erickson, 2020): the rules in :data:`RULES_SUMMARY`, this project's decisions in docs/rules.md.

Position form (``Bide.position()``)::

    {"board": {"e5": 1, ...}, "hands": [h1, h2, ...], "pools": [p1, p2, ...],
     "to_move": 1, "owed": [seats that owe a release]}

``hands`` and ``pools`` are read after the seat to move has drawn its disc.
``"resigned": [seats]`` is added when some seat has resigned.

Actions are cell indices (a placement) or :data:`BIDE`. A turn is ``bide``,
one placement (a play), or several placements (a release, written
``e5,d4,c3`` in the order placed).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from math import ceil
from typing import Any

from .hexgrid import CellNameError, HexBoard
from .interface import (
    Event,
    GameInfo,
    IllegalMove,
    OptionSpec,
    QuickAction,
    Say,
    StateError,
    TurnBookkeeping,
    plain,
)

BIDE = -1
EQUIPMENT_POOLS = (32, 32, 22, 17, 15, 12)
SEAT_COLOURS = ("Red", "Blue", "Yellow", "Green", "Purple", "Grey")
STANDARD_POINTS = 61

RULES_SUMMARY = """\
**Bide** — 2 to 6 players on a hex-hex board of 61 points (side 5).
Each turn you draw a disc from your pool into your hand, then either
**bide** (keep it), **play** one disc on an empty point, or **release**
every disc in your hand, one after another (only with 2 or more in hand).
A release obliges every opponent to release their whole hand next turn.
Each placed disc sends a **shock wave**: along each of its six lines the
discs are pushed one point outwards; a line full to the edge does not move.
When the board is full, each disc scores its distance from the edge; your
best connected group is your score. Ties are broken by removing the outer
ring and scoring again.
Notation: `bide` (or `pass`), `e5`, release `e5,d4,c3`."""


@cache
def board_for_side(side: int) -> HexBoard:
    return HexBoard.hexhex(side)


def pool_sizes(players: int, points: int) -> list[int]:
    """Each seat's starting pool: the equipment's pool for that seat, scaled to the board's points."""
    return [ceil(EQUIPMENT_POOLS[s] * points / STANDARD_POINTS) for s in range(players)]


class Bide(TurnBookkeeping[int]):
    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = dict(options)
        self.board = board_for_side(self.options["side"])
        n = len(self.board)
        self.cells: list[int] = [0] * n
        self.empty_count = n
        self.hands: list[int] = [0] * players
        self.pools: list[int] = pool_sizes(players, n)
        self.owed: list[bool] = [False] * players
        self.resigned: list[bool] = [False] * players
        self.current: int | None = None  # 1-based seat to move
        self._ply = 0
        self._turn: list[int] = []
        self._result: tuple[int, ...] | None = None  # winners, once over
        self._end_reason: str | None = None

    # -- creation ------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, options: Mapping[str, Any] | None = None) -> Bide:
        cls.info.check_players(players)
        game = cls(players, cls.info.resolve_options(options))
        game._start_turn_of(1, None)
        return game

    # -- turn flow -----------------------------------------------------------------

    def _active(self, seat: int) -> bool:
        return not self.resigned[seat - 1]

    def _start_turn_of(self, seat: int, events: list[Event] | None) -> None:
        """Give the turn to ``seat`` or the next seat that can act; draw its disc (told in ``events``,
        when given)."""
        for _ in range(self.players + 1):
            if self._active(seat):
                i = seat - 1
                if self.pools[i] == 0 and self.hands[i] == 0:
                    # RULES §1: a seat with no disc at all passes automatically,
                    # and that turn settles any release it owed.
                    self.owed[i] = False
                    if events is not None:
                        events.append(Event("pass", seat=seat, data=(("automatic", True),)))
                else:
                    if self.pools[i] > 0:
                        self.pools[i] -= 1
                        self.hands[i] += 1
                        if events is not None:
                            events.append(Event("draw", seat=seat))
                    self.current = seat
                    return
            seat = seat % self.players + 1
        # Project decision (docs/rules.md): no active seat holds a disc, so the
        # board can never fill (possible after resignations); score it as it is.
        self._finish("no discs left")

    def _next_seat(self, seat: int) -> int:
        return seat % self.players + 1

    def _seat_index(self) -> int:
        assert self.current is not None
        return self.current - 1

    def bide_allowed(self) -> bool:
        if self.is_over or self._turn:
            return False
        i = self._seat_index()
        return not self.owed[i] and self.pools[i] > 0

    def legal_actions(self) -> list[int]:
        if self.is_over:
            return []
        turn = self._turn
        i = self._seat_index()
        if turn and (turn[0] == BIDE or self.hands[i] == 0):
            return []
        empties = [k for k, v in enumerate(self.cells) if v == 0]
        if not turn and self.bide_allowed():
            empties.append(BIDE)
        return empties

    def can_end_turn(self) -> bool:
        if self.is_over or not self._turn:
            return False
        if self._turn[0] == BIDE:
            return True
        i = self._seat_index()
        if self.owed[i]:
            return self.hands[i] == 0
        return len(self._turn) == 1 or self.hands[i] == 0

    def apply_action(self, action: int) -> list[Event]:
        events: list[Event] = []
        self._apply(action, events)
        return events

    def apply_quiet(self, action: int) -> None:
        self._apply(action, None)

    def place_quiet(self, point: int) -> list[int]:
        """:meth:`apply_quiet` for a placement (or ``BIDE``), returning every point whose disc may have
        changed: the point placed and each pushed line from its first disc to the point it was pushed
        into (a search's playout keeps its per-point weights up to date from these alone)."""
        return self._apply(point, None)

    def _apply(self, action: int, events: list[Event] | None) -> list[int]:
        """Apply one action, telling what happened in ``events`` (``None``: the quiet path); the points changed."""
        if self.is_over:
            raise IllegalMove("the game is over")
        seat = self.current
        assert seat is not None
        i = seat - 1
        turn = self._turn
        if action == BIDE:
            if not self.bide_allowed():
                raise self._why_no_bide()
            turn.append(BIDE)
            if events is not None:
                events.append(Event("bide", seat=seat, data=(("hand", self.hands[i]),)))
            return []
        if turn and (turn[0] == BIDE or self.hands[i] == 0):
            raise IllegalMove("your hand is empty: the turn is complete")
        if not (0 <= action < len(self.cells)):
            raise IllegalMove("no such point: {point!r}", point=action)
        if self.cells[action]:
            raise self._occupied_message(action)
        turn.append(action)
        self.hands[i] -= 1
        changed = self._place(action, seat, events)
        if self.empty_count == 0:
            self._finish("board full")
            if events is not None:
                events.append(Event("end", data=(("reason", "board full"),)))
        return changed

    def _place(self, point: int, seat: int, events: list[Event] | None) -> list[int]:
        """Place a disc of ``seat`` on empty ``point`` and send its shock wave; the points changed."""
        cells = self.cells
        names = self.board.names
        cells[point] = seat
        self.empty_count -= 1
        changed = [point]
        if events is not None:
            events.append(Event("place", seat=seat, cell=names[point]))
        for line in self.board.rays[point]:
            m = len(line)
            i = 0
            while i < m and cells[line[i]]:
                j = i + 1
                while j < m and cells[line[j]]:
                    j += 1
                if j == m:
                    break  # full to the edge: nothing on this line moves
                for k in range(j, i, -1):
                    owner = cells[line[k - 1]]
                    cells[line[k]] = owner
                    if events is not None:
                        events.append(Event("push", seat=owner, src=names[line[k - 1]], dst=names[line[k]]))
                cells[line[i]] = 0
                changed.extend(line[i : j + 1])
                i = j + 1
        return changed

    def end_turn(self) -> list[Event]:
        events: list[Event] = []
        self._end_turn(events)
        return events

    def end_turn_quiet(self) -> None:
        self._end_turn(None)

    def _end_turn(self, events: list[Event] | None) -> None:
        if self.is_over:
            raise IllegalMove("the game is over")
        if not self.can_end_turn():
            raise self._why_not_complete()
        seat = self.current
        assert seat is not None
        i = seat - 1
        placed = len(self._turn) if self._turn[0] != BIDE else 0
        if self.owed[i]:
            self.owed[i] = False
        elif placed >= 2:
            # A release by choice obliges every other active seat.
            if events is not None:
                events.append(Event("release", seat=seat, data=(("discs", placed),)))
            for other in range(1, self.players + 1):
                if other != seat and self._active(other):
                    self.owed[other - 1] = True
                    if events is not None:
                        events.append(Event("owe", seat=other))
        self._turn = []
        self._ply += 1
        self._start_turn_of(self._next_seat(seat), events)

    # -- errors that explain ------------------------------------------------------

    def _why_no_bide(self) -> IllegalMove:
        if self._turn:
            return IllegalMove("bide must be the whole turn")
        i = self._seat_index()
        if self.owed[i]:
            return IllegalMove("you owe a release: place every disc in your hand ({count})", count=self.hands[i])
        return IllegalMove("your pool is empty, so you cannot bide: play or release")

    def _why_not_complete(self) -> IllegalMove:
        i = self._seat_index()
        left = self.hands[i]
        if not self._turn:
            return IllegalMove("the turn has not started")
        if self.owed[i]:
            return IllegalMove("you owe a release: place every disc in your hand ({count} more)", count=left)
        return IllegalMove("a release places every disc in your hand: {count} more to place", count=left)

    def _occupied_message(self, point: int) -> IllegalMove:
        owner = self.cells[point]
        return IllegalMove(
            "{cell} is occupied by a {colour} disc", cell=self.board.names[point], colour=SEAT_COLOURS[owner - 1]
        )

    # -- notation ------------------------------------------------------------------

    def parse_action(self, text: str) -> int:
        token = text.strip().lower()
        if token in ("bide", "pass"):
            if self.is_over:
                raise IllegalMove("the game is over")
            if not self.bide_allowed():
                raise self._why_no_bide()
            return BIDE
        try:
            point = self.board.parse(token)
        except CellNameError as error:
            raise IllegalMove(error.template, **error.fields) from None
        if self.is_over:
            raise IllegalMove("the game is over")
        if self.cells[point]:
            raise self._occupied_message(point)
        if self._turn:
            if self._turn[0] == BIDE:
                raise IllegalMove("bide is a whole turn: {action} cannot follow it", action=token)
            if self.hands[self._seat_index()] == 0:
                placed = ",".join(self.format_action(a) for a in self._turn)
                raise IllegalMove(
                    "your hand is empty after {placed}, so {action} cannot be placed "
                    "(a release places only the discs in your hand)",
                    placed=placed,
                    action=token,
                )
        return point

    def format_action(self, action: int) -> str:
        return "bide" if action == BIDE else self.board.names[action]

    def describe_action(self, action: int, say: Say = plain) -> str:
        if action == BIDE:
            count = self.hands[self._seat_index()]
            if count == 1:
                return say("bide — keep your {count} disc in hand", count=count)
            return say("bide — keep your {count} discs in hand", count=count)
        value = self.board.edge_distance[action]
        trial = self.copy()
        told: list[Event] = []
        trial._place(action, self.current or 1, told)
        pushed = sum(1 for e in told if e.kind == "push")
        cell = self.format_action(action)
        if not pushed:
            return say("{cell} — value {value}", cell=cell, value=value)
        if pushed == 1:
            return say("{cell} — value {value}, pushes {count} disc", cell=cell, value=value, count=pushed)
        return say("{cell} — value {value}, pushes {count} discs", cell=cell, value=value, count=pushed)

    def copy(self) -> Bide:
        # The board geometry is immutable and shared; only the mutable lists are copied.
        twin = object.__new__(Bide)
        state = self.__dict__.copy()
        state["cells"] = self.cells[:]
        state["hands"] = self.hands[:]
        state["pools"] = self.pools[:]
        state["owed"] = self.owed[:]
        state["resigned"] = self.resigned[:]
        state["_turn"] = self._turn[:]
        state["options"] = dict(self.options)
        twin.__dict__ = state
        return twin

    def rank_actions(self, actions: list[int]) -> list[int]:
        # Bide first (one tap), then the most valuable points.
        values = self.board.edge_distance
        return sorted(actions, key=lambda a: (a != BIDE, -values[a] if a >= 0 else 0, a))

    # -- cells -----------------------------------------------------------------------

    def cell_names(self) -> tuple[str, ...]:
        return self.board.names

    def parse_cell(self, text: str) -> str:
        try:
            return self.board.names[self.board.parse(text)]
        except CellNameError as error:
            raise IllegalMove(error.template, **error.fields) from None

    # -- resignation ---------------------------------------------------------------

    def resign(self, seat: int) -> list[Event]:
        if self.is_over:
            raise IllegalMove("the game is over")
        if not 1 <= seat <= self.players or self.resigned[seat - 1]:
            raise IllegalMove("seat {seat} is not in play", seat=seat)
        if self._turn:
            raise IllegalMove("cannot resign in the middle of a turn")
        self.resigned[seat - 1] = True
        self.owed[seat - 1] = False
        events = [Event("resign", seat=seat)]
        remaining = [s for s in range(1, self.players + 1) if self._active(s)]
        if len(remaining) == 1:
            self._result = (remaining[0],)
            self._end_reason = "resignation"
            events.append(Event("end", data=(("reason", "resignation"),)))
        elif seat == self.current:
            self._start_turn_of(self._next_seat(seat), events)
        return events

    # -- scoring -------------------------------------------------------------------

    def group_scores(self, min_value: int = 0) -> list[int]:
        """Each seat's best group score, counting only discs of value >= ``min_value``."""
        cells = self.cells
        values = self.board.edge_distance
        nbrs = self.board.neighbour_indices
        best = [0] * self.players
        seen = [False] * len(cells)
        for start, owner in enumerate(cells):
            if not owner or seen[start] or values[start] < min_value:
                continue
            seen[start] = True
            stack = [start]
            total = 0
            while stack:
                p = stack.pop()
                total += values[p]
                for q in nbrs[p]:
                    if not seen[q] and cells[q] == owner and values[q] >= min_value:
                        seen[q] = True
                        stack.append(q)
            if total > best[owner - 1]:
                best[owner - 1] = total
        return best

    def scores(self) -> tuple[float, ...]:
        return tuple(self.group_scores())

    def tiebreak_rounds(self) -> list[dict[int, int]]:
        """Leaders' scores round by round: round k ignores the k outer rings."""
        candidates = [s for s in range(1, self.players + 1) if self._active(s)]
        rounds: list[dict[int, int]] = []
        max_ring = max(self.board.edge_distance)
        for ring in range(max_ring + 1):
            scores = self.group_scores(ring)
            row = {s: scores[s - 1] for s in candidates}
            rounds.append(row)
            top = max(row.values())
            candidates = [s for s in candidates if row[s] == top]
            if len(candidates) == 1:
                break
            if not any(
                self.cells[p] in candidates for p in range(len(self.cells)) if self.board.edge_distance[p] > ring
            ):
                break  # no disc of the leaders is left: they share the win
        return rounds

    def _leaders(self) -> tuple[int, ...]:
        last = self.tiebreak_rounds()[-1]
        top = max(last.values())
        return tuple(s for s, v in last.items() if v == top)

    def _finish(self, reason: str) -> None:
        if self._turn:  # the board filled in the middle of a turn: that turn counts
            self._turn = []
            self._ply += 1
            if self.current is not None:
                self.owed[self.current - 1] = False  # and it settled the seat's own debt
        self._result = self._leaders()
        self._end_reason = reason
        self.current = None

    # -- serialization -------------------------------------------------------------

    def position(self) -> dict[str, Any]:
        names = self.board.names
        doc: dict[str, Any] = {
            "board": {names[p]: v for p, v in enumerate(self.cells) if v},
            "hands": list(self.hands),
            "pools": list(self.pools),
            "to_move": self.to_move,
            "owed": [s for s in range(1, self.players + 1) if self.owed[s - 1]],
        }
        if any(self.resigned):
            doc["resigned"] = [s for s in range(1, self.players + 1) if self.resigned[s - 1]]
        return doc

    @classmethod
    def from_position(cls, players: int, options: Mapping[str, Any] | None, position: Mapping[str, Any]) -> Bide:
        cls.info.check_players(players)
        game = cls(players, cls.info.resolve_options(options))
        try:
            board = position.get("board", {})
            for name, seat in board.items():
                point = game.board.parse(name)
                if not isinstance(seat, int) or not 1 <= seat <= players:
                    raise StateError("{name}: seat {seat!r} is not 1–{players}", name=name, seat=seat, players=players)
                game.cells[point] = seat
            game.empty_count = game.cells.count(0)
            for key in ("hands", "pools"):
                values = position.get(key)
                if values is None:
                    continue
                if len(values) != players or any(not isinstance(v, int) or v < 0 for v in values):
                    raise StateError("{key} must list {players} counts of zero or more", key=key, players=players)
                setattr(game, key, list(values))
            for seat in position.get("owed", []):
                game.owed[int(seat) - 1] = True
            for seat in position.get("resigned", []):
                game.resigned[int(seat) - 1] = True
            to_move = position.get("to_move", 1)
        except CellNameError as error:
            raise StateError(error.template, **error.fields) from None
        except (AttributeError, TypeError, ValueError, IndexError) as error:
            if isinstance(error, StateError):
                raise
            raise StateError("malformed Bide position: {error}", error=error) from None
        if game.empty_count == 0:
            game._finish("board full")
        elif to_move is None:
            # Over before the board filled: by resignation when a single seat is left in play.
            in_play = [s for s in range(1, players + 1) if game._active(s)]
            game._finish("resignation" if len(in_play) == 1 else "over")
        else:
            if not isinstance(to_move, int) or not 1 <= to_move <= players:
                raise StateError("to_move must be a seat 1–{players} or null", players=players)
            if not game._active(to_move) or (game.pools[to_move - 1] == 0 and game.hands[to_move - 1] == 0):
                game._start_turn_of(to_move, None)  # normalise: skip a seat that cannot act
            elif game.hands[to_move - 1] == 0:
                # Hands are read after the draw; a position that omits it (a hand-written
                # puzzle, say) gets the draw the turn would have begun with.
                game._start_turn_of(to_move, None)
            else:
                game.current = to_move
        return game

    # -- text ----------------------------------------------------------------------

    def render_text(self) -> str:
        symbols = ".123456"
        lines = []
        widest = max(len(r) for r in self.board.rows)
        for row_number, row in enumerate(self.board.rows):
            letter = chr(ord("a") + row_number)
            pad = " " * (widest - len(row))
            lines.append(f"{letter} {pad}" + " ".join(symbols[self.cells[p]] for p in row))
        lines.append("")
        for s in range(1, self.players + 1):
            i = s - 1
            flags = []
            if self.resigned[i]:
                flags.append("resigned")
            if self.owed[i]:
                flags.append("owes a release")
            if self.to_move == s:
                flags.append("to move")
            extra = f" ({', '.join(flags)})" if flags else ""
            lines.append(
                f"{s} {SEAT_COLOURS[i]:<6} hand {self.hands[i]:>2}  pool {self.pools[i]:>2}"
                f"  score {self.group_scores()[i]:>3}{extra}"
            )
        if self.is_over:
            names = " and ".join(f"{s} {SEAT_COLOURS[s - 1]}" for s in self.winners)
            verb = "share the win" if len(self.winners) > 1 else "wins"
            lines.append(f"Game over ({self._end_reason}): {names} {verb}.")
        return "\n".join(lines)


Bide.info = GameInfo(
    id="bide",
    name="Bide",
    min_players=2,
    max_players=6,
    options=(OptionSpec("side", 5, (4, 5, 6), "board side: 4 (37 points), 5 (61) or 6 (91)"),),
    summary=RULES_SUMMARY,
    seat_names=SEAT_COLOURS,
    quick_actions=(QuickAction("bide", "Bide"),),
    multi_action_turns=True,
    game_class=Bide,
)
