"""Play Bai (David Florsch and Pauline Détraz, 2025): the rules in :data:`RULES_SUMMARY`, this project's
decisions in docs/rules.md.

Field (option ``side``: 5 or 6)
-------------------------------
A hex-hex field (side 5: 61 cells ``a1``…``i5``, centre ``e5``). The three
left corners are seat 1's end zones (``a1 e1 i1``), the three right corners
seat 2's (``a5 e9 i5``); only end zones carry a dot. A set begins with seat
1 on ``b2 e2 h2``, seat 2 on ``b5 e8 h5`` (one step from each end zone
towards the centre) and the ball loose on the centre.

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

The turn in progress
--------------------
:meth:`apply_action` accepts every action the movement rules allow, even one
after which the turn can no longer end (three moves made and a playballer on
a dot); :meth:`end_turn` then says why. :meth:`legal_actions` lists only the
actions after which a complete turn is still reachable, so a client (or a
random player) that follows it never gets stuck. A goal ends the turn at
once: afterwards :meth:`legal_actions` is empty, :meth:`can_end_turn` is true
and any further action is refused.

Complete turns
--------------
:meth:`complete_turns` enumerates the distinct resulting positions of every
complete turn from the current (possibly half-entered) turn by a
breadth-first search over in-turn states ``(team's cells, ball cell, moves
used)`` with a visited set; each position comes with a notation with the
fewest moves. Team-mates are interchangeable, so the team's cells are a
bitmask, and each team shape carries the set of its ball cells as a second
bitmask (see the comment above :func:`search_turns`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, TypeAlias

from .hexgrid import DIRECTION_NAMES, CellNameError, HexBoard, direction_index, step
from .interface import (
    Event,
    GameInfo,
    IllegalMove,
    OptionSpec,
    Say,
    StateError,
    TurnBookkeeping,
    plain,
    split_turn,
)

STEP, JUMP, PASS = 0, 1, 2
# (STEP, src, dst), (JUMP, src, direction) or (PASS, src, dst): plain tuples, as the turn search
# builds paths by concatenating them by the million.
PlayBaiAction: TypeAlias = tuple[int, int, int]
Path: TypeAlias = tuple[PlayBaiAction, ...]
# A complete turn's result: the team's cells and the ball as one int, GOAL, or ("win", that int).
ResultKey: TypeAlias = int | tuple[Literal["goal"]] | tuple[Literal["win"], int]
SEAT_COLOURS = ("Orange", "Blue")
GOALS_TO_WIN = 3
MOVES_PER_TURN = 3
KICKOFF_MOVES = 2
# A non-winning goal always leads to the same position (the set-up, the other
# seat kicking off), so every such turn has this one resulting position.
GOAL: tuple[Literal["goal"]] = ("goal",)

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


# -- the field ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """Everything fixed about a field size: geometry, end zones, set-up, lines."""

    side: int
    board: HexBoard
    nbr: tuple[tuple[int, ...], ...]  # per cell, per direction: the neighbour or -1
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # per cell, per direction: cells to the edge
    zones: tuple[tuple[int, ...], tuple[int, ...]]  # end zones of seat 1 and seat 2
    dots: frozenset[int]
    zone_owner: tuple[int, ...]  # per cell: the seat whose end zone it is, else 0
    setup: tuple[tuple[int, ...], tuple[int, ...]]
    centre: int
    lines: dict[tuple[int, int], tuple[int, ...]]  # (a, b) in line: the cells strictly between
    direction_between: dict[tuple[int, int], int]  # (a, b) in line: direction from a to b


@cache
def field(side: int = 5) -> Field:
    board = HexBoard.hexhex(side)
    n = side - 1
    index = board.index
    nbr = tuple(tuple(index.get(step(c, d), -1) for d in range(6)) for c in board.cells)
    # Corners clockwise from the top-left: a1, top-right, right, bottom-right, bottom-left, left.
    corners = [(0, -n), (n, -n), (n, 0), (0, n), (-n, n), (-n, 0)]
    left = (corners[0], corners[5], corners[4])  # a1, e1, i1 (side 5)
    right = (corners[1], corners[2], corners[3])  # a5, e9, i5
    zones = (tuple(sorted(index[c] for c in left)), tuple(sorted(index[c] for c in right)))
    owner = [0] * len(board)
    for seat, cells in enumerate(zones, start=1):
        for i in cells:
            owner[i] = seat

    def in_front(c: tuple[int, int]) -> int:
        # One step from the corner towards the centre: the neighbour nearest (0, 0).
        best = min((step(c, d) for d in range(6)), key=lambda x: max(abs(x[0]), abs(x[1]), abs(x[0] + x[1])))
        return index[best]

    setup = (tuple(sorted(in_front(c) for c in left)), tuple(sorted(in_front(c) for c in right)))
    lines: dict[tuple[int, int], tuple[int, ...]] = {}
    direction_between: dict[tuple[int, int], int] = {}
    for a in range(len(board)):
        for d in range(6):
            ray = board.rays[a][d]
            for k, b in enumerate(ray):
                lines[(a, b)] = ray[:k]
                direction_between[(a, b)] = d
    return Field(
        side=side,
        board=board,
        nbr=nbr,
        rays=board.rays,
        zones=zones,
        dots=frozenset(zones[0] + zones[1]),
        zone_owner=tuple(owner),
        setup=setup,
        centre=index[(0, 0)],
        lines=lines,
        direction_between=direction_between,
    )


# -- the search over one turn ------------------------------------------------------------------
#
# A turn state is the mover's cells (a bitmask: team-mates are interchangeable),
# the ball's cell and the moves made so far. The opponent does not move during
# the turn, so its cells are a fixed bitmask. The search goes layer by layer
# (moves made). A layer maps each team shape (cells mask) to the *set* of ball
# cells it was reached with, as a bitmask too, so a move is worked out once per
# shape and carries every ball cell along with a few bit operations: the cells
# whose ball the mover takes go to its landing cell, the others stay. Passes
# are folded in as the closure of the held ball cells under "can pass to",
# which for a team of at most 3 is the union of its connected components; a
# cell's pass reach (the cells in line with no opponent between) is worked
# out once per search. A state already reached with fewer moves is never
# explored again (it could do everything the later one can); only states new
# to the search get a path (the actions that reach them).

KEY_SHIFT = 128  # key = cells mask | ball << KEY_SHIFT (fields have at most 91 cells)


# Per cell, per direction: (neighbour, its bit, both cells' bits, (step,), (jump,), ((cell, bit) beyond, ...)).
_Moves: TypeAlias = tuple[tuple[tuple[int, int, int, Path, Path, tuple[tuple[int, int], ...]], ...], ...]
_Tables: TypeAlias = tuple[
    _Moves,
    tuple[tuple[tuple[tuple[int, ...], int], ...], ...],  # per cell: (ray, its mask) per direction
    int,  # the dots' mask
    tuple[int, ...],  # the end zones' masks
    tuple[tuple[PlayBaiAction, ...], ...],  # pass actions by (from, to)
    tuple[int, ...],  # ball cells shifted into keys
]


@cache
def _tables(side: int) -> _Tables:
    """Per field: per cell, its moves as (neighbour, its bit, both cells' bits,
    (step action,), (jump action,), (cell, bit) beyond the neighbour in that
    direction); per cell, per direction, the ray's cells and its bitmask; the
    dots' mask; the end zones' masks; pass actions; ball cells shifted into keys."""
    fld = field(side)
    moves = tuple(
        tuple(
            (
                n,
                1 << n,
                (1 << c) | (1 << n),
                ((STEP, c, n),),
                ((JUMP, c, d),),
                tuple((k, 1 << k) for k in fld.rays[c][d][1:]),
            )
            for d, n in enumerate(fld.nbr[c])
            if n >= 0
        )
        for c in range(len(fld.board))
    )
    rays = tuple(tuple((ray, sum(1 << k for k in ray)) for ray in fld.rays[c] if ray) for c in range(len(fld.board)))
    dot_mask = 0
    for i in fld.dots:
        dot_mask |= 1 << i
    zone_masks = tuple(sum(1 << i for i in zone) for zone in fld.zones)
    pass_actions = tuple(tuple((PASS, a, b) for b in range(len(fld.board))) for a in range(len(fld.board)))
    ball_keys = tuple(b << KEY_SHIFT for b in range(len(fld.board)))
    return moves, rays, dot_mask, zone_masks, pass_actions, ball_keys


@cache
def _aiming(side: int, seat: int) -> _Moves:
    """Per cell, its moves (as in :func:`_tables`) along a line that holds one of the end zones ``seat``
    attacks: the only moves that can score (a step or a jump ends on its own line)."""
    moves_from, _, _, zone_masks, _, _ = _tables(side)
    zone = zone_masks[2 - seat]
    return tuple(
        tuple(m for m in options if zone >> m[0] & 1 or any(zone & bit for _, bit in m[5])) for options in moves_from
    )


def _cells_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def closed_under_passes(balls: int, held: int, dst_bit: int, reach: int, mates: tuple[int, ...]) -> tuple[int, int]:
    """(the mover's group, the ball cells) of a team shape once passes are made, after a move that landed on
    ``dst_bit`` (whose pass reach is ``reach``) and left the ball on ``balls`` (``held``: those the shape's
    pieces hold); ``mates`` are the other pieces' groups (pieces that can pass to each other). The mover's group
    is its landing cell and the groups of mates it can pass with; the others keep theirs. Both searches of a
    turn ask it (:func:`search_turns`, :func:`games.playbaikeys.result_keys`)."""
    group = dst_bit
    for part in mates:
        if part & reach:
            group |= part
    reached = balls | group if held & group else balls
    for part in mates:
        if part & held and not part & group:
            reached |= part
    return group, reached


def search_turns(
    fld: Field,
    seat: int,
    mine: int,
    opp: int,
    ball: int,
    used: int,
    limit: int,
    start: int,
    winning_goal: bool,
    first_only: bool = False,
    goals_only: bool = False,
) -> dict[ResultKey, Path]:
    """Resulting positions of the complete turns from a state, each with its actions.

    ``mine``/``opp`` are cell bitmasks, ``start`` the key of the position the
    turn started from. A result key is ``mine | ball << KEY_SHIFT`` for an
    ordinary end, :data:`GOAL` for a goal that does not win, and ``("win",
    key)`` for the winning goal (the game stops with the scorer in the end
    zone, so those positions differ). Paths have the fewest moves; passes are
    added only where needed (at most two to reach a team-mate). With ``goals_only`` only a goal is looked
    for: the first found (with the fewest moves) is the one result, and the last move's layer is not
    explored beyond the moves into an end zone.
    """
    moves_from, rays, dot_mask, zone_masks, pass_actions, ball_keys = _tables(fld.side)
    start_mask, start_ball = start & ((1 << KEY_SHIFT) - 1), start >> KEY_SHIFT
    opp_zone = zone_masks[2 - seat]
    results: dict[ResultKey, Path] = {}
    reach_of: list[int | None] = [None] * len(fld.board)

    def pass_reach(x: int) -> int:
        """The cells a ball on ``x`` could be passed to: in line, no opponent between."""
        out = 0
        for ray, ray_mask in rays[x]:
            if not ray_mask & opp:
                out |= ray_mask
                continue
            for k in ray:
                if opp >> k & 1:
                    break
                out |= 1 << k
        reach_of[x] = out
        return out

    def components(cells: int) -> tuple[int, ...]:
        """Up to two team-mates' cells grouped by who can pass to whom."""
        if cells & (cells - 1) == 0:
            return (cells,) if cells else ()
        a, b = _cells_of(cells)
        reach = reach_of[a]
        if reach is None:
            reach = pass_reach(a)
        return (cells,) if reach >> b & 1 else (1 << a, 1 << b)

    def passes(team: int, holders: int, b: int) -> tuple[int, Path]:
        """A holder among ``holders`` (cells of ``team`` linked to ``b``) and the passes to ``b``:
        one when they are in line, else two through the third team-mate."""
        reach = reach_of[b]
        if reach is None:
            reach = pass_reach(b)
        direct = holders & reach
        if direct:
            h = (direct & -direct).bit_length() - 1
            return h, (pass_actions[h][b],)
        h = (holders & -holders).bit_length() - 1
        via = (team & ~(1 << h) & ~(1 << b)).bit_length() - 1
        return h, (pass_actions[h][via], pass_actions[via][b])

    reach: int | None
    # Layer `used`: the state as it is, and wherever passes can take the ball.
    here_paths: dict[int, Path] = {}  # ball cell -> actions, for the starting shape
    if mine >> ball & 1:
        reach = 1 << ball
        for _ in range(2):  # a team of three: two rounds of passes reach everyone reachable
            for h in _cells_of(reach):
                more = reach_of[h]
                reach |= (pass_reach(h) if more is None else more) & mine
        for b in _cells_of(reach):
            here_paths[b] = () if b == ball else passes(mine, 1 << ball, b)[1]
    else:
        reach = 1 << ball
        here_paths[ball] = ()
    seen: dict[int, int] = {}  # team shape -> the ball cells it has been reached with
    if used and not goals_only:  # with no move yet, the same state reached later by moves must still count
        seen[mine] = reach
        if not mine & dot_mask:
            for b, path in here_paths.items():
                key = mine | b << KEY_SHIFT
                if key != start:
                    results[key] = path
                    if first_only:
                        return results
    frontier: dict[int, int] = {mine: reach}
    paths: dict[int, dict[int, Path]] = {mine: here_paths}
    layer = used
    while frontier and layer < limit:
        layer += 1
        last = layer == limit
        nxt: dict[int, int] = {}
        nxt_paths: dict[int, dict[int, Path]] = {}
        for mask, balls in frontier.items():
            occ = mask | opp
            mask_paths = paths[mask]
            cells = _cells_of(mask)
            groups: tuple[tuple[int, ...], ...]
            if len(cells) == 3:
                # The two others of each mover, grouped by who can pass to whom.
                a, b, c = cells
                reach = reach_of[a]
                if reach is None:
                    reach = pass_reach(a)
                ab, ac = reach >> b & 1, reach >> c & 1
                reach = reach_of[b]
                if reach is None:
                    reach = pass_reach(b)
                bc = reach >> c & 1
                a, b, c = 1 << a, 1 << b, 1 << c
                groups = ((b | c,) if bc else (b, c), (a | c,) if ac else (a, c), (a | b,) if ab else (a, b))
            else:
                groups = tuple(components(mask ^ (1 << c)) for c in cells)
            for c, mates in zip(cells, groups, strict=True):
                here = 1 << c
                options = _aiming(fld.side, seat)[c] if last and goals_only else moves_from[c]
                for n, n_bit, pair, step_action, jump_action, beyond in options:
                    if not occ & n_bit:
                        dst = n
                        dst_bit = n_bit
                        action = step_action
                        takes = toggled = pair
                    else:
                        # Jump over the unbroken line to the first free cell, else bounce back.
                        takes = pair
                        dst = c
                        dst_bit = here
                        for k, k_bit in beyond:
                            if not occ & k_bit:
                                dst = k
                                dst_bit = k_bit
                                break
                            takes |= k_bit
                        action = jump_action
                        if dst == c:
                            toggled = 0
                        else:
                            toggled = here | dst_bit
                            takes |= dst_bit  # a loose ball on the landing cell
                    taken = balls & takes  # ball cells from which the mover ends with the ball
                    if opp_zone & dst_bit:
                        if taken:  # an opponent's end zone only with the ball: a goal
                            new_mask = mask ^ toggled
                            goal: ResultKey = ("win", new_mask | ball_keys[dst]) if winning_goal else GOAL
                            if goal not in results:
                                results[goal] = mask_paths[(taken & -taken).bit_length() - 1] + action
                                if first_only or goals_only:
                                    return results
                        continue
                    if last and goals_only:
                        continue  # the last move scores or nothing does
                    new_mask = mask ^ toggled
                    if last and new_mask & dot_mask:
                        continue  # the turn could not end there
                    after = balls & ~takes | dst_bit if taken else balls
                    held = after & new_mask
                    before = seen.get(new_mask, 0)
                    if held & ~before:  # (the ball cells seen are closed under passes already)
                        reach = reach_of[dst]
                        if reach is None:
                            reach = pass_reach(dst)
                        group, reached = closed_under_passes(after, held, dst_bit, reach, mates)
                        new = reached & ~before
                    else:
                        new = after & ~before
                    if not new:
                        continue
                    seen[new_mask] = before | new
                    endable = not new_mask & dot_mask
                    at_start = new_mask == start_mask
                    if not last:
                        nxt[new_mask] = nxt.get(new_mask, 0) | new
                        known = nxt_paths.get(new_mask)
                        if known is None:
                            known = nxt_paths[new_mask] = {}
                        new_paths = known
                    while new:
                        low = new & -new
                        new ^= low
                        b = low.bit_length() - 1
                        if low & after:
                            if low == dst_bit:  # (on the landing cell only if the mover took it)
                                path = mask_paths[(taken & -taken).bit_length() - 1] + action
                            else:
                                path = mask_paths[b] + action
                        else:
                            # Reached by passes from a cell the ball is on after the move.
                            part = group if low & group else next(part for part in mates if part & low)
                            h, extra = passes(new_mask, part & held, b)
                            if h == dst:
                                path = mask_paths[(taken & -taken).bit_length() - 1] + action + extra
                            else:
                                path = mask_paths[h] + action + extra
                        if not last:
                            new_paths[b] = path
                        if endable and not goals_only and not (at_start and b == start_ball):
                            results[new_mask | ball_keys[b]] = path
                            if first_only:
                                return results
        frontier = nxt
        paths = nxt_paths
    return results


def key_cells(key: int, names: Sequence[str]) -> tuple[tuple[str, ...], str]:
    """A result key as (the team's cell names, the ball's cell name)."""
    mask = key & ((1 << KEY_SHIFT) - 1)
    return tuple(names[i] for i in _cells_of(mask)), names[key >> KEY_SHIFT]


# -- the game -------------------------------------------------------------------------------


class PlayBai(TurnBookkeeping[PlayBaiAction]):
    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = dict(options)
        fld = field(self.options["side"])
        self.field = fld
        self.board = fld.board
        self.seat_of: list[int] = [0] * len(fld.board)
        self.ball = fld.centre
        self.goals: list[int] = [0, 0]
        self.current: int | None = self.options["first"]
        self.kickoff = True
        self.last_goal: int | None = None
        self._ply = 0
        self._turn: list[PlayBaiAction] = []
        self._result: tuple[int, ...] | None = None
        self._end_reason: str | None = None
        self._resigned: int | None = None
        # The turn in progress: moves made, the position it started from, a goal that ended it.
        self._moves = 0
        self._start: int | None = None  # the key of the position the turn started from
        self._scored: int | None = None
        self._set_up()

    def _set_up(self) -> None:
        cells = self.seat_of
        for i in range(len(cells)):
            cells[i] = 0
        for seat, start in enumerate(self.field.setup, start=1):
            for i in start:
                cells[i] = seat
        self.ball = self.field.centre

    # -- creation ------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 2, options: Mapping[str, Any] | None = None) -> PlayBai:
        cls.info.check_players(players)
        return cls(players, cls.info.resolve_options(options))

    # -- small queries -------------------------------------------------------------

    def pieces(self, seat: int) -> tuple[int, ...]:
        """Cell indices of ``seat``'s playballers, sorted."""
        return tuple(i for i, s in enumerate(self.seat_of) if s == seat)

    def carrier(self) -> int | None:
        """The seat holding the ball, or ``None`` while it lies loose."""
        return self.seat_of[self.ball] or None

    def _mask(self, seat: int) -> int:
        mask = 0
        for i, s in enumerate(self.seat_of):
            if s == seat:
                mask |= 1 << i
        return mask

    def move_limit(self) -> int:
        return KICKOFF_MOVES if self.kickoff else MOVES_PER_TURN

    @property
    def set_number(self) -> int:
        """Sets started so far (every goal but the winning one starts a new set)."""
        return sum(self.goals) + (0 if self._result is not None and self._end_reason == "goals" else 1)

    def _key(self, seat: int) -> int:
        return self._mask(seat) | self.ball << KEY_SHIFT

    def _start_key(self) -> int:
        if self._start is None:
            assert self.current is not None
            self._start = self._key(self.current)
        return self._start

    def _goal_wins(self, seat: int) -> bool:
        if self.options["expert"]:
            return self.last_goal == seat
        return self.goals[seat - 1] + 1 >= GOALS_TO_WIN

    def scores(self) -> tuple[float, ...]:
        return (self.goals[0], self.goals[1])

    # -- complete turns ----------------------------------------------------------------

    def turn_results(self, first_only: bool = False) -> dict[ResultKey, Path]:
        """Distinct resulting positions of the complete turns from the turn in progress
        (keys as :func:`search_turns` makes them), each with the actions still to play."""
        if self._result is not None:
            return {}
        seat = self.current
        assert seat is not None
        if self._scored is not None:
            return {GOAL: ()}
        return search_turns(
            self.field,
            seat,
            self._mask(seat),
            self._mask(3 - seat),
            self.ball,
            self._moves,
            self.move_limit(),
            self._start_key(),
            self._goal_wins(seat),
            first_only,
        )

    def scoring_turn(self) -> Path | None:
        """The actions of a turn that scores from the turn in progress (one with the fewest moves), or
        None when no turn scores now: what :meth:`turn_results` says of goals, for less (puzzles ask it
        of every position they try)."""
        if self._result is not None:
            return None
        seat = self.current
        assert seat is not None
        if self._scored is not None:
            return ()
        found = search_turns(
            self.field,
            seat,
            self._mask(seat),
            self._mask(3 - seat),
            self.ball,
            self._moves,
            self.move_limit(),
            self._start_key(),
            self._goal_wins(seat),
            goals_only=True,
        )
        return next(iter(found.values()), None)

    def complete_turns(self) -> dict[str, Any]:
        """Notation -> resulting position, one (shortest) notation per distinct position.

        A position is ``(team's cells, ball cell)`` in names, ``"goal"`` for a goal
        that does not win (every such goal leads to the same set-up) or
        ``("win", cells, ball)`` for the winning goal. From a half-entered turn
        the notation lists only the actions still to come."""
        names = self.board.names
        out: dict[str, Any] = {}
        for key, actions in self.turn_results().items():
            shown: Any
            if isinstance(key, int):
                shown = key_cells(key, names)
            elif key[0] == "goal":
                shown = "goal"
            else:
                shown = ("win",) + key_cells(key[1], names)
            out[self.format_turn(actions)] = shown
        return out

    def has_legal_turn(self) -> bool:
        return bool(self.turn_results(first_only=True))

    # -- the turn ------------------------------------------------------------------

    def _raw_actions(self) -> list[PlayBaiAction]:
        """Actions the movement rules allow now (some may lead nowhere)."""
        if self._result is not None or self._scored is not None:
            return []
        seat = self.current
        mine = self.pieces(seat or 1)
        candidates: list[PlayBaiAction] = []
        if self._moves < self.move_limit():
            for c in mine:
                for d, n in enumerate(self.field.nbr[c]):
                    if n >= 0:
                        candidates.append((JUMP, c, d) if self.seat_of[n] else (STEP, c, n))
        if self.seat_of[self.ball] == seat:
            candidates.extend((PASS, self.ball, b) for b in mine if b != self.ball)
        return [a for a in candidates if self._why_illegal(a) is None]

    def legal_actions(self) -> list[PlayBaiAction]:
        """Actions after which a complete turn is still reachable."""
        out = []
        for action in self._raw_actions():
            trial = self.copy()
            trial.apply_action(action)
            if trial._scored is not None or trial._result is not None or trial.has_legal_turn():
                out.append(action)
        return out

    def can_end_turn(self) -> bool:
        return self._why_not_endable() is None

    def _why_not_endable(self) -> IllegalMove | None:
        if self._result is not None:
            return IllegalMove("the game is over")
        if self._scored is not None:
            return None
        if self._moves == 0:
            if self._turn:
                return IllegalMove("a turn needs at least one move (a step or a jump): passes alone are not enough")
            return IllegalMove("the turn has not started: make at least one move")
        names = self.board.names
        on_dots = [names[i] for i in sorted(self.field.dots) if self.seat_of[i]]
        if on_dots:
            return IllegalMove("a turn may not end on a dot: move off {cells}", cells=", ".join(on_dots))
        if self._key(self.current or 1) == self._start_key():
            return IllegalMove("that turn leaves the position unchanged")
        return None

    def apply_action(self, action: PlayBaiAction) -> list[Event]:
        events: list[Event] = []
        self._apply(action, events)
        return events

    def apply_quiet(self, action: PlayBaiAction) -> None:
        self._apply(action, None)

    def _apply(self, action: PlayBaiAction, events: list[Event] | None) -> None:
        """Apply one action, telling what happened in ``events`` (``None``: the quiet path)."""
        if self._result is not None:
            raise IllegalMove("the game is over")
        if self._scored is not None:
            raise self._after_goal_message()
        why = self._why_illegal(action)
        if why:
            raise why
        seat = self.current
        assert seat is not None
        self._start_key()
        names = self.board.names
        kind, src, x = action
        self._turn.append(action)
        if kind == PASS:
            self.ball = x
            if events is not None:
                events.append(Event("pass", seat=seat, src=names[src], dst=names[x]))
            return
        self._moves += 1
        cells = self.seat_of
        ball = self.ball
        carried = bool(cells[ball])
        took_from = None
        if kind == STEP:
            dst = x
            if ball == dst and not carried:
                took_from = 0
            if events is not None:
                events.append(Event("move", seat=seat, src=names[src], dst=names[dst]))
        else:
            dst, over = self._jump_line(src, x)
            for k in over:
                if k == ball and k != src:
                    took_from = cells[k]
            if dst != src and dst == ball and not carried:
                took_from = 0
            if events is not None:
                events.append(
                    Event(
                        "jump",
                        seat=seat,
                        src=names[src],
                        dst=names[dst],
                        data=(
                            ("bounced", dst == src),
                            ("direction", DIRECTION_NAMES[x]),
                            ("over", tuple(names[k] for k in over)),
                        ),
                    )
                )
        cells[src] = 0
        cells[dst] = seat
        if ball == src or took_from is not None:
            if took_from is not None and events is not None:
                data = (("from_seat", took_from),) if took_from else (("loose", True),)
                events.append(Event("ball", seat=seat, cell=names[dst], src=names[ball], data=data))
            self.ball = dst
        if self.field.zone_owner[dst] == 3 - seat:
            self._goal(seat, dst, events)

    def _jump_line(self, src: int, direction: int) -> tuple[int, list[int]]:
        """Where a jump lands (``src`` for a bounce) and the cells it passes over."""
        over: list[int] = []
        for k in self.field.rays[src][direction]:
            if not self.seat_of[k]:
                return k, over
            over.append(k)
        return src, over

    def _goal(self, seat: int, cell: int, events: list[Event] | None) -> None:
        wins = self._goal_wins(seat)
        self.goals[seat - 1] += 1
        self.last_goal = seat
        self._scored = seat
        if events is not None:
            score = tuple(self.goals)
            events.append(
                Event("goal", seat=seat, cell=self.board.names[cell], data=(("score", score), ("wins", wins)))
            )
        if wins:
            self._turn = []
            self._ply += 1
            self._moves = 0
            self._start = None
            self._scored = None
            self._result = (seat,)
            self._end_reason = "goals"
            if events is not None:
                events.append(Event("end", seat=seat, data=(("reason", "goals"),)))

    def end_turn(self) -> list[Event]:
        events: list[Event] = []
        self._end_turn(events)
        return events

    def end_turn_quiet(self) -> None:
        self._end_turn(None)

    def apply_result_quiet(self, key: ResultKey) -> None:
        """Play a whole turn, from its start, by its result: a key of :meth:`turn_results` of this position.

        The position is the one the key's actions lead to (``apply_quiet`` each, then ``end_turn_quiet``),
        without them: the computer's search lists results by the hundred and plays few
        (games/playbaikeys.py). The key is trusted to be one of this position's results.
        """
        if self._result is not None:
            raise IllegalMove("the game is over")
        if self._turn:
            raise ValueError("apply_result_quiet plays a whole turn from the turn's start")  # the search's misuse
        seat = self.current
        assert seat is not None
        if isinstance(key, int):
            shape = key
        elif len(key) == 1:  # GOAL: the carrier steps into the end zone with the ball
            self._goal(seat, self.ball, None)
            self._end_turn(None)
            return
        else:
            shape = key[1]
        self._start_key()
        cells = self.seat_of
        for i, s in enumerate(cells):
            if s == seat:
                cells[i] = 0
        mask = shape & ((1 << KEY_SHIFT) - 1)
        for i in _cells_of(mask):
            cells[i] = seat
        self.ball = shape >> KEY_SHIFT
        if isinstance(key, int):
            self._moves = 1
            self._end_turn(None)
        else:  # ("win", key): the winning goal, the scorer in the end zone
            self._goal(seat, self.ball, None)

    def _end_turn(self, events: list[Event] | None) -> None:
        why = self._why_not_endable()
        if why:
            raise why
        seat = self.current
        assert seat is not None
        if self._scored is not None:
            self._set_up()
            self.kickoff = True
            self.current = 3 - seat
            if events is not None:
                events.append(Event("set", seat=self.current, data=(("number", self.set_number),)))
        else:
            self.kickoff = False
            self.current = 3 - seat
        self._turn = []
        self._ply += 1
        self._moves = 0
        self._start = None
        self._scored = None
        self._skip_blocked(events)

    def _skip_blocked(self, events: list[Event] | None) -> None:
        """RULES §3: a seat with no legal turn passes automatically (not a ply)."""
        for _ in range(2):
            if self.has_legal_turn():
                return
            if events is not None:
                events.append(Event("pass", seat=self.current, data=(("automatic", True),)))
            self.kickoff = False
            self._start = None
            self.current = 3 - (self.current or 1)
        # Neither team can move: the game cannot go on (docs/rules.md).
        self._result = ()
        self._end_reason = "no legal turn"
        if events is not None:
            events.append(Event("end", data=(("reason", "no legal turn"),)))

    # -- why an action is illegal ------------------------------------------------------

    def _after_goal_message(self) -> IllegalMove:
        return IllegalMove("the goal already ended the turn: nothing may follow it")

    def _why_illegal(self, action: Any) -> IllegalMove | None:
        """The reason ``action`` may not come next, or ``None`` when it may."""
        n = len(self.seat_of)
        if not (isinstance(action, tuple) and len(action) == 3 and all(type(v) is int for v in action)):
            return IllegalMove("not a Play Bai action: {action!r}", action=action)
        kind, src, x = action
        if not 0 <= src < n:
            return IllegalMove("no such cell: {cell!r}", cell=src)
        seat = self.current
        names = self.board.names
        if kind == PASS:
            return self._why_no_pass(src, x)
        if kind not in (STEP, JUMP):
            return IllegalMove("not a Play Bai action: {action!r}", action=action)
        owner = self.seat_of[src]
        if owner == 0:
            return IllegalMove("there is no playballer on {cell}", cell=names[src])
        if owner != seat:
            return IllegalMove("{cell} is not yours", cell=names[src])
        if self._moves >= self.move_limit():
            if self.kickoff:
                return IllegalMove(
                    "the kick-off turn allows only {count} moves, both made: only passes may follow",
                    count=KICKOFF_MOVES,
                )
            return IllegalMove("{count} moves are already made this turn: only passes may follow", count=MOVES_PER_TURN)
        if kind == STEP:
            if not 0 <= x < n or x not in self.field.nbr[src]:
                return IllegalMove(
                    "{src}-{dst}: a step goes to an adjacent cell", src=names[src], dst=names[x] if 0 <= x < n else x
                )
            if self.seat_of[x]:
                d = self.field.nbr[src].index(x)
                return IllegalMove(
                    "{cell} is occupied: jump over it with {src}^{direction}",
                    cell=names[x],
                    src=names[src],
                    direction=DIRECTION_NAMES[d],
                )
            dst = x
            carries = self.ball == src or (self.ball == x and not self.seat_of[self.ball])
        else:
            if not 0 <= x < 6:
                return IllegalMove("no such direction: {direction!r}", direction=x)
            first = self.field.nbr[src][x]
            if first < 0:
                return IllegalMove(
                    "nothing to jump over: {cell} is at the edge towards {direction}",
                    cell=names[src],
                    direction=DIRECTION_NAMES[x],
                )
            if not self.seat_of[first]:
                return IllegalMove(
                    "nothing to jump over: {cell} is empty (step there with {src}-{cell})",
                    cell=names[first],
                    src=names[src],
                )
            dst, over = self._jump_line(src, x)
            carries = (
                self.ball == src
                or self.ball in over
                or (dst != src and dst == self.ball and not self.seat_of[self.ball])
            )
        if self.field.zone_owner[dst] == 3 - (seat or 1) and not carries:
            return IllegalMove(
                "{cell} is an end zone of the opponent: a playballer may enter it only with the ball, to score",
                cell=names[dst],
            )
        return None

    def _why_no_pass(self, src: int, dst: int) -> IllegalMove | None:
        names = self.board.names
        n = len(self.seat_of)
        seat = self.current
        if not 0 <= dst < n:
            return IllegalMove("no such cell: {cell!r}", cell=dst)
        if self.field.zone_owner[dst] == 3 - (seat or 1):
            return IllegalMove("a pass to an opponent's end zone is not allowed")
        holder = self.seat_of[self.ball]
        if holder != seat:
            if holder == 0:
                return IllegalMove("your team does not have the ball (it lies loose on {cell})", cell=names[self.ball])
            return IllegalMove(
                "your team does not have the ball (it is held by the opponent on {cell})", cell=names[self.ball]
            )
        if src != self.ball:
            return IllegalMove("{cell} does not hold the ball: {holder} does", cell=names[src], holder=names[self.ball])
        if dst == src:
            return IllegalMove("{cell} already holds the ball", cell=names[src])
        if self.seat_of[dst] != seat:
            if self.seat_of[dst]:
                return IllegalMove("{cell} is not a team-mate: a pass goes to your own playballer", cell=names[dst])
            return IllegalMove("there is no playballer on {cell} to receive the pass", cell=names[dst])
        between = self.field.lines.get((src, dst))
        if between is None:
            return IllegalMove("{dst} is not in line with {src}", dst=names[dst], src=names[src])
        blockers = [names[k] for k in between if self.seat_of[k] == 3 - seat]
        if blockers:
            return IllegalMove("the opposing playballer on {cell} blocks the pass", cell=blockers[0])
        return None

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
