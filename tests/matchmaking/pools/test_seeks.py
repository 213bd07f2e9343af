"""Open tables ("seeks") through the services: open, join, start, leave, expiry,
refusals that change nothing, blocks, bot accounts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import BotAccount
from games.models import Table
from matchmaking.errors import MatchError
from matchmaking.models import Search, Seek, SeekPlayer
from matchmaking.pools.conduct import block_add
from matchmaking.pools.seek_selectors import seeks_list
from matchmaking.pools.seeks import (
    seek_abandon,
    seek_join,
    seek_leave,
    seek_open,
    seek_start,
    seek_touch,
    seeks_expire_abandoned,
)
from matchmaking.pools.selectors import lobby_state, user_searching
from matchmaking.pools.services import search_start
from matchmaking.pools.tasks import search_unwatched_task

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes, lobby_frames, no_wave_tasks):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def _books() -> tuple[list, list, list]:
    return (
        list(Seek.objects.order_by("pk").values_list("pk", "status", "table_id")),
        list(SeekPlayer.objects.order_by("pk").values_list("pk", "user_id", "active")),
        list(Search.objects.order_by("pk").values_list("pk", "status")),
    )


def refused(code: str, func, **kwargs) -> MatchError:
    """``func`` is refused with ``code`` in words, and changes nothing."""
    before = _books()
    tables = Table.objects.count()
    with pytest.raises(MatchError) as info:
        func(**kwargs)
    assert info.value.code == code
    message = info.value.message
    assert message and "_" not in message and "Seek" not in message
    assert _books() == before
    assert Table.objects.count() == tables
    return info.value


def test_a_two_seat_seek_starts_a_rated_table_when_joined(
    make_user, lobby_frames, django_capture_on_commit_callbacks
):
    ana, ben = make_user("ana"), make_user("ben")
    seek = seek_open(user_id=ana.pk, pool_key="draw-2", speed="fast", rated=True)
    listed = seeks_list(user_id=ben.pk)
    assert [s["id"] for s in listed] == [seek.pk]
    assert listed[0]["players"] == [{"name": "ana", "rating": "1500?"}]
    assert listed[0]["speed"] == "fast" and listed[0]["clock"] == 10
    assert not listed[0]["joined"] and seeks_list(user_id=ana.pk)[0]["mine"]
    with django_capture_on_commit_callbacks(execute=True):
        seek_join(user_id=ben.pk, seek_id=seek.pk)
    seek.refresh_from_db()
    assert seek.status == "started"
    table = Table.objects.get(pk=seek.table_id)
    assert table.mode == "online" and table.status == "playing"
    assert table.clock_seconds == 10 and table.bank_seconds == 60
    assert set(table.seats.values_list("user_id", flat=True)) == {ana.pk, ben.pk}
    assert not SeekPlayer.objects.filter(active=True).exists()
    assert seeks_list(user_id=ben.pk) == []
    seated = [m for _g, m in lobby_frames if m["type"] == "lobby.seated"]
    assert {m["table"] for m in seated} == {table.pk} and len(seated) == 2
    assert any(m["type"] == "lobby.seeks" for _g, m in lobby_frames)
    # Both are at a live table now: neither may open or join another.
    refused("seated", seek_open, user_id=ana.pk, pool_key="draw-2")


def test_an_unrated_seek_seats_a_friend_table_with_the_slow_clock(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    seek = seek_open(user_id=ana.pk, pool_key="block-2", rated=False)
    seek_join(user_id=ben.pk, seek_id=seek.pk)
    seek.refresh_from_db()
    table = Table.objects.get(pk=seek.table_id)
    assert table.mode == "friend" and table.clock_seconds == 30
    # Seated at its unrated table: the lobby sends them back to it, and they may
    # not open another table meanwhile.
    assert lobby_state(user_id=ana.pk)["seated"] == table.pk
    refused("seated", seek_open, user_id=ben.pk, pool_key="draw-2")


def test_a_four_seat_seek_waits_then_the_owner_starts_it_with_computers(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    seek = seek_open(user_id=ana.pk, pool_key="draw-4p")
    refused("seek_waiting", seek_start, user_id=ana.pk, seek_id=seek.pk)
    seek_join(user_id=ben.pk, seek_id=seek.pk)
    seek_join(user_id=cy.pk, seek_id=seek.pk)
    assert Seek.objects.get(pk=seek.pk).status == "open"
    assert [p["name"] for p in seeks_list(user_id=ana.pk)[0]["players"]] == [
        "ana",
        "ben",
        "cy",
    ]
    refused("not_owner", seek_start, user_id=ben.pk, seek_id=seek.pk)
    seek_start(user_id=ana.pk, seek_id=seek.pk)
    seek.refresh_from_db()
    table = Table.objects.get(pk=seek.table_id)
    seats = list(table.seats.values_list("user_id", "simulated", "name"))
    assert {u for u, _s, _n in seats if u} == {ana.pk, ben.pk, cy.pk}
    computers = [(s, n) for u, s, n in seats if u is None]
    assert len(computers) == 1 and computers[0][0] is True and computers[0][1]


def test_a_full_four_seat_seek_starts_at_the_last_join(make_user):
    people = [make_user(f"p{i}") for i in range(4)]
    seek = seek_open(user_id=people[0].pk, pool_key="draw-4p")
    for p in people[1:]:
        seek_join(user_id=p.pk, seek_id=seek.pk)
    seek.refresh_from_db()
    assert seek.status == "started"
    table = Table.objects.get(pk=seek.table_id)
    assert not table.seats.filter(user__isnull=True).exists()


def test_one_seek_per_player_and_no_search_alongside(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    seek = seek_open(user_id=ana.pk, pool_key="draw-2")
    refused("in_seek", seek_open, user_id=ana.pk, pool_key="spider-2")
    refused("in_seek", search_start, user_id=ana.pk, pool_key="draw-2")
    refused("in_seek", seek_join, user_id=ana.pk, seek_id=seek.pk)
    assert user_searching(user_id=ana.pk)  # the stake tables and sit-and-gos ask
    search_start(user_id=ben.pk, pool_key="draw-2")
    refused("already_searching", seek_open, user_id=ben.pk, pool_key="draw-2")
    refused("already_searching", seek_join, user_id=ben.pk, seek_id=seek.pk)


def test_a_joiner_holds_one_place_and_may_leave_it(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    first = seek_open(user_id=ana.pk, pool_key="draw-4p")
    other = seek_open(user_id=cy.pk, pool_key="catalan-4p")
    seek_join(user_id=ben.pk, seek_id=first.pk)
    refused("in_seek", seek_join, user_id=ben.pk, seek_id=other.pk)
    seek_leave(user_id=ben.pk)
    assert Seek.objects.get(pk=first.pk).status == "open"
    assert [p["name"] for p in seeks_list(user_id=ana.pk)[0]["players"]] == ["ana"]
    seek_join(user_id=ben.pk, seek_id=other.pk)
    refused("no_seek", seek_leave, user_id=make_user("dan").pk)


def test_the_owner_cancels_and_nobody_can_join_after(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    seek = seek_open(user_id=ana.pk, pool_key="draw-2")
    seek_leave(user_id=ana.pk)
    assert Seek.objects.get(pk=seek.pk).status == "cancelled"
    refused("unknown_seek", seek_join, user_id=ben.pk, seek_id=seek.pk)
    refused("no_seek", seek_leave, user_id=ana.pk)
    # The owner may open another at once.
    seek_open(user_id=ana.pk, pool_key="draw-2")


def test_bad_input_is_refused_in_words(make_user):
    ana = make_user("ana")
    refused("unknown_pool", seek_open, user_id=ana.pk, pool_key="nope")
    refused("unknown_pool", seek_open, user_id=ana.pk, pool_key=["draw-2"])
    refused("unknown_speed", seek_open, user_id=ana.pk, pool_key="draw-2", speed="x")
    refused("bad_frame", seek_open, user_id=ana.pk, pool_key="draw-2", rated="yes")
    for forged in (None, "1", 10**9, True):
        refused("unknown_seek", seek_join, user_id=ana.pk, seek_id=forged)


def test_blocked_players_never_see_or_join_each_others_seeks(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    block_add(blocker_id=ben.pk, blocked_username="ana")
    seek = seek_open(user_id=ana.pk, pool_key="draw-4p")
    assert seeks_list(user_id=ben.pk) == []
    assert [s["id"] for s in seeks_list(user_id=cy.pk)] == [seek.pk]
    refused("unknown_seek", seek_join, user_id=ben.pk, seek_id=seek.pk)
    # Blocked the other way round, by someone who joined: hidden from the blocked.
    dan = make_user("dan")
    block_add(blocker_id=dan.pk, blocked_username="cy")
    seek_join(user_id=dan.pk, seek_id=seek.pk)
    assert seeks_list(user_id=cy.pk) == []
    refused("unknown_seek", seek_join, user_id=cy.pk, seek_id=seek.pk)


def test_bot_accounts_may_not_open_join_or_find(make_user):
    ana, bot = make_user("ana"), make_user("robot")
    BotAccount.objects.create(user=bot)
    seek = seek_open(user_id=ana.pk, pool_key="draw-2")
    for func, kwargs in (
        (seek_open, {"pool_key": "draw-2"}),
        (seek_join, {"seek_id": seek.pk}),
        (search_start, {"pool_key": "draw-2"}),
    ):
        err = refused("bot_account", func, user_id=bot.pk, **kwargs)
        assert err.message == "Bot accounts play through the API."


def test_a_seek_expires_when_its_owner_leaves_the_lobby(make_user, settings):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    seek = seek_open(user_id=ana.pk, pool_key="draw-4p")
    seek_join(user_id=ben.pk, seek_id=seek.pk)
    later = timezone.now() + timedelta(seconds=settings.MATCHMAKING_ABANDON_SECONDS)
    # A joiner's lobby socket does not keep the owner's seek.
    seek_touch(user_id=ben.pk)
    assert seeks_expire_abandoned(now=later - timedelta(seconds=5)) == 0
    assert seeks_expire_abandoned(now=later + timedelta(seconds=1)) == 1
    assert Seek.objects.get(pk=seek.pk).status == "expired"
    assert not SeekPlayer.objects.filter(active=True).exists()
    refused("unknown_seek", seek_join, user_id=cy.pk, seek_id=seek.pk)
    # One held by its owner's socket stays open.
    fresh = seek_open(user_id=cy.pk, pool_key="draw-2")
    seek_touch(user_id=cy.pk)
    assert seeks_expire_abandoned(now=timezone.now()) == 0
    assert Seek.objects.get(pk=fresh.pk).status == "open"


def test_closing_the_lobby_ends_the_owners_seek_and_a_joiners_place(
    make_user, monkeypatch
):
    from matchmaking.pools import tasks

    open_sockets: set[int] = set()
    monkeypatch.setattr(
        tasks, "sockets_open", lambda *, kind, user_id: user_id in open_sockets
    )
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    seek = seek_open(user_id=ana.pk, pool_key="draw-4p")
    seek_join(user_id=ben.pk, seek_id=seek.pk)
    seek_join(user_id=cy.pk, seek_id=seek.pk)
    search_unwatched_task(ben.pk)  # the joiner closed the lobby: their place goes
    assert set(
        SeekPlayer.objects.filter(active=True).values_list("user_id", flat=True)
    ) == {ana.pk, cy.pk}
    open_sockets.add(ana.pk)
    search_unwatched_task(ana.pk)  # another tab of the owner is open: kept
    assert Seek.objects.get(pk=seek.pk).status == "open"
    open_sockets.clear()
    search_unwatched_task(ana.pk)
    assert Seek.objects.get(pk=seek.pk).status == "expired"
    assert not seek_abandon(user_id=ana.pk)
