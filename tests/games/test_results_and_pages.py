"""Places at the end of a match, the sweep of lost jobs, the history page and export."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import Seat, Table
from games.results import seat_results
from games.services import table_act, table_practice_create
from games.sweep import tables_overdue_tick
from tests.support.tables import drive

pytestmark = pytest.mark.django_db


class FakeState:
    def __init__(self, variant, scores, winners, seats, partnership=False):
        self.options = engine.options_for(variant, seats=seats, partnership=partnership)
        self.scores = tuple(scores)
        self.winners = tuple(winners)


def seats_of(n, forfeited=()):
    return [
        Seat(position=i, forfeited=i in forfeited, bot_level="easy") for i in range(n)
    ]


def places(state, seats):
    return [r.place for r in seat_results(state=state, seats=seats)]


def test_places_follow_scores_and_partners_share():
    assert places(FakeState("draw", [120, 40, 90], [0], 3), seats_of(3)) == [1, 3, 2]
    state = FakeState("block", [100, 70], [1, 3], 4, partnership=True)
    state.scores, state.winners = (70, 100), (1, 3)
    assert places(state, seats_of(4)) == [2, 1, 2, 1]


def test_spider_penalties_rank_the_lowest_first():
    assert places(FakeState("spider", [104, 35], [1], 2), seats_of(2)) == [2, 1]


def test_a_forfeited_seat_finishes_last_and_the_rest_move_up():
    state = FakeState("draw", [150, 20, 60], [0], 3)
    assert places(state, seats_of(3, forfeited={0})) == [3, 2, 1]
    results = seat_results(state=state, seats=seats_of(3, forfeited={0}))
    assert [r.score for r in results] == [150, 20, 60]


def test_sweep_runs_the_job_of_a_table_whose_task_was_lost(make_user, queued):
    user = make_user()
    table = table_practice_create(
        user=user, variant="block", bot_levels=["easy"], bot_speed="instant"
    )
    # Play the person's turns until the computer's turn is waiting: in Block a
    # computer that cannot play passes at once and the turn comes back, so
    # how many turns that takes depends on the deal.
    for _ in range(10):
        state = engine.from_json(table.state)
        if table.timer == Table.Timer.BOT or engine.current_seat(state) != 0:
            break
        table_act(
            table_id=table.pk,
            user=user,
            action=engine.action_to_dict(engine.legal_actions(state, 0)[0]),
            expected_seq=table.seq,
        )
        table.refresh_from_db()
    assert table.timer == Table.Timer.BOT
    seq = table.seq
    assert tables_overdue_tick() == 0  # not overdue yet: the task may still come
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - timedelta(seconds=30)
    )
    assert tables_overdue_tick() == 1
    table.refresh_from_db()
    assert table.seq == seq + 1


def finished_practice(make_user):
    user = make_user()
    table = table_practice_create(
        user=user,
        variant="all_fives",
        options={"target": 50},
        bot_levels=["easy"],
        bot_speed="instant",
    )
    return drive(table.pk, {0: user}, rng=random.Random(1)), user


def test_history_page_reveals_every_hand_after_the_end(client, make_user, queued):
    table, user = finished_practice(make_user)
    client.force_login(user)
    resp = client.get(f"/tables/{table.pk}/history/")
    assert resp.status_code == 200
    hands = resp.context["hands"]
    assert hands and all(h.result is not None for h in hands)
    assert all(h.moves for h in hands)
    body = resp.content.decode()
    assert "Hand 1" in body and "played" in body


def test_history_is_closed_while_the_table_plays(client, make_user, queued):
    user = make_user()
    table = table_practice_create(user=user, variant="draw", bot_levels=["easy"])
    client.force_login(user)
    assert client.get(f"/tables/{table.pk}/history/").status_code == 404
    assert client.get(f"/tables/{table.pk}/log.json").status_code == 404
    assert client.get("/tables/999999/history/").status_code == 404


def test_json_export_holds_the_whole_log(client, make_user, queued):
    table, user = finished_practice(make_user)
    client.force_login(user)
    resp = client.get(f"/tables/{table.pk}/log.json")
    assert resp.status_code == 200
    data = resp.json()
    assert data["variant"] == "all_fives"
    assert [e["seq"] for e in data["log"]] == list(range(1, table.seq + 1))
    assert {s["place"] for s in data["seats"]} <= {1, 2}
    assert "seed" not in data


def test_pages_need_login(client, make_user, queued):
    table, _ = finished_practice(make_user)
    assert client.get(f"/tables/{table.pk}/history/").status_code == 302
