"""A Swiss event's rounds: each starts at its time (once the round before is over),
pairs the players present with ``tournaments.swiss.pairing``, seats each pair at an
online table, records each game's result once, and after the last round ranks the
field and pays the pot (docs/tournaments.md, "Swiss events").

Every write locks the event's row first (as ``tournaments.swiss.services``), so a
round starts once, a result is written once and the pot is paid once. The sweep
(``swiss_sweep``, every few seconds, and every view of an event's page: it works
without a beat) starts the rounds that are due.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from economy.pots import places_split
from economy.services import pot_refund_all, pot_settle_places
from games.finish import FinishNotice
from games.models import Seat, Table
from games.services import SeatTaker, TablePlan, tables_seated_create
from tournaments.swiss import conf
from tournaments.swiss.models import SwissEntry, SwissEvent, SwissGame
from tournaments.swiss.notify import paired_send, standings_push
from tournaments.swiss.pairing import Entrant, Game, pair_round, standings
from tournaments.swiss.presence import present_among
from tournaments.swiss.services import cancel_locked, pot_ref

logger = logging.getLogger(__name__)

State = SwissEvent.State
Result = SwissGame.Result
# Results that seated both players at a table: they count as playing for a prize.
SEATED = (Result.PLAYED, Result.FORFEIT)
_LIVE = (Table.Status.WAITING, Table.Status.PLAYING)


def round_starts_at(event: SwissEvent, number: int) -> datetime:
    return event.starts_at + timedelta(minutes=event.round_minutes * (number - 1))


def _round_over(event: SwissEvent) -> bool:
    return not SwissGame.objects.filter(
        event=event, round=event.round, result=Result.PLAYING
    ).exists()


# --- what the games so far say


def pure_games(games: Iterable[SwissGame]) -> list[Game]:
    """The event's games as the pure standings read them."""
    return [
        Game(first=g.first_id, second=g.second_id, points=Fraction(g.points, 2))
        for g in games
        if g.result != Result.PLAYING
    ]


def entrants_of(
    entries: Sequence[SwissEntry], games: Sequence[SwissGame]
) -> list[Entrant]:
    """The players of ``entries`` as the pairing sees them after ``games``."""
    score: dict[int, Fraction] = {e.user_id: Fraction(0) for e in entries}
    met: dict[int, set[int]] = {uid: set() for uid in score}
    byes: set[int] = set()
    seats: dict[int, list[Any]] = {uid: [0, 0, None] for uid in score}
    for g in sorted(games, key=lambda g: (g.round, g.number)):
        done = g.result != Result.PLAYING
        half = Fraction(g.points, 2)
        if done and g.first_id in score:
            score[g.first_id] += half
        if g.result == Result.BYE:
            byes.add(g.first_id)
        if g.second_id is None:
            continue
        if done and g.second_id in score:
            score[g.second_id] += 1 - half
        pair = ((g.first_id, g.second_id, 0), (g.second_id, g.first_id, 1))
        for me, other, seat in pair:
            if me in met:
                met[me].add(other)
                seats[me][seat] += 1
                seats[me][2] = seat
    return [
        Entrant(
            user_id=e.user_id,
            score=score[e.user_id],
            rating=e.rating,
            entry=e.pk,
            opponents=frozenset(met[e.user_id]),
            had_bye=e.user_id in byes,
            first_seats=seats[e.user_id][0],
            second_seats=seats[e.user_id][1],
            last_seat=seats[e.user_id][2],
        )
        for e in entries
    ]


def _busy(user_ids: Iterable[int]) -> set[int]:
    """Players seated at a live online or stake table: they cannot sit down now."""
    return set(
        Seat.objects.filter(
            user_id__in=list(user_ids),
            forfeited=False,
            table__mode__in=(Table.Mode.ONLINE, Table.Mode.STAKE),
            table__status__in=_LIVE,
        ).values_list("user_id", flat=True)
    )


# --- starting a round


def _plan(event: SwissEvent, first: User, second: User) -> TablePlan:
    return TablePlan(
        mode=Table.Mode.ONLINE,
        variant=event.variant,
        options=event.options,
        seats=[SeatTaker(user=first), SeatTaker(user=second)],
        clock_seconds=conf.clock_seconds(),
        hand_pause_seconds=conf.hand_pause_seconds(),
    )


def _round_start(event: SwissEvent, number: int) -> None:
    """Pair and seat round ``number`` (the event's row locked)."""
    entries = list(
        SwissEntry.objects.filter(
            event=event, withdrawn_at__isnull=True, joined_round__lte=number
        ).order_by("pk")
    )
    if number == 1 and len(entries) < 2:
        cancel_locked(event)  # nobody to play: every entry refunded
        transaction.on_commit(lambda: standings_push(event_id=event.pk))
        return
    ids = [e.user_id for e in entries]
    here = present_among(event_id=event.pk, user_ids=ids) - _busy(ids)
    games = list(SwissGame.objects.filter(event=event))
    playing = [e for e in entrants_of(entries, games) if e.user_id in here]
    pairing = pair_round(playing)
    users = User.objects.in_bulk([uid for pair in pairing.games for uid in pair])
    tables = tables_seated_create(
        plans=[_plan(event, users[a], users[b]) for a, b in pairing.games]
    )
    rows = [
        SwissGame(
            event=event,
            round=number,
            number=n,
            first_id=a,
            second_id=b,
            table=table,
        )
        for n, ((a, b), table) in enumerate(zip(pairing.games, tables, strict=True), 1)
    ]
    n = len(rows)
    if pairing.bye is not None:
        n += 1
        rows.append(
            SwissGame(
                event=event,
                round=number,
                number=n,
                first_id=pairing.bye,
                result=Result.BYE,
                points=2,
            )
        )
    for uid in ids:
        if uid not in here:
            n += 1
            rows.append(
                SwissGame(
                    event=event,
                    round=number,
                    number=n,
                    first_id=uid,
                    result=Result.ABSENT,
                )
            )
    SwissGame.objects.bulk_create(rows)
    event.state = State.RUNNING
    event.round = number
    event.save(update_fields=["state", "round"])
    seated = [(t.pk, pair) for t, pair in zip(tables, pairing.games, strict=True)]
    transaction.on_commit(lambda: paired_send(event_id=event.pk, seated=seated))
    transaction.on_commit(lambda: standings_push(event_id=event.pk))
    if pairing.repeats:
        logger.warning(
            "swiss %s round %s: %s repeat pairings", event.pk, number, pairing.repeats
        )


def _advance_locked(event: SwissEvent, now: datetime) -> bool:
    """Start the round that is due, or finish the event after its last round (the
    row locked); True if anything changed."""
    if event.state == State.SCHEDULED:
        if now < event.starts_at:
            return False
        _round_start(event, 1)
    elif event.state != State.RUNNING or not _round_over(event):
        return False
    elif event.round < event.rounds:
        if now < round_starts_at(event, event.round + 1):
            return False
        _round_start(event, event.round + 1)
    # A last round with nothing to play (byes and absences only) is over at once.
    last = event.state == State.RUNNING and event.round >= event.rounds
    if last and _round_over(event):
        _finish(event)
    return True


def _due(event: SwissEvent, now: datetime) -> bool:
    """Whether the event has a round to start or its finish to make (a read)."""
    if event.state == State.SCHEDULED:
        return now >= event.starts_at
    if event.state != State.RUNNING or not _round_over(event):
        return False
    return event.round >= event.rounds or now >= round_starts_at(event, event.round + 1)


def swiss_advance(*, event_id: int, now: datetime | None = None) -> bool:
    """Start the event's next round if it is due, or finish it; True if it did.
    Nothing is locked or written when nothing is due."""
    now = now or timezone.now()
    event = SwissEvent.objects.filter(pk=event_id).first()
    if event is None or not _due(event, now):
        return False
    with transaction.atomic():
        event = SwissEvent.objects.select_for_update().get(pk=event_id)
        return _advance_locked(event, now)


def swiss_sweep(*, now: datetime | None = None, limit: int = 100) -> int:
    """Advance every event with a round due or a last round over; return how many
    changed (the beat's task, and every view of an event's page)."""
    now = now or timezone.now()
    due = SwissEvent.objects.filter(
        Q(state=State.SCHEDULED, starts_at__lte=now) | Q(state=State.RUNNING)
    ).values_list("pk", flat=True)[:limit]
    return sum(swiss_advance(event_id=pk, now=now) for pk in due)


# --- a game's end


def _points(table_id: int) -> tuple[str, int]:
    """The result and the first seat's points (halves) from the table's seats."""
    first, second = Seat.objects.filter(table_id=table_id).order_by("position")[:2]
    if first.forfeited != second.forfeited:
        return Result.FORFEIT, 0 if first.forfeited else 2
    if first.place == second.place:
        return Result.PLAYED, 1
    return Result.PLAYED, 2 if (first.place or 2) < (second.place or 2) else 0


def swiss_on_table_finished(notice: FinishNotice) -> None:
    """A finished table of a Swiss event: its result, written once, then the next
    round or the finish when the round is over and due (a consequence of
    ``games.finish``, once per table)."""
    event_id = (
        SwissGame.objects.filter(table_id=notice.table_id)
        .values_list("event_id", flat=True)
        .first()
    )
    if event_id is None:
        return
    with transaction.atomic():
        event = SwissEvent.objects.select_for_update().get(pk=event_id)
        game = SwissGame.objects.get(table_id=notice.table_id)
        if game.result != Result.PLAYING or event.state != State.RUNNING:
            return
        game.result, game.points = _points(notice.table_id)
        game.save(update_fields=["result", "points"])
        if not _advance_locked(event, timezone.now()):
            transaction.on_commit(lambda: standings_push(event_id=event.pk))


def swiss_on_table_cancelled(
    sender: Any, *, table_id: int, mode: str, reason: str, **_: Any
) -> None:
    """``games`` cancelled a table (a fault, an operator): if it was a Swiss game
    in play, the same two players replay it at a new table."""
    if mode != Table.Mode.ONLINE:
        return
    event_id = (
        SwissGame.objects.filter(table_id=table_id, result=Result.PLAYING)
        .values_list("event_id", flat=True)
        .first()
    )
    if event_id is None:
        return
    with transaction.atomic():
        event = SwissEvent.objects.select_for_update().get(pk=event_id)
        game = SwissGame.objects.select_related("first", "second").get(
            table_id=table_id
        )
        if game.result != Result.PLAYING or event.state != State.RUNNING:
            return
        assert game.second is not None  # a game in play has two players
        (table,) = tables_seated_create(plans=[_plan(event, game.first, game.second)])
        game.table = table
        game.save(update_fields=["table"])
        seated = [(table.pk, (game.first_id, game.second.pk))]
        transaction.on_commit(lambda: paired_send(event_id=event.pk, seated=seated))


# --- the finish


def event_standings(event: SwissEvent) -> list[Any]:
    entries = list(SwissEntry.objects.filter(event=event).order_by("pk"))
    games = list(SwissGame.objects.filter(event=event))
    return standings([(e.user_id, e.rating, e.pk) for e in entries], pure_games(games))


def _finish(event: SwissEvent) -> None:
    """Rank the field, write each entry's rank, pay the pot whole by the published
    table among the players who played a game (earning needs playing), or refund
    it when nobody did."""
    table = event_standings(event)
    ranks = {s.user_id: s.rank for s in table}
    entries = list(SwissEntry.objects.filter(event=event))
    for entry in entries:
        entry.rank = ranks.get(entry.user_id)
    SwissEntry.objects.bulk_update(entries, ["rank"])
    event.state = State.FINISHED
    event.finished_at = timezone.now()
    event.save(update_fields=["state", "finished_at"])
    if event.entry:
        played = set(
            SwissGame.objects.filter(event=event, result__in=SEATED).values_list(
                "first_id", flat=True
            )
        ) | set(
            SwissGame.objects.filter(event=event, result__in=SEATED).values_list(
                "second_id", flat=True
            )
        )
        order = [s.user_id for s in table if s.user_id in played]
        if order:
            shares = conf.shares_for(len(order))
            payees = order[: len(shares)]
            total = event.entry * SwissEntry.objects.filter(event=event).count()
            pot_settle_places(table_ref=pot_ref(event), places=payees, shares=shares)
            amounts = places_split(total=total, shares=shares)
            for user_id, amount in zip(payees, amounts, strict=True):
                SwissEntry.objects.filter(event=event, user_id=user_id).update(
                    payout=amount
                )
        else:
            pot_refund_all(table_ref=pot_ref(event))
    transaction.on_commit(lambda: standings_push(event_id=event.pk))
