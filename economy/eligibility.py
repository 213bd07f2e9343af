"""Accounts that never receive minted coins (bot accounts, docs/api.md).

The ledger knows accounts and keys, not who plays: the app that knows which accounts
are barred registers its check at ``ready()``.
"""

from __future__ import annotations

from collections.abc import Callable

BarredCheck = Callable[[int], bool]

_checks: list[BarredCheck] = []


def earning_barred_register(check: BarredCheck) -> None:
    """Bar from minted coins every account for which ``check(user_id)`` is true."""
    if check not in _checks:
        _checks.append(check)


def earning_barred(*, user_id: int) -> bool:
    """True when ``user_id`` may receive no minted coin (the daily bonus)."""
    return any(check(user_id) for check in _checks)
