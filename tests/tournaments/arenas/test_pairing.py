"""The pairing of one pass (pure): closest scores, no rematch in a row while others
are free, the cap on repeated pairings, fair waiting, rotating partners."""

from __future__ import annotations

from tournaments.arenas.pairing import Free, pairing_round


def free(uid, score=0, rating=1500.0, waited=10.0, last=(), met=None, partners=None):
    return Free(
        user_id=uid,
        score=score,
        rating=rating,
        waited=waited,
        last_opponents=frozenset(last),
        opponents=met or {},
        partners=partners or {},
    )


def as_sets(tables):
    return sorted(sorted(t) for t in tables)


def test_players_meet_the_closest_score_then_rating():
    players = [
        free(1, score=10, rating=1500),
        free(2, score=0, rating=1500),
        free(3, score=9, rating=1400),
        free(4, score=1, rating=1600),
    ]
    result = pairing_round(players, seats=2)
    assert as_sets(result.tables) == [[1, 3], [2, 4]]
    assert result.waiting == []


def test_equal_scores_go_by_rating():
    players = [
        free(1, rating=1900),
        free(2, rating=1200),
        free(3, rating=1850),
        free(4, rating=1250),
    ]
    assert as_sets(pairing_round(players, seats=2).tables) == [[1, 3], [2, 4]]


def test_never_the_same_pair_twice_in_a_row_when_others_are_free():
    players = [
        free(1, score=4, last={2}),
        free(2, score=4, last={1}),
        free(3, score=0),
        free(4, score=0),
    ]
    tables = as_sets(pairing_round(players, seats=2).tables)
    assert [1, 2] not in tables
    assert len(tables) == 2


def test_last_opponents_meet_again_when_nobody_else_is_free():
    players = [free(1, last={2}), free(2, last={1})]
    assert pairing_round(players, seats=2).tables == [[1, 2]] or as_sets(
        pairing_round(players, seats=2).tables
    ) == [[1, 2]]


def test_the_cap_holds_even_when_nobody_else_is_free():
    players = [free(1, met={2: 3}), free(2, met={1: 3})]
    result = pairing_round(players, seats=2, cap=3)
    assert result.tables == []
    assert result.waiting == [1, 2]


def test_the_cap_sends_a_capped_pair_to_other_players():
    players = [
        free(1, score=6, met={2: 3}),
        free(2, score=6, met={1: 3}),
        free(3, score=0),
        free(4, score=0),
    ]
    tables = as_sets(pairing_round(players, seats=2, cap=3).tables)
    assert [1, 2] not in tables and len(tables) == 2


def test_an_odd_player_out_is_the_one_who_has_just_become_free():
    players = [free(1, waited=30), free(2, waited=1), free(3, waited=20)]
    result = pairing_round(players, seats=2)
    assert result.waiting == [2]
    assert as_sets(result.tables) == [[1, 3]]


def test_byes_rotate_over_passes():
    """Three players, two seats: whoever waited is seated at the next pass, so
    nobody waits twice in a row."""
    waited = {1: 5.0, 2: 5.0, 3: 5.0}
    last: dict[int, set[int]] = {1: set(), 2: set(), 3: set()}
    waiting_log = []
    for _ in range(6):
        result = pairing_round(
            [free(u, waited=waited[u], last=last[u]) for u in (1, 2, 3)], seats=2
        )
        (table,) = result.tables
        (out,) = result.waiting
        waiting_log.append(out)
        for u in table:  # they play, and come back free together
            waited[u] = 0.0
            last[u] = set(table) - {u}
        waited[out] += 60.0
    assert all(a != b for a, b in zip(waiting_log, waiting_log[1:], strict=False))
    assert set(waiting_log) == {1, 2, 3}


def test_a_table_short_of_players_waits_without_computer_players():
    result = pairing_round([free(1), free(2), free(3)], seats=4)
    assert result.tables == []
    assert result.waiting == [1, 2, 3]


def test_four_seat_tables_fill_by_score():
    players = [
        free(u, score=s)
        for u, s in [(1, 9), (2, 8), (3, 0), (4, 7), (5, 1), (6, 6), (7, 2), (8, 0)]
    ]
    tables = as_sets(pairing_round(players, seats=4).tables)
    assert tables == [[1, 2, 4, 6], [3, 5, 7, 8]]


def test_partnership_sides_rotate_partners():
    """Seats 0 and 2 are partners against 1 and 3: the split chosen is the one whose
    partnerships have played together least."""
    players = [
        free(1, partners={2: 2, 3: 0, 4: 1}),
        free(2, partners={1: 2, 3: 1, 4: 0}),
        free(3, partners={1: 0, 2: 1, 4: 2}),
        free(4, partners={1: 1, 2: 0, 3: 2}),
    ]
    (seated,) = pairing_round(players, seats=4, partnership=True).tables
    sides = {frozenset((seated[0], seated[2])), frozenset((seated[1], seated[3]))}
    assert sides == {frozenset((1, 3)), frozenset((2, 4))}


def test_partnership_without_history_balances_ratings():
    players = [
        free(1, rating=2000),
        free(2, rating=1900),
        free(3, rating=1100),
        free(4, rating=1000),
    ]
    (seated,) = pairing_round(players, seats=4, partnership=True).tables
    sides = {frozenset((seated[0], seated[2])), frozenset((seated[1], seated[3]))}
    assert sides == {frozenset((1, 4)), frozenset((2, 3))}


def test_a_thousand_free_players_are_all_seated_in_pairs():
    players = [free(u, score=u % 17, rating=1000 + u) for u in range(1, 1001)]
    result = pairing_round(players, seats=2)
    seated = [u for t in result.tables for u in t]
    assert len(seated) == 1000 == len(set(seated))
