"""Rewards for a finished table: coins and XP by mode and position, times boosts.

Rules (RULES.md §5): practice pays nothing; a friend room pays only the winning seat
or side, at ``ECONOMY_FRIEND_PERCENT`` (half) of the online rate; online and stake
tables pay every human position from most to least (``ECONOMY_ONLINE_REWARDS``).
Bots and simulated players (``user_id=None``) earn nothing. Active boosts multiply
coins and XP: every factor is multiplied exactly, then the result is rounded down
once to a whole number.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from math import prod

from django.db import transaction
from django.utils import timezone

from economy import conf
from economy.errors import IdempotencyConflict, InvalidInput
from economy.history_words import reward_memo
from economy.ledger import (
    accounts_lock,
    check_table_ref,
    check_user_id,
    fingerprint_of,
    ledger_post,
    system_account,
    transaction_existing,
    wallets_ensure,
)
from economy.models import Account, Boost, Transaction, XpAward

MODES = ("practice", "friend", "online", "stake")


@dataclass(frozen=True)
class Placing:
    """Where one seat finished. ``position`` 1 is best; partners share their side's.

    ``user_id`` is None for a bot or simulated player; ``team`` is the side in a
    partnership game (None otherwise).
    """

    user_id: int | None
    position: int
    seat: int
    team: int | None = None


@dataclass(frozen=True)
class RewardLine:
    """What one player was paid for a table (``percent`` 100 = no boost)."""

    user_id: int
    position: int
    coins: int
    xp: int
    percent: int


def table_shape(placings: Sequence[Placing]) -> str:
    """The rate-table key: ``"<seats>"``, or ``"<seats>p"`` for a partnership."""
    teams = {p.team for p in placings}
    if None in teams and len(teams) > 1:
        raise InvalidInput("either every seat has a team or none has")
    return f"{len(placings)}p" if None not in teams else str(len(placings))


def placings_check(*, mode: str, placings: Sequence[Placing]) -> str:
    """Validate a table's result; return its shape. Raises :class:`InvalidInput`."""
    if mode not in MODES:
        raise InvalidInput(f"unknown mode {mode!r}; one of {MODES}")
    if not placings:
        raise InvalidInput("a table has at least one seat")
    if len({p.seat for p in placings}) != len(placings):
        raise InvalidInput("two placings share a seat")
    humans = [check_user_id(p.user_id) for p in placings if p.user_id is not None]
    if len(set(humans)) != len(humans):
        raise InvalidInput("a user sits twice")
    shape = table_shape(placings)
    rates = conf.online_rewards()
    if shape not in rates:
        raise InvalidInput(f"no reward rates for a table of shape {shape!r}")
    for p in placings:
        if type(p.position) is not int or not 1 <= p.position <= len(rates[shape]):
            raise InvalidInput(f"position {p.position!r} out of range for {shape!r}")
    return shape


def reward_base(*, mode: str, shape: str, position: int) -> tuple[int, int, int]:
    """``(coins, xp, percent)`` before boosts; ``percent`` is the mode's factor."""
    if mode == "practice":
        return 0, 0, 100
    coins, xp = conf.online_rewards()[shape][position - 1]
    if mode == "friend":
        return (coins, xp, conf.friend_percent()) if position == 1 else (0, 0, 100)
    return coins, xp, 100


def boosted(amount: int, percents: Sequence[int]) -> int:
    """``amount`` times every percent factor, rounded down once."""
    factor: int = prod(percents)
    scale: int = 100 ** len(percents)
    return amount * factor // scale


def boost_percents(*, user_ids: Sequence[int], at: datetime) -> dict[int, list[int]]:
    """Percent factors of every boost active at ``at``, by user."""
    found: dict[int, list[int]] = defaultdict(list)
    rows = Boost.objects.filter(
        user_id__in=user_ids, starts_at__lte=at, ends_at__gt=at
    ).values_list("user_id", "percent")
    for user_id, percent in rows:
        found[user_id].append(percent)
    return found


def rewards_compute(
    *,
    mode: str,
    placings: Sequence[Placing],
    boosts: Mapping[int, Sequence[int]] | None = None,
) -> list[RewardLine]:
    """The rewards of a table, pure: one line per human who earns something."""
    shape = placings_check(mode=mode, placings=placings)
    lines = []
    for p in sorted(placings, key=lambda p: p.seat):
        if p.user_id is None:
            continue
        coins, xp, mode_percent = reward_base(
            mode=mode, shape=shape, position=p.position
        )
        factors = [mode_percent, *(boosts or {}).get(p.user_id, [])]
        line = RewardLine(
            user_id=p.user_id,
            position=p.position,
            coins=boosted(coins, factors),
            xp=boosted(xp, factors),
            percent=boosted(100, factors[1:]) if len(factors) > 1 else 100,
        )
        if line.coins or line.xp:
            lines.append(line)
    return lines


@transaction.atomic
def table_rewards_pay(
    *,
    table_ref: str,
    mode: str,
    placings: Sequence[Placing],
    at: datetime | None = None,
) -> list[RewardLine]:
    """Pay coins and XP for a finished table (keys ``reward:<table>:<user>``).

    Preconditions: ``placings`` holds every seat of the table once; ``mode`` is one
    of practice, friend, online, stake. Boosts active at ``at`` (now by default)
    apply. Paying the same table again changes nothing and returns what was paid;
    raises :class:`IdempotencyConflict` if a player's result differs from the first
    call. Nothing is written when anything is refused.
    """
    check_table_ref(table_ref)
    shape = placings_check(mode=mode, placings=placings)
    if mode == "practice":
        return []
    at = at or timezone.now()
    human_ids = [p.user_id for p in placings if p.user_id is not None]
    wallet_ids = wallets_ensure(user_ids=human_ids)
    wallets = accounts_lock(account_ids=wallet_ids.values())
    mint = system_account(kind=Account.Kind.MINT)
    lines = rewards_compute(
        mode=mode,
        placings=placings,
        boosts=boost_percents(user_ids=list(wallet_ids), at=at),
    )
    paid = []
    for line in lines:
        key = f"reward:{table_ref}:{line.user_id}"
        fingerprint = fingerprint_of(
            {
                "kind": "reward",
                "table": table_ref,
                "mode": mode,
                "shape": shape,
                "user": line.user_id,
                "position": line.position,
            }
        )
        posted = transaction_existing(key=key, fingerprint=fingerprint)
        award = XpAward.objects.filter(key=key).first()
        if award is not None and award.fingerprint != fingerprint:
            raise IdempotencyConflict(f"key {key!r} was already used for other content")
        if posted is not None or award is not None:
            coins = -posted.entries.get(account=mint).amount if posted else 0
            xp = award.amount if award else 0
            paid.append(
                RewardLine(line.user_id, line.position, coins, xp, line.percent)
            )
            continue
        if line.coins:
            ledger_post(
                key=key,
                kind=Transaction.Kind.REWARD,
                legs=[
                    (mint, -line.coins),
                    (wallets[wallet_ids[line.user_id]], line.coins),
                ],
                fingerprint=fingerprint,
                table_ref=table_ref,
                memo=reward_memo(mode=mode, position=line.position),
            )
        if line.xp:
            XpAward.objects.create(
                key=key,
                user_id=line.user_id,
                amount=line.xp,
                table_ref=table_ref,
                fingerprint=fingerprint,
            )
        paid.append(line)
    return paid
