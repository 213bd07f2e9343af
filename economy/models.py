"""The ledger: accounts, immutable transactions and their entries; XP and boosts.

Every coin movement is a :class:`Transaction` whose :class:`Entry` rows sum to zero
(enforced at commit by a deferred constraint trigger on PostgreSQL). Wallets and
escrows keep a denormalised ``balance`` updated in the same database transaction as
their entries; the mint and the shop are hot, so they keep none (``balance`` is NULL)
and their balance is the sum of their entries.
"""

from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class LedgerImmutable(Exception):
    """Raised on an attempt to edit or delete a posted transaction or entry."""


class Account(models.Model):
    """A place coins can be: a player's wallet, a pot's escrow, the mint or the shop."""

    class Kind(models.TextChoices):
        WALLET = "wallet", _("wallet")
        ESCROW = "escrow", _("escrow")
        MINT = "mint", _("mint")
        SHOP = "shop", _("shop")

    class State(models.TextChoices):
        # Escrow accounts only: open takes entries; settled and refunded must be empty.
        OPEN = "open", pgettext_lazy("escrow account state", "open")
        SETTLED = "settled", _("settled")
        REFUNDED = "refunded", _("refunded")

    key = models.CharField(max_length=100, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="wallet",
    )
    table_ref = models.CharField(max_length=64, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, blank=True)
    entry_fee = models.PositiveIntegerField(null=True, blank=True)
    balance = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(balance__isnull=True),
                name="economy_account_balance_not_negative",
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind__in=["wallet", "escrow"], balance__isnull=False)
                    | Q(kind__in=["mint", "shop"], balance__isnull=True)
                ),
                name="economy_account_balance_tracked_by_kind",
            ),
            models.CheckConstraint(
                condition=Q(kind="wallet", user__isnull=False)
                | (~Q(kind="wallet") & Q(user__isnull=True)),
                name="economy_account_wallet_has_user",
            ),
            models.CheckConstraint(
                condition=Q(kind="escrow", state__in=["open", "settled", "refunded"])
                | (~Q(kind="escrow") & Q(state="")),
                name="economy_account_state_for_escrow",
            ),
        ]

    def __str__(self) -> str:
        return self.key


class Transaction(models.Model):
    """One immutable movement of coins, identified by a unique idempotency key."""

    class Kind(models.TextChoices):
        SIGNUP = "signup", _("sign-up grant")
        DAILY = "daily", _("daily bonus")
        ENTRY = "entry", _("entry fee")
        PAYOUT = "payout", _("pot payout")
        REFUND = "refund", _("entry refund")
        REWARD = "reward", _("table reward")
        PURCHASE = "purchase", _("shop purchase")
        CORRECTION = "correction", _("operator correction")

    key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    table_ref = models.CharField(max_length=64, blank=True, db_index=True)
    # What was asked for (sha256): a reused key with other content is refused.
    fingerprint = models.CharField(max_length=64)
    memo = models.CharField(max_length=200, blank=True)
    reason = models.TextField(blank=True)
    operator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise LedgerImmutable("a posted transaction cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise LedgerImmutable("a posted transaction cannot be deleted")


class Entry(models.Model):
    """One leg of a transaction: a signed amount on one account."""

    transaction = models.ForeignKey(
        Transaction, on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="entries"
    )
    amount = models.BigIntegerField()

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.CheckConstraint(
                condition=~Q(amount=0), name="economy_entry_amount_not_zero"
            ),
            models.UniqueConstraint(
                fields=["transaction", "account"], name="economy_entry_one_per_account"
            ),
        ]
        indexes = [models.Index(fields=["account", "transaction"])]

    def __str__(self) -> str:
        return f"{self.amount:+d} on {self.account_id} in {self.transaction_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise LedgerImmutable("a posted entry cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise LedgerImmutable("a posted entry cannot be deleted")


class XpAward(models.Model):
    """Experience earned once per key (``reward:<table>:<user>``); XP is their sum."""

    key = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="xp_awards"
    )
    amount = models.PositiveIntegerField()
    table_ref = models.CharField(max_length=64, blank=True)
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0), name="economy_xpaward_amount_positive"
            )
        ]

    def __str__(self) -> str:
        return f"{self.amount} XP for {self.user_id} ({self.key})"


class Boost(models.Model):
    """A bought multiplier on coin and XP rewards (never a pot), active in a window."""

    class Kind(models.TextChoices):
        GOLD = "gold", _("gold booster")
        VIP = "vip", _("VIP pass")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="boosts"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    percent = models.PositiveIntegerField()  # 200 = ×2, 150 = ×1.5
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    purchase = models.OneToOneField(
        Transaction, on_delete=models.PROTECT, related_name="boost"
    )

    class Meta:
        indexes = [models.Index(fields=["user", "ends_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")),
                name="economy_boost_window",
            ),
            models.CheckConstraint(
                condition=Q(percent__gte=100), name="economy_boost_percent_at_least_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} ×{self.percent / 100:g} for {self.user_id}"
