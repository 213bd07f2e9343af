"""The entry fee of a stake table, for its league bonus.

The entry fee recorded on the table's pot escrow (``economy``'s ``pot:<table id>``
account, the table reference stake tables use): the league reads the ledger, not
matchmaking, which sits in its own layer. ``None`` for a table without a stake.
"""

from __future__ import annotations

from economy.ledger import escrow_key
from economy.models import Account
from games.models import Table


def stake_of(table: Table) -> int | None:
    fee = (
        Account.objects.filter(key=escrow_key(str(table.pk)))
        .values_list("entry_fee", flat=True)
        .first()
    )
    return int(fee) if fee else None
