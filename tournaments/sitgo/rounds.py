"""The games of a running sit-and-go: results, advancement, replays, no-shows and
the payout (docs/tournaments.md, "Stake sit-and-gos").

4 players: one table of 4, whose finishing order is the event's. 8 players: two
tables of 4, then a final table of each table's best two; the final's order gives
places 1-4, the two thirds of round 1 places 5-6 and the two fourths 7-8. Within
a table, the finishing order is the games places (dense: a forfeit finishes last),
ties broken by the earlier entry.

Every write locks the ``SitGo`` row first (as ``tournaments.sitgo.services``), so
a table's result, the next round and the payout are written once.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from economy.pots import places_split
from economy.services import pot_settle_places
from games.finish import FinishNotice
from games.models import Seat, Table, TableEvent
from games.replay import table_verify
from games.services import seat_leave
from tournaments.sitgo import conf
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable
from tournaments.sitgo.services import tables_open

logger = logging.getLogger(__name__)

# A replay normally follows the cancel's signal at once; only a table cancelled
# this long ago and still not replaced counts as missed by the receiver.
REPLAY_AFTER = timedelta(seconds=5)
# An 8-player event's final seats each first-round table's best two.
FINALISTS_PER_TABLE = 2


def _entry_order(row: SitGo) -> dict[int, int]:
    """Each entrant's rank of entry (0 = first), the tie-break of every order."""
    users = SitGoEntry.objects.filter(sitgo=row).values_list("user_id", flat=True)
    return {uid: i for i, uid in enumerate(users)}


def table_order(seats: list[Seat], entered: dict[int, int]) -> list[int]:
    """A finished table's players, best first: by place, then earlier entry."""
    people = [s for s in seats if s.user_id is not None]
    people.sort(key=lambda s: (s.place or len(seats), entered.get(s.user_id or 0, 0)))
    return [s.user_id for s in people if s.user_id is not None]


def _trusted(table: Table) -> bool:
    try:
        table_verify(table=table)
    except Exception:
        logger.exception("sit-and-go table %s: its result cannot be verified", table.pk)
        return False
    return True


def sitgo_on_table_finished(notice: FinishNotice) -> None:
    """A finished table of a sit-and-go: record its order, then open the next
    round or pay the pot (a consequence of ``games.finish``, once per table). A
    result that cannot be verified is a fault: the game is replayed."""
    game_id = (
        SitGoTable.objects.filter(table_id=notice.table_id)
        .values_list("sitgo_id", flat=True)
        .first()
    )
    if game_id is None:
        return  # an online table of no sit-and-go
    with transaction.atomic():
        row = SitGo.objects.select_for_update().get(pk=game_id)
        game = SitGoTable.objects.select_related("table").get(table_id=notice.table_id)
        if game.state != SitGoTable.State.PLAYING or row.state != SitGo.State.RUNNING:
            return
        if not _trusted(game.table):
            _replay_locked(row, game)
            return
        seats = list(Seat.objects.filter(table_id=game.table_id).order_by("position"))
        game.order = table_order(seats, _entry_order(row))
        game.state = SitGoTable.State.DONE
        game.save(update_fields=["order", "state"])
        if row.size == 8 and game.round == 1:
            _release(row, knocked_out=game.order[FINALISTS_PER_TABLE:])
        _advance(row)


def _release(row: SitGo, *, knocked_out: list[int]) -> None:
    """Free the players a first-round table knocked out for other play (online
    pools, stake tables, arenas, another sit-and-go) while the final is played:
    no place they can still reach pays. Their place is written with everyone's
    when the event finishes; a cancelled event still refunds their entry."""
    SitGoEntry.objects.filter(sitgo=row, user_id__in=knocked_out).update(
        active_user=None
    )


def _advance(row: SitGo) -> None:
    """Open the final, or finish the event, once every live table of the current
    round is done (the row locked)."""
    live = list(row.tables.exclude(state=SitGoTable.State.VOID))
    current = max(t.round for t in live)
    games = [t for t in live if t.round == current]
    if any(t.state != SitGoTable.State.DONE for t in games):
        return
    if row.size == 8 and current == 1:
        ids = [
            uid
            for g in sorted(games, key=lambda g: g.number)
            for uid in g.order[:FINALISTS_PER_TABLE]
        ]
        users = {u.pk: u for u in User.objects.filter(pk__in=ids)}
        tables_open(row, round_number=2, groups=[[users[uid] for uid in ids]])
        return
    _finish(row, standings(row, live))


def standings(row: SitGo, games: list[SitGoTable]) -> list[int]:
    """The event's final order (user ids, best first) from its done tables."""
    final = max(games, key=lambda g: g.round)
    order = list(final.order)
    if row.size == 8:
        entered = _entry_order(row)
        first = sorted((g for g in games if g.round == 1), key=lambda g: g.number)
        for place in (2, 3):  # the thirds, then the fourths, of round 1
            rest = [g.order[place] for g in first if len(g.order) > place]
            order += sorted(rest, key=lambda uid: entered.get(uid, 0))
    return order


def _finish(row: SitGo, order: list[int]) -> None:
    """Pay the whole pot by place and write every entrant's place and payout."""
    shares = conf.SHARES[row.size]
    payees = order[: len(shares)]
    pot_settle_places(table_ref=row.pot_ref, places=payees, shares=shares)
    total = row.size * row.entry
    paid = dict(zip(payees, places_split(total=total, shares=shares), strict=True))
    entries = list(SitGoEntry.objects.filter(sitgo=row))
    place_of = {uid: i for i, uid in enumerate(order, start=1)}
    for entry in entries:
        entry.place = place_of.get(entry.user_id)
        entry.payout = paid.get(entry.user_id, 0)
        entry.active_user = None
    SitGoEntry.objects.bulk_update(entries, ["place", "payout", "active_user"])
    row.state = SitGo.State.FINISHED
    row.closed_at = timezone.now()
    row.save(update_fields=["state", "closed_at"])


# --- a server fault: the game is replayed


def _replay_locked(row: SitGo, game: SitGoTable) -> SitGoTable:
    """Void ``game`` and open a new table of the same players in the same seats
    (same round and number); the sit-and-go row is locked."""
    game.state = SitGoTable.State.VOID
    game.save(update_fields=["state"])
    seats = Seat.objects.filter(table_id=game.table_id).select_related("user")
    users = [s.user for s in seats.order_by("position") if s.user is not None]
    (new,) = tables_open(
        row, round_number=game.round, groups=[users], first_number=game.number
    )
    logger.warning("sit-and-go %s: table %s voided, replayed", row.pk, game.table_id)
    return new


def sitgo_table_replay(*, table_id: int) -> bool:
    """Replay a sit-and-go game whose table ``games`` cancelled (a server fault):
    True if this call opened the new table."""
    with transaction.atomic():
        game = SitGoTable.objects.filter(table_id=table_id).first()
        if game is None:
            return False
        row = SitGo.objects.select_for_update().get(pk=game.sitgo_id)
        game = SitGoTable.objects.get(pk=game.pk)
        if game.state != SitGoTable.State.PLAYING or row.state != SitGo.State.RUNNING:
            return False
        _replay_locked(row, game)
        return True


def sitgo_on_table_cancelled(
    sender: Any, *, table_id: int, mode: str, reason: str, **_: Any
) -> None:
    """``games`` cancelled a table (a fault, an operator, nobody left): if it was
    a sit-and-go game, that game is replayed by the same players."""
    if mode != Table.Mode.ONLINE:
        return
    sitgo_table_replay(table_id=table_id)


# --- the sweep's rounds work


def sitgo_tables_overdue(*, limit: int = 200) -> int:
    """Replay games cancelled without a replay (a lost receiver) and forfeit the
    seats of players who never came; return how many tables were touched."""
    now = timezone.now()
    done = 0
    missed = SitGoTable.objects.filter(
        state=SitGoTable.State.PLAYING,
        table__status=Table.Status.CANCELLED,
        table__finished_at__lte=now - REPLAY_AFTER,
    ).values_list("table_id", flat=True)[:limit]
    for table_id in missed:
        done += sitgo_table_replay(table_id=table_id)
    due = SitGoTable.objects.filter(
        state=SitGoTable.State.PLAYING,
        noshow_checked=False,
        created_at__lte=now - timedelta(seconds=conf.noshow_seconds()),
    ).values_list("table_id", flat=True)[:limit]
    for table_id in due:
        done += bool(noshows_forfeit(table_id=table_id))
    return done


def _showed_up(table: Table, seat: Seat, acted: set[int]) -> bool:
    """Whether the seat's player ever came: connected now, sent a client seed
    for the fair deal, or made a move."""
    seeds = (table.fair or {}).get("seeds") or []
    seeded = seat.position < len(seeds) and seeds[seat.position] is not None
    return seat.connected or seeded or seat.position in acted


def noshows_forfeit(*, table_id: int) -> list[int]:
    """Forfeit the seats of a playing sit-and-go table whose players never came
    (``games.services.seat_leave``: the seat finishes last, a stand-in plays it
    to the end, and it counts as leaving a ranked table); once per table. Return
    the user ids forfeited."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return []
    gone: list[int] = []
    if table.status == Table.Status.PLAYING:
        acted = {
            seat
            for seat in TableEvent.objects.filter(
                table_id=table_id, actor="player"
            ).values_list("seat", flat=True)
            if seat is not None
        }
        seats = Seat.objects.filter(table_id=table_id, forfeited=False).select_related(
            "user"
        )
        for seat in seats:
            if seat.user is not None and not _showed_up(table, seat, acted):
                seat_leave(table_id=table_id, user=seat.user)
                gone.append(seat.user.pk)
    SitGoTable.objects.filter(table_id=table_id).update(noshow_checked=True)
    if gone:
        logger.info("sit-and-go table %s: no-shows %s forfeited", table_id, gone)
    return gone
