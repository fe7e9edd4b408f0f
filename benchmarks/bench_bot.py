"""The bot under load, through the loopback Discord emulator with the real discord.py client.

The bot runs as its own process (`python -m bot`, as in production) pointed at an emulator
in this process, so Discord's side of the work (and the simulated players) does not share
the bot's process. Each run plays 50 concurrent two-player Bide matches with 100 simulated
players (fresh matches and players per run), in two modes:

* **saturated**: every player answers the instant it is its turn (50 moves always in
  flight): the bot's maximum throughput, and the queueing delay at that load;
* **paced**: each player answers after a random think time (exponential, mean --think
  seconds) — already far busier than correspondence play, where moves are hours apart.

Each mode runs on each storage backend (--backends: SQLite, and PostgreSQL on a throwaway server the
benchmark starts from Debian's postgresql package, as the tests do), with a fresh bot, database and
players per run, the backends taking turns within each run so that both meet the same machine load.

Each mode runs 3 times (--runs); the summary gives min/median/max over the runs of:
turns per second; the 50th/95th/99th percentile time from the /move interaction to the
response carrying the new picture; and CPU per turn, measured (not wall time) for

* the **bot**: user + system CPU of the bot process and of any worker processes it started
  (Linux /proc), which is the figure issue 10 sets targets for (≤ 10 ms per turn);
* the **emulator + load generator**: this process (the loopback Discord and the players),
  which on a 2-core machine competes with the bot for the cores but is not the bot's cost.

The load average (`uptime`) is printed before and after: on a busy machine wall-time figures
(turns/s, latency) move with it, the CPU per turn much less.

and the database server's CPU per turn for PostgreSQL (its processes, beside the bot's).
The last table puts the backends side by side with PostgreSQL / SQLite ratios (medians).

Run (about 10 minutes with the defaults; --runs 1 about 4):

    .venv/bin/python benchmarks/bench_bot.py [--runs 3] [--modes saturated,paced]
        [--backends sqlite,postgres] [--matches 50] [--turns 20] [--think 2.0] [--profile bot.prof]

--profile runs the bot under cProfile (its event-loop thread) and writes the statistics to
the file when the bot stops; `python -m pstats bot.prof` reads them. Profiling slows the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from botprocess import BotProcess, percentile  # noqa: E402

CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU of one live process so far (Linux /proc), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def child_pids(pid: int) -> list[int]:
    """Every live descendant of a process (a render pool's workers, say)."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            children = [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
        for child in children:
            found.append(child)
            found.extend(child_pids(child))
    return found


@dataclass
class PhaseResult:
    turns: int
    wall: float
    latencies_ms: list[float]
    bot_cpu: float  # bot process + its workers, seconds
    worker_cpu: float  # of which the workers
    bench_cpu: float  # this process: the emulator and the simulated players
    server_cpu: float = 0.0  # the PostgreSQL server's processes (0 for SQLite, which is in the bot)

    @property
    def throughput(self) -> float:
        return self.turns / self.wall

    def per_turn_ms(self, seconds: float) -> float:
        return 1000 * seconds / self.turns


class Bench(BotProcess):
    def __init__(self, matches: int, tmp: Path, profile: Path | None, server=None, database_url: str = "") -> None:
        super().__init__(tmp, profile, database_url)
        self.matches = matches
        self.player_count = 0
        self.server = server  # the PostgreSQL cluster, whose CPU is counted apart

    def server_cpu_seconds(self) -> float:
        if self.server is None:
            return 0.0
        postmaster = int((self.server.data / "postmaster.pid").read_text().split()[0])
        return process_cpu_seconds(postmaster) + sum(process_cpu_seconds(p) for p in child_pids(postmaster))

    def new_players(self):
        """Two fresh players per match (a player may open only 3 challenges a minute)."""
        first = self.player_count
        self.player_count += 2 * self.matches
        return [self.emu.create_user(f"player{i}") for i in range(first, self.player_count)]

    def bot_cpu_seconds(self) -> tuple[float, float]:
        """(bot process + live workers, workers alone) CPU so far."""
        assert self.process is not None
        workers = sum(process_cpu_seconds(pid) for pid in child_pids(self.process.pid))
        return process_cpu_seconds(self.process.pid) + workers, workers

    async def phase(self, turns: int, think: float) -> PhaseResult:
        users = self.new_players()
        pairs = []
        for i in range(self.matches):  # one after another: the bot's thread creation is rate limited
            a, b = users[2 * i], users[2 * i + 1]
            pairs.append((await self.people_match(a, b, timeout=30, polls=3000), a, b))
        await asyncio.sleep(1.0)  # let the last starts' posts and records settle before measuring
        latencies: list[float] = []

        started, cpu_before, bench_before = time.perf_counter(), self.bot_cpu_seconds(), time.process_time()
        server_before = self.server_cpu_seconds()
        await asyncio.gather(
            *(self.play_people(*pair, random.Random(i), turns, think, latencies) for i, pair in enumerate(pairs))
        )
        wall = time.perf_counter() - started
        bench_cpu = time.process_time() - bench_before
        cpu_after = self.bot_cpu_seconds()
        return PhaseResult(
            len(latencies),
            wall,
            latencies,
            cpu_after[0] - cpu_before[0],
            cpu_after[1] - cpu_before[1],
            bench_cpu,
            self.server_cpu_seconds() - server_before,
        )


def describe(name: str, r: PhaseResult) -> str:
    ms = r.latencies_ms
    workers = f" (workers {r.per_turn_ms(r.worker_cpu):.1f})" if r.worker_cpu else ""
    workers += f", PostgreSQL server {r.per_turn_ms(r.server_cpu):.1f} ms" if r.server_cpu else ""
    return (
        f"{name}: {r.turns} turns in {r.wall:.1f} s = {r.throughput:.1f} turns/s; "
        f"latency p50 {percentile(ms, 50):.0f} / p95 {percentile(ms, 95):.0f} / p99 {percentile(ms, 99):.0f} ms; "
        f"CPU per turn: bot {r.per_turn_ms(r.bot_cpu):.1f} ms{workers}, "
        f"emulator + players {r.per_turn_ms(r.bench_cpu):.1f} ms; load {load_average()}"
    )


def spread(values: list[float], digits: int = 1) -> str:
    return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f} / {max(values):.{digits}f}"


def summary(name: str, results: list[PhaseResult]) -> list[str]:
    lines = [
        f"{name} ({len(results)} runs; min / median / max over the runs):",
        f"  throughput              {spread([r.throughput for r in results])} turns/s",
    ]
    lines.extend(
        f"  latency p{p:<2}             {spread([percentile(r.latencies_ms, p) for r in results], 0)} ms"
        for p in (50, 95, 99)
    )
    lines.append(
        f"  bot CPU per turn        {spread([r.per_turn_ms(r.bot_cpu) for r in results])} ms"
        " (bot process + render workers)"
    )
    if any(r.worker_cpu for r in results):
        lines.append(f"    of which workers      {spread([r.per_turn_ms(r.worker_cpu) for r in results])} ms")
    lines.append(
        f"  emulator + players CPU  {spread([r.per_turn_ms(r.bench_cpu) for r in results])} ms per turn"
        " (this process: not the bot's cost)"
    )
    return lines


BACKENDS = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


def side_by_side(mode: str, results: dict[tuple[str, str], list[PhaseResult]], backends: list[str]) -> list[str]:
    """One table per mode: each figure's median over the runs per backend, and PostgreSQL / SQLite."""
    rows = [
        ("turns/s", lambda r: r.throughput, 1),
        ("/move p50 ms", lambda r: percentile(r.latencies_ms, 50), 0),
        ("/move p95 ms", lambda r: percentile(r.latencies_ms, 95), 0),
        ("/move p99 ms", lambda r: percentile(r.latencies_ms, 99), 0),
        ("bot CPU ms per turn", lambda r: r.per_turn_ms(r.bot_cpu), 2),
        ("DB server CPU ms per turn", lambda r: r.per_turn_ms(r.server_cpu), 2),
    ]
    head = f"  {'':<27}" + "".join(f"{BACKENDS[b]:>12}" for b in backends)
    ratio = len(backends) == 2
    lines = [head + ("  PostgreSQL / SQLite" if ratio else "")]
    for name, figure, digits in rows:
        medians = [statistics.median(figure(r) for r in results[(b, mode)]) for b in backends]
        line = f"  {name:<27}" + "".join(f"{m:>12.{digits}f}" for m in medians)
        if ratio and medians[0]:
            line += f"  {medians[1] / medians[0]:>8.2f}x"
        lines.append(line)
    return lines


async def one_run(args, backend: str, mode_names: list[str], modes, tmp: Path, server, number: int):
    url = server.create_database(f"bench{number}") if backend == "postgres" else ""
    bench = Bench(args.matches, tmp / f"{backend}{number}", args.profile, server if url else None, url)
    (tmp / f"{backend}{number}").mkdir()
    await bench.start()
    results = {}
    try:
        for mode in mode_names:
            results[mode] = await bench.phase(args.turns, modes[mode])
    finally:
        violations, hits = len(bench.emu.violations), len(bench.emu.rate_limit_hits)
        await bench.stop()
    return results, violations, hits


async def run(args: argparse.Namespace) -> int:
    modes = {"saturated": 0.0, "paced": args.think}
    chosen = [m.strip() for m in args.modes.split(",") if m.strip()]
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = [m for m in chosen if m not in modes] + [b for b in backends if b not in BACKENDS]
    if unknown:
        print(
            f"unknown mode(s) or backend(s) {unknown}: choose from {list(modes)} and {list(BACKENDS)}", file=sys.stderr
        )
        return 2
    server = None
    if "postgres" in backends:
        from tests.postgres import start_cluster

        server = start_cluster()
    print(
        f"bench_bot: {args.matches} matches x {args.turns} turns per run, {args.runs} runs of {', '.join(chosen)} "
        f"on {', '.join(BACKENDS[b] for b in backends)}; {os.cpu_count()} cores, load average {load_average()}",
        flush=True,
    )
    results: dict[tuple[str, str], list[PhaseResult]] = {(b, m): [] for b in backends for m in chosen}
    violations = hits = 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for run_number in range(1, args.runs + 1):
                for backend in backends:
                    found, broken, limited = await one_run(args, backend, chosen, modes, Path(tmp), server, run_number)
                    violations, hits = violations + broken, hits + limited
                    for mode, result in found.items():
                        results[(backend, mode)].append(result)
                        label = mode if mode == "saturated" else f"paced (think {args.think:g} s)"
                        print(f"run {run_number} {BACKENDS[backend]} {describe(label, result)}", flush=True)
    finally:
        if server is not None:
            server.remove()
    print()
    for backend in backends:
        for mode in chosen:
            label = "saturated (no think time)" if mode == "saturated" else f"paced (mean think time {args.think:g} s)"
            print("\n".join(summary(f"{BACKENDS[backend]}, {label}", results[(backend, mode)])))
    for mode in chosen:
        print()
        print(f"{mode}: medians over {args.runs} runs")
        print("\n".join(side_by_side(mode, results, backends)))
    print(f"Discord rule violations: {violations}; 429 rate-limit answers: {hits}; load average {load_average()}")
    return 1 if violations else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modes", default="saturated,paced", help="comma-separated: saturated, paced")
    parser.add_argument("--backends", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--think", type=float, default=2.0, help="paced mode: mean think time in seconds")
    parser.add_argument("--profile", type=Path, default=None, help="run the bot under cProfile, stats to this file")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
