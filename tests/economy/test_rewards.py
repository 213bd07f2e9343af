"""Rewards and XP by mode and position; boosts, stacking and rounding."""

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from economy.errors import (
    IdempotencyConflict,
    InsufficientFunds,
    InvalidInput,
    UnknownItem,
    UnknownUser,
)
from economy.levels import level_for_xp, level_threshold
from economy.models import Boost, Transaction, XpAward
from economy.rewards import boosted
from economy.selectors import player_progress, player_xp, wallet_balance
from economy.services import (
    Placing,
    pot_entry_pay,
    pot_settle,
    rewards_compute,
    shop_buy,
    table_rewards_pay,
)
from tests.economy.conftest import assert_sound, snapshot

pytestmark = pytest.mark.django_db


def solo(users, positions=None):
    positions = positions or range(1, len(users) + 1)
    return [
        Placing(user_id=u.pk if u else None, position=p, seat=i)
        for i, (u, p) in enumerate(zip(users, positions, strict=True))
    ]


def coins_and_xp(users):
    return [(wallet_balance(user_id=u.pk), player_xp(user_id=u.pk)) for u in users]


@pytest.mark.parametrize("mode", ["online", "stake"])
def test_online_pays_every_position_from_most_to_least(player, mode):
    users = [player() for _ in range(4)]
    # Seats 0..3 finished 3rd, 1st, 4th, 2nd.
    table_rewards_pay(
        table_ref="1", mode=mode, placings=solo(users, positions=[3, 1, 4, 2])
    )
    assert coins_and_xp(users) == [(50, 30), (200, 80), (20, 20), (100, 50)]
    assert_sound()


def test_online_two_and_three_seats(player):
    a, b, c, d, e = (player() for _ in range(5))
    table_rewards_pay(table_ref="1", mode="online", placings=solo([a, b]))
    table_rewards_pay(table_ref="2", mode="online", placings=solo([c, d, e]))
    assert coins_and_xp([a, b, c, d, e]) == [
        (100, 50),
        (25, 20),
        (150, 60),
        (60, 35),
        (20, 20),
    ]


def test_online_partnership_pays_both_sides(player):
    users = [player() for _ in range(4)]
    placings = [
        Placing(user_id=u.pk, position=1 if i % 2 == 0 else 2, seat=i, team=i % 2)
        for i, u in enumerate(users)
    ]
    table_rewards_pay(table_ref="1", mode="online", placings=placings)
    assert coins_and_xp(users) == [(150, 70), (30, 25), (150, 70), (30, 25)]


def test_friend_room_pays_only_the_winner_at_half_rate(player):
    users = [player() for _ in range(4)]
    lines = table_rewards_pay(
        table_ref="1", mode="friend", placings=solo(users, positions=[2, 1, 3, 4])
    )
    assert [(ln.user_id, ln.coins, ln.xp) for ln in lines] == [(users[1].pk, 100, 40)]
    assert coins_and_xp(users) == [(0, 0), (100, 40), (0, 0), (0, 0)]


def test_friend_room_partnership_pays_the_winning_side(player):
    users = [player() for _ in range(4)]
    placings = [
        Placing(user_id=u.pk, position=2 if i % 2 == 0 else 1, seat=i, team=i % 2)
        for i, u in enumerate(users)
    ]
    table_rewards_pay(table_ref="1", mode="friend", placings=placings)
    assert coins_and_xp(users) == [(0, 0), (75, 35), (0, 0), (75, 35)]


def test_practice_pays_nothing(player):
    user = player()
    before = snapshot()
    placings = solo([user, None, None, None])
    assert table_rewards_pay(table_ref="1", mode="practice", placings=placings) == []
    assert snapshot() == before
    assert not Transaction.objects.exists() and not XpAward.objects.exists()


def test_bots_and_simulated_players_earn_nothing_but_humans_still_do(player):
    user = player()
    lines = table_rewards_pay(
        table_ref="1",
        mode="online",
        placings=solo([None, user, None, None], positions=[1, 2, 3, 4]),
    )
    assert [(ln.user_id, ln.coins, ln.xp) for ln in lines] == [(user.pk, 100, 50)]
    assert Transaction.objects.count() == 1


def test_rewarding_the_same_table_twice_changes_nothing(player):
    users = [player() for _ in range(4)]
    first = table_rewards_pay(table_ref="1", mode="online", placings=solo(users))
    before = snapshot()
    again = table_rewards_pay(table_ref="1", mode="online", placings=solo(users))
    assert snapshot() == before
    assert [(ln.user_id, ln.coins, ln.xp) for ln in again] == [
        (ln.user_id, ln.coins, ln.xp) for ln in first
    ]


def test_rewarding_again_with_another_result_is_refused(player):
    users = [player() for _ in range(2)]
    table_rewards_pay(table_ref="1", mode="online", placings=solo(users))
    before = snapshot()
    with pytest.raises(IdempotencyConflict):
        table_rewards_pay(
            table_ref="1", mode="online", placings=solo(users, positions=[2, 1])
        )
    assert snapshot() == before


@pytest.mark.parametrize(
    ("mode", "placings", "error"),
    [
        ("ranked", [Placing(None, 1, 0)], InvalidInput),
        ("online", [], InvalidInput),
        ("online", [Placing(None, 1, 0), Placing(None, 3, 1)], InvalidInput),
        ("online", [Placing(None, 1, 0), Placing(None, 2, 0)], InvalidInput),
        ("online", [Placing(None, 1, 0, team=0), Placing(None, 2, 1)], InvalidInput),
        ("online", [Placing(None, 1, i) for i in range(5)], InvalidInput),
        ("online", [Placing(999_999, 1, 0), Placing(None, 2, 1)], UnknownUser),
        ("online", [Placing(0, 1, 0), Placing(None, 2, 1)], UnknownUser),
    ],
)
def test_bad_results_write_nothing(player, mode, placings, error):
    before = snapshot()
    with pytest.raises(error):
        table_rewards_pay(table_ref="1", mode=mode, placings=placings)
    assert snapshot() == before


def test_same_user_twice_is_refused(player):
    user = player()
    with pytest.raises(InvalidInput):
        table_rewards_pay(
            table_ref="1",
            mode="online",
            placings=[Placing(user.pk, 1, 0), Placing(user.pk, 2, 1)],
        )


# --- boosts -----------------------------------------------------------------------


def test_booster_and_vip_multiply_then_round_down_once(player):
    rich, gold, vip, plain = (player(10_000) for _ in range(4))
    shop_buy(user_id=rich.pk, item="gold", request_key="a")
    shop_buy(user_id=rich.pk, item="vip", request_key="b")
    shop_buy(user_id=gold.pk, item="gold", request_key="c")
    shop_buy(user_id=vip.pk, item="vip", request_key="d")
    spent = {rich.pk: 3500, gold.pk: 500, vip.pk: 3000, plain.pk: 0}
    # Two-seat online: 2nd place earns 25 coins, 20 XP.
    for n, user in enumerate([rich, gold, vip, plain]):
        table_rewards_pay(
            table_ref=f"t{n}",
            mode="online",
            placings=[Placing(None, 1, 0), Placing(user.pk, 2, 1)],
        )
    earned = [
        (wallet_balance(user_id=u.pk) - 10_000 + spent[u.pk], player_xp(user_id=u.pk))
        for u in (rich, gold, vip, plain)
    ]
    # ×3 → 75/60; ×2 → 50/40; ×1.5 → 37.5 rounds down to 37, XP 30; ×1 → 25/20.
    assert earned == [(75, 60), (50, 40), (37, 30), (25, 20)]
    assert_sound()


def test_friend_half_rate_and_vip_round_down_once(player):
    user = player(3000)
    shop_buy(user_id=user.pk, item="vip", request_key="v")
    lines = table_rewards_pay(
        table_ref="1",
        mode="friend",
        placings=[Placing(user.pk, 1, 0), Placing(None, 2, 1)],
    )
    # 100 × 50% × 150% = 75 coins; 50 XP × 50% × 150% = 37.5 → 37.
    assert [(ln.coins, ln.xp, ln.percent) for ln in lines] == [(75, 37, 150)]


def test_a_booster_never_touches_a_pot(player):
    users = [player(3500 + 250) for _ in range(4)]
    for user in users:
        shop_buy(user_id=user.pk, item="gold", request_key="g")
        shop_buy(user_id=user.pk, item="vip", request_key="v")
        pot_entry_pay(table_ref="42", user_id=user.pk, amount=250)
    pot_settle(table_ref="42", winner_user_ids=[users[0].pk])
    assert wallet_balance(user_id=users[0].pk) == 1000
    assert_sound()


def test_boosts_apply_only_while_active(player):
    user = player(500)
    now = timezone.now()
    shop_buy(user_id=user.pk, item="gold", request_key="g", at=now)
    placings = [Placing(user.pk, 1, 0), Placing(None, 2, 1)]
    table_rewards_pay(table_ref="1", mode="online", placings=placings, at=now)
    later = now + timedelta(hours=24, seconds=1)
    table_rewards_pay(table_ref="2", mode="online", placings=placings, at=later)
    assert wallet_balance(user_id=user.pk) == 200 + 100


def test_buying_the_same_boost_again_extends_it(player):
    user = player(1000)
    now = timezone.now()
    first = shop_buy(user_id=user.pk, item="gold", request_key="1", at=now)
    second = shop_buy(user_id=user.pk, item="gold", request_key="2", at=now)
    assert second.starts_at == first.ends_at
    assert second.ends_at - now == timedelta(hours=48)
    lines = rewards_compute(
        mode="online",
        placings=[Placing(user.pk, 1, 0), Placing(None, 2, 1)],
        boosts={user.pk: [200]},
    )
    assert lines[0].coins == 200
    from economy.rewards import boost_percents

    assert boost_percents(user_ids=[user.pk], at=now) == {user.pk: [200]}


def test_shop_double_submit_buys_once_and_bad_purchases_write_nothing(player):
    user = player(600)
    first = shop_buy(user_id=user.pk, item="gold", request_key="n1")
    assert shop_buy(user_id=user.pk, item="gold", request_key="n1").pk == first.pk
    assert wallet_balance(user_id=user.pk) == 100
    assert Boost.objects.count() == 1
    before = snapshot()
    with pytest.raises(IdempotencyConflict):
        shop_buy(user_id=user.pk, item="vip", request_key="n1")
    with pytest.raises(InsufficientFunds):
        shop_buy(user_id=user.pk, item="gold", request_key="n2")
    with pytest.raises(UnknownItem):
        shop_buy(user_id=user.pk, item="diamond", request_key="n3")
    with pytest.raises(InvalidInput):
        shop_buy(user_id=user.pk, item="gold", request_key="")
    with pytest.raises(UnknownUser):
        shop_buy(user_id=999_999, item="gold", request_key="n4")
    assert snapshot() == before


@given(st.integers(0, 10**7), st.lists(st.sampled_from([100, 150, 200]), max_size=3))
def test_boosted_rounds_down_exactly(amount, percents):
    exact = amount
    for p in percents:
        exact *= p
    assert boosted(amount, percents) == exact // 100 ** len(percents)
    assert boosted(amount, percents) >= amount


# --- levels -------------------------------------------------------------------------


def test_level_curve_is_published():
    assert [level_threshold(n) for n in range(1, 7)] == [0, 100, 300, 600, 1000, 1500]
    assert [level_for_xp(x) for x in (0, 99, 100, 299, 300, 1500)] == [
        1,
        1,
        2,
        2,
        3,
        6,
    ]
    with pytest.raises(ValueError):
        level_for_xp(-1)


@given(st.integers(0, 10**12))
def test_level_for_xp_brackets_xp(xp):
    level = level_for_xp(xp)
    assert level_threshold(level) <= xp < level_threshold(level + 1)


def test_progress_follows_xp(player):
    user = player()
    for n in range(3):  # 3 × 80 XP as the winner of a four-seat online table
        table_rewards_pay(
            table_ref=str(n),
            mode="online",
            placings=[Placing(user.pk, 1, 0)]
            + [Placing(None, p, p - 1) for p in (2, 3, 4)],
        )
    progress = player_progress(user_id=user.pk)
    assert (progress.xp, progress.level, progress.next_level_at) == (240, 2, 300)
