"""Errors of the economy: each names what was wrong; nothing is written when raised."""


class EconomyError(Exception):
    """Base of every refusal by the economy services."""


class InvalidAmount(EconomyError, ValueError):
    """An amount that is not a positive whole number of coins (or not allowed here)."""


class InvalidInput(EconomyError, ValueError):
    """Arguments that do not make sense (unknown mode, duplicate winner, …)."""


class UnknownUser(EconomyError, LookupError):
    """A user id that does not exist."""


class UnknownAccount(EconomyError, LookupError):
    """An account id that does not exist."""


class InsufficientFunds(EconomyError):
    """The wallet does not hold enough coins."""


class IdempotencyConflict(EconomyError):
    """The idempotency key was already used for different content."""


class PotNotFound(EconomyError, LookupError):
    """No pot (escrow) exists for that table."""


class PotClosed(EconomyError):
    """The pot was already settled or refunded."""


class AlreadyClaimed(EconomyError):
    """The daily bonus was already claimed today (UTC)."""


class UnknownItem(EconomyError, LookupError):
    """No such item in the shop."""
