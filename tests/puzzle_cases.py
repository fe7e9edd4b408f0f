"""Stored games with a puzzle in them, for tests/test_puzzles_cases.py (tests/data/puzzle_games.json).

``python -m tests.puzzle_cases`` finds them again: seeded games of the easy computer against itself
(:func:`ai.puzzles.self_play_game`) are searched, position by position, for each wanted kind of puzzle (and
of non-puzzle: two first turns that win), keeping the cheapest proof of each kind in the first seeds that
hold every kind, so the tests stay fast (``python -m tests.puzzle_cases bump`` finds one game's again,
keeping the others').
Each case is the game's turns up to the position (replayed through the engine's public ``play_turn``), a
turn that misses the solution (to be the one the player played), and what the proof found then. The tests
do not take the prover's word for it: they check each solution against the rules by exhaustive search.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from ai.knowledge import knowledge_for
from ai.puzzles import self_play_game
from ai.puzzles.budget import Meter, OverBudget, ProofBudget
from ai.puzzles.bump import centre_taken
from ai.puzzles.candidates import Proof, positions, prove
from games.bump import Bump
from games.interface import AnyGame
from games.registry import new_game

DATA = Path(__file__).parent / "data" / "puzzle_games.json"
WANTED = {
    "playbai": ("goal1", "goal2", "not unique goal2"),
    "bump": ("take1", "save1", "not unique take"),
    "bide": ("points1", "no margin"),
}
SEEDS = 12


def kind_of(game: AnyGame, proof: Proof | str) -> str:
    if isinstance(proof, Proof):
        return f"{proof.goal.kind}{proof.goal.turns}"
    if proof == "not unique":
        if isinstance(game, Bump):
            return "not unique " + ("save" if centre_taken(game, game.to_move or 1) else "take")
        return "not unique goal2"
    return "no margin" if game.info.id == "bide" else proof


def missing_turn(game: AnyGame, solution: str | None) -> str:
    """A legal turn other than the solution (the one the player 'played')."""
    # one action's notation first; then the search's whole turns (a Bide release owed is several placements)
    wholes = [turn.notation for turn in knowledge_for(game).turns(game, random.Random(0))]
    for notation in [*game.legal_notations(), *wholes]:
        trial = game.copy()
        try:
            trial.play_turn(notation)
        except ValueError:
            continue
        if solution is None:
            return notation
        other = game.copy()
        other.play_turn(solution)
        if json.dumps(trial.position(), sort_keys=True) != json.dumps(other.position(), sort_keys=True):
            return notation
    raise AssertionError("no other turn")


def find(game_id: str) -> dict[str, Any]:
    best: dict[str, dict[str, Any]] = {}
    for seed in range(SEEDS):
        start, moves = self_play_game(game_id, seed)
        for index, game, _ in positions(start, moves):
            meter = Meter(ProofBudget(nodes=100_000, seconds=3))
            began = time.process_time()
            try:
                proof = prove(game, meter)
            except OverBudget:
                continue
            kind = kind_of(game, proof)
            cost = time.process_time() - began
            if kind not in WANTED[game_id] or (kind in best and best[kind]["cost"] <= cost):
                continue
            solution = proof.solution.turn if isinstance(proof, Proof) else None
            best[kind] = {
                "seed": seed,
                "turns": moves[:index],
                "played": missing_turn(game, solution),
                "solution": solution,
                "goal": proof.goal.to_json() if isinstance(proof, Proof) else None,
                "cost": round(cost, 3),
            }
            print(game_id, kind, seed, index, round(cost, 3), flush=True)
        if len(best) == len(WANTED[game_id]):
            break  # one of each kind is enough: the next seeds would only find cheaper ones
    return best


def main() -> None:
    found = {game_id: find(game_id) for game_id in sys.argv[1:] or WANTED}
    cases = json.loads(DATA.read_text()) if DATA.exists() else {}  # read last: one game may be found at a time
    cases.update(found)
    DATA.write_text(json.dumps(cases, indent=1) + "\n")


def replay(game_id: str, case: dict[str, Any]) -> AnyGame:
    """The case's position, its turns played from the start."""
    game = new_game(game_id, 2)
    for turn in case["turns"]:
        game.play_turn(turn)
    return game


def load(game_id: str, kind: str) -> tuple[AnyGame, dict[str, Any]]:
    case: dict[str, Any] = json.loads(DATA.read_text())[game_id][kind]
    return replay(game_id, case), case


if __name__ == "__main__":
    main()
