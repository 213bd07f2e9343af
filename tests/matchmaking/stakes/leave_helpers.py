"""Helpers of the leaving tests: a stake table's books against its seats."""

from __future__ import annotations

from economy.audit import ledger_audit
from economy.selectors import pot_balance
from games.models import Seat, Table
from matchmaking.models import StakeSitter, StakeTable


def held_entries(table_id: int) -> int:
    """Coins the pot should hold: one entry per person seated (none once closed)."""
    row = StakeTable.objects.get(pk=table_id)
    if row.state in (StakeTable.State.SETTLED, StakeTable.State.CANCELLED):
        return 0
    return row.stake * Seat.objects.filter(table_id=table_id).count()


def assert_books_agree(table_id: int) -> None:
    """Seats, sitter rows, the seat count and the pot of a stake table agree, and
    the ledger audit is clean."""
    row = StakeTable.objects.get(pk=table_id)
    seated = set(
        Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True)
    )
    sitters = set(
        StakeSitter.objects.filter(stake_table=row).values_list("user_id", flat=True)
    )
    status = Table.objects.get(pk=table_id).status
    if row.state in (StakeTable.State.OPEN, StakeTable.State.PLAYING):
        assert sitters == seated, (sitters, seated)
        assert row.seats_taken == len(seated), (row.seats_taken, seated)
        full = row.state == StakeTable.State.PLAYING
        assert full == (len(seated) == row.seats), (row.state, seated)
        assert (status == Table.Status.PLAYING) == full, (status, row.state)
    else:
        assert not sitters
    assert pot_balance(table_ref=str(table_id)) == held_entries(table_id)
    assert ledger_audit() == []


def assert_every_stake_table_agrees() -> None:
    for table_id in StakeTable.objects.values_list("pk", flat=True):
        assert_books_agree(table_id)
