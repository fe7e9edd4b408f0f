"""Tournament pairing time: a 64-player Swiss round (target < 1 s) beside baselines in the same run.

Figures, each the worst and the median of ``--repeat`` events with random results:

* **Swiss 64**: ``swiss_round`` (networkx's maximum-weight matching) for each of 6 rounds of 64 players;
* **Swiss 16**: the same for 16 players and 4 rounds (the baseline: a matching grows about as n³);
* **Berger 64**: the round-robin schedule of 64 players cut into divisions of ten (no matching: the floor);
* **round 2 of 64, stored**: the whole advancement through the service on SQLite (standings read from
  the store, the pairing, 32 matches stored and started in one transaction).

Run: .venv/bin/python benchmarks/bench_tournaments.py [--repeat 5]
Saves the printout to benchmarks/results/bench_tournaments-<date>.txt.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.domain.clock import ManualClock  # noqa: E402
from bot.service.matches import MatchService  # noqa: E402
from bot.service.pairing import Entrant, berger_rounds, divisions, swiss_round  # noqa: E402
from bot.service.tournaments import Tournaments  # noqa: E402
from bot.store import open_store  # noqa: E402

RELAXED: Counter[str] = Counter()  # rounds in which a rule had to give way, by rule


def swiss_event(count: int, rounds: int, seed: int) -> list[float]:
    """Seconds each round's pairing took, results random (wins, draws, losses)."""
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    score: dict[int, float] = dict.fromkeys(players, 0.0)
    balance: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    opponents: dict[int, set[int]] = {p: set() for p in players}
    times = []
    for number in range(1, rounds + 1):
        ranked = sorted(players, key=lambda p: (-score[p], p))
        entrants = [Entrant(p, score[p], i, frozenset(opponents[p]), balance[p], byes[p]) for i, p in enumerate(ranked)]
        started = time.perf_counter()
        paired = swiss_round(entrants, number)
        times.append(time.perf_counter() - started)
        RELAXED.update(f"{count} players: {rule}" for rule in paired.relaxed)
        if paired.bye is not None:
            byes[paired.bye] += 1
            score[paired.bye] += 1
        for first, second in paired.pairs:
            opponents[first].add(second)
            opponents[second].add(first)
            balance[first] += 1
            balance[second] -= 1
            outcome = rng.choice((1.0, 0.5, 0.0))
            score[first] += outcome
            score[second] += 1 - outcome
    return times


def berger(count: int) -> float:
    started = time.perf_counter()
    for group in divisions(list(range(count))):
        berger_rounds(group)
    return time.perf_counter() - started


async def stored_round(count: int) -> float:
    """Round 2 of a ``count``-player Swiss through the service on SQLite: the advancement as the bot does it."""
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(str(Path(folder) / "bench.db"))
        try:
            service = MatchService(store, ManualClock())
            tournaments = Tournaments(service)
            event = await tournaments.create(
                organizer=1, guild_id=1, channel_id=2, game_id="bump", fmt="swiss", rounds=3
            )
            for user_id in range(1, count + 1):
                await tournaments.join(event.id, 1, (user_id, f"p{user_id}"))
            news = await tournaments.start(event.id, 1, 1)
            for outcome in news.started:
                await service.resign(outcome.match.id, outcome.match.seats[1].user_id)
            started = time.perf_counter()
            advanced = await tournaments.tend(event.id)
            took = time.perf_counter() - started
            assert advanced is not None and len(advanced.started) == count // 2
            return took
        finally:
            await store.close()


def line(name: str, samples: list[float]) -> str:
    return f"{name:<28} worst {max(samples) * 1000:8.1f} ms   median {statistics.median(samples) * 1000:8.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    swiss64 = [t for seed in range(args.repeat) for t in swiss_event(64, 6, seed)]
    swiss16 = [t for seed in range(args.repeat) for t in swiss_event(16, 4, seed)]
    berger64 = [berger(64) for _ in range(args.repeat)]
    stored = [asyncio.run(stored_round(64)) for _ in range(max(1, args.repeat // 2))]
    out = [
        f"bench_tournaments {datetime.date.today()} (python {sys.version.split()[0]}, repeat {args.repeat})",
        line("Swiss 64 players, a round", swiss64),
        line("Swiss 16 players (baseline)", swiss16),
        line("Berger 64 in divisions", berger64),
        line("round 2 of 64, stored", stored),
        f"rounds that relaxed a rule: {dict(RELAXED) or 'none'} (of {len(swiss64)} + {len(swiss16)})",
        f"target: a 64-player Swiss pairing under 1 s: {'met' if max(swiss64) < 1.0 else 'NOT met'}",
    ]
    text = "\n".join(out) + "\n"
    print(text, end="")
    results = ROOT / "benchmarks" / "results" / f"bench_tournaments-{datetime.date.today()}.txt"
    results.write_text(text)


if __name__ == "__main__":
    main()
