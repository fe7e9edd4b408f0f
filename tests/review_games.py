"""Games with one known blunder, for the review's tests (tests/data/review_blunders.json, rewritten by
``python -m tests.review_games``): the medium computer plays both sides until a position where the mover can
leave the opponent a win at once (or not take their own) and need not, and where the search judges it costs
at least 30 points; the mover blunders there, and the game goes on between computers to its end."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from ai import choose_turn
from ai.knowledge import knowledge_for
from ai.review import ReviewBudget, assess
from ai.turns import Turn
from games import AnyGame
from games.registry import new_game


@dataclass
class BlunderGame:
    start: AnyGame
    turns: list[str]
    """Every turn in notation, in order."""
    blunder: int
    """The index of the turn that left the win open."""


def _gives_a_win(game: AnyGame, turn: Turn, rng: random.Random) -> bool:
    after = turn.result(game)
    if after.is_over:
        return False
    know = knowledge_for(after)
    return know.winning_turn(after, know.turns(after, rng)) is not None


def blunder_game(
    game_id: str, options: dict, *, after: int, level: str = "easy", seed: int = 0, missed: bool = False
) -> BlunderGame:
    """A two-player game whose blunder comes at the first chance from turn ``after``: a turn that leaves the
    opponent a win at once (or, ``missed``, a turn that does not take the mover's own win at once)."""
    game = new_game(game_id, 2, options)
    start = game.copy()
    turns: list[str] = []
    rng = random.Random(seed)
    blunder = -1
    while not game.is_over:
        know = knowledge_for(game)
        if blunder < 0 and len(turns) >= after:
            candidates = know.turns(game, rng)
            win = know.winning_turn(game, candidates)
            losing = [t for t in candidates if _gives_a_win(game, t, rng)]
            if missed:
                others = [t for t in candidates if t is not win and t not in losing]
                chance = win is not None and bool(others)
            else:
                others = losing
                chance = win is None and bool(losing) and len(losing) < len(candidates)
            if chance:  # only where it costs: a blunder in a lost (or won) game changes nothing
                mover = game.player_of_seat(game.to_move or 1)
                budget = ReviewBudget(300, 1.0)
                before = assess(game, None, budget, seed=seed).chances
                blundered = game.copy()
                blundered.play_turn(others[0].notation)
                after = assess(blundered, None, budget, seed=seed).chances
                chance = bool(before and after) and before[mover - 1] - after[mover - 1] >= 0.3
            if chance:
                notation = others[0].notation
                blunder = len(turns)
                game.play_turn(notation)
                turns.append(notation)
                continue
        if blunder >= 0:  # the opponent takes the win at once (the search always does)
            notation = choose_turn(game, "easy", seed=seed + len(turns)).turn.notation
        else:
            notation = choose_turn(game, level, seed=seed + len(turns)).turn.notation
        game.play_turn(notation)
        turns.append(notation)
        if len(turns) > 400:
            raise RuntimeError("the game did not end")
    assert blunder >= 0, "no chance to blunder came"
    return BlunderGame(start, turns, blunder)


def main() -> None:
    """Rewrite tests/data/review_blunders.json (minutes of CPU: the Play Bai search of every candidate turn)."""
    made = [
        blunder_game("begird", {"board": "small"}, after=4, level="medium", missed=True, seed=0),
        blunder_game("playbai", {"side": 5}, after=2, level="medium", seed=1),
    ]
    cases = [
        {"game": g, "options": o, "seed": s, "missed": m, "blunder": b.blunder, "turns": b.turns}
        for (g, o, s, m), b in zip(
            (("begird", {"board": "small"}, 0, True), ("playbai", {"side": 5}, 1, False)), made, strict=True
        )
    ]
    path = Path(__file__).parent / "data" / "review_blunders.json"
    path.write_text("[\n" + ",\n".join(json.dumps(c) for c in cases) + "\n]\n")


if __name__ == "__main__":
    main()
