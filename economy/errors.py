"""Errors of the economy: each names what was wrong; nothing is written when raised.

Each class has a stable ``code`` and a default ``player_message`` (no ids, keys or
reprs). The text a service raises with names accounts, keys and amounts for
operators and logs: it is the refusal's ``detail``, and ``str()`` of the error.
"""

from django.utils.translation import gettext_lazy as _

from core.refusals import Refusal


class EconomyError(Refusal):
    """Base of every refusal by the economy services."""

    code = "economy_refused"
    player_message = _("That did not work; reload the page and try again.")

    def __init__(self, detail: str = "") -> None:
        super().__init__(self.code, str(self.player_message), detail=detail)


class InvalidAmount(EconomyError, ValueError):
    """An amount that is not a positive whole number of coins (or not allowed here)."""

    code = "invalid_amount"


class InvalidInput(EconomyError, ValueError):
    """Arguments that do not make sense (unknown mode, duplicate winner, …)."""

    code = "invalid_input"


class UnknownUser(EconomyError, LookupError):
    """A user id that does not exist."""

    code = "unknown_user"


class UnknownAccount(EconomyError, LookupError):
    """An account id that does not exist."""

    code = "unknown_account"


class InsufficientFunds(EconomyError):
    """The wallet does not hold enough coins.

    Callers that know the price say by how much (``player_messages``, the stake
    sit-down); the default message only says that nothing was taken.
    """

    code = "insufficient_funds"
    player_message = _(
        "Your wallet does not hold enough coins for that; none were taken."
    )


class IdempotencyConflict(EconomyError):
    """The idempotency key was already used for different content."""

    code = "idempotency_conflict"


class PotNotFound(EconomyError, LookupError):
    """No pot (escrow) exists for that table."""

    code = "pot_not_found"


class PotClosed(EconomyError):
    """The pot was already settled or refunded."""

    code = "pot_closed"
    player_message = _("This table is no longer taking players.")


class AlreadyClaimed(EconomyError):
    """The daily bonus was already claimed today (UTC)."""

    code = "already_claimed"
    player_message = _(
        "You already claimed today's bonus. The next one opens at 00:00 UTC."
    )


class EarningBarred(EconomyError):
    """The account receives no minted coins (a bot account)."""

    code = "earning_barred"
    player_message = _("Bot accounts receive no coins.")


class UnknownItem(EconomyError, LookupError):
    """No such item in the shop."""

    code = "unknown_item"
    player_message = _("The shop does not sell that item.")
