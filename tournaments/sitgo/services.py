"""Stake sit-and-gos: enter (entry into the pot), withdraw, start, cancel.

docs/tournaments.md, "Stake sit-and-gos". Every write locks the ``SitGo`` row
first (an entry takes the player's commitment lock before it), then the games
tables, then the pot's escrow and wallets (the economy's order): the row's
``state`` is what entering, withdrawing, starting, cancelling and settling decide
under its lock, so an event is either paid out or refunded, once. The rounds (the
tables, advancement, the payout) are in ``tournaments.sitgo.rounds``.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.bots import bot_refusal
from accounts.links import linked_sightings
from economy.errors import EconomyError, InsufficientFunds, PotClosed
from economy.selectors import wallet_balance
from economy.services import pot_entry_post, pot_entry_refund, pot_open, pot_refund_all
from games.errors import TableError
from games.services import SeatTaker, TablePlan, table_cancel, tables_seated_create
from matchmaking.commitments import player_lock
from tournaments.sitgo import conf
from tournaments.sitgo.commitments import entry_blocker
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable

logger = logging.getLogger(__name__)


def _kind_check(*, size: object, entry: object) -> tuple[int, int]:
    if type(size) is not int or size not in conf.SIZES:
        raise SitGoError("bad_size", _("A sit-and-go is for 4 or 8 players."))
    if type(entry) is not int or entry not in conf.entry_fees():
        fees = " / ".join(str(f) for f in conf.entry_fees())
        raise SitGoError(
            "bad_entry",
            _("Choose an entry of %(fees)s coins.") % {"fees": fees},
        )
    return size, entry


def _lock(sitgo_id: object) -> SitGo:
    if type(sitgo_id) is not int or sitgo_id <= 0:
        raise SitGoError("no_sitgo", _("There is no such sit-and-go."))
    row = SitGo.objects.select_for_update().filter(pk=sitgo_id).first()
    if row is None:
        raise SitGoError("no_sitgo", _("There is no such sit-and-go."))
    return row


def _open_create(*, size: int, entry: int) -> SitGo:
    """A new open sit-and-go of this kind and its empty pot (the caller's
    transaction; a concurrent creator of the same kind wins, IntegrityError)."""
    variant, options = conf.game()
    with transaction.atomic():
        row = SitGo.objects.create(
            size=size, entry=entry, variant=variant, options=options
        )
    pot_open(table_ref=row.pot_ref)
    return row


def _open_lock(*, size: int, entry: int) -> SitGo:
    """Lock the open sit-and-go of this kind, or create it. One past its fill
    deadline is cancelled and refunded first: it takes no more entries."""
    for _attempt in range(3):
        row = (
            SitGo.objects.select_for_update()
            .filter(size=size, entry=entry, state=SitGo.State.OPEN)
            .first()
        )
        if row is not None and _overdue(row):
            _cancel_locked(row, reason=SitGo.Reason.UNFILLED)
            row = None
        if row is not None:
            return row
        try:
            return _open_create(size=size, entry=entry)
        except IntegrityError:
            continue  # another player opened it meanwhile: lock theirs
    raise SitGoError("busy", _out_of_order())


def _overdue(row: SitGo) -> bool:
    return row.fill_deadline is not None and row.fill_deadline <= timezone.now()


def _out_of_order() -> str:
    return _("This sit-and-go cannot take that right now. Try again in a moment.")


# --- entering


@transaction.atomic
def sitgo_enter(
    *, user: User, sitgo_id: int | None = None, size: int = 0, entry: int = 0
) -> SitGo:
    """Enter a sit-and-go and pay its entry into the pot, both or neither.

    With ``sitgo_id``: that open sit-and-go. Without: the open one of ``size``
    players and ``entry`` coins, or a new one. The first entry sets the fill
    deadline; the last one starts the event (its first round's tables). Raises
    :class:`SitGoError` (nothing changed, no coin moved) for every refusal, among
    them a player searching an online pool, holding a stake seat or playing at an
    online table (``tournaments.sitgo.commitments``). The player's commitment lock
    is taken first, then the sit-and-go's row.
    """
    player_lock(user_id=user.pk)
    if why := bot_refusal(user_id=user.pk):  # bots never play for coins
        raise SitGoError("bot_account", why)
    if sitgo_id is None:
        size, entry = _kind_check(size=size, entry=entry)
        row = _open_lock(size=size, entry=entry)
    else:
        row = _lock(sitgo_id)
        _check_open(row)
    if SitGoEntry.objects.filter(sitgo=row, user=user).exists():
        raise SitGoError("already_entered", _("You are already in this sit-and-go."))
    if row.seats_taken >= row.size:
        raise SitGoError("full", _("This sit-and-go is full."))
    if SitGoEntry.objects.filter(active_user=user).exists():
        raise SitGoError("other_sitgo", _("You are already in another sit-and-go."))
    if reason := entry_blocker(user.pk):
        raise SitGoError("busy_elsewhere", reason)
    _linked_refuse(user_id=user.pk, row=row)
    try:
        with transaction.atomic():
            SitGoEntry.objects.create(sitgo=row, user=user, active_user=user)
    except IntegrityError:
        # The same player entering another sit-and-go at this very moment.
        raise SitGoError(
            "other_sitgo", _("You are already in another sit-and-go.")
        ) from None
    _pay(user=user, row=row)
    row.seats_taken += 1
    if row.fill_deadline is None:
        row.fill_deadline = timezone.now() + timedelta(seconds=conf.fill_seconds())
    if row.seats_taken == row.size:
        _start(row)
    row.save(update_fields=["seats_taken", "fill_deadline", "state", "started_at"])
    return row


def _linked_refuse(*, user_id: int, row: SitGo) -> None:
    """Refuse an entry into a sit-and-go that an account linked to the player
    (seen from one address or device, RULES.md §5) has entered. Asked under the
    sit-and-go's row lock, which every entry takes: of two linked accounts
    entering at once, the second sees the first."""
    entered = SitGoEntry.objects.filter(sitgo=row).values("user_id")
    if linked_sightings(user_id=user_id).filter(user_id__in=entered).exists():
        raise SitGoError(
            "linked_entered",
            _(
                "An account seen from your address or device is in this "
                "sit-and-go: accounts seen together never play one event together."
            ),
        )


def _check_open(row: SitGo) -> None:
    if row.state == SitGo.State.CANCELLED:
        raise SitGoError("cancelled", _("This sit-and-go was cancelled."))
    if row.state != SitGo.State.OPEN:
        raise SitGoError("started", _("This sit-and-go has started already."))
    if _overdue(row):
        raise SitGoError("closing", _("This sit-and-go ran out of time to fill."))


def _pay(*, user: User, row: SitGo) -> None:
    try:
        pot_entry_post(table_ref=row.pot_ref, user_id=user.pk, amount=row.entry)
    except InsufficientFunds:
        missing = row.entry - wallet_balance(user_id=user.pk)
        raise SitGoError(
            "not_enough_coins",
            ngettext(
                "You need %(missing)d more coin to enter this sit-and-go.",
                "You need %(missing)d more coins to enter this sit-and-go.",
                missing,
            )
            % {"missing": missing},
        ) from None
    except PotClosed:
        raise SitGoError("started", _("This sit-and-go has started already.")) from None
    except EconomyError:
        logger.exception("sit-and-go %s: entry of user %s refused", row.pk, user.pk)
        raise SitGoError("out_of_order", _out_of_order()) from None


def _start(row: SitGo) -> None:
    """Start a full sit-and-go (its row locked): round 1's tables, entrants only,
    seated in a random order."""
    row.state = SitGo.State.RUNNING
    row.started_at = timezone.now()
    users = [
        e.user for e in SitGoEntry.objects.filter(sitgo=row).select_related("user")
    ]
    secrets.SystemRandom().shuffle(users)
    groups = [
        users[i : i + conf.TABLE_SEATS] for i in range(0, len(users), conf.TABLE_SEATS)
    ]
    tables_open(row, round_number=1, groups=groups)


def tables_open(
    row: SitGo, *, round_number: int, groups: list[list[User]], first_number: int = 1
) -> list[SitGoTable]:
    """Create one started games table per group of entrants (seat ``i`` taken by
    ``group[i]``; never a computer player) and record them as the round's games,
    numbered from ``first_number``."""
    plans = [
        TablePlan(
            mode="online",
            variant=row.variant,
            options=row.options,
            seats=[SeatTaker(user=u) for u in group],
            clock_seconds=conf.clock_seconds(),
            hand_pause_seconds=conf.hand_pause_seconds(),
        )
        for group in groups
    ]
    tables = tables_seated_create(plans=plans)
    return SitGoTable.objects.bulk_create(
        [
            SitGoTable(sitgo=row, round=round_number, number=number, table=table)
            for number, table in enumerate(tables, start=first_number)
        ]
    )


# --- withdrawing


@transaction.atomic
def sitgo_withdraw(*, user: User, sitgo_id: int) -> SitGo:
    """Leave a sit-and-go before it starts; the entry comes back at once. Raises
    :class:`SitGoError` (nothing changed) for every refusal."""
    row = _lock(sitgo_id)
    mine = SitGoEntry.objects.filter(sitgo=row, user=user).first()
    if mine is None:
        raise SitGoError("not_entered", _("You are not in this sit-and-go."))
    if row.state == SitGo.State.CANCELLED:
        raise SitGoError(
            "cancelled", _("This sit-and-go was cancelled; every entry is refunded.")
        )
    if row.state != SitGo.State.OPEN:
        raise SitGoError(
            "started",
            _("This sit-and-go has started: your entry stays in the pot."),
        )
    try:
        pot_entry_refund(table_ref=row.pot_ref, user_id=user.pk)
    except EconomyError:
        logger.exception("sit-and-go %s: refund of user %s refused", row.pk, user.pk)
        raise SitGoError("out_of_order", _out_of_order()) from None
    mine.delete()
    row.seats_taken -= 1
    if row.seats_taken == 0:
        row.fill_deadline = None  # an empty sit-and-go waits for a first entry
    row.save(update_fields=["seats_taken", "fill_deadline"])
    return row


# --- cancelling (fill deadline, operator, the staff after a fault)


@transaction.atomic
def sitgo_cancel(*, sitgo_id: int, reason: str) -> bool:
    """Cancel an open sit-and-go and refund every entry once; True if this call
    cancelled it, False if it was cancelled already. A started one is not
    cancelled (:class:`SitGoError`): its games are played and its pot paid."""
    row = _lock(sitgo_id)
    if row.state == SitGo.State.CANCELLED:
        return False
    if row.state != SitGo.State.OPEN:
        raise SitGoError("started", _("This sit-and-go has started already."))
    _cancel_locked(row, reason=reason)
    return True


def _cancel_locked(row: SitGo, *, reason: str) -> None:
    row.state = SitGo.State.CANCELLED
    row.reason = reason
    row.closed_at = timezone.now()
    row.save(update_fields=["state", "reason", "closed_at"])
    SitGoEntry.objects.filter(sitgo=row).update(active_user=None)
    pot_refund_all(table_ref=row.pot_ref)


@transaction.atomic
def sitgo_staff_cancel(*, sitgo_id: int) -> bool:
    """Cancel a sit-and-go a fault made unplayable, open or running (the admin's
    action): every entry goes back to its player through the ledger (the pot is
    refunded whole, nothing kept) and its live tables are cancelled without any
    payout. True if this call cancelled it, False if it was cancelled already; a
    finished one is refused (:class:`SitGoError`): its pot is paid out.

    The row's lock decides against the event's own finish: whichever takes it
    first moves the pot, and the other finds the state changed. A game whose last
    move committed meanwhile keeps its table's result, which counts for nothing
    in the cancelled event. Lock order: the row, the games tables, the pot.
    """
    row = _lock(sitgo_id)
    if row.state == SitGo.State.CANCELLED:
        return False
    if row.state == SitGo.State.FINISHED:
        raise SitGoError(
            "finished", _("This sit-and-go has finished: its pot is paid out.")
        )
    # The state first: the cancelled tables' signal then replays nothing.
    row.state = SitGo.State.CANCELLED
    row.reason = SitGo.Reason.STAFF
    row.closed_at = timezone.now()
    row.save(update_fields=["state", "reason", "closed_at"])
    games = list(
        SitGoTable.objects.filter(sitgo=row, state=SitGoTable.State.PLAYING).order_by(
            "table_id"
        )
    )
    for game in games:
        # A table that finished meanwhile keeps its result; it counts for nothing.
        with contextlib.suppress(TableError):
            table_cancel(table_id=game.table_id, reason="staff")
    SitGoTable.objects.filter(pk__in=[g.pk for g in games]).update(
        state=SitGoTable.State.CANCELLED
    )
    SitGoEntry.objects.filter(sitgo=row).update(active_user=None)
    pot_refund_all(table_ref=row.pot_ref)
    logger.warning("sit-and-go %s: cancelled by the staff, entries refunded", row.pk)
    return True


def sitgo_expire(*, sitgo_id: int) -> bool:
    """Cancel and refund the sit-and-go if it is still open past its fill
    deadline; True if this call did."""
    with transaction.atomic():
        row = SitGo.objects.select_for_update().filter(pk=sitgo_id).first()
        if row is None or row.state != SitGo.State.OPEN or not _overdue(row):
            return False
        _cancel_locked(row, reason=SitGo.Reason.UNFILLED)
        return True


def sitgos_expire_due(*, limit: int = 200) -> int:
    """Cancel every open sit-and-go past its fill deadline (the sweep, and every
    sit-and-go page view: it works without a beat); return how many."""
    due = SitGo.objects.filter(
        state=SitGo.State.OPEN, fill_deadline__lte=timezone.now()
    ).values_list("pk", flat=True)[:limit]
    return sum(sitgo_expire(sitgo_id=pk) for pk in due)
