"""Points and tie-breaks of a tournament, from its games' results. Pure: no store.

A game gives points by placement: at a table of n, place p earns (n - p) / (n - 1) (a win 1, a loss 0; at a
Bide table of four 1, 2/3, 1/3, 0), players tied share the places' points (a draw: 1/2 each); a bye earns 1.
Tie-breaks, in order: Swiss, Buchholz then Sonneborn-Berger; round robin, Sonneborn-Berger, then the points
scored in the games among the players still tied (head-to-head), then wins. docs/tournaments.md says the same.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

SWISS_TIEBREAKS = ("Buchholz", "Sonneborn-Berger")
ROUND_ROBIN_TIEBREAKS = ("Sonneborn-Berger", "head-to-head", "wins")


@dataclass(frozen=True)
class GameResult:
    """A finished game of the tournament: who played (first to move first) and the points each took."""

    round: int
    players: tuple[int, ...]
    points: dict[int, float]

    def won_by(self, user_id: int) -> bool:
        return self.points.get(user_id, 0.0) == 1.0  # first place alone (a shared first takes less)


@dataclass
class Standing:
    user_id: int
    name: str
    points: float
    tiebreaks: tuple[float, ...]
    wins: int
    games: int  # finished games played (a bye is not a game)
    withdrawn: bool
    division: int = 1
    place: int = 0  # 1 for the first; players equal on points and every tie-break share a place


def placement_points(order: list[list[int]]) -> dict[int, float]:
    """Points by placement for groups of players, best group first (players in one group are tied)."""
    n = sum(len(group) for group in order)
    points: dict[int, float] = {}
    place = 1
    for group in order:
        shares = [(n - p) / (n - 1) if n > 1 else 1.0 for p in range(place, place + len(group))]
        for user_id in group:
            points[user_id] = sum(shares) / len(shares)
        place += len(group)
    return points


def standings(
    players: list[tuple[int, str, bool]],
    results: list[GameResult],
    byes: list[int],
    fmt: str,
    division_of: dict[int, int] | None = None,
) -> list[Standing]:
    """Everyone ranked, best first (division by division): ``players`` are (user id, name, withdrawn)."""
    division_of = division_of or {}
    totals: dict[int, float] = defaultdict(float)
    for result in results:
        for user_id, got in result.points.items():
            totals[user_id] += got
    for user_id in byes:
        totals[user_id] += 1.0
    rows = []
    for user_id, name, withdrawn in players:
        mine = [r for r in results if user_id in r.points]
        buchholz = sonneborn = 0.0
        for result in mine:
            others = [totals[o] for o in result.players if o != user_id]
            average = sum(others) / len(others) if others else 0.0
            buchholz += average
            sonneborn += result.points[user_id] * average
        wins = sum(r.won_by(user_id) for r in mine)
        tiebreaks = (buchholz, sonneborn) if fmt == "swiss" else (sonneborn, 0.0, float(wins))
        rows.append(
            Standing(user_id, name, totals[user_id], tiebreaks, wins, len(mine), withdrawn, division_of.get(user_id, 1))
        )
    if fmt != "swiss":
        _head_to_head(rows, results)
    rows.sort(key=_order)
    for division in {r.division for r in rows}:
        place, previous = 0, None
        mine_rows = [r for r in rows if r.division == division]
        for i, row in enumerate(mine_rows, start=1):
            key = (row.points, row.tiebreaks)
            if key != previous:
                place, previous = i, key
            row.place = place
    return rows


def _order(row: Standing) -> tuple[object, ...]:
    return (row.division, -row.points, *(-t for t in row.tiebreaks), row.name.lower(), row.user_id)


def _head_to_head(rows: list[Standing], results: list[GameResult]) -> None:
    """Round robin's second tie-break: among players equal on points and Sonneborn-Berger, the points each
    scored in the games between them."""
    groups: dict[tuple[int, float, float], list[Standing]] = defaultdict(list)
    for row in rows:
        groups[(row.division, row.points, round(row.tiebreaks[0], 9))].append(row)
    for group in groups.values():
        if len(group) < 2:
            continue
        tied = {r.user_id for r in group}
        for row in group:
            scored = sum(r.points[row.user_id] for r in results if row.user_id in r.points and set(r.players) <= tied)
            row.tiebreaks = (row.tiebreaks[0], scored, row.tiebreaks[2])
