"""Bump's hot paths as they were before issue 39 made them faster: the tests' reference.

``tests/test_fast_paths.py`` checks that the engine's current versions give exactly these answers (the
same moves in the same order, the same stasis records, the same random turn for a seed) on random
positions. Kept as written then: a loop over every facing with ``rotation_cost``, a scan of all 128
spaces for a stasis record.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.bump import NAMES, PASS, Bump, BumpAction, PieceBoard, move_action, rotation_cost
from games.bumprules import MAX_POINTS


def raw_moves(game: Bump, seat: int) -> Iterator[tuple[int, int, int]]:
    """(src, dst, facing) of every move of ``seat`` that changes something."""
    b = game.board
    for src, pid in enumerate(b.cells):
        if pid < 0 or b.owner[pid] != seat:
            continue
        old = b.facing[pid]
        for dst, k in game.reachable(src).items():
            for facing in range(6):
                if k + rotation_cost(old, facing) <= MAX_POINTS and (dst != src or facing != old):
                    yield src, dst, facing


def stasis_key(board: PieceBoard, space: int, direction: int) -> str:
    owner, facing = board.owner, board.facing
    parts = [f"{NAMES[s]}:{owner[p]}{facing[p]}" for s, p in enumerate(board.cells) if p >= 0]
    return " ".join(parts) + f" | {NAMES[space]}>{direction}"


def random_action(game: Bump, rng: random.Random) -> BumpAction:
    seat = game.current
    assert seat is not None and game._result is None
    b = game.board
    if game.reserves[seat - 1] and rng.random() < 0.1:
        options = game._reinforcements(seat)
        if options:
            return rng.choice(options)
    mine = [s for s, p in enumerate(b.cells) if p >= 0 and b.owner[p] == seat]
    rng.shuffle(mine)
    for src in mine:
        old = b.facing[b.cells[src]]
        moves = [
            (dst, f)
            for dst, k in game.reachable(src).items()
            for f in range(6)
            if k + rotation_cost(old, f) <= MAX_POINTS and (dst != src or f != old)
        ]
        if moves:
            dst, facing = rng.choice(moves)
            return move_action(src, dst, facing)
    return PASS
