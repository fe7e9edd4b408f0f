"""Small builders for Bide positions in tests."""

from __future__ import annotations

from games.bide import Bide, board_for_side


def position(players: int = 2, side: int = 5, board=None, hands=None, pools=None, to_move=1, owed=()):
    n = len(board_for_side(side))
    from games.bide import pool_sizes

    return Bide.from_position(
        players,
        {"side": side},
        {
            "board": dict(board or {}),
            "hands": list(hands if hands is not None else [1] + [0] * (players - 1)),
            "pools": list(pools if pools is not None else pool_sizes(players, n)),
            "to_move": to_move,
            "owed": list(owed),
        },
    )


def occupied(game: Bide) -> dict[str, int]:
    return game.position()["board"]


def three_coloured_fill(game_side: int, seats: tuple[int, int, int], skip: set[str]) -> dict[str, int]:
    """Fill every point not in ``skip`` so that no two neighbours share a seat: single-disc groups."""
    board = board_for_side(game_side)
    fill = {}
    for cell, name in zip(board.cells, board.names, strict=False):
        if name not in skip:
            fill[name] = seats[(cell[0] - cell[1]) % 3]
    return fill
