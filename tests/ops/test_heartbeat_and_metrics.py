"""``/healthz`` tells whether a worker and beat run and whether a table is stuck;
``/metrics`` exposes the counters and the scrape-time gauges."""

import re
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import cache
from django.utils import timezone
from prometheus_client import REGISTRY

from games.models import Table
from ops import checks
from ops.heartbeat import BEAT_KEY, WORKER_KEY, WORKER_TASK_KEY
from ops.tasks import heartbeat
from tests.support.tables import two_human_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_heartbeat():
    cache.delete_many([WORKER_KEY, BEAT_KEY, WORKER_TASK_KEY])
    yield
    cache.delete_many([WORKER_KEY, BEAT_KEY, WORKER_TASK_KEY])


def test_healthz_is_503_naming_the_worker_when_no_heartbeat_is_fresh(client):
    # No worker runs in this test, and beat never sent a heartbeat.
    resp = client.get("/healthz")
    body = resp.json()
    assert resp.status_code == 503
    assert "worker" in body["down"] and "beat" in body["down"]
    assert body["components"]["worker"]["error"] == "no worker heartbeat yet"
    assert "database" not in body["down"]


def test_the_load_balancer_can_check_only_what_a_web_process_needs(client):
    resp = client.get("/healthz?only=database,channel_layer")
    assert resp.status_code == 200, resp.json()
    assert set(resp.json()["components"]) == {"database", "channel_layer"}
    assert client.get("/healthz?only=worker").json()["down"] == ["worker"]


def test_a_stale_heartbeat_is_reported_with_its_age(client):
    cache.set(WORKER_KEY, time.time() - 75, 600)
    cache.set(BEAT_KEY, time.time() - 1, 600)
    body = client.get("/healthz").json()
    assert body["down"] == ["worker"]
    assert body["components"]["worker"]["error"] == "no worker heartbeat for 75 s"
    assert body["components"]["beat"]["status"] == "up"


def test_a_heartbeat_sent_through_the_broker_and_run_by_a_worker_clears_it(
    client, celery_worker_running
):
    heartbeat.delay()  # as beat sends it: the publish stamps beat's heartbeat
    deadline = time.monotonic() + 20
    while cache.get(WORKER_KEY) is None:
        assert time.monotonic() < deadline, "no worker ran the heartbeat"
        time.sleep(0.1)
    body = client.get("/healthz").json()
    assert body["components"]["worker"]["status"] == "up", body
    assert body["components"]["beat"]["status"] == "up", body
    assert body["components"]["worker"]["backend"].startswith("heartbeat ")


def test_a_table_long_past_its_deadline_is_named(make_user, client):
    table, _, _ = two_human_table(make_user)
    assert checks.check_timers() == "no table overdue"
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - timedelta(seconds=5)
    )
    assert checks.check_timers().startswith("oldest overdue table 5.")
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - timedelta(seconds=40)
    )
    body = client.get("/healthz").json()
    assert "timers" in body["down"]
    # 40 s, or a second or two more when the machine is slow to answer.
    assert re.fullmatch(
        rf"table {table.pk} is 4[0-5] s past its deadline",
        body["components"]["timers"]["error"],
    )


def _sample(name, **labels):
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_expose_moves_frames_errors_and_gauges(make_user, client, pushes):
    from games import engine
    from games.services import table_act
    from realtime import outbox

    moves = _sample("dominoes_moves_total", actor="player")
    table, ana, _ = two_human_table(make_user)
    state = engine.from_json(table.state)
    mover = ana if engine.legal_actions(state, 0) else None
    position = 0 if mover else 1
    user = mover or table.seats.get(position=1).user
    action = engine.legal_actions(state, position)[0]
    table_act(
        table_id=table.pk,
        user=user,
        action=engine.action_to_dict(action),
        expected_seq=table.seq,
    )
    assert _sample("dominoes_moves_total", actor="player") == moves + 1
    frames = _sample("dominoes_frames_sent_total")
    packed = {
        "type": outbox.FRAMES_TYPE,
        "seq": 1,
        "texts": {"seat.0": "{}", "watch": "{}"},
    }
    async_to_sync(outbox._send_all)([("ops.metrics", packed)])
    assert _sample("dominoes_frames_sent_total") == frames + 2

    cache.set(WORKER_KEY, time.time() - 3, 600)
    resp = client.get("/metrics")
    assert resp.status_code == 200
    text = resp.content.decode()
    age_line = next(
        line
        for line in text.splitlines()
        if line.startswith("dominoes_worker_heartbeat_age_seconds ")
    )
    assert 3 <= float(age_line.split()[1]) < 10
    assert "dominoes_beat_heartbeat_age_seconds +Inf" in text
    assert "dominoes_oldest_overdue_table_seconds" in text
    assert "dominoes_moves_total" in text


@pytest.mark.django_db(transaction=True)
async def test_an_error_frame_counts_under_its_code(make_user):
    from channels.db import database_sync_to_async

    from tests.realtime.test_hostile_frames import join, next_of

    table, ana, _ = await database_sync_to_async(two_human_table)(make_user)
    sample = database_sync_to_async(_sample)  # a scrape reads the database
    before = await sample("dominoes_socket_errors_total", code="bad_json")
    comm = await join(table.pk, ana)
    await next_of(comm, "state")
    await comm.send_to(text_data="not json")
    assert (await next_of(comm, "error"))["code"] == "bad_json"
    assert await sample("dominoes_socket_errors_total", code="bad_json") == before + 1
    await comm.disconnect()
