"""Stake tables: sit down (seat + entry fee in one transaction), stand up, cancel.

RULES.md §5-§6. A stake table is a games table of mode ``stake`` plus a
``StakeTable`` row. Every write here locks that row first, then the games table,
then the pot's escrow and wallets (the economy's order): the row's ``state`` is what
sitting, standing, settling and cancelling decide under its lock, so exactly one of
settle and cancel wins a table. Settlement is in ``matchmaking.stakes.settle``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache, partial
from typing import Any, NoReturn

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.bots import bot_refusal
from accounts.links import linked_sightings
from dbtools.prepared import prepared_cursor
from dbtools.rows import row_insert
from economy import conf as economy_conf
from economy.errors import EconomyError, InsufficientFunds, PotClosed
from economy.selectors import wallet_balance
from economy.services import (
    pot_entry_post,
    pot_entry_refund,
    pot_open,
    pot_refund_all,
)
from games.errors import TableError
from games.names import variant_title
from games.services import (
    DEFAULT_CLOCK_SECONDS,
    seat_add,
    seat_free,
    table_cancel,
    table_create,
    table_deal,
)
from matchmaking.commitments import player_lock
from matchmaking.errors import StakeError
from matchmaking.stakes.busy import user_busy_elsewhere
from matchmaking.stakes.models import StakeSitter, StakeTable
from matchmaking.stakes.notify import stakes_changed
from matchmaking.stakes.unlock import stake_locked_reason

logger = logging.getLogger(__name__)

# The Celery task (``matchmaking.stakes.tasks``) that cancels a table still not full
# at its fill deadline, queued by name: the task shells import these services.
STAKE_EXPIRE_TASK = "matchmaking.stake_expire"

DEFAULT_FILL_SECONDS = 90
DEFAULT_HAND_PAUSE = 5


@dataclass(frozen=True)
class StakeShape:
    """One kind of stake table: its key in ``STAKE_SHAPES`` and engine options."""

    code: str
    variant: str
    seats: int
    partnership: bool
    rules: tuple[tuple[str, Any], ...] = ()  # further engine options (target, ...)

    @property
    def options(self) -> dict[str, Any]:
        return {
            **dict(self.rules),
            "seats": self.seats,
            "partnership": self.partnership,
        }

    @property
    def label(self) -> str:
        title = variant_title(self.variant)
        if self.partnership:
            return ngettext(
                "%(variant)s, %(seats)d player in partnership",
                "%(variant)s, %(seats)d players in partnership",
                self.seats,
            ) % {"variant": title, "seats": self.seats}
        return ngettext(
            "%(variant)s, %(seats)d player",
            "%(variant)s, %(seats)d players",
            self.seats,
        ) % {"variant": title, "seats": self.seats}


def stake_shapes() -> dict[str, StakeShape]:
    """The shapes of ``settings.STAKE_SHAPES``, by code, in settings order: each a
    ``variant``, ``seats``, optional ``partnership`` and any further engine option."""
    raw: dict[str, dict[str, Any]] = getattr(settings, "STAKE_SHAPES", {})
    return {
        code: StakeShape(
            code=code,
            variant=str(spec["variant"]),
            seats=int(spec["seats"]),
            partnership=bool(spec.get("partnership", False)),
            rules=tuple(
                (k, v)
                for k, v in spec.items()
                if k not in ("variant", "seats", "partnership")
            ),
        )
        for code, spec in raw.items()
    }


def stake_amounts() -> list[int]:
    """The stakes a player can choose: the economy's entry fees, smallest first."""
    return sorted(economy_conf.entry_fees())


def hand_pause_seconds() -> int:
    return int(getattr(settings, "STAKE_HAND_PAUSE_SECONDS", DEFAULT_HAND_PAUSE))


def fill_seconds() -> int:
    return int(getattr(settings, "STAKE_FILL_SECONDS", DEFAULT_FILL_SECONDS))


def _shape_check(*, stake: object, shape: object) -> StakeShape:
    if type(stake) is not int or stake not in economy_conf.entry_fees():
        amounts = stake_amounts()
        raise StakeError(
            "bad_stake",
            ngettext(
                "Choose a stake of %(stakes)s coin.",
                "Choose a stake of %(stakes)s coins.",
                max(amounts, default=0),
            )
            % {"stakes": " / ".join(str(s) for s in amounts)},
        )
    found = stake_shapes().get(shape) if isinstance(shape, str) else None
    if found is None:
        raise StakeError("bad_shape", _("There are no stake tables of that kind."))
    return found


# --- sitting down


@transaction.atomic
def stake_sit(
    *,
    user: User,
    stake: int,
    shape: str,
    table_id: int | None = None,
) -> StakeTable:
    """Take a seat and pay the entry into the pot, both or neither.

    With ``table_id``: that open table (it must be of this stake and shape). Without:
    Quick seat, the open table of this stake and shape closest to full, else a new
    one. The table starts the moment its last seat is taken. Raises
    :class:`StakeError` (nothing changed, no coin moved) for every refusal.

    The player's commitment lock comes first (``matchmaking.commitments``: an
    online search or a sit-and-go entry by the same player waits, then sees this
    seat). The stake row is locked, its seat counted and the sitter row claimed by
    one statement (``_row_take``), then the games seat and the entry follow under
    that lock: the lock order of every stake write (row, games table, escrow,
    wallets).
    """
    kind = _shape_check(stake=stake, shape=shape)
    player_lock(user_id=user.pk)
    if why := bot_refusal(user_id=user.pk):  # bots never play for coins
        raise StakeError("bot_account", why)
    if reason := user_busy_elsewhere(user_id=user.pk):
        raise StakeError("busy_elsewhere", reason)
    if reason := stake_locked_reason(user_id=user.pk, stake=stake):
        raise StakeError("stake_locked", reason)
    if table_id is None:
        row, claimed = _quick_take(stake=stake, shape=kind, user_id=user.pk)
    else:
        row, claimed = _chosen_take(table_id, stake=stake, shape=kind, user_id=user.pk)
    if not claimed:
        _sitter_refuse(user=user, row=row)
    _linked_refuse(user_id=user.pk, row=row)
    _seat_and_pay(user=user, row=row)
    if row.state == StakeTable.State.PLAYING:
        try:
            table_deal(table_id=row.pk)
        except TableError:
            # The games seats disagree with the stake books (a seat freed behind
            # their back): refused, the fill deadline cancels and refunds the table.
            logger.error("stake table %s: full by its books, not dealt", row.pk)
            raise StakeError(
                "table_closed", _("This table is no longer taking players.")
            ) from None
    stakes_changed()
    return row


def _linked_refuse(*, user_id: int, row: StakeTable) -> None:
    """Refuse a seat at a table where an account linked to the player sits.

    Asked after the seat was taken, under the stake row's lock: a linked account
    sitting down at this moment waits for that lock, then sees this seat (and is
    refused) or is seen here. Quick seat already passed over such tables; this
    catches the chosen table and a race.
    """
    others = StakeSitter.objects.filter(stake_table_id=row.pk).values("user_id")
    if linked_sightings(user_id=user_id).filter(user_id__in=others).exists():
        raise StakeError(
            "linked_at_table",
            _(
                "An account seen from your address or device sits at this table: "
                "accounts seen together never sit at one stake table."
            ),
        )


def _seat_and_pay(*, user: User, row: StakeTable) -> None:
    """Seat the player at the games table, then move the entry into the pot."""
    try:
        seat_add(table_id=row.pk, user=user)
    except TableError as exc:
        raise StakeError(exc.code, exc.message) from None
    try:
        pot_entry_post(table_ref=str(row.pk), user_id=user.pk, amount=row.stake)
    except InsufficientFunds:
        missing = row.stake - wallet_balance(user_id=user.pk)
        raise StakeError(
            "not_enough_coins",
            ngettext(
                "You need %(missing)d more coin to sit at this table.",
                "You need %(missing)d more coins to sit at this table.",
                missing,
            )
            % {"missing": missing},
        ) from None
    except PotClosed:
        raise StakeError(
            "table_closed", _("This table is no longer taking players.")
        ) from None
    except EconomyError:
        logger.exception("stake table %s: entry of user %s refused", row.pk, user.pk)
        raise StakeError("out_of_order", _out_of_order()) from None


def _row_lock(table_id: object) -> StakeTable:
    if type(table_id) is not int or table_id <= 0:
        raise StakeError("no_table", _("There is no such stake table."))
    row = StakeTable.objects.select_for_update().filter(pk=table_id).first()
    if row is None:
        raise StakeError("no_table", _("There is no such stake table."))
    return row


def _check_open(row: StakeTable, *, stake: int, shape: StakeShape) -> None:
    if row.state == StakeTable.State.CANCELLED:
        raise StakeError("table_cancelled", _("This table was cancelled."))
    if row.state != StakeTable.State.OPEN:
        raise StakeError("table_started", _("This table has started already."))
    if row.shape != shape.code:
        raise StakeError("wrong_shape", _("This table plays another game."))
    if row.stake != stake:
        raise StakeError("wrong_stake", _("This table has another stake."))
    if row.seats_taken >= row.seats:
        raise StakeError("table_full", _("This table is full."))
    if row.fill_deadline <= timezone.now():
        raise StakeError("table_closing", _("This table ran out of time to fill."))


# The columns ``_row_take`` returns, in the model's field order (``from_db`` needs
# it); the row's other fields load on first use.
_TAKEN = ("table_id", "stake", "shape", "seats", "seats_taken", "state")

Taken = tuple[StakeTable, bool]  # the row, and whether the sitter row was claimed


def _row_take(*, where: str, params: list[Any], user_id: int) -> Taken | None:
    """Lock the open stake row matched by ``where`` (SQL on this table), count one
    more seat taken (``playing`` if that fills it) and claim the player's sitter
    row (:func:`_sitter_claim`); None if no row matched.

    Every condition a seat needs is in the UPDATE, which PostgreSQL re-checks on
    the row's newest version after waiting for its lock, so a seat is never counted
    twice. On PostgreSQL the claim rides in the same statement (a data-modifying
    CTE): one round trip under the contended lock instead of two.
    """
    quote = connection.ops.quote_name
    table = quote(StakeTable._meta.db_table)
    columns = ", ".join(quote(c) for c in _TAKEN)
    update = (
        f"UPDATE {table} SET seats_taken = seats_taken + 1, "  # noqa: S608
        "state = CASE WHEN seats_taken + 1 >= seats THEN %s ELSE state END "
        f"WHERE state = %s AND seats_taken < seats AND ({where}) RETURNING {columns}"
    )
    states = [StakeTable.State.PLAYING.value, StakeTable.State.OPEN.value]
    together = connection.vendor == "postgresql"
    with prepared_cursor() as cursor:
        if together:
            cursor.execute(
                f"WITH taken AS ({update}), claim AS ({_claim_sql()} "  # noqa: S608
                "SELECT %s, table_id, %s FROM taken ON CONFLICT DO NOTHING "
                f"RETURNING 1) SELECT {columns}, EXISTS (SELECT 1 FROM claim) "
                "FROM taken",
                [*states, *params, user_id, _now()],
            )
        else:
            cursor.execute(update, [*states, *params])
        found = cursor.fetchone()
    if found is None:
        return None
    row = StakeTable.from_db(connection.alias, list(_TAKEN), list(found[: len(_TAKEN)]))
    if together:
        return row, bool(found[-1])
    return row, _sitter_claim(user_id=user_id, table_id=row.pk)


def _now() -> Any:
    return connection.ops.adapt_datetimefield_value(timezone.now())


def _chosen_take(
    table_id: object, *, stake: int, shape: StakeShape, user_id: int
) -> Taken:
    """Take a seat of the table the player chose, or say why it has none."""
    if type(table_id) is not int or table_id <= 0:
        raise StakeError("no_table", _("There is no such stake table."))
    take = partial(
        _row_take,
        where="table_id = %s AND stake = %s AND shape = %s AND fill_deadline > %s",
        params=[table_id, stake, shape.code, _now()],
        user_id=user_id,
    )
    if (taken := take()) is not None:
        return taken
    # Off the fast path: find out why, under the row's lock.
    _check_open(_row_lock(table_id), stake=stake, shape=shape)
    if (taken := take()) is None:  # the checks just passed under the lock
        raise StakeError("table_closed", _("This table is no longer taking players."))
    return taken


def _quick_take(*, stake: int, shape: StakeShape, user_id: int) -> Taken:
    """Take a seat of the open table closest to full (skipping tables whose row
    another sit-down holds right now, so clients spread over open tables instead
    of queueing on one, and tables where an account linked to the player sits),
    or of a new table."""
    skip = (
        " FOR UPDATE SKIP LOCKED" if connection.features.has_select_for_update else ""
    )
    deadline = timezone.now() + timedelta(seconds=1)
    quote = connection.ops.quote_name
    table = quote(StakeTable._meta.db_table)
    sitters = quote(StakeSitter._meta.db_table)
    linked, linked_params = (
        linked_sightings(user_id=user_id).values("user_id").query.sql_with_params()
    )
    apart = (
        f"AND table_id NOT IN (SELECT stake_table_id FROM {sitters} "  # noqa: S608
        f"WHERE user_id IN ({linked})) "
    )
    pick = (
        f"table_id = (SELECT table_id FROM {table} "  # noqa: S608
        "WHERE state = %s AND stake = %s AND shape = %s AND seats_taken < seats "
        f"AND fill_deadline > %s {apart}"
        f"ORDER BY seats_taken DESC, table_id LIMIT 1{skip})"
    )
    params = [
        StakeTable.State.OPEN.value,
        stake,
        shape.code,
        connection.ops.adapt_datetimefield_value(deadline),
        *linked_params,
    ]
    if (taken := _row_take(where=pick, params=params, user_id=user_id)) is not None:
        return taken
    opened = stake_table_open(stake=stake, shape=shape)
    taken = _row_take(where="table_id = %s", params=[opened.pk], user_id=user_id)
    assert taken is not None, "a table opened in this transaction has free seats"
    return taken


@cache
def _claim_sql() -> str:
    """``INSERT INTO`` the sitter table's columns: user, stake table, time."""
    meta = StakeSitter._meta
    quote = connection.ops.quote_name
    columns = (quote("user_id"), quote("stake_table_id"), quote("sat_at"))
    return f"INSERT INTO {quote(meta.db_table)} ({', '.join(columns)})"


def _sitter_claim(*, user_id: int, table_id: int) -> bool:
    """Record the player as seated at a stake table; False if they already are.

    ``INSERT … ON CONFLICT DO NOTHING`` on the unique user: a concurrent claim by
    the same player waits for the other transaction and then inserts nothing, so
    nobody holds two stake seats, without a savepoint or a look-up first.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            f"{_claim_sql()} VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            [user_id, table_id, _now()],
        )
        return bool(cursor.rowcount)


def _sitter_refuse(*, user: User, row: StakeTable) -> NoReturn:
    at = (
        StakeSitter.objects.filter(user=user)
        .values_list("stake_table_id", flat=True)
        .first()
    )
    if at == row.pk:
        raise StakeError("already_seated", _("You already have a seat at this table."))
    raise StakeError(
        "other_table", _("You already have a seat at another stake table.")
    )


def stake_table_open(
    *,
    stake: int,
    shape: StakeShape,
    clock_seconds: int | None = None,
    bank_seconds: int | None = None,
) -> StakeTable:
    """A new empty stake table, its pot and its fill deadline (the expiry task is
    queued after commit; the sweep enforces the deadline if the task is lost).
    ``clock_seconds`` and ``bank_seconds`` set its turn clock (an open table of the
    online lobby runs its chosen speed); None for the games' default clock.

    Precondition: inside ``transaction.atomic`` (the caller's, or this one's).
    The new rows are the caller's until commit: nobody else can see or lock them.
    """
    with transaction.atomic(savepoint=False):
        table = table_create(
            mode="stake",
            variant=shape.variant,
            options=shape.options,
            hand_pause_seconds=hand_pause_seconds(),
            clock_seconds=clock_seconds or DEFAULT_CLOCK_SECONDS,
            bank_seconds=bank_seconds,
        )
        deadline = timezone.now() + timedelta(seconds=fill_seconds())
        row = row_insert(
            StakeTable(
                table=table,
                stake=stake,
                shape=shape.code,
                seats=shape.seats,
                fill_deadline=deadline,
            )
        )
        pot_open(table_ref=str(row.pk))
        transaction.on_commit(lambda: expiry_queue(table.pk, deadline))
    return row


def expiry_queue(table_id: int, deadline: datetime) -> None:
    """Queue the fill-deadline task; if the broker is down the sweep does its job."""
    countdown = max(0.0, (deadline - timezone.now()).total_seconds())
    try:
        current_app.send_task(
            STAKE_EXPIRE_TASK,
            args=(table_id,),
            countdown=countdown + 0.2,
            ignore_result=True,
        )
    except Exception:
        logger.exception("stake table %s: could not queue its fill deadline", table_id)


# --- standing up


@transaction.atomic
def stake_stand(*, user: User, table_id: int) -> StakeTable:
    """Leave a stake table before it starts; the entry comes back at once.

    The one way a waiting stake seat is given up (the lobby's Stand up, and the
    table socket's ``leave`` through :func:`stake_leave`): the games seat, the
    sitter row, the seat count and the refund change together under the stake
    row's lock. Sitting down again pays a new entry (RULES.md §5). Raises
    :class:`StakeError` (nothing changed) for every refusal.
    """
    row = _row_lock(table_id)
    sitter = StakeSitter.objects.filter(user=user, stake_table=row).first()
    if sitter is None:
        raise StakeError("not_seated", _("You have no seat at this table."))
    if row.state != StakeTable.State.OPEN:
        raise StakeError(
            "table_started",
            _("The table has started: leaving now forfeits your seat and entry."),
        )
    try:
        seat_free(table_id=row.pk, user_id=user.pk)
    except TableError as exc:
        if exc.code != "not_seated":
            # The games table was cancelled; its receiver refunds every entry.
            raise StakeError(
                "table_cancelled",
                _("This table was cancelled; every entry is refunded."),
            ) from None
        # A seat freed behind the stake books' back: standing up repairs them.
        logger.warning("stake table %s: user %s had no games seat", row.pk, user.pk)
    try:
        pot_entry_refund(table_ref=str(row.pk), user_id=user.pk)
    except EconomyError:
        logger.exception("stake table %s: refund of user %s refused", row.pk, user.pk)
        raise StakeError("out_of_order", _out_of_order()) from None
    sitter.delete()
    row.seats_taken -= 1
    row.save(update_fields=["seats_taken"])
    stakes_changed()
    return row


def stake_leave(*, table_id: int, user: AbstractBaseUser) -> None:
    """The table socket's ``leave`` at a waiting stake table: Stand up.

    Registered as the stake mode's leave handler (``games.leaving``); a refusal
    is a ``TableError`` with the same words, ``not_waiting`` once the table has
    started (the socket then leaves it as a started table: a forfeit).
    """
    if not isinstance(user, User):  # games.leaving types any auth user; ours are Users
        raise TypeError(f"not a player: {user!r}")
    try:
        stake_stand(user=user, table_id=table_id)
    except StakeError as exc:
        code = "not_waiting" if exc.code == "table_started" else exc.code
        raise TableError(code, exc.message) from None


def _out_of_order() -> str:
    return _("This table cannot take that right now. Try again in a moment.")


# --- cancelling (fill deadline, operator, fault)


@transaction.atomic
def stake_cancel(*, table_id: int, reason: str, text: str = "") -> bool:
    """Cancel a stake table that has not been settled and refund every entry once.

    True if this call cancelled it; False if it was cancelled already. Raises
    :class:`StakeError` if it was settled, or if its match finished (it settles).
    ``reason`` is one of ``StakeTable.Reason``; ``text`` the operator's words.
    """
    row = _row_lock(table_id)
    if row.state == StakeTable.State.CANCELLED:
        return False
    if row.state == StakeTable.State.SETTLED:
        raise StakeError("table_settled", _("This table has been settled already."))
    try:
        table_cancel(table_id=row.pk)
    except TableError:
        # A finished match settles, unless its result cannot be trusted (a fault).
        if reason != StakeTable.Reason.FAULT:
            raise StakeError(
                "table_finished", _("This table has finished; it settles instead.")
            ) from None
    stake_close(row, state=StakeTable.State.CANCELLED, reason=reason, text=text)
    pot_refund_all(table_ref=str(row.pk))
    return True


def stake_close(
    row: StakeTable, *, state: str, reason: str = "", text: str = ""
) -> None:
    """Mark a locked row settled or cancelled and free its players' sitter rows."""
    row.state = state
    row.reason = reason
    row.reason_text = text[:500]
    row.closed_at = timezone.now()
    row.save(update_fields=["state", "reason", "reason_text", "closed_at"])
    StakeSitter.objects.filter(stake_table=row).delete()
    stakes_changed()


def stake_expire(*, table_id: int) -> bool:
    """Cancel the table if it is still open past its fill deadline; True if so."""
    with transaction.atomic():
        row = StakeTable.objects.select_for_update().filter(pk=table_id).first()
        if (
            row is None
            or row.state != StakeTable.State.OPEN
            or row.fill_deadline > timezone.now()
        ):
            return False
        return stake_cancel(table_id=table_id, reason=StakeTable.Reason.UNFILLED)
