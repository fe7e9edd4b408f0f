"""Play Bai tactics two turns deep, each checked exhaustively (issue 39).

On the small field (side 5), with a piece or two a side (so every reply can be tried):

- **a goal forced in two**: the mover cannot score at once, but a few of its results (not most) leave the
  opponent no reply that scores, nor one after which the mover cannot score;
- **a goal in two stopped**: the opponent cannot score at once, but, were it to move, it would have a goal
  forced in two; only a few of the mover's results leave it neither a goal at once nor one forced in two.

The same checks (:func:`forced_in_two`, :func:`stops`) verify the premise and the computer's answer. The
positions were found by :func:`find` (random placements near an end zone, seeded).
"""

from __future__ import annotations

import random

from ai.knowledge.playbai import zone_distance
from games.playbai import PlayBai
from games.playbaifield import field
from games.playbaikeys import result_keys
from games.playbaisearch import ResultKey

SIDE = 5

#: (pieces, ball): seat 1 to move, a goal forced in two
FORCED = [
    ({"g1": 1, "e6": 2}, "g1"),
    ({"g1": 1, "f2": 2}, "g1"),
    ({"c3": 1, "d5": 2}, "c3"),
    ({"g2": 1, "i2": 2}, "g2"),
    ({"f4": 1, "d1": 1, "f6": 2}, "f4"),
    ({"d2": 1, "f2": 1, "f3": 2}, "d2"),
]
#: (pieces, ball): seat 2 to move, seat 1 threatening a goal forced in two
STOPPED = [
    ({"c2": 1, "f7": 2}, "c2"),
    ({"f3": 1, "e8": 2}, "f3"),
    ({"h2": 1, "e6": 2}, "h2"),
    ({"e5": 1, "g6": 2}, "e5"),
]


def position(pieces: dict[str, int], ball: str, to_move: int) -> PlayBai:
    doc = {"pieces": pieces, "ball": ball, "goals": [0, 0], "to_move": to_move, "kickoff": False, "last_goal": None}
    return PlayBai.from_position(2, {"side": SIDE}, doc)


def scores(game: PlayBai) -> bool:
    """Whether the mover has a turn that scores (a goal or the winning goal)."""
    return any(not isinstance(key, int) for key in result_keys(game))


def after(game: PlayBai, key: ResultKey) -> PlayBai:
    child = game.copy()
    child.apply_result_quiet(key)
    return child


def _to_move(game: PlayBai, seat: int) -> PlayBai | None:
    """The same position with ``seat`` to move (None when that is no legal position)."""
    doc = game.position()
    doc["to_move"] = seat
    try:
        return PlayBai.from_position(2, game.options, doc)
    except ValueError:
        return None


def forced_in_two(game: PlayBai, key: ResultKey) -> bool:
    """Whether the mover's result ``key`` (not a goal) threatens a goal and leaves every reply one."""
    seat = game.to_move
    child = after(game, key)
    if child.is_over or child.to_move != 3 - seat:
        return False
    threat = _to_move(child, seat)
    if threat is None or not scores(threat):  # not even a threat: a pass would do
        return False
    for reply in result_keys(child):
        if not isinstance(reply, int):
            return False  # the opponent scores first
        grandchild = after(child, reply)
        if grandchild.is_over or grandchild.to_move != seat or not scores(grandchild):
            return False
    return True


def has_forced_in_two(game: PlayBai) -> bool:
    return any(forced_in_two(game, key) for key in result_keys(game))


def stops(game: PlayBai, key: ResultKey) -> bool:
    """Whether after the mover's result ``key`` the opponent has neither a goal at once nor one forced in two."""
    if not isinstance(key, int):
        return True  # the mover scores first
    child = after(game, key)
    return not scores(child) and not has_forced_in_two(child)


def find(seed: int, kind: str, pieces_per_side: tuple[int, int] = (1, 1), tries: int = 2000) -> list[tuple]:
    """Random placements near seat 1's target zone with seat 1 holding the ball, kept when they are puzzles of
    ``kind`` ("forced" or "stopped") with few answers."""
    rng = random.Random(seed)
    pitch = field(SIDE)
    names = pitch.board.names
    free = [i for i in range(len(names)) if i not in pitch.dots]
    near = [i for i in free if 3 <= zone_distance(SIDE, 1)[i] <= 5]
    found = []
    for _ in range(tries):
        carrier = rng.choice(near)
        ones, twos = pieces_per_side
        rest = rng.sample([i for i in free if i != carrier], ones - 1 + twos)
        pieces = {names[carrier]: 1} | {names[c]: 1 for c in rest[: ones - 1]} | {names[c]: 2 for c in rest[ones - 1 :]}
        try:
            attack, defend = position(pieces, names[carrier], 1), position(pieces, names[carrier], 2)
        except ValueError:
            continue
        if attack.to_move != 1 or defend.to_move != 2 or scores(attack):
            continue
        if kind == "forced":
            keys = result_keys(attack)
            answers = [k for k in keys if forced_in_two(attack, k)]
        elif has_forced_in_two(attack):
            keys = result_keys(defend)
            answers = [k for k in keys if stops(defend, k)]
        else:
            continue
        if answers and len(answers) <= len(keys) // 6:
            found.append((pieces, names[carrier]))
    return found
