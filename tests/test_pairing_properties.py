"""Tournament pairing as properties: every generated event keeps the rules docs/tournaments.md states.

The Swiss rules give way only when no complete round keeps them: each round is checked against a plain
maximum matching of the pairings the rules allow (networkx's, on a graph built here from the rules as the
docs state them, without the pairing's weights or tiers), so a relaxed rule is a fault unless no round
could keep it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import networkx as nx
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.service.pairing import Entrant, SwissRound, berger_rounds, bide_tables, divisions, swiss_round, table_sizes
from bot.service.standings import placement_points

BYE = "bye"


@dataclass
class PlayedRound:
    entrants: list[Entrant]  # the players as the round was paired
    paired: SwissRound


def play_swiss(count: int, rounds: int, seed: int):
    """``rounds`` Swiss rounds of ``count`` players with random results: (rounds as paired, byes, balance)."""
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    score: Counter[int] = Counter()
    balance: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    opponents: dict[int, set[int]] = {p: set() for p in players}
    history = []
    for number in range(1, rounds + 1):
        ranked = sorted(players, key=lambda p: (-score[p], p))
        entrants = [
            Entrant(p, score[p], ranked.index(p), frozenset(opponents[p]), balance[p], byes[p]) for p in players
        ]
        paired = swiss_round(entrants, number)
        seen = [p for pair in paired.pairs for p in pair] + ([paired.bye] if paired.bye is not None else [])
        assert sorted(seen) == sorted(players), "everyone plays or has the bye, once"
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
        history.append(PlayedRound(entrants, paired))
    return history, byes, balance


def clashes(a: Entrant, b: Entrant) -> bool:
    """Rule 2: both moved first more often than second, or both second more often: one of them must again."""
    return a.balance * b.balance > 0


def complete_round_exists(entrants: list[Entrant], *, rematch: bool, clash: bool) -> bool:
    """Whether everyone can be paired (one bye with an odd number, never a second one) under these rules."""
    graph = nx.Graph()
    graph.add_nodes_from(e.id for e in entrants)
    if len(entrants) % 2:
        graph.add_node(BYE)
        graph.add_edges_from((e.id, BYE) for e in entrants if e.byes == 0)
    for i, a in enumerate(entrants):
        for b in entrants[i + 1 :]:
            if (rematch or b.id not in a.opponents) and (clash or not clashes(a, b)):
                graph.add_edge(a.id, b.id)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == graph.number_of_nodes()


def check_swiss_promises(history: list[PlayedRound], byes: Counter[int], balance: Counter[int]) -> None:
    """What docs/tournaments.md promises of Swiss pairing, round by round."""
    relaxed_turn_order = 0
    for number, played in enumerate(history, start=1):
        by_id = {e.id: e for e in played.entrants}
        relaxed = played.paired.relaxed
        for first, second in played.paired.pairs:
            a, b = by_id[first], by_id[second]
            assert second not in a.opponents or "rematch" in relaxed, f"round {number}: {first}, {second} meet again"
            assert not clashes(a, b) or "turn order" in relaxed, f"round {number}: {first}, {second} clash"
            assert a.balance <= b.balance, f"round {number}: {first} moved first more often than {second}"
        # a rule gives way only when no complete round keeps it (and the ones before it in the order)
        if "turn order" in relaxed:
            relaxed_turn_order += 1
            assert not complete_round_exists(played.entrants, rematch=False, clash=False), f"round {number}"
        if "rematch" in relaxed:
            assert not complete_round_exists(played.entrants, rematch=False, clash=True), f"round {number}"
        assert "second bye" not in relaxed or not complete_round_exists(played.entrants, rematch=True, clash=True)
    assert all(n <= 1 for n in byes.values()), byes
    # each player's first moves minus second moves stay within one, and each round that had to relax the
    # turn order may take a balance one further (in a clashing pair one of the two moves first again)
    assert all(abs(b) <= 1 + relaxed_turn_order for b in balance.values()), (balance, relaxed_turn_order)


@st.composite
def swiss_events(draw):
    """(players, rounds, seed of the results): at most half as many rounds as players, as the docs' promise of
    no rematch and no second bye holds (Dirac's theorem on the pairings not played yet)."""
    count = draw(st.integers(2, 24))
    rounds = draw(st.integers(1, max(1, count // 2)))
    return count, rounds, draw(st.integers(0, 10**6))


@settings(max_examples=40, deadline=None)
@given(event=swiss_events())
@example(event=(8, 4, 239))  # the event of test_swiss_relaxes_turn_order_when_no_round_keeps_it
def test_swiss_never_rematches_gives_one_bye_at_most_and_relaxes_turn_order_only_when_it_must(event):
    count, rounds, seed = event
    history, byes, balance = play_swiss(count, rounds, seed)
    check_swiss_promises(history, byes, balance)
    assert all("rematch" not in r.paired.relaxed and "second bye" not in r.paired.relaxed for r in history)


def test_swiss_relaxes_turn_order_when_no_round_keeps_it():
    """8 players, 4 rounds (the results of seed 239): no clash-free fourth round exists, since players 6 and 7
    can each meet only player 5 without a rematch or a clash. The round relaxes the turn order, as documented,
    and two balances reach +2 and -2 (a test that wanted every balance within one failed on it by luck)."""
    history, byes, balance = play_swiss(8, 4, 239)
    check_swiss_promises(history, byes, balance)
    last = history[-1]
    assert [r.paired.relaxed for r in history] == [[], [], [], ["turn order"]]
    entrants = {e.id: e for e in last.entrants}
    allowed = {
        p: {q for q in entrants if q != p and q not in entrants[p].opponents and not clashes(entrants[p], entrants[q])}
        for p in (6, 7)
    }
    assert allowed == {6: {5}, 7: {5}}
    assert not complete_round_exists(last.entrants, rematch=False, clash=False)
    assert sorted(balance.values()) == [-2, 0, 0, 0, 0, 0, 0, 2]


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 22))
def test_berger_tables_pair_everyone_once_and_balance_who_moves_first(count):
    players = list(range(100, 100 + count))
    rounds = berger_rounds(players)
    pairs = Counter(frozenset(p) for games in rounds for p in games)
    assert set(pairs) == {frozenset((a, b)) for a in players for b in players if a < b}
    assert set(pairs.values()) == {1} if count > 1 else True
    for games in rounds:  # nobody twice in a round
        seated = [p for pair in games for p in pair]
        assert len(seated) == len(set(seated))
    first = Counter(a for games in rounds for a, _ in games)
    second = Counter(b for games in rounds for _, b in games)
    assert all(abs(first[p] - second[p]) <= 1 for p in players)


@settings(max_examples=50, deadline=None)
@given(count=st.integers(1, 95))
def test_divisions_hold_at_most_ten_in_seeding_order(count):
    seeded = list(range(count))
    groups = divisions(seeded)
    assert [p for g in groups for p in g] == seeded
    assert all(1 <= len(g) <= 10 for g in groups)
    assert max(map(len, groups)) - min(map(len, groups)) <= 1


@settings(max_examples=30, deadline=None)
@given(count=st.integers(3, 40))
def test_bide_tables_seat_everyone_at_tables_of_three_or_four(count):
    sizes = table_sizes(count)
    assert sum(sizes) == count
    assert all(s in (3, 4) for s in sizes) or sizes == [5]
    entrants = [Entrant(p, 0.0, p) for p in range(1, count + 1)]
    tables = bide_tables(entrants, {})
    assert sorted(p for t in tables for p in t) == list(range(1, count + 1))


def test_placement_points_share_ties():
    assert placement_points([[1], [2]]) == {1: 1.0, 2: 0.0}
    assert placement_points([[1, 2]]) == {1: 0.5, 2: 0.5}
    four = placement_points([[1], [2, 3], [4]])
    assert four[1] == 1.0 and four[2] == four[3] == 0.5 and four[4] == 0.0
