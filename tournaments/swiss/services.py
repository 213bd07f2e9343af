"""Swiss events: create, join (late up to round 2), withdraw, cancel.

docs/tournaments.md, "Swiss events". Every write takes the player's commitment lock
first (when a player acts), then the event's row: its ``state`` and ``round``
decide joining, withdrawing, a round's start and the finish under that lock, and
the pot's escrow and wallets come after (the economy's order). An event with an
entry fee keeps its entries in a pot (``swiss-<id>``) that the finish pays out
whole by the published table, or refunds whole when the event is cancelled. The
rounds (pairing, tables, results, the payout) are in ``tournaments.swiss.rounds``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.bots import bot_refusal
from accounts.links import linked_sightings
from clubs.models import Club, Member
from core.names import name_impersonates, name_offends
from economy import conf as economy_conf
from economy.errors import EconomyError, InsufficientFunds, PotClosed
from economy.selectors import wallet_balance
from economy.services import pot_entry_post, pot_entry_refund, pot_open, pot_refund_all
from matchmaking.commitments import player_lock
from matchmaking.pools.config import pool_get
from matchmaking.pools.display import rating_points
from matchmaking.pools.models import Rating
from tournaments.swiss import conf
from tournaments.swiss.errors import SwissError
from tournaments.swiss.models import SwissEntry, SwissEvent

logger = logging.getLogger(__name__)

State = SwissEvent.State
# Late joining: until round 2 starts (a late joiner scores nothing for round 1).
LAST_JOIN_ROUND = 2


def pot_ref(event: SwissEvent) -> str:
    """The pot's ``table_ref`` in the ledger."""
    return f"swiss-{event.pk}"


def event_lock(event_id: object) -> SwissEvent:
    if type(event_id) is not int or event_id <= 0:
        raise SwissError("no_event", _("There is no such Swiss event."))
    row = SwissEvent.objects.select_for_update().filter(pk=event_id).first()
    if row is None:
        raise SwissError("no_event", _("There is no such Swiss event."))
    return row


def _int_in(value: Any, bounds: tuple[int, int]) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    low, high = bounds
    return number if low <= number <= high else None


def _name_clean(raw: Any) -> str:
    name = " ".join(raw.split()) if isinstance(raw, str) else ""
    low, high = conf.NAME
    if not low <= len(name) <= high:
        raise SwissError(
            "name_length",
            _("An event's name has %(min)s to %(max)s characters.")
            % {"min": low, "max": high},
        )
    if name_impersonates(name) or name_offends(name):
        raise SwissError("name_word", _("Choose another name for the event."))
    return name


@transaction.atomic
def swiss_create(
    *,
    user: User,
    club_slug: Any,
    name: Any,
    pool: Any,
    rounds: Any,
    round_minutes: Any,
    starts_at: Any,
    entry: Any = 0,
    members_only: bool = False,
) -> SwissEvent:
    """A new Swiss event run by a club, made by one of its leaders.

    Refused (nothing made): a player who leads no such club, a name out of bounds
    or refused by the public-name checks, a pool that is not a two-seat online pool,
    rounds or a round length out of bounds, a start too soon or too far, an entry
    fee the economy does not offer.
    """
    club = Club.objects.filter(slug=str(club_slug or "")).first()
    leads = (
        club is not None
        and Member.objects.filter(
            club=club, user=user, role=Member.Role.LEADER
        ).exists()
    )
    if club is None or not leads:
        raise SwissError(
            "not_leader", _("Only a club's leaders may run an event for it.")
        )
    name = _name_clean(name)
    found = pool_get(pool)
    if found is None or found.seats != 2:
        raise SwissError("bad_pool", _("Choose one of the two-player games."))
    count = _int_in(rounds, conf.ROUNDS)
    if count is None:
        raise SwissError(
            "bad_rounds",
            _("An event has %(min)s to %(max)s rounds.")
            % {"min": conf.ROUNDS[0], "max": conf.ROUNDS[1]},
        )
    minutes = _int_in(round_minutes, conf.ROUND_MINUTES)
    if minutes is None:
        raise SwissError(
            "bad_minutes",
            _("A round lasts %(min)s to %(max)s minutes.")
            % {"min": conf.ROUND_MINUTES[0], "max": conf.ROUND_MINUTES[1]},
        )
    now = timezone.now()
    soonest, latest = (now + timedelta(minutes=m) for m in conf.LEAD_MINUTES)
    if not isinstance(starts_at, datetime) or not soonest <= starts_at <= latest:
        raise SwissError(
            "bad_start",
            _("Start the event between 5 minutes and 30 days from now."),
        )
    fee = _int_in(entry, (0, 10**9))
    if fee is None or (fee and fee not in economy_conf.entry_fees()):
        fees = " / ".join(str(f) for f in sorted(economy_conf.entry_fees()))
        raise SwissError(
            "bad_entry",
            _("Choose no entry fee or one of %(fees)s coins.") % {"fees": fees},
        )
    event = SwissEvent.objects.create(
        name=name,
        pool=found.key,
        variant=found.variant,
        options=found.options,
        rounds=count,
        round_minutes=minutes,
        starts_at=starts_at,
        club=club,
        members_only=bool(members_only),
        entry=fee,
        created_by=user,
    )
    if fee:
        pot_open(table_ref=pot_ref(event))
    return event


def _rating(user_id: int, variant: str) -> float:
    mu = (
        Rating.objects.filter(user_id=user_id, variant=variant)
        .values_list("mu", flat=True)
        .first()
    )
    return float(rating_points(mu)) if mu is not None else 1500.0


@transaction.atomic
def swiss_join(*, user: User, event_id: int) -> SwissEntry:
    """Enter the event (and pay its entry into the pot, both or neither): before
    it starts, or late while round 1 is played (from round 2 on)."""
    player_lock(user_id=user.pk)
    if why := bot_refusal(user_id=user.pk):  # bots never play for prizes
        raise SwissError("bot_account", why)
    event = event_lock(event_id)
    if event.state in (State.FINISHED, State.CANCELLED) or (
        event.state == State.RUNNING and event.round >= LAST_JOIN_ROUND
    ):
        raise SwissError("closed", _("This event takes no more players."))
    mine = SwissEntry.objects.filter(event=event, user=user).first()
    if mine is not None:
        if mine.withdrawn_at is not None:
            raise SwissError("withdrew", _("You withdrew from this event."))
        raise SwissError("entered", _("You are already in this event."))
    if event.members_only and not (
        event.club_id is not None
        and Member.objects.filter(club_id=event.club_id, user=user).exists()
    ):
        raise SwissError(
            "members_only", _("This event is for the members of its club.")
        )
    if event.entry:
        _linked_refuse(user_id=user.pk, event=event)
    entry = SwissEntry.objects.create(
        event=event,
        user=user,
        joined_round=event.round + 1 if event.state == State.RUNNING else 1,
        rating=_rating(user.pk, event.variant),
    )
    if event.entry:
        _pay(user=user, event=event)
    return entry


def _linked_refuse(*, user_id: int, event: SwissEvent) -> None:
    """Accounts seen together (RULES.md §5) never play one paid event together:
    asked under the event's lock, which every entry takes."""
    entered = SwissEntry.objects.filter(event=event).values("user_id")
    if linked_sightings(user_id=user_id).filter(user_id__in=entered).exists():
        raise SwissError(
            "linked_entered",
            _(
                "An account seen from your address or device is in this event: "
                "accounts seen together never play one paid event together."
            ),
        )


def _pay(*, user: User, event: SwissEvent) -> None:
    try:
        pot_entry_post(table_ref=pot_ref(event), user_id=user.pk, amount=event.entry)
    except InsufficientFunds:
        missing = event.entry - wallet_balance(user_id=user.pk)
        raise SwissError(
            "not_enough_coins",
            ngettext(
                "You need %(missing)d more coin to enter this event.",
                "You need %(missing)d more coins to enter this event.",
                missing,
            )
            % {"missing": missing},
        ) from None
    except PotClosed:
        raise SwissError("closed", _("This event takes no more players.")) from None
    except EconomyError:
        logger.exception("swiss %s: entry of user %s refused", event.pk, user.pk)
        raise SwissError(
            "out_of_order",
            _("This event cannot take that right now. Try again in a moment."),
        ) from None


@transaction.atomic
def swiss_withdraw(*, user: User, event_id: int) -> None:
    """Leave the event. Before it starts the entry is gone and its fee refunded;
    once it runs the player is paired no more, their games so far still count and
    the fee stays in the pot. A game in play is not touched: the player finishes
    it, or leaves it as any ranked table."""
    player_lock(user_id=user.pk)
    event = event_lock(event_id)
    mine = SwissEntry.objects.filter(event=event, user=user).first()
    if mine is None or mine.withdrawn_at is not None:
        raise SwissError("not_entered", _("You are not in this event."))
    if event.state in (State.FINISHED, State.CANCELLED):
        raise SwissError("over", _("This event is over."))
    if event.state == State.SCHEDULED:
        if event.entry:
            try:
                pot_entry_refund(table_ref=pot_ref(event), user_id=user.pk)
            except EconomyError:
                logger.exception("swiss %s: refund of %s refused", event.pk, user.pk)
                raise SwissError(
                    "out_of_order",
                    _("This event cannot take that right now. Try again in a moment."),
                ) from None
        mine.delete()
        return
    mine.withdrawn_at = timezone.now()
    mine.save(update_fields=["withdrawn_at"])


def cancel_locked(event: SwissEvent) -> None:
    """Cancel the event (its row locked) and refund every entry once."""
    event.state = State.CANCELLED
    event.finished_at = timezone.now()
    event.save(update_fields=["state", "finished_at"])
    if event.entry:
        pot_refund_all(table_ref=pot_ref(event))


@transaction.atomic
def swiss_staff_cancel(*, event_id: int) -> bool:
    """Cancel an event a fault made unplayable (the admin's action), scheduled or
    running: every entry comes back whole; games in play finish as ordinary
    ranked tables. True if this call cancelled it; a finished event is refused
    (its pot is paid out)."""
    event = event_lock(event_id)
    if event.state == State.CANCELLED:
        return False
    if event.state == State.FINISHED:
        raise SwissError("over", _("This event is over."))
    cancel_locked(event)
    return True
