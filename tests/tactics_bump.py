"""Bump tactics two turns deep, each checked exhaustively (issue 39).

A Bump game is won at the start of a turn by a piece standing on the opponent's centre, so a step onto it wins
when no reply clears it (a "win in one"). With a piece or two a side near a centre (so every turn can be tried):

- **a win forced in two**: the mover has no win in one, but a few of its turns (not most) threaten one and leave
  the opponent no reply after which the mover has none;
- **a win in one stopped**: the opponent, were it to move, would have a win in one; only a few of the mover's
  turns leave it none.

The same checks (:func:`forces_in_two`, :func:`stops_win_in_one`) verify the premise and the computer's answer.
The positions were found by :func:`find` (random placements near a centre, random facings, seeded).
:func:`wins_within_two` is the wider exhaustive definition the search's root check
(:mod:`ai.knowledge.bump_tactics`) is held to: a turn after which every reply leaves the mover a win in one,
a step onto the centre included (which :func:`forces_in_two` counts only when no reply clears it).
"""

from __future__ import annotations

import random

from ai.knowledge.bump import centre_distance
from ai.turns import apply_turn
from games.bump import NAMES, OPPONENT_CENTRE, PASS, SPACE_COUNT, Bump, BumpAction

#: seat 1 to move (pieces: space -> [seat, facing]): a win forced in two (one piece a side: find(4, "forced", 1, 1))
FORCED = [
    {"292": [1, 3], "39": [2, 3]},
    {"192": [1, 2], "19": [2, 3]},
    {"57": [1, 0], "59": [2, 4]},
    {"092": [1, 2], "29": [2, 0]},
]
#: the same with two pieces against one (find(6, "forced", 2, 1)): not yet solved reliably (docs/ai.md, Bump)
FORCED_TWO_ON_ONE = [
    {"092": [1, 0], "49": [1, 2], "39": [2, 3]},
    {"47": [1, 5], "292": [1, 3], "381": [2, 3]},
    {"392": [1, 1], "58": [1, 1], "09": [2, 2]},
    {"07": [1, 3], "49": [1, 0], "59": [2, 3]},
]
#: seat 1 to move, seat 2 threatening a win in one (find(5, "stopped", 2, 1))
STOPPED = [
    {"21": [2, 3], "111": [2, 2], "22": [1, 4]},
]


def position(pieces: dict[str, list[int]], to_move: int = 1) -> Bump:
    return Bump.from_position(2, {}, {"pieces": pieces, "to_move": to_move, "reserves": [0, 0]})


def after(game: Bump, action: BumpAction) -> Bump:
    return apply_turn(game.copy(), (action,))


def _on_centre(game: Bump, seat: int) -> bool:
    piece = game.board.cells[OPPONENT_CENTRE[seat]]
    return piece >= 0 and game.board.owner[piece] == seat


def _no_reply_clears(game: Bump, seat: int) -> bool:
    """``seat``'s opponent to move, ``seat``'s piece on the opponent's centre: every reply leaves ``seat`` winning."""
    for reply in game.legal_actions():
        child = after(game, reply)
        if not (child.is_over and child.winners == (seat,)):
            return False
    return True


def wins_in_one(game: Bump, action: BumpAction) -> bool:
    seat = game.to_move
    child = after(game, action)
    if child.is_over:
        return child.winners == (seat,)
    return _on_centre(child, seat) and _no_reply_clears(child, seat)


def has_win_in_one(game: Bump) -> bool:
    return any(wins_in_one(game, action) for action in game.legal_actions())


def forces_in_two(game: Bump, action: BumpAction) -> bool:
    """Whether the mover's ``action`` wins in one, or threatens a win in one that every reply leaves open."""
    seat = game.to_move
    child = after(game, action)
    if child.is_over:
        return child.winners == (seat,)
    if _on_centre(child, seat):
        return _no_reply_clears(child, seat)
    if not has_win_in_one(after(child, PASS)):  # not even a threat
        return False
    return _every_reply_loses(child, seat)


def wins_within_two(game: Bump, action: BumpAction) -> bool:
    """Whether after the mover's ``action`` every reply (all of them, each played) loses at once or leaves the
    mover a win in one."""
    seat = game.to_move
    child = after(game, action)
    if child.is_over:
        return child.winners == (seat,)
    return _every_reply_loses(child, seat)


def _every_reply_loses(child: Bump, seat: int | None) -> bool:
    """Whether every reply in ``child`` (each played) ends the game won by ``seat`` or leaves it a win in one."""
    for reply in child.legal_actions():
        grandchild = after(child, reply)
        if grandchild.is_over:
            if grandchild.winners != (seat,):
                return False
        elif not has_win_in_one(grandchild):
            return False
    return True


def stops_win_in_one(game: Bump, action: BumpAction) -> bool:
    """Whether after the mover's ``action`` the opponent has no win in one."""
    child = after(game, action)
    if child.is_over:
        return child.winners == (game.to_move,)
    return not has_win_in_one(child)


def random_position(rng: random.Random, attacker: int, attackers: int, defenders: int) -> Bump | None:
    """Seat 1 to move, ``attackers`` pieces of ``attacker`` and ``defenders`` of the other seat placed within three
    shifts of the centre ``attacker`` attacks, random facings; None when the placement is no position (or over)."""
    near = [s for s in range(SPACE_COUNT) if 1 <= centre_distance(attacker)[s] <= 3]
    spaces = rng.sample(near, attackers + defenders)
    pieces = {NAMES[s]: [attacker if i < attackers else 3 - attacker, rng.randrange(6)] for i, s in enumerate(spaces)}
    try:
        game = position(pieces)
    except ValueError:
        return None
    return None if game.is_over else game


def find(seed: int, kind: str, attackers: int, defenders: int, tries: int = 500) -> list[dict]:
    """Random placements within three shifts of the attacked centre, kept when they are puzzles of ``kind``
    ("forced": seat 1 attacks; "stopped": seat 2 threatens) with few answers."""
    rng = random.Random(seed)
    attacker = 1 if kind == "forced" else 2
    found = []
    for _ in range(tries):
        game = random_position(rng, attacker, attackers, defenders)
        if game is None:
            continue
        moves = game.legal_actions()
        if kind == "forced":
            if has_win_in_one(game):
                continue
            answers = [a for a in moves if forces_in_two(game, a)]
        elif has_win_in_one(after(game, PASS)):
            answers = [a for a in moves if stops_win_in_one(game, a)]
        else:
            continue
        if answers and len(answers) <= len(moves) // 8:
            found.append(game.position()["pieces"])
    return found
