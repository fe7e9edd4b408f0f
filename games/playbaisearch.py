"""Play Bai's turn search: the distinct resulting positions of every complete turn from a state, each with
the fewest actions reaching it, and the action tuples it builds its paths from.

An action is a tuple: ``(STEP, src, dst)``, ``(JUMP, src, direction)`` or ``(PASS, src, dst)`` with cell
indices and a direction 0–5 (RULES §0); :mod:`games.playbai` reads and writes their notation.

Complete turns
--------------
:meth:`games.playbai.PlayBai.complete_turns` enumerates the distinct resulting positions of every
complete turn from the current (possibly half-entered) turn by a
breadth-first search over in-turn states ``(team's cells, ball cell, moves
used)`` with a visited set; each position comes with a notation with the
fewest moves. Team-mates are interchangeable, so the team's cells are a
bitmask, and each team shape carries the set of its ball cells as a second
bitmask (see the comment above :func:`search_turns`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal, TypeAlias

from .playbaifield import Field, field

STEP, JUMP, PASS = 0, 1, 2
# (STEP, src, dst), (JUMP, src, direction) or (PASS, src, dst): plain tuples, as the turn search
# builds paths by concatenating them by the million.
PlayBaiAction: TypeAlias = tuple[int, int, int]
Path: TypeAlias = tuple[PlayBaiAction, ...]
# A complete turn's result: the team's cells and the ball as one int, GOAL, or ("win", that int).
ResultKey: TypeAlias = int | tuple[Literal["goal"]] | tuple[Literal["win"], int]
# A non-winning goal always leads to the same position (the set-up, the other
# seat kicking off), so every such turn has this one resulting position.
GOAL: tuple[Literal["goal"]] = ("goal",)


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
