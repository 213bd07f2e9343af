"""Golden rating updates (openskill Plackett-Luce), exclusions and idempotency."""

from __future__ import annotations

import pytest

from games.signals import SeatResult
from matchmaking.models import Rating, RatingChange
from matchmaking.pools.selectors import rating_change_of, ratings_of
from tests.support.finishing import finish_announce

pytestmark = pytest.mark.django_db
NEW_SIGMA = 25 / 3


def seat(pos, user, place, team=None, *, forfeited=False, bot=""):
    return SeatResult(
        position=pos,
        user_id=user.pk if user else None,
        bot_level=bot,
        simulated=bool(bot),
        team=team,
        place=place,
        score=0,
        forfeited=forfeited,
    )


def finish(table_id, results, *, mode="online", variant="draw"):
    finish_announce(table_id=table_id, mode=mode, variant=variant, results=results)


def skill(user, variant="draw"):
    r = Rating.objects.get(user=user, variant=variant)
    return round(r.mu, 6), round(r.sigma, 6), r.tables


@pytest.fixture
def people(make_user):
    return [make_user(n) for n in ("ana", "ben", "cy", "dee")]


def test_two_seats_golden(people):
    ana, ben = people[:2]
    finish(1, [seat(0, ana, 2), seat(1, ben, 1)])
    assert skill(ana) == (22.364611, 8.065901, 1)
    assert skill(ben) == (27.635389, 8.065901, 1)
    assert rating_change_of(user_id=ben.pk, table_id=1) == 105
    assert rating_change_of(user_id=ana.pk, table_id=1) == -105
    assert ratings_of(user_id=ben.pk) == [
        {"key": "draw", "variant": "draw", "bots": False, "label": "1605?", "tables": 1}
    ]


def test_four_seat_partnership_golden(people):
    ana, ben, cy, dee = people
    Rating.objects.create(user=ben, variant="draw", mu=30, sigma=5)
    Rating.objects.create(user=dee, variant="draw", mu=20, sigma=6)
    finish(
        2,
        [seat(0, ana, 1, 0), seat(1, ben, 2, 1), seat(2, cy, 1, 0), seat(3, dee, 2, 1)],
    )
    assert skill(ana) == skill(cy) == (27.266997, 8.093034, 1)
    assert skill(ben) == (29.183736, 4.966607, 1)
    assert skill(dee) == (18.82468, 5.941593, 1)


def test_three_seat_free_for_all_golden(people):
    ana, ben, cy = people[:3]
    finish(3, [seat(0, ana, 3), seat(1, ben, 1), seat(2, cy, 2)])
    assert skill(ana) == (21.413689, 8.058224, 1)
    assert skill(ben) == (27.869049, 8.205243, 1)
    assert skill(cy) == (25.717262, 8.058224, 1)


def test_a_forfeit_finishes_last(people):
    ana, ben, cy = people[:3]
    # Ana's side was ahead when she left: she still ranks last.
    finish(4, [seat(0, ana, 1, forfeited=True), seat(1, ben, 2), seat(2, cy, 3)])
    assert skill(ana) == (21.413689, 8.058224, 1)
    assert skill(ben) == (27.869049, 8.205243, 1)


def test_computer_players_are_neither_rated_nor_counted(people):
    ana, ben = people[:2]
    # The bot won; among the people ben beat ana: a 2-person update.
    finish(5, [seat(0, ana, 3), seat(1, None, 1, bot="hard"), seat(2, ben, 2)])
    assert skill(ana) == (22.364611, 8.065901, 1)
    assert skill(ben) == (27.635389, 8.065901, 1)
    assert RatingChange.objects.filter(table_id=5).count() == 2


def test_one_person_with_bots_changes_nothing(people):
    finish(6, [seat(0, people[0], 1), seat(1, None, 2, bot="medium")])
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_practice_and_friend_rooms_are_never_rated(people):
    ana, ben = people[:2]
    finish(7, [seat(0, ana, 1), seat(1, ben, 2)], mode="friend")
    finish(8, [seat(0, ana, 1), seat(1, ben, 2)], mode="practice")
    assert not RatingChange.objects.exists()


def test_a_second_finish_signal_changes_nothing(people):
    ana, ben = people[:2]
    results = [seat(0, ana, 1), seat(1, ben, 2)]
    finish(9, results)
    once = (skill(ana), skill(ben))
    finish(9, results)
    assert (skill(ana), skill(ben)) == once
    assert RatingChange.objects.filter(table_id=9).count() == 2


def test_ratings_are_per_variant(people):
    ana, ben = people[:2]
    finish(10, [seat(0, ana, 1), seat(1, ben, 2)], variant="block")
    assert not Rating.objects.filter(variant="draw").exists()
    assert skill(ana, "block")[2] == 1
