"""Replay a table from its seed (or fair deal) and move log; the check that the log
is the truth."""

from __future__ import annotations

from collections.abc import Iterator

from games import engine
from games.fairness import fair_deal_of
from games.models import Table, TableEvent


class ReplayMismatch(Exception):
    """The stored state differs from the replay of seed + log."""


def replay_start(table: Table) -> engine.State | None:
    """The table's first deal, from its seed or its fair deal; None before a deal."""
    if table.state is None:
        return None
    # A fair table deals from its chains and seeds; one from before fair deals, from
    # its integer seed, as it always did.
    fair = fair_deal_of(table) if table.fair is not None else None
    return engine.new_match(
        engine.Options.from_dict(table.options), table.seed, fair=fair
    )


def replay_walk(
    table: Table, start: engine.State
) -> Iterator[tuple[TableEvent, engine.State]]:
    """Each logged entry in order with the state after it (an entry without an
    action, such as a seat leaving, leaves the state as it was)."""
    state = start
    for event in table.events.order_by("seq"):
        if event.action is not None:
            seat = 0 if event.seat is None else event.seat
            state = engine.apply(state, seat, event.action)
        yield event, state


def table_replay(*, table: Table) -> engine.State | None:
    """The state reached by replaying the table's seed and every logged action."""
    start = replay_start(table)
    if start is None:
        return None
    state = start
    for _event, state in replay_walk(table, start):  # noqa: B007 (the last one)
        pass
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
