"""What speaking French costs, beside English in the same run: words, pictures, and the catalog's start.

Figures (medians of ``--repeat`` rounds, each timing many calls, English and French in alternation):

* **a refusal**, **a board's caption and description**: the chat layer's words for the same data, in English
  (the source text: no catalog) and in French (a gettext lookup, then the same formatting);
* **a board picture** of each game in mid-game, drawn in English and in French (the French words are
  longer: the fitting code may shrink or wrap them);
* **the French catalog**: read and compiled once per process (the bot does it at start-up).

Run: .venv/bin/python benchmarks/bench_languages.py [--repeat 5]
Saves the printout to benchmarks/results/bench_languages-<date>.txt.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from bot.chat.words import boards, outcomes  # noqa: E402
from bot.chat.words import refusal as worded  # noqa: E402
from bot.domain.errors import Refusal  # noqa: E402
from bot.service.describe import last_turn  # noqa: E402
from games import GAMES  # noqa: E402
from i18n import speaking, translations  # noqa: E402
from tests.test_board_words import match_of  # noqa: E402


def per_call(work, calls: int) -> float:
    """Seconds per call of ``work`` over ``calls`` calls."""
    start = time.perf_counter()
    for _ in range(calls):
        work()
    return (time.perf_counter() - start) / calls


def mid_game(game_id: str, seed: int = 5):
    game = GAMES[game_id].new(GAMES[game_id].min_players if game_id != "bide" else 3)
    rng, events = random.Random(seed), []
    for _ in range(14):
        if game.is_over:
            break
        try:
            events = game.play_turn(rng.choice(sorted(game.legal_notations())))
        except Exception:  # a random Play Bai turn may end on a dot: try another
            continue
    return game, events


def both(work, calls: int, repeat: int) -> tuple[float, float]:
    """Median seconds per call in English and in French, the two timed in alternation round by round (the
    order swapped each round), each warmed first: a noisy machine's drift falls on both alike."""
    timed: dict[str, list[float]] = {"en": [], "fr": []}
    for language in ("en", "fr"):
        with speaking(language):
            work()
    for round_ in range(repeat):
        for language in ("en", "fr") if round_ % 2 == 0 else ("fr", "en"):
            with speaking(language):
                timed[language].append(per_call(work, calls))
    return statistics.median(timed["en"]), statistics.median(timed["fr"])


def game_costs(game_id: str, repeat: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(words, picture): English and French seconds per call for a mid-game board of ``game_id``."""
    game, events = mid_game(game_id)
    match = match_of(game)
    turn = last_turn(events, "")
    names = [s.name for s in match.seats]
    words = both(lambda: (boards.board_description(match, game, turn), outcomes.status_line(match, game)), 300, repeat)
    picture = both(lambda: render.render_png(game, player_names=names, last_events=events), 10, repeat)
    return words, picture


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    lines = [f"bench_languages {datetime.date.today()}  (median of {repeat} rounds; English is the baseline)"]
    translations.cache_clear()
    start = time.perf_counter()
    translations("fr")
    lines.append(f"French catalog read and compiled once a process: {1000 * (time.perf_counter() - start):.0f} ms")
    lines.append(f"{'what':38} {'English':>10} {'French':>10} {'French/English':>15}")

    def row(what: str, english: float, french: float, unit: str, scale: float) -> None:
        lines.append(f"{what:38} {english * scale:>8.1f}{unit} {french * scale:>8.1f}{unit} {french / english:>14.2f}x")

    refusal = Refusal("time_limit_range", low=1, high=30)
    row("a refusal", *both(lambda: worded(refusal), 5000, repeat), " µs", 1e6)
    for game_id in ("bide", "begird", "playbai", "bump"):
        words, picture = game_costs(game_id, repeat)
        row(f"{game_id}: caption and description", *words, " µs", 1e6)
        row(f"{game_id}: board picture (PNG)", *picture, " ms", 1e3)
    text = "\n".join(lines)
    print(text)
    out = ROOT / "benchmarks" / "results" / f"bench_languages-{datetime.date.today()}.txt"
    out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
