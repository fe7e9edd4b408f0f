"""Tactical positions two turns deep, each checked exhaustively (tests/data/tactics.json; issue 39).

``python -m tests.tactics`` finds them again: seeded games between easy computers on Begird's small board
are searched, position by position, for

- **a win in two by a double threat**: the mover cannot win at once, the opponent threatens nothing, and a
  few of the mover's stones (not most) leave two winning cells at once, so every reply loses;
- **a forced block of a double threat**: the opponent threatens nothing at once, but has a stone that would
  make a double threat; only a few of the mover's stones stop every such stone.

The same exhaustive checks (:func:`wins_in_two`, :func:`stops_every_win_in_two`) are what the tests use to
verify both the premise and the computer's answer.
"""

from __future__ import annotations

import random
from pathlib import Path

from ai.player import choose_turn
from games.begird import SWAP, Begird
from games.registry import new_game
from tests.tactics_data import collect, load_games

DATA = Path(__file__).parent / "data" / "tactics.json"


def winning_cells(game: Begird, colour: int) -> list[int]:
    """Every empty cell where a stone of ``colour`` would win at once."""
    return [i for i in game.empties if game.would_win(i, colour)]


def after(game: Begird, cell: int) -> Begird:
    child = game.copy()
    child.apply_action(cell)
    if not child.is_over:
        child.end_turn()
    return child


def wins_in_two(game: Begird, cell: int) -> bool:
    """Whether the mover's stone on ``cell`` wins at once, or leaves every reply a win at once for the mover."""
    colour = game.to_move
    assert colour is not None
    child = after(game, cell)
    if child.is_over:
        return child.winners == (colour,)
    if len(winning_cells(child, colour)) < 2:  # one winning cell, the reply blocks it
        return False
    for reply in child.legal_actions():
        if reply == SWAP:
            return False  # (never this late) a swap would hand the colours over
        grandchild = after(child, reply)
        if grandchild.is_over or not any(grandchild.would_win(i, colour) for i in grandchild.empties):
            return False
    return True


def has_win_in_two(game: Begird) -> bool:
    colour = game.to_move
    assert colour is not None
    return any(wins_in_two(game, cell) for cell in game.empties if not game.would_win(cell, colour))


def stops_every_win_in_two(game: Begird, cell: int) -> bool:
    """Whether after the mover's stone on ``cell`` the opponent has neither a win at once nor a win in two."""
    child = after(game, cell)
    if child.is_over:
        return True
    opponent = child.to_move
    assert opponent is not None
    return not winning_cells(child, opponent) and not has_win_in_two(child)


def _position(game: Begird) -> dict:
    return game.to_json()


def find(seed: int, kinds: dict[str, list[dict]], per_kind: int) -> None:
    """Play one seeded easy-vs-easy game on the small board and collect positions of each kind."""
    game = new_game("begird", 2, {"board": "small"})
    rng = random.Random(seed)
    while not game.is_over and game.ply < 60:
        colour = game.to_move
        assert colour is not None
        if game.ply >= 6 and not winning_cells(game, colour) and not winning_cells(game, 3 - colour):
            moves = list(game.empties)
            if len(kinds["double_threat_win"]) < per_kind:
                winners = [c for c in moves if wins_in_two(game, c)]
                if winners and len(winners) <= len(moves) // 8:
                    kinds["double_threat_win"].append({"state": _position(game), "answers": len(winners)})
            if len(kinds["double_threat_block"]) < per_kind:
                probe = game.copy()
                probe.current = 3 - colour  # does the opponent, were it to move, win in two?
                if has_win_in_two(probe):
                    stoppers = [c for c in moves if stops_every_win_in_two(game, c)]
                    if stoppers and len(stoppers) <= len(moves) // 8:
                        kinds["double_threat_block"].append({"state": _position(game), "answers": len(stoppers)})
        game.play_turn(choose_turn(game, "easy", seed=rng.randrange(10**6)).turn.notation)


def main(per_kind: int = 4) -> None:
    collect(DATA, {"double_threat_win": [], "double_threat_block": []}, find, per_kind)


def load(kind: str) -> list[Begird]:
    return load_games(DATA, kind, Begird)


if __name__ == "__main__":
    main()
