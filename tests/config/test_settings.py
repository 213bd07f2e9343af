"""Settings resolve to the embedded default without variables and to the distributed
set-up with them; in CI the live connections prove it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, django
django.setup()
from django.conf import settings as s
db = s.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "options": db.get("OPTIONS", {}),
    "layer": s.CHANNEL_LAYERS["default"]["BACKEND"],
    "hosts": s.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "cache": s.CACHES["default"]["BACKEND"],
    "broker": s.CELERY_BROKER_URL, "embedded_worker": s.EMBEDDED_WORKER,
    "bot_machine_speed": s.BOT_MACHINE_SPEED,
}))
"""


def probe(**extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DATABASE_URL", "REDIS_URL", "EMBEDDED_WORKER", "BOT_MACHINE_SPEED"}
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **extra)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def resolve(**extra: str) -> dict:
    out = probe(**extra)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_embedded_default_without_variables():
    got = resolve()
    assert got["engine"] == "django.db.backends.sqlite3"
    assert got["options"]["transaction_mode"] == "IMMEDIATE"
    assert got["layer"] == "channels.layers.InMemoryChannelLayer"
    assert got["cache"].endswith("LocMemCache")
    assert got["broker"].startswith("memory://")
    assert got["embedded_worker"] is True
    assert got["bot_machine_speed"] is None  # "auto": measured per process


def test_distributed_with_variables():
    got = resolve(
        DATABASE_URL="postgres://u@db.example:5432/dom",
        REDIS_URL="redis://cache.example:6379/3",
    )
    assert got["engine"] == "django.db.backends.postgresql"
    assert got["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    # The redis-py 8 traps: no read timeout on idle sockets, a pool larger than 100.
    (host,) = got["hosts"]
    assert host["address"] == "redis://cache.example:6379/3"
    assert host["socket_timeout"] is None
    assert host["max_connections"] > 100
    assert got["cache"].endswith("RedisCache")
    assert got["broker"] == "redis://cache.example:6379/3"
    assert got["embedded_worker"] is False


def test_bot_machine_speed_fixed_or_auto():
    assert resolve(BOT_MACHINE_SPEED="0.45")["bot_machine_speed"] == 0.45
    assert resolve(BOT_MACHINE_SPEED=" Auto ")["bot_machine_speed"] is None


@pytest.mark.parametrize("bad", ["fast", "0", "-1", "nan", "9"])
def test_a_bad_bot_machine_speed_stops_the_start(bad):
    out = probe(BOT_MACHINE_SPEED=bad)
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr
    assert "BOT_MACHINE_SPEED must be 'auto' or a number from 0.1 to 4" in out.stderr


@pytest.mark.services
@pytest.mark.django_db
def test_live_connections_are_postgresql_and_redis():
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.core.cache import cache
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT version()")
        assert "PostgreSQL" in cur.fetchone()[0]
    assert connection.vendor == "postgresql"
    cache.set("settings-probe", "here", 5)
    assert cache.get("settings-probe") == "here"
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisPubSubChannelLayer"

    async def round_trip():
        name = await layer.new_channel()
        await layer.send(name, {"type": "probe", "n": 7})
        return await layer.receive(name)

    assert async_to_sync(round_trip)()["n"] == 7
    assert settings.CELERY_BROKER_URL.startswith("redis://")
