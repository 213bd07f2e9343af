"""Economy reads: balances, history, XP and level, boosts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, Subquery, Sum
from django.utils import timezone

from economy import conf
from economy.history_words import memo_words
from economy.ledger import escrow_key
from economy.levels import level_for_xp, level_threshold
from economy.models import Account, Boost, Entry, Transaction, XpAward
from economy.wallets import daily_bonus_key

HISTORY_PAGE_SIZE = 50


@dataclass(frozen=True)
class Progress:
    xp: int
    level: int
    level_starts_at: int
    next_level_at: int

    @property
    def percent(self) -> int:
        span = self.next_level_at - self.level_starts_at
        return (self.xp - self.level_starts_at) * 100 // span


@dataclass(frozen=True)
class HistoryLine:
    transaction_id: int
    created_at: datetime
    kind: str
    label: str
    amount: int
    table_ref: str
    table_url: str
    memo: str
    reason: str


def wallet_balance(*, user_id: int) -> int:
    """Coins in the player's wallet (0 before the wallet exists)."""
    balance = (
        Account.objects.filter(kind=Account.Kind.WALLET, user_id=user_id)
        .values_list("balance", flat=True)
        .first()
    )
    return balance or 0


def account_balance(*, account_id: int) -> int:
    """Balance of any account as the sum of its entries (system accounts too)."""
    total = Entry.objects.filter(account_id=account_id).aggregate(t=Sum("amount"))["t"]
    return total or 0


def pot_balance(*, table_ref: str) -> int:
    balance = (
        Account.objects.filter(key=escrow_key(table_ref))
        .values_list("balance", flat=True)
        .first()
    )
    return balance or 0


def pot_state(*, table_ref: str) -> str | None:
    """``open``, ``settled``, ``refunded``, or None when nobody paid an entry."""
    return (
        Account.objects.filter(key=escrow_key(table_ref))
        .values_list("state", flat=True)
        .first()
    )


@dataclass(frozen=True)
class WalletSummary:
    """The wallet page's figures: coins, XP and level, today's bonus, and how many
    lines the history has."""

    balance: int
    progress: Progress
    bonus_claimed: bool
    lines: int


def _wallet_entries(user_id: int) -> Any:
    return Entry.objects.filter(
        account__kind=Account.Kind.WALLET, account__user_id=user_id
    )


def wallet_summary(*, user_id: int, now: datetime | None = None) -> WalletSummary:
    """:func:`wallet_balance`, :func:`player_progress`, :func:`daily_bonus_claimed`
    and the count of history lines, as subqueries of one statement."""
    figures = {
        "balance": Subquery(
            Account.objects.filter(kind=Account.Kind.WALLET, user_id=user_id).values(
                "balance"
            )[:1]
        ),
        "xp": Subquery(
            XpAward.objects.filter(user_id=user_id)
            .values("user_id")
            .annotate(t=Sum("amount"))
            .values("t")
        ),
        "claimed": Exists(
            Transaction.objects.filter(key=daily_bonus_key(user_id=user_id, now=now))
        ),
        "lines": Subquery(
            _wallet_entries(user_id)
            .values("account_id")
            .annotate(n=Count("pk"))
            .values("n")
        ),
    }
    row: Any = (
        get_user_model().objects.filter(pk=user_id).values(**figures).first() or {}
    )
    return WalletSummary(
        balance=int(row.get("balance") or 0),
        progress=_progress(int(row.get("xp") or 0)),
        bonus_claimed=bool(row.get("claimed")),
        lines=int(row.get("lines") or 0),
    )


def wallet_history(
    *, user_id: int, page: int | str = 1, lines: int | None = None
) -> Page[Any]:
    """One page (50 lines, newest first) of the wallet's transactions; ``lines``,
    their count if known (:class:`WalletSummary`), spares counting them again.

    The page's ``object_list`` holds :class:`HistoryLine` rows, not entries.
    """
    entries = _wallet_entries(user_id).select_related("transaction")
    paginator = Paginator(entries.order_by("-transaction_id"), HISTORY_PAGE_SIZE)
    if lines is not None:
        paginator.__dict__["count"] = lines  # the paginator's cached count
    result: Page[Any] = paginator.get_page(page)
    labels = dict(Transaction.Kind.choices)
    result.object_list = [
        HistoryLine(
            transaction_id=e.transaction_id,
            created_at=e.transaction.created_at,
            kind=e.transaction.kind,
            label=str(labels.get(e.transaction.kind, e.transaction.kind)),
            amount=e.amount,
            table_ref=e.transaction.table_ref,
            table_url=conf.pot_url(e.transaction.table_ref)
            if e.transaction.table_ref
            else "",
            memo=memo_words(kind=e.transaction.kind, memo=e.transaction.memo),
            reason=e.transaction.reason,
        )
        for e in result.object_list
    ]
    return result


def table_earnings(*, user_id: int, table_ref: str) -> tuple[int, int]:
    """The coins and XP one table's rewards paid the player (key
    ``reward:<ref>:<user>``)."""
    key = f"reward:{table_ref}:{user_id}"
    coins = Entry.objects.filter(
        transaction__key=key,
        account__kind=Account.Kind.WALLET,
        account__user_id=user_id,
    ).aggregate(t=Sum("amount"))["t"]
    xp = XpAward.objects.filter(key=key).values_list("amount", flat=True).first()
    return int(coins or 0), int(xp or 0)


def player_xp(*, user_id: int) -> int:
    total = XpAward.objects.filter(user_id=user_id).aggregate(t=Sum("amount"))["t"]
    return total or 0


def player_progress(*, user_id: int) -> Progress:
    return _progress(player_xp(user_id=user_id))


def _progress(xp: int) -> Progress:
    level = level_for_xp(xp)
    return Progress(
        xp=xp,
        level=level,
        level_starts_at=level_threshold(level),
        next_level_at=level_threshold(level + 1),
    )


def boosts_active(*, user_id: int, at: datetime | None = None) -> list[Boost]:
    """Boosts running at ``at`` (now), and queued ones, soonest first."""
    at = at or timezone.now()
    return list(
        Boost.objects.filter(user_id=user_id, ends_at__gt=at).order_by("starts_at")
    )


def daily_bonus_claimed(*, user_id: int, now: datetime | None = None) -> bool:
    key = daily_bonus_key(user_id=user_id, now=now)
    return Transaction.objects.filter(key=key).exists()
