"""What a review says and draws, from a review given whole (no search): the biggest mistakes listed largest
first, and the turning points stepped through in that order (issue 37)."""

from __future__ import annotations

from ai.review import GameReview, TurnReview
from bot.chat.words import review as words
from bot.domain.model import MatchRow, SeatRow
from bot.service.review import Review, TurningPoint

NAMES = ["alice", "bob"]


def finished_match() -> MatchRow:
    seats = [SeatRow(1, 101, "alice"), SeatRow(2, 102, "bob")]
    return MatchRow(
        2, "begird", {}, 2, 1, 1, None, None, None, None, 101, "finished", None, 9, 0, 0, 0, None, seats=seats
    )


def a_review() -> Review:
    """Six turns: turn 2 (index 1) an inaccuracy of 6 points, turn 4 a mistake of 12, turn 6 a blunder of 99."""
    drops = {1: 0.06, 3: 0.12, 5: 0.99}
    turns = [
        TurnReview(k, 1 + k % 2, f"m{k}", f"b{k}" if k in drops else f"m{k}", 0.995, 0.995 - drops.get(k, 0))
        for k in range(6)
    ]
    chances = [(0.5, 0.5)] * 7
    return Review(finished_match(), GameReview(2, chances, turns, {1: 80.0, 2: 40.0}, [1, 3, 5]), NAMES, {}, 1.0)


def test_the_biggest_mistakes_are_listed_largest_first():
    """They were listed in turn order: a −99 blunder came last."""
    review = a_review()
    said = words.review_summary(review)
    places = [said.index(f"Turn {turn}:") for turn in (6, 4, 2)]
    assert places == sorted(places), said
    assert "−99 points" in said.splitlines()[4]  # the first under the title, the two players and the heading


def test_the_turning_points_are_stepped_through_largest_first():
    """The buttons follow the list: turning point 1 is the −99 blunder, 2 the mistake, 3 the inaccuracy."""
    review = a_review()
    assert [review.turning_point(k).index for k in range(3)] == [5, 3, 1]
    shown = words.review_point(TurningPoint(review, 0, review.turning_point(0), b""))
    assert shown.startswith("Turning point 1/3") and "Turn 6:" in shown
