"""Replay a table from its seed (or fair deal) and move log; the check that the log
is the truth."""

from __future__ import annotations

from games import engine
from games.fairness import fair_deal_of
from games.models import Table


class ReplayMismatch(Exception):
    """The stored state differs from the replay of seed + log."""


def table_replay(*, table: Table) -> engine.State | None:
    """The state reached by replaying the table's seed and every logged action."""
    if table.state is None:
        return None
    # A fair table deals from its chains and seeds; one from before fair deals, from
    # its integer seed, as it always did.
    fair = fair_deal_of(table) if table.fair is not None else None
    state = engine.new_match(
        engine.Options.from_dict(table.options), table.seed, fair=fair
    )
    for event in table.events.order_by("seq").only("seat", "action"):
        if event.action is None:
            continue
        seat = 0 if event.seat is None else event.seat
        state = engine.apply(state, seat, event.action)
    return state


def table_verify(*, table: Table) -> None:
    """Raise ``ReplayMismatch`` unless replaying the log reproduces the stored state."""
    replayed = table_replay(table=table)
    stored = engine.from_json(table.state) if table.state is not None else None
    if replayed is None and stored is None:
        return
    if replayed is None or stored is None or replayed != stored:
        raise ReplayMismatch(f"table {table.pk}: replay differs from the stored state")
    last = table.events.order_by("-seq").values_list("seq", flat=True).first()
    if last != table.seq:
        raise ReplayMismatch(
            f"table {table.pk}: log ends at {last}, table at {table.seq}"
        )
