"""Operations: health checks, metrics and the task-broker beacon."""

from typing import Any

from celery.signals import before_task_publish, task_prerun
from django.apps import AppConfig

from ops.backlog import stamp_sent_at
from ops.heartbeat import HEARTBEAT_TASK, beat_published, worker_task_started


class OpsConfig(AppConfig):
    name = "ops"

    def ready(self) -> None:
        before_task_publish.connect(_note_beat_heartbeat, weak=False)
        before_task_publish.connect(stamp_sent_at, weak=False)
        task_prerun.connect(_note_worker_task, weak=False)


def _note_worker_task(**_: Any) -> None:
    """A worker started a task (any task): it is alive, if perhaps behind."""
    worker_task_started()


def _note_beat_heartbeat(sender: str | None = None, **_: Any) -> None:
    """Beat is the only sender of the heartbeat task: note when it sent one."""
    if sender == HEARTBEAT_TASK:
        beat_published()
