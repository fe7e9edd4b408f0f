"""One version's post-game review of a given game, for bench_review.py's side-by-side runs (``--baseline``).

Run with a work tree as the working directory and on ``PYTHONPATH`` (that tree's ``ai``); reads one JSON
document on stdin — ``{"game", "options", "notations", "simulations", "seconds"}``, and optionally
``"seed_offset"`` — reviews every position through the tree's own ``ai.review.assess`` at that budget
(position ``k`` searched with seed ``seed_offset + k``; a match's review uses 0), and prints each position's
chances (as each search gave them, and as the tree's ``ai.review.judge`` shows them: ``shown``), simulations
and CPU seconds as one JSON document. The simulations are counted by wrapping whichever search the tree's review
calls (``ai.review.MCTS`` in older trees, ``ai.review.search`` in newer ones).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def main() -> int:
    request = json.loads(sys.stdin.read())
    import ai.review as review
    from games.registry import new_game

    counted: list[int] = []
    if hasattr(review, "search"):
        inner = review.search

        def counting_search(*args: Any, **kwargs: Any) -> Any:
            result = inner(*args, **kwargs)
            counted.append(result.simulations)
            return result

        review.search = counting_search
    else:
        base = review.MCTS  # type: ignore[attr-defined]

        class Counting(base):  # type: ignore[misc, valid-type]
            def search(self, game: Any) -> Any:
                result = super().search(game)
                counted.append(result.simulations)
                return result

        review.MCTS = Counting  # type: ignore[attr-defined]
    budget = review.ReviewBudget(request["simulations"], request["seconds"])
    game = new_game(request["game"], 2, request["options"])
    chances, simulations, seconds, views, movers = [], [], [], [], []
    notations = request["notations"]
    offset = int(request.get("seed_offset", 0))
    for k, notation in enumerate([*notations, None]):
        before = len(counted)
        if notation is not None:
            movers.append(game.player_of_seat(game.to_move or 0))  # a turn is played: someone moves
        began = time.process_time()
        view = review.assess(game, notation, budget, seed=offset + k)
        views.append(view)
        seconds.append(time.process_time() - began)
        simulations.append(counted[-1] if len(counted) > before else 0)
        chances.append(list(view.chances))
        if notation is not None:
            game.play_turn(notation)
    shown = [list(c) for c in review.judge(views, notations, movers, game.players).chances]
    print(json.dumps({"chances": chances, "shown": shown, "simulations": simulations, "seconds": seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
