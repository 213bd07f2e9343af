"""Golden cases of arena scoring: points by place, the streak, performance, ranks."""

from __future__ import annotations

import pytest

from tournaments.arenas.scoring import game_outcome, game_performance, ranks_of


def run(places, sides=2):
    """Total points and the streak after a sequence of places (1 = a win)."""
    streak = total = 0
    points = []
    for place in places:
        shared = place == 0  # 0 stands for a first place shared (a tie)
        outcome = game_outcome(
            place=1 if shared else place, sides=sides, shared=shared, streak=streak
        )
        streak = outcome.streak
        total += outcome.points
        points.append(outcome.points)
    return points, total, streak


@pytest.mark.parametrize(
    ("places", "points", "streak"),
    [
        ([1], [2], 1),
        ([2], [0], 0),
        ([1, 1], [2, 2], 2),
        ([1, 1, 1], [2, 2, 4], 3),  # the third win in a row counts double
        ([1, 1, 1, 1], [2, 2, 4, 4], 4),
        ([1, 1, 1, 2, 1], [2, 2, 4, 0, 2], 1),  # a loss ends the streak
        ([1, 1, 2, 1, 1, 1], [2, 2, 0, 2, 2, 4], 3),
        ([1, 1, 0, 1], [2, 2, 1, 2], 1),  # a tie scores half a win and ends it
    ],
)
def test_two_sides(places, points, streak):
    got, total, after = run(places)
    assert got == points
    assert total == sum(points)
    assert after == streak


@pytest.mark.parametrize(
    ("sides", "places", "points"),
    [
        (3, [1, 2, 3], [3, 1, 0]),
        (4, [4, 3, 2, 1], [0, 1, 2, 4]),
        (4, [1, 1, 1], [4, 4, 8]),
        (4, [1, 1, 2, 1], [4, 4, 2, 4]),  # a second place is not a win
        (3, [1, 1, 1, 3], [3, 3, 6, 0]),
    ],
)
def test_more_sides(sides, places, points):
    got, _total, _streak = run(places, sides=sides)
    assert got == points


def test_a_forfeit_scores_nothing_and_ends_the_streak():
    outcome = game_outcome(place=2, sides=2, shared=False, streak=5, forfeited=True)
    assert (outcome.points, outcome.streak, outcome.win) == (0, 0, False)


def test_performance_by_place():
    assert game_performance(place=1, sides=2, opponents=[1600]) == 2000
    assert game_performance(place=2, sides=2, opponents=[1600]) == 1200
    assert game_performance(place=1, sides=4, opponents=[1500, 1600, 1700]) == 2000
    assert game_performance(place=2, sides=4, opponents=[1500, 1600, 1700]) == 1733


def test_final_ranks_by_score_then_performance_then_fewer_games():
    rows = [
        (1, 10, 1600, 5),
        (2, 12, 1500, 6),
        (3, 10, 1700, 5),
        (4, 10, 1700, 4),
        (5, 10, 1700, 4),
    ]
    assert ranks_of(rows) == [5, 1, 4, 2, 2]
