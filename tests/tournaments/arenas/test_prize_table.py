"""The arena prize formula, pure (``tournaments.arenas.prize_table``): the minimum
field, half the field paid, nothing for no point, the purse per earning game."""

from __future__ import annotations

from tournaments.arenas.prize_table import (
    Contender,
    PrizeRules,
    paid_places,
    prizes_award,
    prizes_preview,
)

TABLE = (
    (1000, 300), (600, 200), (400, 150), (250, 100), (250, 100),
    (150, 60), (150, 60), (150, 60), (150, 60), (150, 60),
)  # fmt: skip
RULES = PrizeRules(table=TABLE, per_game=(25, 8), min_field=4)


def field(*scores: int) -> list[Contender]:
    """Contenders ranked in the order given (scores falling)."""
    return [
        Contender(user_id=100 + i, rank=i + 1, score=s) for i, s in enumerate(scores)
    ]


def test_below_the_minimum_field_nothing_is_paid():
    assert prizes_award(ranked=field(8, 4, 2), earning_games=1000, rules=RULES) == {}
    assert paid_places(field=3, rules=RULES) == 0
    assert prizes_preview(field=3, earning_games=1000, rules=RULES) == []


def test_half_the_field_is_paid_at_most_the_table():
    assert [paid_places(field=n, rules=RULES) for n in (4, 5, 6, 9, 20, 500)] == [
        2, 2, 3, 4, 10, 10,
    ]  # fmt: skip


def test_a_field_of_four_with_games_enough_pays_the_first_two_in_full():
    award = prizes_award(ranked=field(8, 6, 2, 2), earning_games=200, rules=RULES)
    assert award == {100: (1, 1000, 300), 101: (2, 600, 200)}


def test_the_purse_cuts_every_prize_in_proportion():
    # 4 players with 6 games each: 24 earning games, at most 600 coins and 192 XP.
    award = prizes_award(ranked=field(8, 6, 2, 2), earning_games=24, rules=RULES)
    assert award == {100: (1, 375, 115), 101: (2, 225, 76)}
    assert sum(c for _r, c, _x in award.values()) <= 25 * 24
    assert sum(x for _r, _c, x in award.values()) <= 8 * 24


def test_a_player_without_a_point_is_paid_nothing_whatever_the_rank():
    # One winner; the other three lost every game and share rank 2.
    ranked = [
        Contender(user_id=1, rank=1, score=6),
        Contender(user_id=2, rank=2, score=0),
        Contender(user_id=3, rank=2, score=0),
        Contender(user_id=4, rank=2, score=0),
    ]
    assert prizes_award(ranked=ranked, earning_games=1000, rules=RULES) == {
        1: (1, 1000, 300)
    }


def test_shared_ranks_each_take_their_rank_under_the_purse():
    ranked = [
        Contender(user_id=1, rank=1, score=4),
        Contender(user_id=2, rank=1, score=4),
        Contender(user_id=3, rank=3, score=0),
        Contender(user_id=4, rank=3, score=0),
    ]
    award = prizes_award(ranked=ranked, earning_games=4, rules=RULES)
    assert award == {1: (1, 50, 16), 2: (1, 50, 16)}


def test_the_preview_is_the_award_of_one_player_per_rank():
    assert prizes_preview(field=6, earning_games=1000, rules=RULES) == [
        (1000, 300), (600, 200), (400, 150),
    ]  # fmt: skip
    assert prizes_preview(field=4, earning_games=8, rules=RULES) == [
        (125, 38), (75, 25),
    ]  # fmt: skip


def test_what_an_arena_mints_is_bounded_by_its_games_for_every_field():
    for size in range(0, 40):
        for games in range(0, 120, 7):
            ranked = field(*range(size, 0, -1))
            award = prizes_award(ranked=ranked, earning_games=games, rules=RULES)
            assert sum(c for _r, c, _x in award.values()) <= 25 * games
            assert sum(x for _r, _c, x in award.values()) <= 8 * games
