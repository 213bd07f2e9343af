"""What the benchmarks that start their own servers share: the servers' environment
and their PostgreSQL database.

``bench/ws_load.py`` and ``bench/chaos.py`` start daphne and Celery processes as
subprocesses; both hand them (and themselves) an environment pointing at the
benchmark's database and Redis, and make sure that database exists and is migrated.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def server_env(*, database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """This process's environment without proxies or test-only flags, pointed at the
    benchmark's database and Redis, with ``extra`` settings on top."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "ENV_FILE"}
        and not k.lower().endswith("_proxy")
    }
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        LOG_LEVEL="WARNING",
        NO_PROXY="127.0.0.1,localhost",
        no_proxy="127.0.0.1,localhost",
        PYTHONUNBUFFERED="1",
        STATIC_MANIFEST="false",  # nothing collected: serve the source files
    )
    env.update(extra)
    return env


def database_ensure(db_name: str, env: dict[str, str]) -> None:
    """Create ``db_name`` on the local PostgreSQL if it is missing, then migrate it."""
    psql = ["psql", "-h", HOST, "-U", "postgres", "-tAc"]
    found = subprocess.run(
        [*psql, f"SELECT 1 FROM pg_database WHERE datname = '{db_name}'"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if found != "1":
        subprocess.run([*psql, f"CREATE DATABASE {db_name}"], check=True)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
