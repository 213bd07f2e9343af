"""Swiss events as players see them: the list on the tournaments page and a club's
page, an event's page (standings with tie-breaks, each round's pairings, the
published payout table) and the frame its socket sends."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.urls import reverse

from economy.pots import places_split
from games.events import EventLink, EventStanding
from games.names import variant_title
from tournaments.swiss import conf
from tournaments.swiss.models import SwissEntry, SwissEvent, SwissGame
from tournaments.swiss.rounds import event_standings, round_starts_at

State = SwissEvent.State
Result = SwissGame.Result
LIST_LIMIT = 20


def event_title(event: SwissEvent) -> str:
    return f"{event.name} · {variant_title(event.variant)}"


@dataclass(frozen=True)
class Row:
    rank: int
    user_id: int
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float
    withdrawn: bool
    payout: int


def standing_rows(event: SwissEvent) -> list[Row]:
    entries = {
        e.user_id: e
        for e in SwissEntry.objects.filter(event=event).select_related("user")
    }
    return [
        Row(
            rank=s.rank,
            user_id=s.user_id,
            name=entries[s.user_id].user.get_username(),
            score=float(s.score),
            buchholz=float(s.buchholz),
            sonneborn_berger=float(s.sonneborn_berger),
            withdrawn=entries[s.user_id].withdrawn_at is not None,
            payout=entries[s.user_id].payout,
        )
        for s in event_standings(event)
    ]


def round_games(event: SwissEvent) -> list[dict[str, Any]]:
    """Every round played or in play, newest first, with its games."""
    games = SwissGame.objects.filter(event=event).select_related("first", "second")
    rounds: dict[int, list[dict[str, Any]]] = {}
    for g in games.order_by("round", "number"):
        rounds.setdefault(g.round, []).append(
            {
                "first": g.first.get_username(),
                "second": g.second.get_username() if g.second else "",
                "result": g.result,
                "points": g.points,
                "table": g.table_id,
            }
        )
    return [
        {
            "number": number,
            "starts_at": round_starts_at(event, number).isoformat(),
            "games": rounds[number],
        }
        for number in sorted(rounds, reverse=True)
    ]


def event_frame(*, event_id: int) -> dict[str, Any]:
    """What the event's socket sends: its state, standings and rounds (no words:
    the page holds them in the reader's language)."""
    event = SwissEvent.objects.get(pk=event_id)
    next_round = event.round + 1 if event.round < event.rounds else None
    return {
        "type": "update",
        "state": event.state,
        "round": event.round,
        "rounds": event.rounds,
        "next_at": (
            round_starts_at(event, next_round).isoformat()
            if next_round and event.state in (State.SCHEDULED, State.RUNNING)
            else None
        ),
        "rows": [
            [
                r.rank,
                r.user_id,
                r.name,
                r.score,
                r.buchholz,
                r.sonneborn_berger,
                r.withdrawn,
            ]
            for r in standing_rows(event)
        ],
        "games": round_games(event),
    }


def payout_table(event: SwissEvent) -> list[dict[str, Any]]:
    """The published table: for each field size, each place's percent and, with
    the pot as it stands, its coins."""
    pot = event.entry * SwissEntry.objects.filter(event=event).count()
    rows = conf.share_rows()
    out = []
    for at, (floor, shares) in enumerate(rows):
        top = rows[at + 1][0] - 1 if at + 1 < len(rows) else None
        out.append(
            {
                "floor": floor,
                "top": top,
                "places": list(
                    zip(shares, places_split(total=pot, shares=shares), strict=True)
                ),
            }
        )
    return out


def event_page(*, event: SwissEvent, user: Any) -> dict[str, Any]:
    mine = SwissEntry.objects.filter(event=event, user=user).first()
    open_to_join = event.state == State.SCHEDULED or (
        event.state == State.RUNNING and event.round < 2
    )
    playing = (
        SwissGame.objects.filter(event=event, result=Result.PLAYING)
        .filter(Q(first=user) | Q(second=user))
        .values_list("table_id", flat=True)
    )
    next_round = event.round + 1 if event.round < event.rounds else None
    return {
        "event": event,
        "title": event_title(event),
        "entry": mine,
        "in_event": mine is not None and mine.withdrawn_at is None,
        "can_join": open_to_join and mine is None,
        "rows": standing_rows(event),
        "rounds": round_games(event),
        "table_id": next(iter(playing), None),
        "next_at": round_starts_at(event, next_round) if next_round else None,
        "round_times": [
            (n, round_starts_at(event, n)) for n in range(1, event.rounds + 1)
        ],
        "payout": payout_table(event) if event.entry else [],
        "entries": SwissEntry.objects.filter(event=event).count(),
    }


@dataclass(frozen=True)
class ListRow:
    id: int
    title: str
    starts_at: datetime
    state: str
    state_label: str
    rounds: int
    entry: int
    players: int
    club: str
    members_only: bool


def _list_rows(events: Any) -> list[ListRow]:
    counts: dict[int, int] = {}
    ids = [e.pk for e in events]
    for event_id in SwissEntry.objects.filter(event_id__in=ids).values_list(
        "event_id", flat=True
    ):
        counts[event_id] = counts.get(event_id, 0) + 1
    return [
        ListRow(
            id=e.pk,
            title=event_title(e),
            starts_at=e.starts_at,
            state=e.state,
            state_label=str(e.get_state_display()),
            rounds=e.rounds,
            entry=e.entry,
            players=counts.get(e.pk, 0),
            club=e.club.name if e.club else "",
            members_only=e.members_only,
        )
        for e in events
    ]


def swiss_index() -> dict[str, list[ListRow]]:
    """The events still to play or in play, soonest first, and the latest over."""
    live = (
        SwissEvent.objects.filter(state__in=(State.SCHEDULED, State.RUNNING))
        .select_related("club")
        .order_by("starts_at")[:LIST_LIMIT]
    )
    over = (
        SwissEvent.objects.filter(state=State.FINISHED)
        .select_related("club")
        .order_by("-finished_at")[:10]
    )
    return {"live": _list_rows(list(live)), "over": _list_rows(list(over))}


def club_events(*, club_id: int) -> list[ListRow]:
    events = (
        SwissEvent.objects.filter(club_id=club_id)
        .exclude(state=State.CANCELLED)
        .select_related("club")
        .order_by("-starts_at")[:LIST_LIMIT]
    )
    return _list_rows(list(events))


# --- the table page's link back and the result screen's standing


def swiss_of_table(table_id: int) -> EventLink | None:
    from django.utils.translation import gettext

    event_id = (
        SwissGame.objects.filter(table_id=table_id)
        .values_list("event_id", flat=True)
        .first()
    )
    if event_id is None:
        return None
    return EventLink(
        url=reverse("swiss", args=[event_id]),
        label=gettext("Back to the Swiss event"),
    )


def swiss_standing_of_table(table_id: int, user_id: int) -> EventStanding | None:
    event = SwissEvent.objects.filter(games__table_id=table_id).first()
    if event is None:
        return None
    url = reverse("swiss", args=[event.pk])
    if event.state == State.CANCELLED:
        return EventStanding(url=url, state="cancelled")
    if event.state != State.FINISHED:
        return EventStanding(url=url, state="running")
    entry = SwissEntry.objects.filter(event=event, user_id=user_id).first()
    return EventStanding(
        url=url,
        state="finished",
        place=entry.rank if entry else None,
        coins=entry.payout if entry else 0,
    )
