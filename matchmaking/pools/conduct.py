"""Blocks and leavers' cooldowns (RULES.md §6).

A forfeit, or letting the clock run out ``MATCHMAKING_CLOCK_RUNOUTS`` times at one
online or stake table, is an offence. The first offence ever is a warning only; after
that each offence starts a cooldown of ``MATCHMAKING_COOLDOWN_MINUTES`` ×
``MATCHMAKING_COOLDOWN_FACTOR`` per further offence within the last
``MATCHMAKING_COOLDOWN_WINDOW_HOURS`` (capped at ``MATCHMAKING_COOLDOWN_MAX_MINUTES``),
so a player who stops leaving falls back to the first step as the days pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import TableEvent
from games.signals import SeatResult
from matchmaking.errors import MatchError
from matchmaking.pools.models import Block, Cooldown, Offence
from matchmaking.pools.selectors import live_table_of

COUNTED_MODES = ("online", "stake")


@transaction.atomic
def block_add(*, blocker_id: int, blocked_username: str) -> Block:
    """``blocker`` is never again seated with the player named ``blocked_username``."""
    blocked = get_user_model().objects.filter(username=blocked_username).first()
    if blocked is None:
        raise MatchError("no_player", _("There is no player of that name."))
    if blocked.pk == blocker_id:
        raise MatchError("block_self", _("You cannot block yourself."))
    block, _created = Block.objects.get_or_create(
        blocker_id=blocker_id, blocked_id=blocked.pk
    )
    return block


def block_exists(*, blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker`` blocked ``blocked`` (this way round)."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def block_ensure(*, blocker_id: int, blocked_id: int) -> None:
    """``blocker`` blocks ``blocked``; a repeat changes nothing."""
    try:
        with transaction.atomic():
            Block.objects.create(blocker_id=blocker_id, blocked_id=blocked_id)
    except IntegrityError:
        pass  # blocked already


@transaction.atomic
def block_remove(*, blocker_id: int, blocked_id: int) -> None:
    Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).delete()


def cooldown_minutes(*, offences_in_window: int) -> int:
    """The cooldown for the ``offences_in_window``-th offence of the window."""
    steps = max(0, offences_in_window - 1)
    minutes = settings.MATCHMAKING_COOLDOWN_MINUTES * (
        settings.MATCHMAKING_COOLDOWN_FACTOR**steps
    )
    return int(min(minutes, settings.MATCHMAKING_COOLDOWN_MAX_MINUTES))


@transaction.atomic
def offence_record(
    *, user_id: int, table_id: int, kind: str, now: datetime | None = None
) -> Cooldown:
    """Record one offence (once per table) and set the player's cooldown."""
    now = now or timezone.now()
    cooldown, _created = Cooldown.objects.select_for_update().get_or_create(
        user_id=user_id
    )
    try:
        with transaction.atomic():
            Offence.objects.create(
                user_id=user_id, table_id=table_id, kind=kind, created_at=now
            )
    except IntegrityError:
        return cooldown  # this table was counted already
    if not cooldown.warned:
        cooldown.warned = True
        cooldown.warning_seen = False
        cooldown.save(update_fields=["warned", "warning_seen"])
        return cooldown
    window = now - timedelta(hours=settings.MATCHMAKING_COOLDOWN_WINDOW_HOURS)
    recent = Offence.objects.filter(user_id=user_id, created_at__gt=window).count()
    minutes = cooldown_minutes(offences_in_window=recent)
    cooldown.minutes = minutes
    cooldown.until = now + timedelta(minutes=minutes)
    cooldown.warning_seen = False
    cooldown.save(update_fields=["minutes", "until", "warning_seen"])
    return cooldown


def cooldown_check(*, user_id: int, now: datetime | None = None) -> None:
    """Raise ``MatchError("cooldown")`` while the player may not search."""
    now = now or timezone.now()
    until = (
        Cooldown.objects.filter(user_id=user_id, until__gt=now)
        .values_list("until", flat=True)
        .first()
    )
    if until is not None:
        minutes = max(1, int((until - now).total_seconds() // 60) + 1)
        raise MatchError(
            "cooldown",
            _cooldown_message(minutes),
        )


def free_to_sit_check(*, user_id: int) -> None:
    """Raise a ``MatchError`` unless the player may be seated from the lobby: no
    cooldown, and no seat held at an online or stake table."""
    cooldown_check(user_id=user_id)
    if live_table_of(user_id=user_id) is not None:
        raise MatchError(
            "seated",
            _("You have a seat at an online or stake table: finish or leave it first."),
        )


def _cooldown_message(minutes: int) -> str:
    return ngettext(
        "You left or timed out of online tables: you can search again in %(n)d minute.",
        "You left or timed out of online tables: you can search again in %(n)d "
        "minutes.",
        minutes,
    ) % {"n": minutes}


def offences_on_table_finished(
    *, table_id: int, mode: str, results: Sequence[SeatResult]
) -> None:
    """Count forfeits and repeated clock run-outs of an online or stake table."""
    if mode not in COUNTED_MODES:
        return
    people = {r.position: r.user_id for r in results if r.user_id is not None}
    runouts = dict(
        TableEvent.objects.filter(table_id=table_id, actor="clock")
        .values("seat")
        .annotate(n=Count("id"))
        .values_list("seat", "n")
    )
    for result in results:
        user_id = people.get(result.position)
        if user_id is None:
            continue
        if result.forfeited:
            offence_record(user_id=user_id, table_id=table_id, kind="forfeit")
        elif runouts.get(result.position, 0) >= settings.MATCHMAKING_CLOCK_RUNOUTS:
            offence_record(user_id=user_id, table_id=table_id, kind="clock")


def cooldown_warning_seen(*, user_id: int) -> None:
    """The player has read the leavers' warning (or their cooldown's notice)."""
    Cooldown.objects.filter(user_id=user_id).update(warning_seen=True)
