"""Refusals of the economy in a player's words: no account keys, request keys or reprs.

The services' own texts (an error's ``detail``) name accounts and keys for operators
and logs; what a player reads on the wallet and shop pages comes from here: an
error's own ``message`` where it says enough, else words that know the page (the
item, the shortfall).
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from economy import conf
from economy.errors import (
    AlreadyClaimed,
    EarningBarred,
    EconomyError,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidInput,
    UnknownItem,
)

ITEM_NAMES = {"gold": _("gold booster"), "vip": _("VIP pass")}


def item_name(code: str) -> str:
    """A shop item as players call it ("VIP pass")."""
    return str(ITEM_NAMES.get(code, _("that item")))


def shop_refusal(exc: EconomyError, *, item: str, balance: int) -> str:
    """Why a purchase of ``item`` was refused, for the player who tried it."""
    offer = conf.shop_items().get(item)
    if isinstance(exc, UnknownItem) or offer is None:
        return str(UnknownItem.player_message)
    if isinstance(exc, InsufficientFunds):
        missing = max(offer.price - balance, 1)
        return str(
            ngettext(
                "You need %(n)s more coin for the %(item)s.",
                "You need %(n)s more coins for the %(item)s.",
                missing,
            )
            % {"n": missing, "item": item_name(item)}
        )
    if isinstance(exc, IdempotencyConflict):
        return str(
            gettext("That purchase was already made; reload the shop to buy again.")
        )
    if isinstance(exc, InvalidInput):
        # The form's nonce was missing or not one a shop page gives.
        return str(
            gettext("The purchase form had expired; reload the shop and try again.")
        )
    return str(gettext("The purchase did not go through; no coins were taken."))


def bonus_refusal(exc: EconomyError) -> str:
    """Why the daily bonus was refused."""
    if isinstance(exc, AlreadyClaimed | EarningBarred):
        return exc.message
    return str(gettext("The daily bonus could not be paid; try again in a moment."))
