"""Golden cases of the Swiss pairing and its tie-breaks (tournaments.swiss.pairing,
docs/tournaments.md "Swiss events"): score groups top half against bottom half, no
repeat pairings, fair byes, odd groups floating down, late joiners, withdrawals,
seat balance, Buchholz then Sonneborn-Berger."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

from tournaments.swiss.pairing import (
    LOSS,
    TIE,
    WIN,
    Entrant,
    Game,
    pair_round,
    standings,
)


def entrant(uid, score=0, rating=1500, **kw):
    return Entrant(user_id=uid, score=Fraction(score), rating=rating, entry=uid, **kw)


def field(n):
    """Players 1..n, rated from the top: 2000, 1990, …"""
    return [entrant(i, rating=2010 - 10 * i) for i in range(1, n + 1)]


def test_round_one_pairs_the_top_half_against_the_bottom_half():
    result = pair_round(field(8))
    assert {frozenset(g) for g in result.games} == {
        frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]
    }
    assert result.bye is None and result.repeats == 0


def test_an_odd_field_byes_the_lowest_ranked_who_had_none():
    players = field(7)
    assert pair_round(players).bye == 7
    players[6] = entrant(7, rating=1940, had_bye=True)
    assert pair_round(players).bye == 6  # one bye per player
    everyone = [entrant(i, rating=2010 - 10 * i, had_bye=True) for i in range(1, 6)]
    assert pair_round(everyone).bye == 5  # all had one: the lowest again


def test_the_bye_goes_to_the_lowest_score_not_the_lowest_rating():
    players = [
        entrant(1, score=1, rating=1000),
        entrant(2, score=1, rating=1100),
        entrant(3, score=0, rating=2000),
    ]
    assert pair_round(players).bye == 3


def test_score_groups_are_paired_within_themselves_first():
    players = [entrant(i, score=1, rating=2000 - i) for i in range(1, 5)] + [
        entrant(i, score=0, rating=2000 - i) for i in range(5, 9)
    ]
    games = {frozenset(g) for g in pair_round(players).games}
    assert games == {frozenset(p) for p in [(1, 3), (2, 4), (5, 7), (6, 8)]}


def test_an_odd_group_floats_its_lowest_down_to_the_next():
    players = [entrant(i, score=2, rating=2000 - i) for i in (1, 2, 3)] + [
        entrant(i, score=1, rating=2000 - i) for i in (4, 5, 6)
    ]
    games = {frozenset(g) for g in pair_round(players).games}
    # 1-2 in the top group; 3 floats down and meets the lower group's top half.
    assert frozenset((1, 2)) in games
    assert frozenset((3, 4)) in games and frozenset((5, 6)) in games


def test_no_two_players_meet_twice_when_the_halves_collide():
    met = {1: {5}, 5: {1}, 2: {6}, 6: {2}}
    players = [
        entrant(i, rating=2010 - 10 * i, opponents=frozenset(met.get(i, ())))
        for i in range(1, 9)
    ]
    result = pair_round(players)
    assert result.repeats == 0
    games = {frozenset(g) for g in result.games}
    assert frozenset((1, 5)) not in games and frozenset((2, 6)) not in games
    # The bottom half's order changed as little as it takes: 1-6, 2-5.
    assert {frozenset((1, 6)), frozenset((2, 5))} <= games


def test_a_last_group_that_cannot_pair_is_merged_with_the_one_above():
    # The two lowest have met; alone in the last group they cannot play again.
    players = [entrant(1, score=1, rating=2000), entrant(2, score=1, rating=1990)] + [
        entrant(3, score=0, rating=1980, opponents=frozenset({4})),
        entrant(4, score=0, rating=1970, opponents=frozenset({3})),
    ]
    result = pair_round(players)
    assert result.repeats == 0
    assert {frozenset(g) for g in result.games} == {
        frozenset((1, 3)),
        frozenset((2, 4)),
    }


def test_a_field_that_has_met_everyone_is_paired_with_repeats_said():
    ids = [1, 2, 3, 4]
    players = [
        entrant(i, rating=2010 - 10 * i, opponents=frozenset(set(ids) - {i}))
        for i in ids
    ]
    result = pair_round(players)
    assert len(result.games) == 2 and result.repeats == 2


def test_withdrawn_and_absent_players_are_simply_not_given():
    # The caller passes the players in the event and present: 3 withdrew.
    players = [p for p in field(6) if p.user_id != 3]
    result = pair_round(players)
    paired = {uid for g in result.games for uid in g}
    assert 3 not in paired and result.bye == 6


def test_a_late_joiner_starts_from_the_bottom_score_group():
    players = [entrant(i, score=1, rating=1500 - i) for i in (1, 2)] + [
        entrant(i, score=0, rating=1500 - i) for i in (3, 4)
    ]
    late = entrant(9, score=0, rating=2400)  # joined at round 2 with no points
    result = pair_round([*players, late])
    games = {frozenset(g) for g in result.games}
    assert frozenset((1, 2)) in games
    # Highest rated of the zero group: meets its bottom half; the lowest gets the bye.
    assert frozenset((9, 3)) in games and result.bye == 4


def test_the_first_seat_goes_to_who_had_it_less():
    a = entrant(1, rating=2000, first_seats=2, second_seats=0, last_seat=0)
    b = entrant(2, rating=1900, first_seats=0, second_seats=2, last_seat=1)
    assert pair_round([a, b]).games == [(2, 1)]
    c = entrant(1, rating=2000, first_seats=1, second_seats=1, last_seat=0)
    d = entrant(2, rating=1900, first_seats=1, second_seats=1, last_seat=1)
    assert pair_round([c, d]).games == [(2, 1)]  # a tie: not who had it last
    e, f = entrant(1, rating=2000), entrant(2, rating=1900)
    assert pair_round([e, f]).games == [(1, 2)]  # then the higher ranked


def test_many_rounds_never_repeat_while_a_fresh_pairing_exists():
    """A 19-player event over 9 rounds with random results: every round pairs
    everyone present with no repeat and gives no player a second bye."""
    rng = random.Random(5)
    n = 19
    score = {i: Fraction(0) for i in range(1, n + 1)}
    met: dict[int, set[int]] = {i: set() for i in score}
    byes: set[int] = set()
    for _ in range(9):
        players = [
            entrant(
                i,
                score=score[i],
                rating=2000 - i,
                opponents=frozenset(met[i]),
                had_bye=i in byes,
            )
            for i in score
        ]
        result = pair_round(players)
        assert result.repeats == 0
        assert result.bye is not None and result.bye not in byes
        byes.add(result.bye)
        score[result.bye] += WIN
        seen = [uid for g in result.games for uid in g]
        assert sorted(seen + [result.bye]) == sorted(score)
        for a, b in result.games:
            assert b not in met[a]
            met[a].add(b)
            met[b].add(a)
            points = rng.choice((WIN, TIE, LOSS))
            score[a] += points
            score[b] += WIN - points


def test_buchholz_then_sonneborn_berger_break_ties():
    # 1 beat 3, 2 beat 4, 3 beat 4, 2 tied 1... worked by hand:
    games = [
        Game(1, 3, WIN),
        Game(2, 4, WIN),
        Game(1, 2, TIE),
        Game(3, 4, WIN),
        Game(4, None, WIN),  # a bye adds nothing to Buchholz
    ]
    table = standings([(1, 1500, 1), (2, 1500, 2), (3, 1500, 3), (4, 1500, 4)], games)
    by = {s.user_id: s for s in table}
    # Scores: 1: 1.5, 2: 1.5, 3: 1, 4: 1 (the bye).
    assert [by[u].score for u in (1, 2, 3, 4)] == [Fraction(3, 2)] * 2 + [1, 1]
    # Buchholz: 1 met 3 (1) and 2 (1.5) = 2.5; 2 met 4 (1) and 1 (1.5) = 2.5.
    assert by[1].buchholz == by[2].buchholz == Fraction(5, 2)
    # Sonneborn-Berger: 1 beat 3 (1) + half of 2 (0.75) = 1.75; 2 beat 4 (1) + 0.75.
    assert by[1].sonneborn_berger == by[2].sonneborn_berger == Fraction(7, 4)
    assert [s.user_id for s in table][:2] == [1, 2]  # then entry order
    # 3 met 1 (1.5) and 4 (1): Buchholz 2.5; 4 met 2 and 3: 2.5; SB: 3 beat 4 (1).
    assert by[3].sonneborn_berger == 1 and by[4].sonneborn_berger == 0
    assert by[3].rank == 3 and by[4].rank == 4


def test_rating_breaks_what_the_scores_and_tie_breaks_leave_level():
    table = standings([(1, 1400, 1), (2, 1600, 2)], [Game(1, 2, TIE)])
    assert [s.user_id for s in table] == [2, 1]


def test_pairing_is_the_same_whatever_order_the_players_come_in():
    players = field(12)
    first = pair_round(players)
    for seed in range(5):
        shuffled = players[:]
        random.Random(seed).shuffle(shuffled)
        assert pair_round(shuffled) == first


def test_every_pair_of_a_round_is_distinct_players():
    result = pair_round(field(30))
    seen = [uid for g in result.games for uid in g]
    assert len(seen) == len(set(seen)) == 30
    assert all(a != b for a, b in result.games)
    assert not any(set(x) & set(y) for x, y in combinations(result.games, 2))
