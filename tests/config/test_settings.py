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
    "secret_key": s.SECRET_KEY,
    "allauth_trusted_proxy_count": getattr(s, "ALLAUTH_TRUSTED_PROXY_COUNT", 0),
    "secure_proxy_ssl_header": s.SECURE_PROXY_SSL_HEADER,
    "hsts_seconds": getattr(s, "SECURE_HSTS_SECONDS", 0),
    "daphne_args": __import__("config.serve").serve.daphne_args([]),
}))
"""


def probe(**extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "EMBEDDED_WORKER",
            "BOT_MACHINE_SPEED",
            "SECRET_KEY",
            "SECRET_KEY_FILE",
            "DEBUG",
            "BEHIND_PROXY",
            "SECURE_COOKIES",
        }
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
    assert got["engine"] == "dbtools.postgresql"  # Django's, without a busy SELECT 1
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


# --- the secret key


OLD_DEFAULT_KEY = "embedded-default-insecure-key-change-me-in-production"


@pytest.mark.parametrize("key", [OLD_DEFAULT_KEY, "change-me-to-a-long-random-string"])
def test_published_secret_key_refused_without_debug(key: str, tmp_path: Path):
    out = probe(SECRET_KEY=key, SECRET_KEY_FILE=str(tmp_path / "key"))
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr and "published" in out.stderr
    assert resolve(SECRET_KEY=key, DEBUG="true")["secret_key"] == key


def test_a_deployment_key_is_used(tmp_path: Path):
    key = "k" * 20 + "-a-deployment-key-from-the-environment-0123456789"
    got = resolve(SECRET_KEY=key, SECRET_KEY_FILE=str(tmp_path / "key"))
    assert got["secret_key"] == key
    assert not (tmp_path / "key").exists()


def test_without_a_key_one_is_generated_and_kept(tmp_path: Path):
    """``make run`` needs no set-up: the key is random, private and stable."""
    path = tmp_path / "key"
    first = resolve(SECRET_KEY_FILE=str(path))["secret_key"]
    assert first != OLD_DEFAULT_KEY and len(first) >= 50
    assert path.stat().st_mode & 0o777 == 0o600
    assert resolve(SECRET_KEY_FILE=str(path))["secret_key"] == first
    other = resolve(SECRET_KEY_FILE=str(tmp_path / "other"))["secret_key"]
    assert other != first


def test_no_key_and_nowhere_to_keep_one(tmp_path: Path):
    out = probe(SECRET_KEY_FILE=str(tmp_path / "missing" / "key"))
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr and "SECRET_KEY" in out.stderr


def test_the_key_file_is_ignored_by_git():
    out = subprocess.run(
        ["git", "check-ignore", "-q", ".secret_key"], cwd=ROOT, check=False
    )
    assert out.returncode == 0


# --- behind the proxy


def test_behind_proxy_trusts_the_forwarded_address_everywhere():
    """One setting: Django's scheme, allauth's client address, daphne's headers."""
    plain = resolve()
    assert plain["allauth_trusted_proxy_count"] == 0
    assert "--proxy-headers" not in plain["daphne_args"]
    assert plain["hsts_seconds"] == 0
    got = resolve(BEHIND_PROXY="true", SECURE_COOKIES="true")
    assert got["allauth_trusted_proxy_count"] == 1
    assert got["secure_proxy_ssl_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert "--proxy-headers" in got["daphne_args"]
    assert got["hsts_seconds"] >= 180 * 24 * 3600
