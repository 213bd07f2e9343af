"""The shop: boosters and VIP passes bought with coins."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from economy import conf
from economy.errors import InvalidInput, UnknownItem
from economy.ledger import (
    accounts_lock,
    check_user_id,
    fingerprint_of,
    ledger_post,
    system_account,
    transaction_existing,
    wallets_ensure,
)
from economy.models import Account, Boost, Transaction


@transaction.atomic
def shop_buy(
    *, user_id: int, item: str, request_key: str, at: datetime | None = None
) -> Boost:
    """Buy ``item`` ("gold" or "vip") with coins; return the boost it starts.

    ``request_key`` (the purchase form's nonce) makes a double submit harmless: the
    same key returns the first purchase. A boost bought while one of the same kind is
    active starts when that one ends (durations add up; multipliers of one kind
    never stack). Raises :class:`InsufficientFunds` if the wallet is short.
    """
    check_user_id(user_id)
    offer = conf.shop_items().get(item)
    if offer is None:
        raise UnknownItem("The shop does not sell that item.")
    if not request_key or len(request_key) > 64:
        raise InvalidInput(
            "The purchase form had expired; reload the shop and try again."
        )
    at = at or timezone.now()
    wallet_id = wallets_ensure(user_ids=[user_id])[user_id]
    wallet = accounts_lock(account_ids=[wallet_id])[wallet_id]
    key = f"purchase:{user_id}:{request_key}"
    fingerprint = fingerprint_of(
        {"kind": "purchase", "user": user_id, "item": item, "price": offer.price}
    )
    if posted := transaction_existing(key=key, fingerprint=fingerprint):
        return posted.boost
    shop = system_account(kind=Account.Kind.SHOP)
    posted = ledger_post(
        key=key,
        kind=Transaction.Kind.PURCHASE,
        legs=[(wallet, -offer.price), (shop, offer.price)],
        fingerprint=fingerprint,
        memo=item,
    )
    latest = (
        Boost.objects.filter(user_id=user_id, kind=item, ends_at__gt=at)
        .order_by("-ends_at")
        .values_list("ends_at", flat=True)
        .first()
    )
    starts_at = max(at, latest) if latest else at
    return Boost.objects.create(
        user_id=user_id,
        kind=item,
        percent=offer.percent,
        starts_at=starts_at,
        ends_at=starts_at + offer.duration,
        purchase=posted,
    )
