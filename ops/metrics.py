"""``/metrics`` for Prometheus: counters from the hot paths, gauges read at scrape.

The counters (``dominoes_moves_total``, ``dominoes_frames_sent_total``,
``dominoes_socket_errors_total``) live beside the code they count, one ``inc()``
each. Daphne processes and workers are separate processes: with
``PROMETHEUS_MULTIPROC_DIR`` set (an empty directory shared by every process of the
host, cleared at boot) each process writes its counters there and a scrape sums them;
without it a scrape shows the serving process's own counters (the embedded default
runs everything in one process). The gauges are computed when scraped, from the
cache and the database, so they are the same whichever process answers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from ops.audit import audit_last
from ops.backlog import queue_backlog
from ops.checks import oldest_overdue
from ops.heartbeat import BEAT_KEY, WORKER_KEY, WORKER_TASK_KEY, stamp_age

NEVER = float("inf")


def _age(key: str) -> float:
    age = stamp_age(key)
    return NEVER if age is None else age


class HealthCollector(Collector):
    """Heartbeat ages and the overdue tables, read at scrape time."""

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "dominoes_worker_heartbeat_age_seconds",
            "Seconds since a worker last ran the heartbeat task (+Inf: never).",
            value=_age(WORKER_KEY),
        )
        yield GaugeMetricFamily(
            "dominoes_beat_heartbeat_age_seconds",
            "Seconds since beat last sent the heartbeat task (+Inf: never).",
            value=_age(BEAT_KEY),
        )
        yield from _audit_gauges()
        yield GaugeMetricFamily(
            "dominoes_worker_task_age_seconds",
            "Seconds since a worker last started any task (+Inf: never).",
            value=_age(WORKER_TASK_KEY),
        )
        length, waited = queue_backlog()
        yield GaugeMetricFamily(
            "dominoes_task_queue_length",
            "Tasks waiting in the deployment's task queue.",
            value=length,
        )
        yield GaugeMetricFamily(
            "dominoes_task_queue_oldest_seconds",
            "How long the oldest waiting task has waited (0: none waits).",
            value=waited or 0.0,
        )
        oldest = oldest_overdue()
        yield GaugeMetricFamily(
            "dominoes_oldest_overdue_table_seconds",
            "How far the playing table longest past its deadline is (0: none).",
            value=0.0 if oldest is None else oldest[1],
        )


def _audit_gauges() -> Iterator[Metric]:
    """The last audit's breaches per part and its age (NaN/+Inf: never ran)."""
    last = audit_last() or {}
    at = last.get("at")
    breaches = GaugeMetricFamily(
        "dominoes_audit_breaches",
        "Breaches the last audit found, per part (ledger, finish, stakes, minting).",
        labels=["part"],
    )
    counts = last.get("breaches")
    if isinstance(counts, dict):
        for part, count in sorted(counts.items()):
            breaches.add_metric([str(part)], float(count))
    yield breaches
    yield GaugeMetricFamily(
        "dominoes_audit_age_seconds",
        "Seconds since the last audit ran (+Inf: never).",
        value=NEVER if not isinstance(at, float) else max(0.0, time.time() - at),
    )


_health = HealthCollector()
_registered = False


def metrics_text() -> bytes:
    """The exposition text of every metric of this host."""
    global _registered  # register the scrape-time collector once per process
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        registry.register(_health)
        return generate_latest(registry)
    if not _registered:
        REGISTRY.register(_health)
        _registered = True
    return generate_latest(REGISTRY)
