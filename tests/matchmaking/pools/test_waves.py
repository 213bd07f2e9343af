"""Golden cases of the wave's grouping (pure: fixed waits stand in for clocks)."""

from __future__ import annotations

from matchmaking.pools.waves import Gap, Waiting, wave_groups

GAP = Gap(start=100.0, per_second=20.0, cap=600.0)


def w(i: int, rating: float, waited: float = 0.0) -> Waiting:
    return Waiting(id=i, user_id=100 + i, rating=rating, waited=waited)


def ids(groups: list[list[Waiting]]) -> list[list[int]]:
    return [sorted(p.id for p in g) for g in groups]


def test_gap_widens_with_waiting_up_to_the_cap() -> None:
    assert GAP.allowed(0) == 100
    assert GAP.allowed(10) == 300
    assert GAP.allowed(1000) == 600
    assert GAP.allowed(-5) == 100


def test_closest_ratings_pair_first() -> None:
    # 1500/1520 are closest; 1590 then pairs with 1650 (60 apart); 2000 waits.
    waiting = [w(1, 1500), w(2, 1590), w(3, 1520), w(4, 1650), w(5, 2000)]
    assert ids(wave_groups(waiting, seats=2, gap=GAP)) == [[1, 3], [2, 4]]


def test_a_gap_too_wide_waits_until_the_wait_widens_it() -> None:
    fresh = [w(1, 1500), w(2, 1750)]
    assert wave_groups(fresh, seats=2, gap=GAP) == []
    # 250 points apart: both need a gap of 250, i.e. 7.5 s waited each.
    one_waited = [w(1, 1500, waited=10), w(2, 1750)]
    assert wave_groups(one_waited, seats=2, gap=GAP) == []
    both_waited = [w(1, 1500, waited=10), w(2, 1750, waited=8)]
    assert ids(wave_groups(both_waited, seats=2, gap=GAP)) == [[1, 2]]


def test_the_cap_keeps_far_ratings_apart_forever() -> None:
    far = [w(1, 1000, waited=3600), w(2, 1700, waited=3600)]
    assert wave_groups(far, seats=2, gap=GAP) == []


def test_equal_spreads_go_to_the_longest_wait() -> None:
    # 1 and 2 are 50 apart, 2 and 3 are 50 apart: 3 has waited longest.
    waiting = [w(1, 1500, 0), w(2, 1550, 1), w(3, 1600, 9)]
    assert ids(wave_groups(waiting, seats=2, gap=GAP)) == [[2, 3]]


def test_four_seat_tables_group_runs_of_four() -> None:
    waiting = [w(i, 1500 + 10 * i) for i in range(9)]
    groups = wave_groups(waiting, seats=4, gap=GAP)
    assert ids(groups) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_blocked_pairs_are_never_seated_together() -> None:
    waiting = [w(1, 1500), w(2, 1510), w(3, 1530)]
    blocked = {frozenset((101, 102))}
    groups = wave_groups(waiting, seats=2, gap=GAP, blocked=blocked)
    assert ids(groups) == [[2, 3]]
    for group in groups:
        assert {p.user_id for p in group} != {101, 102}


def test_nobody_is_grouped_twice_over_many_players() -> None:
    waiting = [w(i, 1500 + (i * 37) % 400, waited=i % 30) for i in range(1000)]
    groups = wave_groups(waiting, seats=2, gap=GAP)
    seen = [p.id for g in groups for p in g]
    assert len(seen) == len(set(seen))
    assert all(len(g) == 2 for g in groups)
    assert len(groups) >= 499  # at most two far-apart players are left over
    for g in groups:
        spread = max(p.rating for p in g) - min(p.rating for p in g)
        assert spread <= min(GAP.allowed(p.waited) for p in g)


def reference_groups(
    waiting: list[Waiting], seats: int, blocked: set[frozenset[int]]
) -> list[list[int]]:
    """The rule read literally: every pass rebuilds every run of the players left."""
    players = sorted(waiting, key=lambda p: (p.rating, -p.waited, p.id))
    groups: list[list[int]] = []
    while len(players) >= seats:
        runs = []
        for i in range(len(players) - seats + 1):
            run = players[i : i + seats]
            spread = run[-1].rating - run[0].rating
            if spread <= min(GAP.allowed(p.waited) for p in run):
                runs.append((spread, -max(p.waited for p in run), i))
        runs.sort()
        used: set[int] = set()
        found = []
        for _spread, _wait, i in runs:
            run = players[i : i + seats]
            if any(p.id in used for p in run):
                continue
            pairs = ((a.user_id, b.user_id) for a in run for b in run if a is not b)
            if any(frozenset(pair) in blocked for pair in pairs):
                continue
            used.update(p.id for p in run)
            found.append([p.id for p in run])
        if not found:
            break
        groups.extend(found)
        players = [p for p in players if p.id not in used]
    return groups


def test_the_fast_grouping_decides_as_the_rule_read_literally() -> None:
    import random

    rng = random.Random(20)
    for case in range(300):
        seats = (2, 3, 4)[case % 3]
        n = rng.randrange(0, 60)
        # Coarse ratings and waits make ties, long waits make passes that chain.
        waiting = [
            w(
                i,
                1500 + 25 * rng.randrange(-12, 12),
                waited=rng.choice((0, 2, 5, 9, 30)),
            )
            for i in range(n)
        ]
        user_ids = [p.user_id for p in waiting]
        blocked = {frozenset(rng.sample(user_ids, 2)) for _ in range(n // 3) if n >= 2}
        expected = reference_groups(waiting, seats, blocked)
        got = wave_groups(waiting, seats=seats, gap=GAP, blocked=blocked)
        assert [[p.id for p in g] for g in got] == expected, (case, seats)
