"""Finishing a table, durably: results written once, then each consequence once.

The consequences of a finished table (rewards, ratings, conduct, a stake pot's
settlement, league points) live in other apps, which register them here one way
(:func:`consequence_register`, from their ``AppConfig.ready``); ``games`` imports
none of them. The final move's own transaction writes the seats' results and one
``FinishStep`` row per consequence that applies to the table's mode: that row is
what the finish owes. After the commit each consequence is applied in its own
transaction that also marks its row done, so it happens exactly once even if the
consequence itself were not idempotent; a process that dies between the commit and
any consequence leaves undone rows, which :func:`finish_steps_sweep` (beat)
completes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import engine
from games.earning import unpaid_reasons
from games.models import FinishStep, Seat, Table
from games.results import seat_results
from games.signals import SeatResult
from games.stores import table_alias, table_store

logger = logging.getLogger(__name__)

# Modes whose finished tables pay coins, XP or league points (RULES.md §5).
PAYING_MODES = frozenset({Table.Mode.FRIEND, Table.Mode.ONLINE, Table.Mode.STAKE})
# A step this old and not done was left by a crash (or failed): the sweep runs it.
# The after-commit path normally finishes within a second.
SWEEP_AFTER = timedelta(seconds=10)


@dataclass(frozen=True, slots=True)
class FinishNotice:
    """What a consequence is told about a finished table."""

    table_id: int
    mode: str
    variant: str
    simulated: bool  # whether simulated players sat
    results: list[SeatResult]  # in seat order


@dataclass(frozen=True, slots=True)
class Consequence:
    name: str
    apply: Callable[[FinishNotice], object]
    modes: frozenset[str]


_registry: dict[str, Consequence] = {}


def consequence_register(
    name: str, apply: Callable[[FinishNotice], object], *, modes: Collection[str]
) -> None:
    """Register what a finished table of ``modes`` owes under ``name`` (once per
    name; registering the same name again replaces it, as a reloaded app does).

    ``apply`` runs inside a transaction that also marks the step done: it must not
    swallow its own errors (a failure rolls everything back and the sweep retries).
    """
    _registry[name] = Consequence(name=name, apply=apply, modes=frozenset(modes))


def consequence(name: str) -> Consequence:
    """The consequence registered under ``name`` (KeyError if none)."""
    return _registry[name]


def consequences_for(mode: str) -> list[str]:
    """The names of the consequences a finished table of ``mode`` owes."""
    return [c.name for c in _registry.values() if mode in c.modes]


def table_finish(*, table: Table, seats: Sequence[Seat], state: engine.State) -> None:
    """Mark ``table`` finished (the caller saves ``status`` and ``finished_at``),
    write the seats' results and what the finish owes, and apply it after commit.

    Call it inside the transaction that reached ``match_over``, holding the table's
    row lock, so the finish is written once.
    """
    table.status = Table.Status.FINISHED
    table.finished_at = timezone.now()
    unpaid = (
        unpaid_reasons(table=table, seats=seats) if table.mode in PAYING_MODES else {}
    )
    results = [
        replace(result, unpaid=unpaid.get(result.position, ""))
        for result in seat_results(state=state, seats=seats)
    ]
    for seat, result in zip(seats, results, strict=True):
        seat.place = result.place
        seat.score = result.score
        seat.unpaid = result.unpaid
    Seat.objects.bulk_update(seats, ["place", "score", "unpaid"])
    names = consequences_for(table.mode)
    if not names:
        return
    FinishStep.objects.bulk_create(
        [FinishStep(table_id=table.pk, name=name) for name in names]
    )
    notice = FinishNotice(
        table_id=table.pk,
        mode=table.mode,
        variant=table.variant,
        simulated=any(s.simulated for s in seats),
        results=results,
    )
    # After the commit of the transaction this runs in: the table store's.
    transaction.on_commit(
        lambda: finish_apply(notice=notice, names=names), using=table_alias()
    )


def finish_apply(*, notice: FinishNotice, names: Sequence[str]) -> None:
    """Apply each named consequence of a finished table; a failing one is logged
    (the sweep retries it), the others still run."""
    for name in names:
        finish_step_apply(table_id=notice.table_id, name=name, notice=notice)


def finish_step_apply(
    *, table_id: int, name: str, notice: FinishNotice | None = None
) -> bool:
    """Apply one consequence of a finished table if it is still owed; True if this
    call applied it.

    Its row is locked (skipping one another process holds: that process is applying
    it), the consequence runs, and the row is marked done, all in one transaction
    of the table's store (``games.stores``): with the one store, the default
    database, a crash anywhere leaves the step undone and nothing of it written.
    """
    owed = _registry.get(name)
    if owed is None:
        logger.error("table %s owes %r, which nothing registered", table_id, name)
        return False
    try:
        with table_store(table_id) as alias, transaction.atomic(using=alias):
            step = (
                FinishStep.objects.select_for_update(skip_locked=True)
                .filter(table_id=table_id, name=name, done_at__isnull=True)
                .first()
            )
            if step is None:
                return False
            owed.apply(notice or finish_notice(table_id))
            step.done_at = timezone.now()
            step.save(update_fields=["done_at"])
    except Exception as exc:
        logger.exception("table %s: finishing step %s failed", table_id, name)
        with table_store(table_id):
            FinishStep.objects.filter(table_id=table_id, name=name).update(
                attempts=F("attempts") + 1,
                error=f"{type(exc).__name__}: {exc}"[:500],
            )
        return False
    return True


def finish_notice(table_id: int) -> FinishNotice:
    """The notice of a finished table, read back from its row and seats."""
    table = Table.objects.get(pk=table_id)
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    return FinishNotice(
        table_id=table_id,
        mode=table.mode,
        variant=table.variant,
        simulated=any(s.simulated for s in seats),
        results=[
            SeatResult(
                position=s.position,
                user_id=s.user_id,
                bot_level=s.bot_level,
                simulated=s.simulated,
                team=s.team,
                place=s.place or len(seats),
                score=s.score or 0,
                forfeited=s.forfeited,
                unpaid=s.unpaid,
            )
            for s in seats
        ],
    )


def finish_steps_sweep(*, limit: int = 200) -> int:
    """Apply the undone steps older than :data:`SWEEP_AFTER`; return how many ran."""
    cutoff = timezone.now() - SWEEP_AFTER
    due = (
        FinishStep.objects.filter(done_at__isnull=True, created_at__lt=cutoff)
        .order_by("attempts", "created_at")
        .values_list("table_id", "name")[:limit]
    )
    return sum(
        finish_step_apply(table_id=table_id, name=name) for table_id, name in due
    )
