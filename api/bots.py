"""Upgrading an account to a bot account (docs/api.md, "Bot accounts").

The upgrade is irreversible: nothing here or anywhere else turns a bot back into a
person, because a bot's games, ratings and labels would then be a person's. It is
refused to an account that ever played a rated game (its rating would carry
people's games into the bots' pool), that holds coins in a pot (a stake table or a
tournament entry, which a bot may never be in), and to staff.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext

from accounts.models import BotAccount
from core.refusals import Refusal
from economy.models import Account, Entry
from games.models import Seat, Table
from matchmaking.commitments import player_lock
from matchmaking.pools.models import RatingChange

RATED_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)


class BotUpgradeError(Refusal):
    """The account cannot become a bot account; nothing changed."""


def coins_held(*, user_id: int) -> int:
    """Coins the player has in open pots: what their wallet put into escrow
    accounts still open, less what came back from them."""
    held = Entry.objects.filter(
        account__kind=Account.Kind.ESCROW,
        account__state=Account.State.OPEN,
        transaction__entries__account__kind=Account.Kind.WALLET,
        transaction__entries__account__user_id=user_id,
    ).aggregate(total=Sum("amount"))["total"]
    return int(held or 0)


def bot_upgrade_refusal(*, user_id: int) -> BotUpgradeError | None:
    """Why the account cannot be upgraded now, or None."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not user.is_active:
        return BotUpgradeError(
            "unknown", gettext("This account cannot be upgraded to a bot account.")
        )
    if BotAccount.objects.filter(user_id=user_id).exists():
        return BotUpgradeError("bot", gettext("This account is a bot account already."))
    if user.is_staff or user.is_superuser:
        return BotUpgradeError(
            "staff",
            gettext("A staff account cannot become a bot account: make a new account."),
        )
    rated = (
        RatingChange.objects.filter(user_id=user_id).exists()
        or Seat.objects.filter(user_id=user_id, table__mode__in=RATED_MODES).exists()
    )
    if rated:
        return BotUpgradeError(
            "rated",
            gettext(
                "This account has played rated games, so it cannot become a bot "
                "account: bots are rated only among bots. Make a new account for "
                "your bot."
            ),
        )
    if coins_held(user_id=user_id) > 0:
        return BotUpgradeError(
            "coins_held",
            gettext(
                "This account has coins in a stake table or a tournament entry: "
                "finish or leave it before upgrading to a bot account."
            ),
        )
    return None


@transaction.atomic
def bot_upgrade(*, user_id: int) -> BotAccount:
    """Make the account a bot account, for good.

    Raises ``BotUpgradeError`` (nothing changed) when :func:`bot_upgrade_refusal`
    gives a reason. The account's row is locked first, so two upgrades of one
    account make one ``BotAccount``.
    """
    # The player's commitment lock (``matchmaking.commitments``): a stake seat or an
    # entry paid at the same moment either sees the bot or is seen holding coins.
    player_lock(user_id=user_id)
    refusal = bot_upgrade_refusal(user_id=user_id)
    if refusal is not None:
        raise refusal
    return BotAccount.objects.create(user_id=user_id)
