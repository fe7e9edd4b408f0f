"""Bide tactics two turns deep, each checked exhaustively (tests/data/bide_tactics.json; issue 39).

``python -m tests.bide_tactics`` finds them again: seeded games between easy computers on the side-4 board
(two seats) are searched, near their end, for

- **a win in two**: the mover has no turn that wins at once, but a turn that leaves every reply of the
  opponent a loss within the mover's next turn (the reply fills the board and the mover wins, or the mover
  then has a turn that fills the board and wins: a bide that keeps enough discs for the last release, a
  release that forces the opponent's hand out and leaves the winning points, …);
- **a denial**: were the mover careless, the opponent would win within two turns (most of the mover's turns
  leave it a win at once or a win in two).

Every turn counted here is every distinct complete turn (:func:`ai.turns.enumerate_turns`, all release
orders), and the positions are small enough (few empty points, small hands) to be **solved to the end**
(:func:`solve`: every line of play, memoised by position), so a position's answers are exactly the turns
that keep its value (a forced win stays a forced win, a draw or better stays one). A position is kept when
the two-turn premise holds, only a few turns (at most a sixth) keep the value, and ``easy`` misses it with
one of three seeds (the harder ones). The same checks verify the premise and the computer's answer in the
tests.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from math import perm
from pathlib import Path

from ai.knowledge.bide import bide_key
from ai.player import choose_turn
from ai.turns import Turn, enumerate_turns
from games.bide import Bide
from games.registry import new_game
from tests.tactics_data import collect, load_games

DATA = Path(__file__).parent / "data" / "bide_tactics.json"


def turns(game: Bide) -> list[Turn[Bide]]:
    """Every distinct complete turn of the mover (every release order)."""
    return enumerate_turns(game, key=bide_key)


def after(game: Bide, turn: Turn[Bide]) -> Bide:
    return turn.result(game)


def won_by(game: Bide, seat: int) -> bool:
    return game.is_over and game.winners == (seat,)


def wins_at_once(game: Bide) -> bool:
    """Whether the mover has a turn that ends the game with the mover the only winner."""
    seat = game.to_move
    assert seat is not None
    return any(won_by(after(game, t), seat) for t in turns(game))


def wins_in_two(game: Bide, turn: Turn[Bide]) -> bool:
    """Whether ``turn`` wins at once, or leaves every reply a loss for the opponent within the mover's next turn."""
    seat = game.to_move
    assert seat is not None
    child = after(game, turn)
    if child.is_over:
        return won_by(child, seat)
    for reply in turns(child):
        grandchild = after(child, reply)
        if grandchild.is_over:
            if not won_by(grandchild, seat):
                return False
            continue
        if grandchild.to_move != seat or not wins_at_once(grandchild):
            return False
    return True


def has_win_in_two(game: Bide) -> bool:
    return any(wins_in_two(game, t) for t in turns(game))


def careless(game: Bide, turn: Turn[Bide]) -> bool:
    """Whether after ``turn`` the opponent has a win at once or a win in two (or the turn loses the game)."""
    seat = game.to_move
    assert seat is not None
    child = after(game, turn)
    if child.is_over:
        return seat not in child.winners
    return wins_at_once(child) or has_win_in_two(child)


def solve(game: Bide, seat: int, memo: dict[Hashable, float] | None = None) -> float:
    """``seat``'s exact result of ``game`` with best play on both sides (1 a win, 0.5 a shared win, 0 a loss):
    every line of play to the end, memoised by position (two seats, small positions only)."""
    if game.is_over:
        return 1.0 if game.winners == (seat,) else 0.5 if seat in game.winners else 0.0
    memo = {} if memo is None else memo
    key = bide_key(game)
    if key not in memo:
        values = [solve(after(game, t), seat, memo) for t in turns(game)]
        memo[key] = max(values) if game.to_move == seat else min(values)
    return memo[key]


def keeping(game: Bide) -> tuple[list[Turn[Bide]], list[Turn[Bide]]]:
    """The mover's turns, and those of them that keep the position's exact value (:func:`solve`)."""
    seat = game.to_move
    assert seat is not None
    memo: dict[Hashable, float] = {}
    options = turns(game)
    values = [solve(after(game, t), seat, memo) for t in options]
    return options, [t for t, v in zip(options, values, strict=True) if v == max(values)]


def small(game: Bide, empties: int = 5, orders: int = 60) -> bool:
    """Whether every turn within two of ``game`` can be listed quickly (few empty points, small hands)."""
    if game.is_over or game.empty_count > empties:
        return False
    reach = [h + (1 if p else 0) + 1 for h, p in zip(game.hands, game.pools, strict=True)]
    return all(perm(game.empty_count, min(r, game.empty_count)) <= orders for r in reach)


def easy_misses(game: Bide, answers: list[Turn[Bide]]) -> bool:
    """Whether ``easy`` plays none of ``answers`` with one of seeds 0, 1, 2 (a position worth a test)."""
    keys = {bide_key(after(game, t)) for t in answers}
    return any(bide_key(after(game, choose_turn(game, "easy", seed=s).turn)) not in keys for s in range(3))


def kind_of(game: Bide) -> str | None:
    """``"win_in_two"``, ``"denial"`` or None: which puzzle ``game`` is (premise two turns deep, few answers)."""
    if wins_at_once(game):
        return None
    options, answers = keeping(game)
    if len(answers) > len(options) // 6:
        return None
    if has_win_in_two(game):
        return "win_in_two"
    if sum(careless(game, t) for t in options) > len(options) // 2:
        return "denial"
    return None


def find(seed: int, kinds: dict[str, list[dict]], per_kind: int, empties: int = 7, orders: int = 120) -> None:
    """Play one seeded easy-vs-easy game on the side-4 board and collect positions of each kind."""
    game = new_game("bide", 2, {"side": 4})
    rng = random.Random(seed)
    while not game.is_over:
        if small(game, empties, orders):
            kind = kind_of(game)
            if kind and len(kinds[kind]) < per_kind:
                options, answers = keeping(game)
                if easy_misses(game, answers):
                    kinds[kind].append({"state": game.to_json(), "answers": len(answers), "turns": len(options)})
        game.play_turn(choose_turn(game, "easy", seed=rng.randrange(10**6)).turn.notation)


def main(per_kind: int = 4) -> None:
    collect(DATA, {"win_in_two": [], "denial": []}, find, per_kind)


def load(kind: str) -> list[Bide]:
    return load_games(DATA, kind, Bide)


if __name__ == "__main__":
    main()
