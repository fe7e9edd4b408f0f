"""Tournament pairing as properties: every generated event keeps the rules docs/tournaments.md states."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service.pairing import Entrant, berger_rounds, bide_tables, divisions, swiss_round, table_sizes
from bot.service.standings import placement_points


def play_swiss(count: int, rounds: int, seed: int, withdraw_after: int | None = None):
    """``rounds`` Swiss rounds of ``count`` players with random results: (pairs per round, byes, balance)."""
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
            assert second not in opponents[first], f"round {number}: {first} and {second} meet again"
            opponents[first].add(second)
            opponents[second].add(first)
            balance[first] += 1
            balance[second] -= 1
            outcome = rng.choice((1.0, 0.5, 0.0))
            score[first] += outcome
            score[second] += 1 - outcome
        history.append(paired)
    return history, byes, balance


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 24), seed=st.integers(0, 10**6), data=st.data())
def test_swiss_never_rematches_gives_one_bye_at_most_and_balances_turn_order(count, seed, data):
    # a complete round without a rematch always exists while rounds <= count // 2 (Dirac's theorem)
    rounds = data.draw(st.integers(1, max(1, count // 2)))
    history, byes, balance = play_swiss(count, rounds, seed)
    assert all(n <= 1 for n in byes.values()), byes
    assert all(abs(b) <= 1 for b in balance.values()), balance
    assert all("rematch" not in r.relaxed for r in history)


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
