"""A player's action on a table: checked against the seat, the ``seq`` and the rules,
then applied as the next ``seq``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import engine
from games.errors import TableError
from games.models import Seat, Table, TableEvent
from games.services.transitions import state_of, table_lock_with_seats, transition
from games.stores import table_store
from games.timers import bank_spend


def _act_check(
    *,
    table: Table,
    seats: list[Seat],
    user: User,
    action: Any,
    expected_seq: int,
    claimed_seat: int | None,
) -> tuple[Seat, engine.Action, engine.State]:
    """The acting seat, its action and the state it leads to, or ``TableError``
    saying why not. Reads only: the caller holds the row lock and writes."""
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise TableError(
            "not_seated", gettext("Spectators cannot act; take a seat to play.")
        )
    if claimed_seat is not None and claimed_seat != seat.position:
        raise TableError(
            "not_your_seat", gettext("You can only act for your own seat.")
        )
    if table.status != Table.Status.PLAYING:
        raise TableError("not_playing", gettext("This table is not in play."))
    if expected_seq != table.seq and not _seats_changed_only(table, expected_seq):
        raise TableError(
            "stale_seq",
            gettext("The table moved on before your action arrived; try again."),
        )
    state = state_of(table)
    try:
        parsed = engine.parse_action(action)
    except engine.IllegalAction as exc:
        raise TableError("bad_action", exc.message.render(gettext)) from None
    if not engine.legal_actions(state, seat.position):
        raise TableError("not_your_turn", gettext("It is not your turn."))
    try:
        return seat, parsed, engine.apply(state, seat.position, parsed)
    except engine.IllegalAction as exc:
        raise TableError("illegal", exc.message.render(gettext)) from None


def _seats_changed_only(table: Table, seq: int) -> bool:
    """Whether nothing but seats (presence, away, forfeit) changed after ``seq``.

    Such changes are new numbers too, but they leave the game where the player saw
    it, so an action sent against ``seq`` still means what the player meant: a
    move is not refused because an opponent's connection dropped meanwhile.
    """
    return 0 < seq < table.seq and not (
        TableEvent.objects.filter(
            table=table, seq__gt=seq, action__isnull=False
        ).exists()
    )


def table_act(
    *,
    table_id: int,
    user: User,
    action: Any,
    expected_seq: int,
    claimed_seat: int | None = None,
) -> int:
    """Apply one player's action and return the table's new ``seq``.

    Every connection of the table, the acting one included, receives the new state
    through the outbox after commit. Raises ``TableError`` (nothing changed) when
    the player is not seated, acts for another seat, sends a stale ``seq``, acts on
    a table that is not playing, acts out of turn or makes an illegal move. One
    transaction on the table's own database (``games.stores``).
    """
    with table_store(table_id) as alias, transaction.atomic(using=alias):
        return _act(
            table_id=table_id,
            user=user,
            action=action,
            expected_seq=expected_seq,
            claimed_seat=claimed_seat,
        )


def _act(
    *,
    table_id: int,
    user: User,
    action: Any,
    expected_seq: int,
    claimed_seat: int | None,
) -> int:
    table, seats = table_lock_with_seats(table_id)
    seat, parsed, new_state = _act_check(
        table=table,
        seats=seats,
        user=user,
        action=action,
        expected_seq=expected_seq,
        claimed_seat=claimed_seat,
    )
    changed = []
    if seat.away:
        seat.away = False
        changed.append("away")
    # The time this turn took past its clock comes out of the seat's bank.
    if bank_spend(table=table, seat=seat, now=timezone.now()):
        changed.append("bank_ms")
    if changed:
        seat.save(update_fields=changed)
    transition(
        table,
        seats,
        new_state,
        position=seat.position,
        actor="player",
        action=engine.action_to_dict(parsed),
        fields=[],
    )
    seq: int = table.seq
    return seq
