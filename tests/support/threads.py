"""Real threads for race tests on PostgreSQL: every thread waits at one barrier,
then runs; each closes its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection


def in_threads(target: Callable[..., Any], args_list: Sequence[Sequence[Any]]) -> None:
    """Run ``target(*args)`` for each ``args`` at once; fail on any exception."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(args_list))

    def run(*args: Any) -> None:
        try:
            barrier.wait()
            target(*args)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=a) for a in args_list]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors


def at_once(jobs: Sequence[Callable[[], object]]) -> list[object]:
    """Run every job at once; what each returned or raised, in the order they
    finished (the caller looks at each)."""
    barrier = threading.Barrier(len(jobs))
    results: list[object] = []

    def run(job: Callable[[], object]) -> None:
        try:
            barrier.wait()
            results.append(job())
        except Exception as exc:
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results
