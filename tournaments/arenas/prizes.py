"""An arena's prizes by final rank: coins from the mint and XP, once per player.

Who is paid how much is ``prize_table`` (pure) under the rules in force
(:func:`prize_rules`, the ``TOURNAMENTS_ARENA_*`` settings read at call time).

Each prize is its own ledger transaction under the key ``arena:<id>:<user>``
(its XP award under the same key), so finishing an arena again, or in two
processes at once, pays nothing twice. Boosters and VIP passes active at the
arena's end multiply coins and XP, exactly as they do a table's rewards
(``economy.rewards.boosted``). Nothing comes out of a pot: arenas have no entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.conf import settings
from django.db import transaction

from economy.errors import IdempotencyConflict
from economy.history_words import arena_memo, battle_memo
from economy.ledger import (
    accounts_lock,
    fingerprint_of,
    ledger_post,
    system_account,
    transaction_existing,
    wallets_ensure,
)
from economy.models import Account, Transaction, XpAward
from economy.rewards import boost_percents, boosted
from tournaments.arenas.prize_table import PrizeRules

PRIZE_PREFIX = "arena:"


CLUB_SUFFIX = ":club"


def prize_key(*, arena_id: int, user_id: int, club: bool = False) -> str:
    """A player's prize in an arena, or (``club``) their team battle's club prize."""
    return f"{PRIZE_PREFIX}{arena_id}:{user_id}{CLUB_SUFFIX if club else ''}"


def prize_rules() -> PrizeRules:
    """The prize rules in force (settings, read now)."""
    return PrizeRules(
        table=tuple((int(c), int(x)) for c, x in settings.TOURNAMENTS_ARENA_PRIZES),
        per_game=(
            int(settings.TOURNAMENTS_ARENA_PRIZE_PER_GAME[0]),
            int(settings.TOURNAMENTS_ARENA_PRIZE_PER_GAME[1]),
        ),
        min_field=int(settings.TOURNAMENTS_ARENA_MIN_FIELD),
    )


def prize_memo(*, arena_id: int, rank: int, club: bool = False) -> str:
    """The stored memo of an arena prize (the audit's form; the wallet page says it
    in the reader's words, ``economy.history_words``)."""
    if club:
        return battle_memo(arena_id=arena_id)
    return arena_memo(arena_id=arena_id, rank=rank)


@transaction.atomic
def arena_prizes_pay(
    *,
    arena_id: int,
    prizes: Mapping[int, tuple[int, int, int]],
    at: datetime,
    club: bool = False,
) -> dict[int, tuple[int, int]]:
    """Pay ``{user_id: (rank, coins, xp)}``, boosted; return ``{user_id: (coins,
    xp)}`` as paid (now or by an earlier call). ``club``: a team battle's club
    prizes, under keys of their own (``prize_key``)."""
    if not prizes:
        return {}
    wallet_of = wallets_ensure(user_ids=list(prizes))
    wallets = accounts_lock(account_ids=wallet_of.values())
    mint = system_account(kind=Account.Kind.MINT)
    boosts = boost_percents(user_ids=list(prizes), at=at)
    paid: dict[int, tuple[int, int]] = {}
    for user_id in sorted(prizes):
        rank, coins, xp = prizes[user_id]
        percents = boosts.get(user_id, [])
        coins, xp = boosted(coins, percents), boosted(xp, percents)
        key = prize_key(arena_id=arena_id, user_id=user_id, club=club)
        fingerprint = fingerprint_of(
            {
                "kind": "arena-club" if club else "arena",
                "arena": arena_id,
                "user": user_id,
                "rank": rank,
            }
        )
        posted = transaction_existing(key=key, fingerprint=fingerprint)
        award = XpAward.objects.filter(key=key).first()
        if award is not None and award.fingerprint != fingerprint:
            raise IdempotencyConflict(f"key {key!r} was already used for other content")
        if posted is not None or award is not None:
            paid[user_id] = (
                -posted.entries.get(account=mint).amount if posted else 0,
                award.amount if award else 0,
            )
            continue
        if coins:
            ledger_post(
                key=key,
                kind=Transaction.Kind.REWARD,
                legs=[(mint, -coins), (wallets[wallet_of[user_id]], coins)],
                fingerprint=fingerprint,
                memo=prize_memo(arena_id=arena_id, rank=rank, club=club),
            )
        if xp:
            XpAward.objects.create(
                key=key, user_id=user_id, amount=xp, fingerprint=fingerprint
            )
        paid[user_id] = (coins, xp)
    return paid
