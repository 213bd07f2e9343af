"""Spectators see a table behind the game (one move; a whole hand at stake tables),
never earlier, hear nothing while what they are shown stays the same (not even how
many moves were made), and everyone is told how many people watch."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games import engine
from games.models import Table
from games.selectors import table_frame
from games.services import table_act
from games.spectators import WATCH_SECONDS, watched_mark
from tests.support import session_cookie, tables
from tests.support.frames import TableFrames


def wire(value):
    """What a value looks like after the trip to a browser."""
    return json.loads(json.dumps(value))


def spectator_view(table_id: int):
    return table_frame(table_id=table_id, position=None)["view"]


def page_view(state, position=None):
    """The view a frame carries (without the engine's own copy of the state)."""
    view = wire(engine.view(state, position))
    view.pop("public_state")
    return view


def view_of(state_json, position=None):
    return page_view(engine.from_json(state_json), position)


def act_once(table_id: int, users: dict[int, object], rng: random.Random) -> None:
    """The seat whose turn it is makes one legal move (or starts the next hand)."""
    table = Table.objects.get(pk=table_id)
    state = engine.from_json(table.state)
    for position, user in users.items():
        legal = engine.legal_actions(state, position)
        if legal or state.phase == "hand_over":
            action = rng.choice(legal) if legal else engine.Action.next_hand()
            table_act(
                table_id=table_id,
                user=user,
                action=engine.action_to_dict(action),
                expected_seq=table.seq,
            )
            return
    raise AssertionError(f"nobody can act in phase {state.phase}")


@pytest.mark.django_db
def test_spectators_see_every_move_one_move_late_and_the_match_end_at_once(
    make_user, queued
):
    table, ana, ben = tables.two_human_table(make_user, mode="online")
    assert spectator_view(table.pk) == view_of(table.state)  # the deal, before a move
    seen = []  # after each step: the state, and what spectators are shown
    before = [table.state]  # before each step: the state

    def record(now: Table) -> None:
        seen.append((now.state, spectator_view(now.pk)))
        before.append(now.state)

    tables.drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3), on_step=record)
    assert len(seen) > 20
    for i, (state, shown) in enumerate(seen):
        if state["phase"] == "match_over":
            assert shown == view_of(state)
        else:
            # What spectators are shown is the state before the latest move.
            assert shown == view_of(before[i]), f"step {i}"
            assert shown != view_of(state)


@pytest.mark.django_db
def test_a_stake_table_is_shown_to_spectators_a_whole_hand_late(make_user, queued):
    table, ana, ben = tables.two_human_table(make_user, mode="stake")
    deal = table.state
    rng = random.Random(5)
    hands_over = 0
    last_hand_over = None
    for _ in range(400):
        act_once(table.pk, {0: ana, 1: ben}, rng)
        now = Table.objects.get(pk=table.pk)
        shown = spectator_view(now.pk)
        phase = now.state["phase"]
        if phase in {"hand_over", "match_over"}:
            hands_over += 1
            last_hand_over = now.state
            assert shown == view_of(now.state)
        else:
            # Mid-hand: the first deal, or the last hand as it ended.
            assert shown == view_of(last_hand_over or deal)
            assert shown != view_of(now.state)
        if phase == "match_over" or hands_over >= 2:
            break
    assert hands_over >= 2


@pytest.mark.django_db
def test_the_spectators_frame_after_a_move_holds_the_state_before_it_and_no_clock(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, ben = tables.two_human_table(make_user, mode="online", clock=30)
    first = table.state
    watched_mark(table.pk)  # a spectator's socket is open
    with django_capture_on_commit_callbacks(execute=True):
        act_once(table.pk, {0: ana, 1: ben}, random.Random(1))
    frames = {group: json.loads(m["text"]) for group, m in pushes}
    watch = frames[f"table.{table.pk}.watch"]
    player = frames[f"table.{table.pk}.seat.0"]
    assert watch["seq"] == player["seq"] == table.seq + 1
    assert watch["view"] == view_of(first)
    # The deal's events, not the move's: the move is told with the next one.
    deal_events = engine.from_json(first).events
    assert watch["events"] == wire(engine.events_for(list(deal_events), None))
    assert [e["type"] for e in watch["events"]] == ["hand_started"]
    assert "hand_started" not in [e["type"] for e in player["events"]]
    assert player["table"]["timer"] is not None
    assert watch["table"]["timer"] is None


@pytest.mark.django_db
def test_no_spectators_frame_while_nobody_watches_and_none_once_it_lapses(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    table, ana, ben = tables.two_human_table(make_user, mode="online")
    rng = random.Random(4)

    def groups_of_one_move() -> list[str]:
        pushes.clear()
        with django_capture_on_commit_callbacks(execute=True):
            act_once(table.pk, {0: ana, 1: ben}, rng)
        return sorted(group for group, _m in pushes)

    watch = f"table.{table.pk}.watch"
    assert watch not in groups_of_one_move()
    watched_mark(table.pk)
    assert watch in groups_of_one_move()
    Table.objects.filter(pk=table.pk).update(
        watched_until=timezone.now() - timedelta(seconds=1)
    )
    assert watch not in groups_of_one_move()
    watched_mark(table.pk)
    ahead = Table.objects.get(pk=table.pk).watched_until - timezone.now()
    assert (
        timedelta(seconds=WATCH_SECONDS - 5) < ahead <= timedelta(seconds=WATCH_SECONDS)
    )


async def connect(table_id: int, user) -> WebsocketCommunicator:
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table_id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    assert (await comm.connect(timeout=10))[0]
    return comm


async def told_none_watch(comm: WebsocketCommunicator) -> None:
    """The next counts told end at zero (an earlier count may come twice: a
    connection's own connect and the news of a spectator can cross)."""
    for _ in range(5):
        if (await next_of(comm, "watching"))["count"] == 0:
            return
    raise AssertionError("never told that nobody watches")


async def next_of(comm: WebsocketCommunicator, kind: str) -> dict:
    """The next frame of ``kind`` (skipping the others)."""
    for _ in range(20):
        frame = await comm.receive_json_from(timeout=10)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def same_state_on_sync(
    comm: WebsocketCommunicator, frames: TableFrames, last: dict
) -> bool:
    """Ask for the state: no frame comes before the answer, and the answer is
    ``last`` again, under its own number (without the events told with it)."""
    await comm.send_json_to({"type": "sync"})
    frame = await comm.receive_json_from(timeout=10)
    assert frame["type"] == "state", f"sent while nothing changed: {frame}"
    assert frames.read(frame) == {**last, "events": []}
    return True


async def next_state(comm: WebsocketCommunicator, frames: TableFrames) -> dict:
    """The next state the socket sends, whole or as a patch of the one before."""
    for _ in range(20):
        frame = frames.read(await comm.receive_json_from(timeout=10))
        if frame["type"] == "state":
            return frame
    raise AssertionError("no state frame")


@pytest.mark.django_db(transaction=True)
async def test_over_real_sockets_no_move_reaches_a_spectator_before_the_next(
    make_user,
):
    table, ana, ben = await database_sync_to_async(tables.two_human_table)(
        make_user, mode="online"
    )
    players = {0: ana, 1: ben}
    rng = random.Random(2)
    watcher = await database_sync_to_async(make_user)("watcher")
    seat = await connect(table.pk, ana)
    assert (await next_of(seat, "state"))["you"] == 0
    spectator = await connect(table.pk, watcher)
    shown = TableFrames()
    first = await next_state(spectator, shown)
    assert first["you"] is None
    assert await next_of(spectator, "watching") == {"type": "watching", "count": 1}
    assert await next_of(seat, "watching") == {"type": "watching", "count": 1}

    # The first move leaves the spectators on the deal: nothing is sent to them.
    await database_sync_to_async(act_once)(table.pk, players, rng)
    after_first = await database_sync_to_async(tables.table_state)(table.pk)
    assert await same_state_on_sync(spectator, shown, first)

    # From then on each move shows them the one before, numbered by their socket.
    before = after_first
    for step in range(1, 6):
        await database_sync_to_async(act_once)(table.pk, players, rng)
        frame = await next_state(spectator, shown)
        assert frame["seq"] == first["seq"] + step
        assert frame["view"] == page_view(before)
        before = await database_sync_to_async(tables.table_state)(table.pk)

    await spectator.disconnect()
    await told_none_watch(seat)
    await seat.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_person_watching_in_two_pages_counts_once(make_user):
    table, ana, _ben = await database_sync_to_async(tables.two_human_table)(
        make_user, mode="online"
    )
    watcher = await database_sync_to_async(make_user)("watcher")
    seat = await connect(table.pk, ana)
    one = await connect(table.pk, watcher)
    # The seat may learn of the spectator twice (its own connect counting them, and
    # the spectator's news), never anything but one.
    assert await next_of(seat, "watching") == {"type": "watching", "count": 1}
    two = await connect(table.pk, watcher)
    assert await next_of(two, "watching") == {"type": "watching", "count": 1}
    await one.disconnect()
    # Still one person watching: nothing new to tell.
    told = []
    while not await seat.receive_nothing(timeout=0.5):
        frame = await seat.receive_json_from(timeout=1)
        if frame["type"] == "watching":
            told.append(frame["count"])
    assert set(told) <= {1}
    await two.disconnect()
    await told_none_watch(seat)
    await seat.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_stake_table_spectator_hears_nothing_until_the_hand_ends(make_user):
    table, ana, ben = await database_sync_to_async(tables.two_human_table)(
        make_user, mode="stake"
    )
    players = {0: ana, 1: ben}
    rng = random.Random(5)
    watcher = await database_sync_to_async(make_user)("watcher")
    spectator = await connect(table.pk, watcher)
    shown = TableFrames()
    first = await next_state(spectator, shown)
    assert await next_of(spectator, "watching") == {"type": "watching", "count": 1}
    # A spectator who acts is refused without learning the table's number either.
    await spectator.send_json_to({"type": "act", "seq": 1, "action": {}})
    refused = await next_of(spectator, "error")
    assert refused["code"] == "not_seated" and refused["seq"] == first["seq"]

    moves = 0
    while True:
        await database_sync_to_async(act_once)(table.pk, players, rng)
        now = await database_sync_to_async(tables.table_state)(table.pk)
        if now.phase == "hand_over":
            break
        moves += 1
        # Not a frame per move, not even an empty one; a sync answers with the
        # same state under the same number, whatever the table's count of moves.
        # A sync every few moves sees every frame sent since the last one, and
        # stays inside the socket's rate limit however long the hand.
        if moves % 4 == 0:
            assert await same_state_on_sync(spectator, shown, first)
    assert moves > 5

    # The end of the hand is theirs to see, as the next state of their socket.
    ended = await next_state(spectator, shown)
    assert ended["seq"] == first["seq"] + 1
    assert ended["view"] == page_view(now)
    assert ended["view"] != first["view"] and ended["events"]
    # Asked again, the same state under the same number, its events told once.
    assert await same_state_on_sync(spectator, shown, ended)

    # Their seats stay current: a player's connection is news to them.
    seat = await connect(table.pk, ana)
    await next_of(seat, "state")
    seated = await next_state(spectator, shown)
    assert seated["seq"] == first["seq"] + 2
    assert seated["seats"][0]["connected"] and seated["view"] == ended["view"]

    await spectator.disconnect()
    await seat.disconnect()
