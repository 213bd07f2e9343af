"""The beacon (a countdown task that proves workers run scheduled work), the
heartbeat and the hourly audit."""

from celery import shared_task
from django.core.cache import cache

from ops.audit import audit_run
from ops.heartbeat import worker_ran

BEACON_TTL = 600


def beacon_key(token: str) -> str:
    return f"ops:beacon:{token}"


@shared_task(name="ops.beacon_fire", ignore_result=True)
def beacon_fire(token: str) -> None:
    """Mark the beacon fired; firing twice is harmless."""
    cache.set(beacon_key(token), "fired", BEACON_TTL)


@shared_task(name="ops.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Note that a worker ran timed work just now (``/healthz``)."""
    worker_ran()


@shared_task(name="ops.audit", ignore_result=True)
def audit() -> int:
    """Run the whole audit (hourly by beat); return the number of breaches."""
    return sum(len(lines) for lines in audit_run().values())
