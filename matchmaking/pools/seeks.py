"""Open tables ("seeks"): a player offers a table in the lobby, others join it.

A seek names a pool, a speed and whether it is rated. Its owner holds its first
place; each join takes one more (``SeekPlayer``, at most one open place per
player, by a partial unique index). When the last seat is taken the table starts
at once through the wave's own seating (``matchmaking.pools.seating``): rated seeks
seat an online table, rated like a wave's, unrated ones a friend table, which
nothing rates. At a table of three or more seats the owner may start early once two
people are in: computer players, labelled like the wave's backfill, take the rest.

Every write takes the player's commitment lock first (``matchmaking.commitments``),
then the seek's row lock: two joins of the last seat, or a join racing the owner's
cancel, run one after the other and the second sees what the first did. Every
refusal is a :class:`MatchError` that changes nothing: raised before the first
write, or (a stake refused by the stake books) rolling back the call's
transaction with whatever it wrote. The lobby hears of
every change after commit (``lobby.seeks``: each socket re-reads its own list, so
blocked players never see each other's seeks).

A stake seek is a stake table opened by its owner and listed here: its seats and
entries are the stake books' own (``matchmaking.stakes.services``: each seat
taken with its entry by ``stake_sit``, a cancel refunding every entry once by
``stake_cancel``, a joiner leaving refunded by ``stake_stand``, the pot settled
as any stake table's). It starts when full (never early) and is cancelled like a
stake table at its fill deadline; the seek follows its stake table (``_stake_follow``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Seat, Table
from matchmaking.commitments import committed_elsewhere, player_lock
from matchmaking.errors import MatchError, StakeError
from matchmaking.pools import notify
from matchmaking.pools.conduct import free_to_sit_check
from matchmaking.pools.config import DEFAULT_SPEED, Pool, Speed, pool_get, speed_get
from matchmaking.pools.models import Block, Search, Seek, SeekPlayer
from matchmaking.pools.seating import Member, groups_seat
from matchmaking.pools.services import (
    bot_refuse,
    rating_for,
    seated_send,
    seek_held_refuse,
    speed_check,
)
from matchmaking.stakes.services import (
    StakeShape,
    stake_amounts,
    stake_cancel,
    stake_shapes,
    stake_sit,
    stake_stand,
    stake_table_open,
)

# Fewest people at a seek its owner may start with computers filling the rest.
SEEK_START_PEOPLE = 2


def _busy_refuse(*, user_id: int) -> None:
    """The refusals every seek write shares: a bot account, a cooldown, a live
    seat (online, stake, or an open table's unrated game), a commitment elsewhere,
    a search, or another open table."""
    bot_refuse(user_id=user_id)
    free_to_sit_check(user_id=user_id)
    playing = Seat.objects.filter(
        user_id=user_id,
        forfeited=False,
        table__mode=Table.Mode.FRIEND,
        table__status=Table.Status.PLAYING,
    )
    if playing.exists():
        raise MatchError(
            "seated", _("You are playing at a table: finish or leave it first.")
        )
    if reason := committed_elsewhere(user_id):
        raise MatchError("busy_elsewhere", reason)
    if Search.objects.filter(user_id=user_id, status=Search.Status.WAITING).exists():
        raise MatchError(
            "already_searching",
            _("You are looking for a table: cancel that search first."),
        )
    seek_held_refuse(user_id=user_id)


def _pool_of(seek: Seek) -> Pool:
    pool = pool_get(seek.pool)
    if pool is None:  # a pool removed from the settings since the seek opened
        raise MatchError("unknown_pool", _("There is no such game in the lobby."))
    return pool


def _stake_shape(*, pool: Pool, stake: object, rated: bool) -> StakeShape | None:
    """The stake shape of a stake seek (None for no stake); refused for a stake
    the stake tables do not offer or a pool they have no table of."""
    if stake is None or stake == 0:
        return None
    if type(stake) is not int or stake not in stake_amounts():
        raise MatchError(
            "bad_stake",
            _("Choose a stake of %(stakes)s coins, or none.")
            % {"stakes": " / ".join(str(s) for s in stake_amounts())},
        )
    shape = stake_shapes().get(pool.key)
    if shape is None:
        raise MatchError(
            "bad_stake", _("There are no stake tables of that game: choose no stake.")
        )
    if not rated:
        raise MatchError("bad_stake", _("A table with a stake is always rated."))
    return shape


def seek_stake_offers() -> dict[str, list[int]]:
    """Per pool with stake tables of its shape, the stakes an open table may have."""
    amounts = stake_amounts()
    return {key: amounts for key in stake_shapes()}


def _stake_refused(err: StakeError) -> MatchError:
    """The stake books' refusal, in the lobby's kind (the same code and words)."""
    return MatchError(err.code, err.message)


@transaction.atomic
def seek_open(
    *,
    user_id: int,
    pool_key: object,
    speed: object = DEFAULT_SPEED,
    rated: object = True,
    stake: object = 0,
) -> Seek:
    """Open a table in the lobby: the player holds its first place and waits. With
    a stake, a stake table is opened and the owner's entry taken at once."""
    pool = pool_get(pool_key)
    if pool is None:
        raise MatchError("unknown_pool", _("There is no such game in the lobby."))
    chosen = speed_check(speed)
    if not isinstance(rated, bool):
        raise MatchError("bad_frame", _("Choose a rated or a friendly table."))
    shape = _stake_shape(pool=pool, stake=stake, rated=rated)
    player_lock(user_id=user_id)
    _busy_refuse(user_id=user_id)
    now = timezone.now()
    stake_table_id = None
    if shape is not None and type(stake) is int:
        # Before the seek's own place: the stake books refuse anyone holding one.
        stake_table_id = _stake_open(
            user_id=user_id, shape=shape, speed=chosen, stake=stake
        )
    try:
        with transaction.atomic():
            seek = Seek.objects.create(
                owner_id=user_id,
                pool=pool.key,
                speed=chosen.key,
                rated=rated,
                stake=stake if shape is not None and type(stake) is int else 0,
                stake_table_id=stake_table_id,
                created_at=now,
                seen_at=now,
            )
            SeekPlayer.objects.create(
                seek=seek,
                user_id=user_id,
                rating=rating_for(user_id, pool.variant),
                joined_at=now,
            )
    except IntegrityError:
        raise MatchError(
            "in_seek", _("You are at an open table in the lobby: leave it first.")
        ) from None
    transaction.on_commit(seeks_changed)
    return seek


def _stake_open(*, user_id: int, shape: StakeShape, speed: Speed, stake: int) -> int:
    """A new stake table at the seek's speed, the owner seated and their entry
    taken; its id."""
    user = User.objects.get(pk=user_id)
    try:
        row = stake_table_open(
            stake=stake,
            shape=shape,
            clock_seconds=speed.clock_seconds,
            bank_seconds=speed.bank_seconds,
        )
        stake_sit(user=user, stake=stake, shape=shape.code, table_id=row.pk)
    except StakeError as err:
        raise _stake_refused(err) from None
    return int(row.pk)


def _seek_lock(seek_id: object) -> Seek:
    """The open seek ``seek_id``, its row locked; refused for anything else."""
    if not isinstance(seek_id, int) or isinstance(seek_id, bool):
        raise MatchError("unknown_seek", _("This table is no longer open."))
    seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
    if seek is None or seek.status != Seek.Status.OPEN:
        raise MatchError("unknown_seek", _("This table is no longer open."))
    return seek


def _blocked_with(*, user_id: int, others: list[int]) -> bool:
    return Block.objects.filter(
        Q(blocker_id=user_id, blocked_id__in=others)
        | Q(blocked_id=user_id, blocker_id__in=others)
    ).exists()


@transaction.atomic
def seek_join(*, user_id: int, seek_id: object) -> Seek:
    """Take a place at an open seek; the last place starts its table at once.

    Refused (nothing changed) for one's own seek, a seek gone or full, a player
    blocked by or blocking someone there (they see it as gone), and the refusals
    of :func:`_busy_refuse`."""
    player_lock(user_id=user_id)
    _busy_refuse(user_id=user_id)
    seek = _seek_lock(seek_id)
    pool = _pool_of(seek)
    there = list(
        SeekPlayer.objects.filter(seek=seek, active=True).values_list(
            "user_id", flat=True
        )
    )
    if user_id in there:
        raise MatchError("in_seek", _("You already have a place at this table."))
    if _blocked_with(user_id=user_id, others=there):
        raise MatchError("unknown_seek", _("This table is no longer open."))
    if len(there) >= pool.seats:  # the last join starts it: never seen while open
        raise MatchError("seek_full", _("This table is full."))
    stake_started = False
    if seek.stake_table_id is not None:
        # The stake books take the seat and the entry, or refuse both.
        try:
            row = stake_sit(
                user=User.objects.get(pk=user_id),
                stake=seek.stake,
                shape=seek.pool,
                table_id=seek.stake_table_id,
            )
        except StakeError as err:
            raise _stake_refused(err) from None
        stake_started = row.state == "playing"
    try:
        with transaction.atomic():
            SeekPlayer.objects.create(
                seek=seek,
                user_id=user_id,
                rating=rating_for(user_id, pool.variant),
                joined_at=timezone.now(),
            )
    except IntegrityError:
        raise MatchError(
            "in_seek", _("You are at an open table in the lobby: leave it first.")
        ) from None
    if seek.stake_table_id is not None:
        if stake_started:  # the stake table dealt itself when its last seat went
            _seek_started(seek, seek.stake_table_id)
    elif len(there) + 1 == pool.seats:
        _seek_start(seek, pool)
    transaction.on_commit(seeks_changed)
    return seek


@transaction.atomic
def seek_start(*, user_id: int, seek_id: object) -> Seek:
    """The owner starts their seek early: computer players take the empty seats."""
    player_lock(user_id=user_id)
    seek = _seek_lock(seek_id)
    if seek.owner_id != user_id:
        raise MatchError(
            "not_owner", _("Only the player who opened the table may start it.")
        )
    pool = _pool_of(seek)
    if seek.stake_table_id is not None:
        raise MatchError(
            "seek_waiting", _("A table with a stake starts when every seat is taken.")
        )
    people = SeekPlayer.objects.filter(seek=seek, active=True).count()
    if people < SEEK_START_PEOPLE:
        raise MatchError(
            "seek_waiting", _("Wait for at least one other player to join.")
        )
    _seek_start(seek, pool)
    transaction.on_commit(seeks_changed)
    return seek


def _seek_start(seek: Seek, pool: Pool) -> None:
    """Seat the seek's players at a new table (its row locked by the caller)."""
    places = list(SeekPlayer.objects.filter(seek=seek, active=True).order_by("pk"))
    users = (
        get_user_model().objects.only("username").in_bulk([p.user_id for p in places])
    )
    (table,) = groups_seat(
        pool=pool,
        groups=[[Member(user_id=p.user_id, rating=p.rating) for p in places]],
        users=users,
        speed=speed_get(seek.speed),
        mode=Table.Mode.ONLINE if seek.rated else Table.Mode.FRIEND,
    )
    _seek_started(seek, table.pk)


def _seek_started(seek: Seek, table_id: int) -> None:
    """Mark the locked seek started at ``table_id``; everybody seated there from
    it hears of the table after commit."""
    places = list(
        SeekPlayer.objects.filter(seek=seek, active=True).values_list(
            "user_id", flat=True
        )
    )
    seek.status = Seek.Status.STARTED
    seek.table_id = table_id
    seek.ended_at = timezone.now()
    seek.save(update_fields=["status", "table_id", "ended_at"])
    SeekPlayer.objects.filter(seek=seek, active=True).update(active=False)
    seated_ids = set(
        Seat.objects.filter(table_id=table_id, user_id__in=places).values_list(
            "user_id", flat=True
        )
    )
    seated = {uid: table_id for uid in places if uid in seated_ids}
    transaction.on_commit(lambda: seated_send(seated))


def _seek_end(seek: Seek, status: str, now: datetime) -> None:
    """Cancel or expire the locked seek; a stake seek's table is cancelled and
    every entry refunded once by the stake books."""
    if seek.stake_table_id is not None:
        try:
            stake_cancel(table_id=seek.stake_table_id, reason="unfilled")
        except StakeError as err:  # it filled meanwhile: it plays and settles
            raise _stake_refused(err) from None
    seek.status = status
    seek.ended_at = now
    seek.save(update_fields=["status", "ended_at"])
    SeekPlayer.objects.filter(seek=seek, active=True).update(active=False)
    transaction.on_commit(seeks_changed)


@transaction.atomic
def seek_leave(*, user_id: int) -> None:
    """Leave the open table one holds a place at: its owner cancels it, anyone
    else gives up their place. Refused when there is none (or it just started)."""
    player_lock(user_id=user_id)
    place = SeekPlayer.objects.filter(user_id=user_id, active=True).first()
    if place is None:
        raise MatchError("no_seek", _("You have no open table in the lobby."))
    seek = Seek.objects.select_for_update().get(pk=place.seek_id)
    place.refresh_from_db()
    if seek.status != Seek.Status.OPEN or not place.active:
        raise MatchError("no_seek", _("You have no open table in the lobby."))
    if _stake_follow(seek):  # its stake table started or was cancelled meanwhile
        return
    if seek.owner_id == user_id:
        _seek_end(seek, Seek.Status.CANCELLED, timezone.now())
        return
    _place_give_up(seek, place)


def _place_give_up(seek: Seek, place: SeekPlayer) -> None:
    """A joiner gives up their place (a stake seat's entry comes back at once)."""
    if seek.stake_table_id is not None:
        user = User.objects.get(pk=place.user_id)
        try:
            stake_stand(user=user, table_id=seek.stake_table_id)
        except StakeError as err:
            if err.code != "not_seated":  # stood up already on the stake pages
                raise _stake_refused(err) from None
    place.active = False
    place.save(update_fields=["active"])
    transaction.on_commit(seeks_changed)


def seek_abandon(*, user_id: int) -> bool:
    """Leave the player's open table, if any, because no lobby page of theirs is
    open (an owner's seek expires); whether there was one."""
    place = SeekPlayer.objects.filter(user_id=user_id, active=True).first()
    if place is None:
        return False
    with transaction.atomic():
        player_lock(user_id=user_id)
        seek = Seek.objects.select_for_update().filter(pk=place.seek_id).first()
        if seek is None or seek.status != Seek.Status.OPEN:
            return False
        if _stake_follow(seek):
            return False
        try:
            if seek.owner_id == user_id:
                _seek_end(seek, Seek.Status.EXPIRED, timezone.now())
                return True
            held = SeekPlayer.objects.filter(pk=place.pk, active=True).first()
            if held is None:
                return False
            _place_give_up(seek, held)
        except MatchError:  # a stake table that filled meanwhile plays on
            return False
        return True


def seek_touch(*, user_id: int) -> None:
    """A lobby socket of the owner holds their open seek (connect, every ping)."""
    Seek.objects.filter(owner_id=user_id, status=Seek.Status.OPEN).update(
        seen_at=timezone.now()
    )


def seeks_expire_abandoned(*, now: datetime | None = None) -> int:
    """Expire the open seeks no lobby socket of their owner has held for
    ``MATCHMAKING_ABANDON_SECONDS`` (how many), and bring stake seeks in line with
    stake tables that started or were cancelled on the stake books' side."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.MATCHMAKING_ABANDON_SECONDS)
    # Stake tables the stake books started or cancelled: their seeks follow.
    closed = Table.objects.filter(mode=Table.Mode.STAKE).exclude(
        status=Table.Status.WAITING
    )
    stale = list(
        Seek.objects.filter(
            Q(seen_at__lt=cutoff) | Q(stake_table_id__in=closed.values("pk")),
            status=Seek.Status.OPEN,
        ).values_list("pk", flat=True)
    )
    expired = 0
    for seek_id in stale:
        with transaction.atomic():
            seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
            if seek is None or seek.status != Seek.Status.OPEN:
                continue
            if _stake_follow(seek) or seek.seen_at >= cutoff:
                continue
            try:
                _seek_end(seek, Seek.Status.EXPIRED, now)
            except MatchError:  # its stake table filled meanwhile
                continue
            expired += 1
    return expired


def _stake_follow(seek: Seek) -> bool:
    """Bring a locked open stake seek in line with its stake table, which the
    stake books may have started (seats taken on the stake pages) or cancelled
    (its fill deadline); whether it did."""
    if seek.stake_table_id is None:
        return False
    status = (
        Table.objects.filter(pk=seek.stake_table_id)
        .values_list("status", flat=True)
        .first()
    )
    if status == Table.Status.WAITING:
        return False
    if status == Table.Status.CANCELLED or status is None:
        seek.status = Seek.Status.EXPIRED
        seek.ended_at = timezone.now()
        seek.save(update_fields=["status", "ended_at"])
        SeekPlayer.objects.filter(seek=seek, active=True).update(active=False)
    else:
        _seek_started(seek, seek.stake_table_id)
    transaction.on_commit(seeks_changed)
    return True


def seeks_changed() -> None:
    """Every lobby socket re-reads its player's list of open tables."""
    notify.lobby_send([(notify.LOBBY_GROUP, {"type": "lobby.seeks"})])
