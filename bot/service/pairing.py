"""Who plays whom: round-robin schedules (Berger tables), Swiss pairings and Bide tables. Pure: no store.

Swiss pairing is a maximum-weight matching (networkx), the textbook form of the Swiss rules: every player
is a node, every allowed pairing an edge whose weight is higher the closer the two scores are, and a
matching of the most pairs with the greatest total weight is the round. The rules are tried strictest first
(no rematch, no two players who both need the same turn order, nobody's second bye) and relaxed only when
no complete round exists under them; docs/tournaments.md states them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

BYE = -1  # the bye's node in the matching graph (user ids are positive)
DIVISION_SIZE = 10  # round robin: above this many players, rating-seeded divisions of at most this many


@dataclass(frozen=True)
class Entrant:
    """A player as the next Swiss round sees them."""

    id: int
    score: float  # points so far (a win 1, a draw 1/2, a bye 1)
    rank: int  # 0 for the best: standings, then the seeding rating
    opponents: frozenset[int] = frozenset()
    balance: int = 0  # games moved first minus games moved second
    byes: int = 0


@dataclass
class SwissRound:
    pairs: list[tuple[int, int]]  # (moves first, moves second)
    bye: int | None = None
    relaxed: list[str] = field(default_factory=list)  # the rules that had to give way, for the record


# -- round robin ---------------------------------------------------------------------------------


def berger_rounds(players: list[int]) -> list[list[tuple[int, int]]]:
    """Every pair once, as rounds of (first, second): the circle method of Berger's tables.

    With an odd number a phantom player makes the count even (its opponent sits the round out). Each player
    moves first in half their games, within one: on a table of the circle the player the rotation brings
    forward moves first, and the fixed player alternates.
    """
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    fixed, circle = seats[-1], seats[:-1]
    rounds = []
    for r in range(n - 1):
        games: list[tuple[int, int]] = []
        opposite = circle[r % (n - 1)]
        pair = (fixed, opposite) if r % 2 else (opposite, fixed)
        if pair[0] is not None and pair[1] is not None:
            games.append((pair[0], pair[1]))
        for k in range(1, n // 2):
            a, b = circle[(r + k) % (n - 1)], circle[(r - k) % (n - 1)]
            if a is not None and b is not None:
                games.append((a, b))
        rounds.append(games)
    return rounds


def divisions(seeded: list[int], size: int = DIVISION_SIZE) -> list[list[int]]:
    """Players in seeding order (strongest first) cut into consecutive groups of at most ``size``, as even as
    can be (the stronger groups take the extra player)."""
    count = -(-len(seeded) // size) or 1
    base, extra = divmod(len(seeded), count)
    groups, start = [], 0
    for i in range(count):
        end = start + base + (i < extra)
        groups.append(seeded[start:end])
        start = end
    return groups


# -- Swiss ---------------------------------------------------------------------------------------

# The tiers of rules, strictest first: (rematches allowed, turn-order clashes allowed, second byes allowed).
_TIERS = ((False, False, False), (False, True, False), (True, True, False), (True, True, True))
_CLASH, _REMATCH = 10**9, 10**12  # above any total of score differences (24 half points² · 65² · 32 < 10⁹)


def swiss_round(entrants: list[Entrant], round_number: int) -> SwissRound:
    """The next round's pairs (and bye, with an odd number) as a maximum-weight matching."""
    if len(entrants) < 2:
        return SwissRound([], entrants[0].id if entrants else None)
    for tier in _TIERS:
        matching = _matching(entrants, *tier)
        if matching is not None:
            return _round(entrants, matching, round_number, tier)
    raise AssertionError("the last tier allows every pairing")  # pragma: no cover


def _matching(entrants: list[Entrant], rematch: bool, clash: bool, second_bye: bool) -> set[tuple[int, int]] | None:
    graph = nx.Graph()
    nodes = [e.id for e in entrants] + ([BYE] if len(entrants) % 2 else [])
    graph.add_nodes_from(nodes)
    lowest = min(e.score for e in entrants)
    spread = len(entrants) + 1
    edges: list[tuple[int, int, int]] = []
    for i, a in enumerate(entrants):
        if BYE in nodes and (second_bye or a.byes == 0):
            # the bye goes to the lowest score, then the lowest rank, then the fewest byes
            cost = (
                (round(2 * (a.score - lowest))) ** 2 * spread + (len(entrants) - a.rank)
            ) * spread + a.byes * _REMATCH
            edges.append((a.id, BYE, cost))
        for b in entrants[i + 1 :]:
            met = b.id in a.opponents
            clashes = a.balance * b.balance > 0  # both moved first more often (or both second): one must again
            if (met and not rematch) or (clashes and not clash):
                continue
            cost = (round(2 * (a.score - b.score))) ** 2 * spread * spread
            cost += _CLASH * clashes * min(abs(a.balance), abs(b.balance)) + _REMATCH * met
            edges.append((a.id, b.id, cost))
    top = max((c for *_, c in edges), default=0) + 1
    graph.add_weighted_edges_from((a, b, top - cost) for a, b, cost in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(nodes):
        return None
    return {(a, b) for a, b in matching}


def _round(
    entrants: list[Entrant], matching: set[tuple[int, int]], round_number: int, tier: tuple[bool, bool, bool]
) -> SwissRound:
    by_id = {e.id: e for e in entrants}
    pairs, bye = [], None
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
            continue
        pairs.append(_turn_order(by_id[a], by_id[b], round_number))
    pairs.sort(key=lambda p: min(by_id[p[0]].rank, by_id[p[1]].rank))  # table 1 is the top board
    relaxed = [name for name, used in zip(("rematch", "turn order", "second bye"), tier, strict=True) if used]
    return SwissRound(pairs, bye, relaxed)


def _turn_order(a: Entrant, b: Entrant, round_number: int) -> tuple[int, int]:
    """Whoever moved first less often moves first; on equal terms the better-ranked player in odd rounds."""
    if a.balance != b.balance:
        return (a.id, b.id) if a.balance < b.balance else (b.id, a.id)
    better, worse = (a, b) if a.rank < b.rank else (b, a)
    return (better.id, worse.id) if round_number % 2 else (worse.id, better.id)


# -- Bide tables -----------------------------------------------------------------------------------


def table_sizes(count: int) -> list[int]:
    """Tables of 4 and 3 for ``count`` players (3, 4, then any number from 6); five play at one table."""
    if count <= 5:
        return [count] if count >= 2 else []
    threes = (-count) % 4
    return [4] * ((count - 3 * threes) // 4) + [3] * threes


def bide_tables(entrants: list[Entrant], met: dict[frozenset[int], int]) -> list[list[int]]:
    """Tables of 3–4 players of close scores, fewest repeated meetings: players in rank order are dealt into
    tables, then any swap of two players between tables that lowers (repeated meetings, score spread) is
    made until none does. Within a table, who moved first least often moves first.

    ``met`` counts the games each pair of players has shared so far.
    """
    ordered = sorted(entrants, key=lambda e: e.rank)
    tables: list[list[Entrant]] = []
    start = 0
    for size in table_sizes(len(ordered)):
        tables.append(ordered[start : start + size])
        start += size

    def cost(table: list[Entrant]) -> tuple[int, float]:
        repeats = sum(met.get(frozenset((a.id, b.id)), 0) for i, a in enumerate(table) for b in table[i + 1 :])
        scores = [e.score for e in table]
        return repeats, max(scores) - min(scores)

    improved = True
    while improved:
        improved = False
        for t1 in range(len(tables)):
            for t2 in range(t1 + 1, len(tables)):
                for i in range(len(tables[t1])):
                    for j in range(len(tables[t2])):
                        a, b = tables[t1][i], tables[t2][j]
                        before = _add(cost(tables[t1]), cost(tables[t2]))
                        tables[t1][i], tables[t2][j] = b, a
                        if _add(cost(tables[t1]), cost(tables[t2])) < before:
                            improved = True
                        else:
                            tables[t1][i], tables[t2][j] = a, b
    return [[e.id for e in sorted(table, key=lambda e: (e.balance, e.rank))] for table in tables]


def _add(x: tuple[int, float], y: tuple[int, float]) -> tuple[int, float]:
    return x[0] + y[0], x[1] + y[1]
