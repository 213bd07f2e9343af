"""Week-end league rewards: coins from the mint to players' wallets, once each.

Called by ``leagues`` (economy imports none of our apps: it gets plain user ids and
amounts). Each reward is its own ledger transaction under the idempotency key
``league:<week>:<user>``, so paying a week again, or concurrently, pays nothing twice.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from economy.errors import IdempotencyConflict, InvalidInput
from economy.ledger import (
    accounts_lock,
    check_amount,
    check_user_id,
    fingerprint_of,
    ledger_post,
    system_account,
    wallets_ensure,
)
from economy.models import Account, Transaction


def league_reward_key(*, week: str, user_id: int) -> str:
    return f"league:{week}:{user_id}"


@transaction.atomic
def league_rewards_pay(*, week: str, rewards: Mapping[int, int]) -> int:
    """Pay ``{user_id: coins}`` for ``week`` (``YYYY-MM-DD``); return how many were new.

    A reward already paid under its key is skipped; the same key with another amount
    raises :class:`IdempotencyConflict` and pays nothing.
    """
    if not week or ":" in week or len(week) > 20:
        raise InvalidInput("week must be a short name without ':'")
    wanted = {check_user_id(u): check_amount(c) for u, c in rewards.items()}
    if not wanted:
        return 0
    keys = {u: league_reward_key(week=week, user_id=u) for u in wanted}
    prints = {
        u: fingerprint_of({"kind": "league", "week": week, "user": u, "amount": c})
        for u, c in wanted.items()
    }
    # Lock first, then look for rewards already posted: a concurrent payer of the
    # same week holds these wallets until it commits, and is seen after it.
    wallet_of = wallets_ensure(user_ids=wanted)
    wallets = accounts_lock(account_ids=wallet_of.values())
    posted = dict(
        Transaction.objects.filter(key__in=keys.values()).values_list(
            "key", "fingerprint"
        )
    )
    for user_id, key in keys.items():
        if key in posted and posted[key] != prints[user_id]:
            raise IdempotencyConflict(
                f"idempotency key {key!r} was already used for different content"
            )
    todo = sorted(u for u, key in keys.items() if key not in posted)
    mint = system_account(kind=Account.Kind.MINT)
    for user_id in todo:
        amount = wanted[user_id]
        ledger_post(
            key=keys[user_id],
            kind=Transaction.Kind.REWARD,
            legs=[(mint, -amount), (wallets[wallet_of[user_id]], amount)],
            fingerprint=prints[user_id],
            memo=f"league week {week}",
        )
    return len(todo)
