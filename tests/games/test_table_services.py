"""Table services: start, act, timers, clocks, away, leaving, results, replay."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import engine, finish
from games.errors import TableError
from games.models import Seat, Table, TableEvent
from games.replay import table_verify
from games.services import (
    seat_back,
    seat_free,
    seat_join,
    seat_leave,
    table_act,
    table_create,
    table_practice_create,
    table_start,
    table_tick,
)
from tests.support.tables import drive, table_state, two_human_table

pytestmark = pytest.mark.django_db


def practice(user, variant="block", levels=("easy",), **options):
    return table_practice_create(
        user=user,
        variant=variant,
        options=options,
        bot_levels=list(levels),
        bot_speed="instant",
    )


def two_humans(make_user, variant="draw", clock=None, **options):
    return two_human_table(make_user, variant=variant, clock=clock, **options)


@pytest.mark.django_db(transaction=True)
def test_practice_table_starts_dealt_with_a_log(make_user, queued, pushes):
    user = make_user()
    table = practice(user, levels=("easy", "hard", "medium"), seats=4)
    assert table.status == Table.Status.PLAYING
    assert table.seq == 1
    assert [s.bot_level for s in table.seats.all()] == ["", "easy", "hard", "medium"]
    assert TableEvent.objects.get(table=table).seq == 1
    assert table.clock_seconds is None  # practice: no clock
    # The player's own frame; nobody sits in a bot's seat, nor watches yet.
    groups = {g for g, _ in pushes}
    assert groups == {f"table.{table.pk}.seat.0"}  # nobody watches it yet


def test_bad_options_are_refused_and_create_nothing(make_user):
    user = make_user()
    with pytest.raises(TableError) as err:
        practice(user, variant="spider", levels=("easy", "easy"), seats=3)
    assert err.value.code == "bad_options" and err.value.field == "seats"
    assert "2 players" in err.value.message
    with pytest.raises(TableError):
        practice(user, levels=("genius",))
    with pytest.raises(TableError):
        practice(user, variant="nope")
    assert not Table.objects.exists()


@pytest.mark.parametrize("variant", ["block", "all_fives", "spider"])
def test_practice_match_plays_to_the_end_and_replays(
    make_user, queued, pushes, variant, django_capture_on_commit_callbacks, monkeypatch
):
    user = make_user()
    table = practice(user, variant=variant, levels=("medium",), target=50)
    finished = []
    monkeypatch.setitem(
        finish._registry,
        "test",
        finish.Consequence("test", finished.append, frozenset({"practice"})),
    )
    with django_capture_on_commit_callbacks(execute=True):
        table = drive(table.pk, {0: user}, rng=random.Random(3))
    assert table.status == Table.Status.FINISHED
    assert table.finished_at is not None
    seats = list(table.seats.all())
    assert {s.place for s in seats} <= {1, 2} and 1 in {s.place for s in seats}
    assert all(s.score is not None for s in seats)
    state = table_state(table.pk)
    assert engine.is_match_over(state)
    assert [r.place for r in finished[0].results] == [s.place for s in seats]
    assert len(finished) == 1
    table_verify(table=table)
    call_command("table_verify", str(table.pk))


def test_two_humans_play_to_the_end(make_user, queued):
    table, ana, ben = two_humans(make_user, target=50)
    table = drive(table.pk, {0: ana, 1: ben}, rng=random.Random(5))
    assert table.status == Table.Status.FINISHED
    table_verify(table=table)


def test_table_verify_detects_a_tampered_state(make_user, queued):
    table, ana, ben = two_humans(make_user)
    state = table_state(table.pk)
    seat = engine.current_seat(state)
    user = ana if seat == 0 else ben
    legal = engine.legal_actions(state, seat)
    table_act(
        table_id=table.pk,
        user=user,
        action=engine.action_to_dict(legal[0]),
        expected_seq=table.seq,
    )
    TableEvent.objects.filter(table=table).order_by("-seq").first().delete()
    with pytest.raises(CommandError):
        call_command("table_verify", str(table.pk))


def snapshot(table_id):
    t = Table.objects.get(pk=table_id)
    return (
        t.seq,
        t.state,
        t.status,
        TableEvent.objects.filter(table=t).count(),
        list(Seat.objects.filter(table=t).values_list("away", "forfeited")),
    )


def test_bad_actions_change_nothing(make_user, queued):
    table, ana, ben = two_humans(make_user)
    state = table_state(table.pk)
    mover = engine.current_seat(state)
    me, other = (ana, ben) if mover == 0 else (ben, ana)
    watcher = make_user("watcher")
    before = snapshot(table.pk)
    hand = engine.view(state, mover)["hand"]
    other_hand = engine.view(state, 1 - mover)["hand"]
    cases = [
        (other, {"type": "draw"}, table.seq, None, "not_your_turn"),
        (me, {"type": "draw"}, table.seq, 1 - mover, "not_your_seat"),
        (watcher, {"type": "draw"}, table.seq, None, "not_seated"),
        (me, {"type": "draw"}, table.seq - 1, None, "stale_seq"),
        (me, {"type": "fly"}, table.seq, None, "bad_action"),
        (me, "not a dict", table.seq, None, "bad_action"),
        (
            me,
            {"type": "play", "tile": other_hand[0], "end": "root"},
            table.seq,
            None,
            "illegal",
        ),
        (
            me,
            {"type": "play", "tile": hand[0], "end": "nowhere"},
            table.seq,
            None,
            "illegal",
        ),
        (me, {"type": "claim", "points": 5}, table.seq, None, "illegal"),
    ]
    for user, action, seq, seat, code in cases:
        with pytest.raises(TableError) as err:
            table_act(
                table_id=table.pk,
                user=user,
                action=action,
                expected_seq=seq,
                claimed_seat=seat,
            )
        assert err.value.code == code, (action, err.value.code)
        assert err.value.message
        assert snapshot(table.pk) == before


def test_acting_on_a_finished_table_is_refused(make_user, queued):
    table, ana, ben = two_humans(make_user, target=50)
    drive(table.pk, {0: ana, 1: ben}, rng=random.Random(8))
    before = snapshot(table.pk)
    with pytest.raises(TableError) as err:
        table_act(
            table_id=table.pk,
            user=ana,
            action={"type": "next_hand"},
            expected_seq=before[0],
        )
    assert err.value.code == "not_playing"
    assert snapshot(table.pk) == before


def test_stale_tick_does_nothing(make_user, queued):
    table, ana, ben = two_humans(make_user, clock=30)
    assert table.timer == Table.Timer.CLOCK
    before = snapshot(table.pk)
    assert table_tick(table_id=table.pk, seq=table.seq - 1) is False
    assert table_tick(table_id=table.pk, seq=table.seq + 5) is False
    # Due but not yet: nothing played, and no task queued (the clock sweep runs a
    # turn clock out by its deadline).
    assert table_tick(table_id=table.pk, seq=table.seq) is False
    assert snapshot(table.pk) == before
    assert queued == []


def test_expired_clock_plays_for_the_seat_and_marks_it_away(make_user, queued):
    table, ana, ben = two_humans(make_user, clock=30)
    mover = table.timer_seat
    Table.objects.filter(pk=table.pk).update(deadline=None)
    assert table_tick(table_id=table.pk, seq=table.seq) is True
    table.refresh_from_db()
    seat = table.seats.get(position=mover)
    assert seat.away
    last = TableEvent.objects.filter(table=table).latest("seq")
    assert last.actor == "clock" and last.seat == mover
    # Stale now: the same job again does nothing.
    assert table_tick(table_id=table.pk, seq=table.seq - 1) is False
    # An away seat is played by the stand-in at bot speed, not its full clock.
    state = table_state(table.pk)
    if engine.current_seat(state) == mover:
        assert table.timer == Table.Timer.BOT


def test_owner_acting_clears_away(make_user, queued):
    table, ana, ben = two_humans(make_user, clock=30)
    users = {0: ana, 1: ben}
    mover = table.timer_seat
    Table.objects.filter(pk=table.pk).update(deadline=None)
    table_tick(table_id=table.pk, seq=table.seq)
    # Play on until the away seat could act itself, then let its owner act.
    for _ in range(50):
        table.refresh_from_db()
        state = table_state(table.pk)
        legal = engine.legal_actions(state, mover)
        if legal:
            table_act(
                table_id=table.pk,
                user=users[mover],
                action=engine.action_to_dict(legal[0]),
                expected_seq=table.seq,
            )
            break
        other = engine.current_seat(state)
        if other is None:
            table_act(
                table_id=table.pk,
                user=users[mover],
                action={"type": "next_hand"},
                expected_seq=table.seq,
            )
            break
        table_act(
            table_id=table.pk,
            user=users[other],
            action=engine.action_to_dict(engine.legal_actions(state, other)[0]),
            expected_seq=table.seq,
        )
    assert not table.seats.get(position=mover).away


def test_back_takes_the_seat_from_the_stand_in(make_user, queued):
    table, ana, ben = two_humans(make_user, clock=30)
    users = {0: ana, 1: ben}
    mover = table.timer_seat
    Seat.objects.filter(table=table, position=mover).update(away=True)
    seat_back(table_id=table.pk, user=users[mover])
    table.refresh_from_db()
    assert not table.seats.get(position=mover).away
    assert table.timer == Table.Timer.CLOCK


def test_leaving_a_ranked_table_forfeits_and_a_bot_plays_on(make_user, queued):
    table, ana, ben = two_humans(make_user, clock=30, target=50)
    seat_leave(table_id=table.pk, user=ana)
    seat = table.seats.get(user=ana)
    assert seat.forfeited and seat.away
    table = drive(table.pk, {1: ben}, rng=random.Random(2))
    assert table.status == Table.Status.FINISHED
    places = dict(table.seats.values_list("position", "place"))
    assert places[0] == 2  # the leaver finishes last whatever the score
    assert places[1] == 1


def test_leaving_practice_abandons_the_table(make_user, queued):
    user = make_user()
    table = practice(user)
    seat_leave(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED
    assert not table.timer


def test_seat_join_rules(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = table_create(mode="friend", variant="draw", host=ana)
    seat_join(table_id=table.pk, user=ana)
    with pytest.raises(TableError, match="already"):
        seat_join(table_id=table.pk, user=ana)
    with pytest.raises(TableError) as err:
        table_start(table_id=table.pk)
    assert err.value.code == "not_full"
    seat_join(table_id=table.pk, user=ben)
    with pytest.raises(TableError) as err:
        seat_join(table_id=table.pk, user=cy)
    assert err.value.code == "table_full"
    # A waiting friend seat is the room service's to free, not the generic leave's.
    with pytest.raises(TableError) as err:
        seat_leave(table_id=table.pk, user=ben)
    assert err.value.code == "leave_elsewhere"
    seat_free(table_id=table.pk, user_id=ben.pk)  # what the room service calls
    seat_join(table_id=table.pk, user=cy)
    table_start(table_id=table.pk)
    with pytest.raises(TableError) as err:
        seat_join(table_id=table.pk, user=ben)
    assert err.value.code == "not_waiting"


def test_one_move_costs_at_most_8_queries(
    make_user, queued, pushes, django_assert_max_num_queries
):
    table, ana, ben = two_humans(make_user)
    state = table_state(table.pk)
    mover = engine.current_seat(state)
    user = ana if mover == 0 else ben
    action = engine.action_to_dict(engine.legal_actions(state, mover)[0])
    with django_assert_max_num_queries(8):
        table_act(table_id=table.pk, user=user, action=action, expected_seq=table.seq)


def test_bot_tick_costs_at_most_8_queries(
    make_user, queued, pushes, django_assert_max_num_queries
):
    user = make_user()
    table = practice(user, levels=("medium",))
    state = table_state(table.pk)
    if engine.current_seat(state) == 0:
        table_act(
            table_id=table.pk,
            user=user,
            action=engine.action_to_dict(engine.legal_actions(state, 0)[0]),
            expected_seq=table.seq,
        )
        table.refresh_from_db()
    Table.objects.filter(pk=table.pk).update(deadline=None)
    with django_assert_max_num_queries(8):
        assert table_tick(table_id=table.pk, seq=table.seq)
