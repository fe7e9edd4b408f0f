"""Play Bai's complete turns as result keys only, without the actions that reach them (the computer's search).

:func:`games.playbaisearch.search_turns` finds every distinct result of a turn *and* the fewest actions reaching
it; a search expands hundreds of positions a turn and plays only a few of their results, so it needs the
results alone: :func:`result_keys` is the same breadth-first search over team shapes and ball cells with
the paths left out (no path per state, no passes worked out), and a result is then played by
:meth:`games.playbairules.PlayBaiRules.apply_result_quiet`, whose position is the one its actions lead to. The keys
and their order are those of ``turn_results()`` (tests/test_playbai_keys.py checks both on random
positions); the actions of the one turn chosen come from ``turn_results()``.
"""

from __future__ import annotations

from .playbai import PlayBai
from .playbairules import GOALS_TO_WIN
from .playbaisearch import GOAL, KEY_SHIFT, ResultKey, _cells_of, _tables, closed_under_passes


def result_keys(game: PlayBai) -> list[ResultKey]:
    """The keys of ``game.turn_results()`` (a turn not yet begun), in the same order, without their paths."""
    seat = game.to_move
    if seat is None:
        return []
    if game.turn_in_progress():
        raise ValueError("result_keys lists the turns from a turn's start")
    cells = game.seat_of
    mine = opp = 0
    for i, s in enumerate(cells):
        if s == seat:
            mine |= 1 << i
        elif s:
            opp |= 1 << i
    winning_goal = game.last_goal == seat if game.options["expert"] else game.goals[seat - 1] + 1 >= GOALS_TO_WIN
    return _search_keys(game.field.side, seat, mine, opp, game.ball, game.move_limit(), winning_goal)


def _search_keys(
    side: int, seat: int, mine: int, opp: int, ball: int, limit: int, winning_goal: bool
) -> list[ResultKey]:
    """:func:`games.playbaisearch.search_turns` from a turn's start (``used`` 0), keys only, in its order."""
    moves_from, rays, dot_mask, zone_masks, _, ball_keys = _tables(side)
    opp_zone = zone_masks[2 - seat]
    start = mine | ball << KEY_SHIFT
    results: dict[ResultKey, None] = {}
    reach_of: list[int] = [-1] * len(rays)

    def pass_reach(x: int) -> int:
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

    if mine >> ball & 1:
        reach = 1 << ball
        for _ in range(2):  # a team of three: two rounds of passes reach everyone reachable
            for h in _cells_of(reach):
                more = reach_of[h]
                reach |= (pass_reach(h) if more < 0 else more) & mine
    else:
        reach = 1 << ball
    seen: dict[int, int] = {}  # team shape -> the ball cells it has been reached with
    frontier: dict[int, int] = {mine: reach}
    layer = 0
    while frontier and layer < limit:
        layer += 1
        last = layer == limit
        nxt: dict[int, int] = {}
        for mask, balls in frontier.items():
            occ = mask | opp
            cells = _cells_of(mask)
            groups: tuple[tuple[int, ...], ...]
            if len(cells) == 3:
                a, b, c = cells
                r = reach_of[a]
                if r < 0:
                    r = pass_reach(a)
                ab, ac = r >> b & 1, r >> c & 1
                r = reach_of[b]
                if r < 0:
                    r = pass_reach(b)
                bc = r >> c & 1
                a, b, c = 1 << a, 1 << b, 1 << c
                groups = ((b | c,) if bc else (b, c), (a | c,) if ac else (a, c), (a | b,) if ab else (a, b))
            elif len(cells) == 2:
                a, b = cells
                groups = ((1 << b,), (1 << a,))
            else:
                groups = ((),)
            for c, mates in zip(cells, groups, strict=True):
                here = 1 << c
                for n, n_bit, pair, _step, _jump, beyond in moves_from[c]:
                    if not occ & n_bit:
                        dst = n
                        dst_bit = n_bit
                        takes = toggled = pair
                    else:
                        takes = pair
                        dst = c
                        dst_bit = here
                        for k, k_bit in beyond:
                            if not occ & k_bit:
                                dst = k
                                dst_bit = k_bit
                                break
                            takes |= k_bit
                        if dst == c:
                            toggled = 0
                        else:
                            toggled = here | dst_bit
                            takes |= dst_bit
                    taken = balls & takes
                    if opp_zone & dst_bit:
                        if taken:
                            goal: ResultKey = ("win", (mask ^ toggled) | ball_keys[dst]) if winning_goal else GOAL
                            if goal not in results:
                                results[goal] = None
                        continue
                    new_mask = mask ^ toggled
                    if last and new_mask & dot_mask:
                        continue
                    after = balls & ~takes | dst_bit if taken else balls
                    held = after & new_mask
                    before = seen.get(new_mask, 0)
                    if held & ~before:
                        r = reach_of[dst]
                        if r < 0:
                            r = pass_reach(dst)
                        new = closed_under_passes(after, held, dst_bit, r, mates)[1] & ~before
                    else:
                        new = after & ~before
                    if not new:
                        continue
                    seen[new_mask] = before | new
                    if not last:
                        nxt[new_mask] = nxt.get(new_mask, 0) | new
                    if not new_mask & dot_mask:
                        while new:
                            low = new & -new
                            new ^= low
                            key = new_mask | ball_keys[low.bit_length() - 1]
                            if key != start:
                                results[key] = None
        frontier = nxt
    return list(results)
