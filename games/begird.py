"""Begird (Mark Steere, 2008): the rules in :data:`RULES_SUMMARY`, this project's decisions in docs/rules.md.

Boards and islands
------------------
The boards (option ``board``: ``standard``, ``small``, ``y``), the islands around them and the table
of winning island masks are :mod:`games.begirdboard` (its docstring has the geometry); its
:class:`Layout` and :func:`layout` are re-exported here.

Seats, colours and the pie rule
-------------------------------
Engine seats are **colours**: seat 1 is Black, seat 2 is White, everywhere
(``to_move``, ``winners``, the position's stones, ``resign(seat)``, event
seats). Black places first. On the second turn only (``ply == 1``) White
may answer ``swap``: the board does not change, the player who joined as
White takes over Black (the stone already placed becomes theirs) and the
player who joined as Black becomes White. The swap is a turn of its own
(``ply`` counts it) and after it ``to_move`` is still ``2``: White — now the
*other* player — makes the next placement. :attr:`Begird.swapped` tells a
client how to map players to colours: while it is false the player who
joined first plays Black; once true, the player who joined second plays
Black (see :meth:`Begird.player_of_seat`, :meth:`Begird.player_of_colour` and
:meth:`Begird.colour_of_player`).

Win
---
A group (connected stones of one colour) wins when it touches at least three
islands and ``N`` minus the longest run of consecutive islands it does not
touch is at least ``(N + 3) / 2`` (9 of 15, 6 of 9, 3 of 3). The game ends at
the winning placement. Detection is incremental: a union-find over cell
indices keeps, for each group, the bitmask of islands it touches; a
placement merges the new stone with its same-coloured neighbours and only
that merged mask is looked up in a precomputed table of winning masks.

Position form (``Begird.position()``)::

    {"board": {"e5": 1, "f6": 2, ...}, "to_move": 1, "swapped": false}

``to_move`` is the colour to place next (``null`` once the game is over).
``ply`` (kept in the full state) counts completed turns: placements, the swap,
and the winning placement; a position alone implies ``stones + swapped``.
``"resigned": [seat]`` is added when the game ended by resignation. Without a
``to_move`` key the colour to move is inferred from the stone counts.

Actions are cell indices, or :data:`SWAP` for the pie rule; a turn is
exactly one action.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any

# Layout and layout are re-exported: the computer's knowledge and puzzles (ai/) read a board's layout
# from the game they play.
from .begirdboard import VARIANTS
from .begirdboard import Layout as Layout
from .begirdboard import layout as layout
from .hexgrid import Cell, CellNameError
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

SWAP = -1
BLACK, WHITE = 1, 2
SEAT_COLOURS = ("Black", "White")

RULES_SUMMARY = """\
**Begird** — 2 players, Black and White, on a hexagonal board of 243 cells
surrounded by 15 numbered **islands**.
Players take turns placing one stone of their colour on any empty cell;
Black starts. **Pie rule:** on the second turn White may answer `swap`
instead of placing, taking over Black's stone (and Black) while the other
player continues as White.
**To win**, a group of your stones leaves no 7 islands in a row untouched
(islands 1, 5 and 9 do it). Draws are impossible.
Variants: `small` (75 cells, 9 islands: leave no 4 in a row untouched) and
`y` (the game of Y: a triangle whose 3 sides are the islands; touch all
three). In pictures the islands alternate two colours; the last one (15,
or 9 on `small`) has its own only to set it apart from island 1.
Notation: a cell such as `e5`, or `swap`."""


class Begird(TurnBookkeeping[int]):
    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = dict(options)
        lay = layout(self.options["board"])
        self.layout = lay
        self.board = lay.board
        n = len(lay.board)
        self.cells: list[int] = [0] * n
        self.parent: list[int] = list(range(n))
        self.size: list[int] = [1] * n
        self.masks: list[int] = list(lay.cell_masks)
        self.empties: list[int] = list(range(n))  # sorted
        self.current: int = BLACK
        self.swapped = False
        self._ply = 0
        self._turn: list[int] = []
        self._result: tuple[int, ...] | None = None
        self._end_reason: str | None = None
        self._resigned: int | None = None
        self._winning_cell: int | None = None
        self.last_action: int | None = None

    # -- creation ------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 2, options: Mapping[str, Any] | None = None) -> Begird:
        cls.info.check_players(players)
        return cls(players, cls.info.resolve_options(options))

    # -- players and colours ---------------------------------------------------------

    def colour_of_player(self, joined: int) -> int:
        """The colour (1 Black, 2 White) played by the player who joined ``joined``-th (1 or 2)."""
        return 3 - joined if self.swapped else joined

    def player_of_colour(self, colour: int) -> int:
        """Which player (1 = joined first, 2 = joined second) plays ``colour``."""
        return 3 - colour if self.swapped else colour

    def player_of_seat(self, seat: int) -> int:
        """The interface's name for :meth:`player_of_colour` (seats are colours)."""
        return self.player_of_colour(seat)

    # -- whose turn, and the end ---------------------------------------------------

    def scores(self) -> None:
        return None

    # -- the turn ------------------------------------------------------------------

    def swap_allowed(self) -> bool:
        return self._result is None and not self._turn and self._ply == 1 and not self.swapped

    def legal_actions(self) -> list[int]:
        if self._result is not None or self._turn:
            return []
        if self._ply == 1 and not self.swapped:
            return [SWAP] + self.empties
        return self.empties[:]

    def can_end_turn(self) -> bool:
        return self._result is None and bool(self._turn)

    def apply_action(self, action: int) -> list[Event]:
        events: list[Event] = []
        self._apply(action, events)
        return events

    def apply_quiet(self, action: int) -> None:
        self._apply(action, None)

    def _apply(self, action: int, events: list[Event] | None) -> None:
        """Apply one action, telling what happened in ``events`` (``None``: the quiet path)."""
        if self._result is not None:
            raise IllegalMove("the game is over")
        if self._turn:
            raise IllegalMove("one stone per turn: this turn is complete")
        colour = self.current
        if action == SWAP:
            if not self.swap_allowed():
                raise self._why_no_swap()
            self.swapped = True
            self._turn.append(SWAP)
            self.last_action = SWAP
            if events is not None:
                events.append(Event("swap", seat=colour))
            return
        cells = self.cells
        if type(action) is not int or not 0 <= action < len(cells):
            raise IllegalMove("no such cell: {cell!r}", cell=action)
        if cells[action]:
            raise self._occupied_message(action)
        self._turn.append(action)
        self.last_action = action
        if events is not None:
            events.append(Event("place", seat=colour, cell=self.board.names[action]))
        if self._place(action, colour):
            # The winning placement completes its turn: nothing is left in progress.
            self._turn = []
            self._ply += 1
            self._win(colour, action, "connection")
            if events is not None:
                events.append(Event("end", seat=colour, data=(("reason", "connection"),)))

    def _place(self, i: int, colour: int) -> bool:
        """Put a stone on empty cell ``i``; return whether its group now wins."""
        cells = self.cells
        cells[i] = colour
        # The empty cells stay sorted, so legal_actions() is a function of the position.
        del self.empties[bisect_left(self.empties, i)]
        # Union-find: merge i with its same-coloured neighbours (size + path halving).
        parent = self.parent
        size = self.size
        masks = self.masks
        root = i
        mask = masks[i]
        for n in self.layout.neighbours[i]:
            if cells[n] == colour:
                while parent[n] != n:
                    parent[n] = parent[parent[n]]
                    n = parent[n]
                if n != root:
                    mask |= masks[n]
                    if size[n] > size[root]:
                        parent[root] = n
                        size[n] += size[root]
                        root = n
                    else:
                        parent[n] = root
                        size[root] += size[n]
        masks[root] = mask
        return self.layout.win_table[mask] == 1

    def _find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def _win(self, colour: int, cell: int | None, reason: str) -> None:
        self._result = (colour,)
        self._end_reason = reason
        self._winning_cell = cell

    def end_turn(self) -> list[Event]:
        if self._result is not None:
            raise IllegalMove("the game is over")
        if not self._turn:
            raise IllegalMove("place a stone (or swap) before ending the turn")
        if self._turn[0] != SWAP:
            # After a swap the colour to move stays White: the other player now plays it.
            self.current = 3 - self.current
        self._turn = []
        self._ply += 1
        return []

    # -- errors that explain ---------------------------------------------------------

    def _why_no_swap(self) -> IllegalMove:
        if self._turn:
            return IllegalMove("one stone per turn: swap must be the whole turn")
        if self._ply == 0:
            return IllegalMove("swap is only possible on the second turn, as White's answer to Black's first stone")
        if self.swapped:
            return IllegalMove("the colours have already been swapped; swap can be used only once")
        return IllegalMove("swap (the pie rule) is only possible on the second turn of the game; it is too late now")

    def _occupied_message(self, i: int) -> IllegalMove:
        return IllegalMove(
            "{cell} is occupied by a {colour} stone", cell=self.board.names[i], colour=SEAT_COLOURS[self.cells[i] - 1]
        )

    # -- notation ------------------------------------------------------------------

    def parse_action(self, text: str) -> int:
        token = text.strip().lower()
        if self._result is not None:
            raise IllegalMove("the game is over")
        if token in ("swap", "pie"):
            if not self.swap_allowed():
                raise self._why_no_swap()
            return SWAP
        try:
            i = self.board.parse(token)
        except CellNameError as error:
            raise IllegalMove(error.template, **error.fields) from None
        if self.cells[i]:
            raise self._occupied_message(i)
        if self._turn:
            raise IllegalMove(
                "one stone per turn: {action} cannot follow {played}", action=token, played=self.format_turn(self._turn)
            )
        return i

    def format_action(self, action: int) -> str:
        return "swap" if action == SWAP else self.board.names[action]

    def describe_action(self, action: int, say: Say = plain) -> str:
        if action == SWAP:
            first = next((self.board.names[i] for i, v in enumerate(self.cells) if v == BLACK), "?")
            return say("swap — take Black and its stone on {cell}; the other player places next as White", cell=first)
        name = self.board.names[action]
        lay = self.layout
        touched = lay.islands_of(lay.cell_masks[action])
        if touched:
            islands = _listed(touched, say)
            if len(touched) > 1:
                hint = say("{cell} — touches islands {islands}", cell=name, islands=islands)
            else:
                hint = say("{cell} — touches island {islands}", cell=name, islands=islands)
        else:
            gaps = lay.island_distance[action]
            near = min(gaps)
            which = [k + 1 for k, g in enumerate(gaps) if g == near]
            if len(which) <= 2:
                islands = _listed(which, say)
                if near == 1 and len(which) == 1:
                    hint = say("{cell} — {count} cell from island {islands}", cell=name, count=near, islands=islands)
                elif near == 1:
                    hint = say("{cell} — {count} cell from islands {islands}", cell=name, count=near, islands=islands)
                elif len(which) == 1:
                    hint = say("{cell} — {count} cells from island {islands}", cell=name, count=near, islands=islands)
                else:
                    hint = say("{cell} — {count} cells from islands {islands}", cell=name, count=near, islands=islands)
            elif near == 1:  # far from many at once (the middle): a count, not a list (issue 26)
                hint = say("{cell} — {count} cell from {islands} islands", cell=name, count=near, islands=len(which))
            else:
                hint = say("{cell} — {count} cells from {islands} islands", cell=name, count=near, islands=len(which))
        colour = self.to_move
        if colour is not None and not self.cells[action]:
            if self._would_win(action, colour):
                hint = say("{hint}; wins the game", hint=hint)
            elif self._would_win(action, 3 - colour):
                hint = say("{hint}; blocks a winning cell of the opponent", hint=hint)
        return hint

    def describe_actions(self, actions: Sequence[int], say: Say = plain) -> list[str]:
        """As :meth:`describe_action`, and the first cell far from many islands (the middle, where a list of
        islands teaches nothing) says the winning rule too, in the picture's words (:func:`rule_words`): once
        in a list, never on every line (issue 37)."""
        described = [self.describe_action(action, say) for action in actions]
        lay = self.layout
        for index, action in enumerate(actions):
            if action != SWAP and not lay.cell_masks[action] and self._far_from_many(action):
                described[index] = say("{hint}. {rule}", hint=described[index], rule=rule_words(lay, say))
                break
        return described

    def _far_from_many(self, action: int) -> bool:
        """More than two islands at the cell's least distance: its hint counts them instead of naming them."""
        gaps = self.layout.island_distance[action]
        return sum(1 for g in gaps if g == min(gaps)) > 2

    def would_win(self, i: int, colour: int) -> bool:
        """Whether a stone of ``colour`` on empty cell ``i`` would win at once (for tools such as the AI)."""
        return self._would_win(i, colour)

    def _would_win(self, i: int, colour: int) -> bool:
        lay = self.layout
        mask = lay.cell_masks[i]
        cells = self.cells
        for n in lay.neighbours[i]:
            if cells[n] == colour:
                mask |= self.masks[self._find(n)]
        return lay.win_table[mask] == 1

    def rank_actions(self, actions: list[int]) -> list[int]:
        """Suggestions first: swap, winning cells, cells that stop the opponent's win,
        then cells next to the mover's stones, then cells nearest the centre."""
        colour = self.to_move
        if colour is None:
            return list(actions)
        cells = self.cells
        nbrs = self.layout.neighbours
        depth = self.board.edge_distance

        def key(a: int) -> tuple[int, ...]:
            if a == SWAP:
                return (0,)
            own = sum(1 for n in nbrs[a] if cells[n] == colour)
            return (
                1,
                not self._would_win(a, colour),
                not self._would_win(a, 3 - colour),
                own == 0,
                -depth[a],
            )

        return sorted(actions, key=key)

    def copy(self) -> Begird:
        # The layout is immutable and shared; only the mutable lists are copied.
        twin = object.__new__(Begird)
        state = self.__dict__.copy()
        state["cells"] = self.cells[:]
        state["parent"] = self.parent[:]
        state["size"] = self.size[:]
        state["masks"] = self.masks[:]
        state["empties"] = self.empties[:]
        state["_turn"] = self._turn[:]
        state["options"] = dict(self.options)
        twin.__dict__ = state
        return twin

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
        """The colour ``seat`` (1 Black, 2 White) resigns; the other colour wins."""
        self._check_two_seat_resignation(seat)
        self._resigned = seat
        self._win(3 - seat, None, "resignation")
        return [Event("resign", seat=seat), Event("end", seat=3 - seat, data=(("reason", "resignation"),))]

    # -- groups ------------------------------------------------------------------------

    def group_of(self, i: int) -> list[int]:
        """Cell indices of the group holding cell ``i`` (empty when ``i`` is empty)."""
        if not self.cells[i]:
            return []
        root = self._find(i)
        colour = self.cells[i]
        return [k for k, v in enumerate(self.cells) if v == colour and self._find(k) == root]

    def group_islands(self, i: int) -> list[int]:
        """Island numbers touched by the group holding cell ``i``."""
        if not self.cells[i]:
            return []
        return self.layout.islands_of(self.masks[self._find(i)])

    # -- serialization -------------------------------------------------------------

    def position(self) -> dict[str, Any]:
        names = self.board.names
        doc: dict[str, Any] = {
            "board": {names[i]: v for i, v in enumerate(self.cells) if v},
            "to_move": self.to_move,
            "swapped": self.swapped,
        }
        if self._resigned is not None:
            doc["resigned"] = [self._resigned]  # a list, as in every game's position form
        return doc

    @classmethod
    def from_position(cls, players: int, options: Mapping[str, Any] | None, position: Mapping[str, Any]) -> Begird:
        cls.info.check_players(players)
        game = cls(players, cls.info.resolve_options(options))
        try:
            board = position.get("board", {})
            placed: list[tuple[int, int]] = []
            for name, colour in board.items():
                i = game.board.parse(name)
                if any(i == j for j, _ in placed):
                    raise StateError("{name} is listed twice", name=name)
                if not isinstance(colour, int) or isinstance(colour, bool) or colour not in (BLACK, WHITE):
                    raise StateError(
                        "{name}: colour {colour!r} is not 1 (Black) or 2 (White)", name=name, colour=colour
                    )
                placed.append((i, colour))
            swapped = position.get("swapped", False)
            if not isinstance(swapped, bool):
                raise StateError("swapped must be true or false")
            resigned = position.get("resigned")
            if isinstance(resigned, list):  # the documented form; a bare seat is accepted too
                resigned = resigned[0] if len(resigned) == 1 else (None if not resigned else 0)
            if resigned is not None and resigned not in (BLACK, WHITE):
                raise StateError("resigned must list one seat, 1 or 2")
            to_move_given = "to_move" in position
            to_move = position.get("to_move")
        except CellNameError as error:
            raise StateError(error.template, **error.fields) from None
        except (AttributeError, TypeError, ValueError) as error:
            if isinstance(error, StateError):
                raise
            raise StateError("malformed Begird position: {error}", error=error) from None
        wins: dict[int, int] = {}
        for i, colour in placed:
            if game._place(i, colour):
                wins.setdefault(colour, i)
        # A winning group found early may have grown since: keep any of its cells.
        blacks = sum(1 for _, c in placed if c == BLACK)
        whites = len(placed) - blacks
        game.swapped = swapped
        game._ply = len(placed) + (1 if swapped else 0)
        if swapped and len(placed) == 0:
            raise StateError("a swap needs Black's first stone on the board")
        if len(wins) == 2:
            raise StateError("both colours have a winning group")
        if not to_move_given:
            to_move = BLACK if blacks <= whites else WHITE
        if to_move is not None and to_move not in (BLACK, WHITE):
            raise StateError("to_move must be 1 (Black), 2 (White) or null")
        game.current = to_move if to_move is not None else (BLACK if blacks <= whites else WHITE)
        if resigned is not None:
            if wins:
                raise StateError("a game won on the board cannot also be resigned")
            game._resigned = resigned
            game._win(3 - resigned, None, "resignation")
        elif wins:
            ((colour, cell),) = wins.items()
            game._win(colour, cell, "connection")
        elif to_move is None:
            if not game.empties:
                raise StateError("the board is full but nobody has a winning group")
            raise StateError("to_move is null but nobody has won or resigned")
        return game

    def _state_extra(self) -> dict[str, Any]:
        last = self.format_action(self.last_action) if self.last_action is not None else None
        return {**super()._state_extra(), "last": last}

    def _load_state_extra(self, extra: Mapping[str, Any]) -> None:
        super()._load_state_extra(extra)
        last = extra.get("last")
        if last == "swap":
            self.last_action = SWAP
        elif last:
            try:
                self.last_action = self.board.parse(last)
            except CellNameError as error:
                raise StateError(error.template, **error.fields) from None

    # -- text ----------------------------------------------------------------------

    def render_text(self) -> str:
        """The board with the islands around it: ``x`` Black, ``o`` White (capitals: the
        winning group), ``.`` empty; island cells show their number (A–F for 10–15)."""
        board = self.board
        lay = self.layout
        marks: dict[Cell, str] = {}
        digits = "123456789ABCDEF"
        for k, island in enumerate(lay.islands):
            for c in island:
                marks[c] = digits[k] if k < len(digits) else "#"
        winning = set(winning_group(self)[0]) if self._winning_cell is not None else set()
        for i, c in enumerate(board.cells):
            v = self.cells[i]
            sym = ".xo"[v]
            if board.names[i] in winning:
                sym = sym.upper()
            marks[c] = sym
        rows = sorted({r for _, r in marks})
        left = min(2 * q + r for q, r in marks)
        lines = []
        first_row = min(r for _, r in board.cells)
        for r in rows:
            row_cells = sorted((q for q, rr in marks if rr == r))
            line = [" "] * (max(2 * q + r for q in row_cells) - left + 1)
            for q in row_cells:
                line[2 * q + r - left] = marks[(q, r)]
            k = r - first_row
            label = chr(ord("a") + k) if 0 <= k < len(board.rows) else " "
            lines.append(f"{label}  " + "".join(line).rstrip())
        lines.append("")
        if self.swapped:
            lines.append("Colours swapped (pie rule): the second player plays Black.")
        if self.is_over:
            colour = self.winners[0]
            how = "by resignation" if self._end_reason == "resignation" else "by connection"
            lines.append(f"Game over: {SEAT_COLOURS[colour - 1]} wins {how}.")
            if self._winning_cell is not None:
                islands = winning_group(self)[1]
                lines.append("Winning group touches islands " + ", ".join(map(str, islands)) + ".")
        else:
            lines.append(f"{SEAT_COLOURS[self.current - 1]} to move.")
        return "\n".join(lines)


def winning_group(game: Begird) -> tuple[list[str], list[int]]:
    """The winning group's cell names and the islands it touches (empty if none)."""
    cell = game._winning_cell
    if cell is None:
        return [], []
    members = game.group_of(cell)
    return [game.board.names[i] for i in members], game.group_islands(cell)


Begird.info = GameInfo(
    id="begird",
    name="Begird",
    min_players=2,
    max_players=2,
    options=(
        OptionSpec(
            "board",
            "standard",
            VARIANTS,
            "board: standard (243 cells, 15 islands), small (75 cells, 9 islands) or y (the game of Y)",
        ),
    ),
    summary=RULES_SUMMARY,
    seat_names=SEAT_COLOURS,
    quick_actions=(QuickAction("swap", "Swap"),),
    game_class=Begird,
)


def rule_words(lay: Layout, say: Say = plain) -> str:
    """The winning rule in one wording, for the picture's rule line (``render/begird.py``) and the autocomplete:
    by RULES.md a group wins when the islands minus the longest run it leaves untouched reach ``need``; said the
    way round a player looks at the ring (Y's three sides: touch them all)."""
    if lay.island_count <= 3:
        return say("To win, a group touches all three sides")
    return say("To win, a group leaves no {gap} islands in a row untouched", gap=lay.island_count - lay.need + 1)


def _listed(items: Sequence[object], say: Say) -> str:
    """``1 and 2 and 3``: the joining word said in the reader's language."""
    joined = str(items[0])
    for item in items[1:]:
        joined = say("{before} and {after}", before=joined, after=item)
    return joined
