"""``/healthz`` and a countdown task scheduled from a request."""

import time

import pytest

from ops import checks

pytestmark = pytest.mark.django_db


def test_healthz_reports_every_component_up(client, celery_worker_running):
    from django.core.cache import cache

    from ops.heartbeat import WORKER_KEY
    from ops.tasks import heartbeat

    cache.delete(WORKER_KEY)
    heartbeat.delay()  # as beat sends it
    deadline = time.monotonic() + 20
    while cache.get(WORKER_KEY) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    resp = client.get("/healthz")
    body = resp.json()
    assert resp.status_code == 200, body
    assert body["status"] == "ok"
    assert set(body["components"]) == {
        "database",
        "channel_layer",
        "broker",
        "worker",
        "beat",
        "timers",
    }
    assert all(c["status"] == "up" for c in body["components"].values())


@pytest.mark.parametrize("component", list(checks.CHECKS))
def test_healthz_is_503_naming_what_is_down(client, monkeypatch, component, caplog):
    def broken():
        raise ConnectionError(f"{component} unreachable")

    monkeypatch.setitem(checks.CHECKS, component, broken)
    # Everything else is reported as is; force the others up so only one is down.
    for other in checks.CHECKS:
        if other != component:
            monkeypatch.setitem(checks.CHECKS, other, lambda: "fake")
    resp = client.get("/healthz")
    assert resp.status_code == 503
    body = resp.json()
    assert body["down"] == [component]
    assert body["components"][component]["status"] == "down"
    assert "unreachable" in body["components"][component]["error"]


def test_broker_check_fails_when_the_embedded_worker_is_dead(settings, monkeypatch):
    from config import embedded_worker

    settings.EMBEDDED = True
    settings.EMBEDDED_WORKER = True
    monkeypatch.setattr(embedded_worker, "embedded_worker_alive", lambda: False)
    with pytest.raises(RuntimeError, match="in-process worker"):
        checks.check_broker()


def test_countdown_task_from_a_request_fires_after_its_countdown(
    client, make_user, celery_worker_running
):
    client.force_login(make_user("ops", is_staff=True))
    started = time.monotonic()
    resp = client.post("/ops/beacon/", {"countdown": "1.5"})
    assert resp.status_code == 202
    token = resp.json()["token"]
    # Not run eagerly: right after scheduling it has not fired.
    assert client.get(f"/ops/beacon/{token}/").json()["state"] == "scheduled"
    while True:
        state = client.get(f"/ops/beacon/{token}/").json()["state"]
        if state == "fired":
            break
        assert time.monotonic() - started < 30, "the countdown task never fired"
        time.sleep(0.1)
    assert time.monotonic() - started >= 1.4  # the countdown was honoured


def test_beacon_is_staff_only_and_checks_input(client, make_user):
    assert client.post("/ops/beacon/", {"countdown": "1"}).status_code == 302
    client.force_login(make_user("staffer", is_staff=True))
    assert client.post("/ops/beacon/", {"countdown": "soon"}).status_code == 400
    assert client.post("/ops/beacon/", {"countdown": "9999"}).status_code == 400
    assert client.get("/ops/beacon/deadbeef/").status_code == 404


@pytest.mark.services
async def test_channel_layer_probe_leaves_no_subscription_behind():
    """Inside a server the probe runs on the server's loop (as here): the pub/sub
    layer keeps that loop's subscriptions, so each probe must drop its own."""
    import redis.asyncio as aioredis
    from asgiref.sync import sync_to_async
    from django.conf import settings

    for _ in range(3):
        assert await sync_to_async(checks.check_channel_layer)() == (
            "RedisPubSubChannelLayer"
        )
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    try:
        left = await client.pubsub_channels("*healthz*")
    finally:
        await client.aclose()
    assert left == []


def test_embedded_beat_keeps_its_schedule_in_memory(tmp_path, monkeypatch):
    """The embedded default's beat writes no schedule file (one per process used
    to pile up in the temp folder) and still holds every scheduled task."""
    import tempfile

    from celery.beat import Scheduler

    from config import embedded_worker
    from config.celery import app

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    scheduler = embedded_worker.beat_service(app).service.get_scheduler()
    assert type(scheduler) is Scheduler
    assert set(app.conf.beat_schedule) == {
        "api-bot-queue",
        "ops-audit",
        "games-chain-reserve",
        "games-sweep-overdue",
        "games-clock-sweep",
        "games-finish-sweep",
        "games-practice-expire",
        "embed-purge",
        "ops-heartbeat",
        "leagues-rollover",
        "leagues-rollover-catch-up",
        "matchmaking-stake-sweep",
        "matchmaking-waves",
        "tournaments-arenas-schedule",
        "tournaments-arenas-tick",
        "tournaments-sitgo-sweep",
        "tournaments-swiss-sweep",
    }
    assert set(app.conf.beat_schedule) <= set(scheduler.schedule)
    assert list(tmp_path.iterdir()) == []


def _one_down(monkeypatch) -> None:
    monkeypatch.setitem(checks.CHECKS, "database", lambda: "postgresql")
    for other in checks.CHECKS:
        if other != "database":
            monkeypatch.setitem(checks.CHECKS, other, lambda: "fake")

    def broken():
        raise ConnectionError("could not connect to server db.internal:5432")

    monkeypatch.setitem(checks.CHECKS, "broker", broken)


def test_healthz_shows_the_public_only_status_names(client, monkeypatch):
    _one_down(monkeypatch)
    resp = client.get("/healthz", REMOTE_ADDR="203.0.113.9")
    assert resp.status_code == 503
    body = resp.json()
    assert body["status"] == "down" and body["down"] == ["broker"]
    assert body["components"]["broker"] == {"status": "down"}
    assert body["components"]["database"] == {"status": "up"}
    assert "db.internal" not in resp.content.decode()


def test_healthz_details_for_staff_and_local_probes(client, monkeypatch, make_user):
    _one_down(monkeypatch)
    local = client.get("/healthz", REMOTE_ADDR="::1").json()
    assert "db.internal" in local["components"]["broker"]["error"]
    assert local["components"]["database"]["backend"] == "postgresql"
    client.force_login(make_user("Staffer", is_staff=True))
    staff = client.get("/healthz", REMOTE_ADDR="203.0.113.9").json()
    assert "db.internal" in staff["components"]["broker"]["error"]


def test_healthz_behind_the_proxy_judges_the_client_not_the_proxy(
    client, monkeypatch, settings
):
    """Through the proxy every request comes from 127.0.0.1."""
    _one_down(monkeypatch)
    settings.BEHIND_PROXY = True
    outside = client.get(
        "/healthz", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9"
    ).json()
    assert outside["components"]["broker"] == {"status": "down"}
    forged = client.get(
        "/healthz",
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="127.0.0.1, 203.0.113.9",
    ).json()
    assert forged["components"]["broker"] == {"status": "down"}
    direct = client.get("/healthz", REMOTE_ADDR="127.0.0.1").json()
    assert "db.internal" in direct["components"]["broker"]["error"]
