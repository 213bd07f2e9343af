"""Week-end league rewards: coins from the mint to players' wallets, once each.

Called by ``leagues`` (economy imports none of our apps: it gets plain user ids and
amounts). Each reward is its own ledger transaction under the idempotency key
``league:<week>:<user>``, so paying a week again, or concurrently, pays nothing twice.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import connection, transaction
from django.utils import timezone

from economy.errors import IdempotencyConflict, InvalidInput
from economy.history_words import league_memo
from economy.ledger import (
    ACCOUNTS,
    ENTRIES,
    TRANSACTIONS,
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
    payouts = [(wallets[wallet_of[u]], wanted[u], keys[u], prints[u]) for u in todo]
    if connection.vendor == "postgresql":
        _payouts_post_bulk(mint=mint, payouts=payouts, memo=league_memo(week=week))
    else:
        for wallet, amount, key, fingerprint in payouts:
            ledger_post(
                key=key,
                kind=Transaction.Kind.REWARD,
                legs=[(mint, -amount), (wallet, amount)],
                fingerprint=fingerprint,
                memo=league_memo(week=week),
            )
    return len(todo)


def _payouts_post_bulk(
    *, mint: Account, payouts: list[tuple[Account, int, str, str]], memo: str
) -> None:
    """Post one mint-to-wallet transaction per payout in three statements.

    The same rows :func:`~economy.ledger.ledger_post` writes for each (a transaction,
    its two entries, the wallet's balance moved by its entry), set-based: a week's
    rewards are thousands of postings (``bench/league.py``). Preconditions: inside
    ``transaction.atomic``, every wallet locked, no key posted yet (a key taken
    meanwhile raises :class:`IdempotencyConflict` and the whole batch rolls back).
    Amounts are positive and the mint keeps no balance, so none can go negative.
    """
    created_at = timezone.now()
    keys = [key for _, _, key, _ in payouts]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TRANSACTIONS} "  # noqa: S608 - table names from the models
            "(key, kind, table_ref, fingerprint, memo, reason, operator_id, "
            "created_at) "
            "SELECT v.key, %s, '', v.fp, %s, '', NULL, %s "
            "FROM unnest(%s::varchar[], %s::varchar[]) AS v(key, fp) "
            "ON CONFLICT (key) DO NOTHING RETURNING id, key",
            [
                str(Transaction.Kind.REWARD),
                memo,
                created_at,
                keys,
                [fp for _, _, _, fp in payouts],
            ],
        )
        tx_of = {key: pk for pk, key in cursor.fetchall()}
        if len(tx_of) != len(payouts):
            taken = sorted(set(keys) - tx_of.keys())[:3]
            raise IdempotencyConflict(f"idempotency keys {taken} are already used")
        tx_ids, account_ids, amounts = [], [], []
        for wallet, amount, key, _ in payouts:
            tx_ids += [tx_of[key], tx_of[key]]
            account_ids += [mint.pk, wallet.pk]
            amounts += [-amount, amount]
        cursor.execute(
            f"INSERT INTO {ENTRIES} (transaction_id, account_id, amount) "  # noqa: S608
            "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[])",
            [tx_ids, account_ids, amounts],
        )
        cursor.execute(
            f"UPDATE {ACCOUNTS} AS a SET balance = a.balance + v.amount "  # noqa: S608
            "FROM unnest(%s::bigint[], %s::bigint[]) AS v(id, amount) "
            "WHERE a.id = v.id",
            [[w.pk for w, _, _, _ in payouts], [a for _, a, _, _ in payouts]],
        )
    for wallet, amount, _, _ in payouts:
        wallet.balance = (wallet.balance or 0) + amount
