"""Operations: health checks, metrics and the task-broker beacon."""

from typing import Any

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"

    def ready(self) -> None:
        from celery.signals import before_task_publish, task_prerun

        from ops.backlog import stamp_sent_at

        before_task_publish.connect(_note_beat_heartbeat, weak=False)
        before_task_publish.connect(stamp_sent_at, weak=False)
        task_prerun.connect(_note_worker_task, weak=False)


def _note_worker_task(**_: Any) -> None:
    """A worker started a task (any task): it is alive, if perhaps behind."""
    from ops.heartbeat import worker_task_started

    worker_task_started()


def _note_beat_heartbeat(sender: str | None = None, **_: Any) -> None:
    """Beat is the only sender of the heartbeat task: note when it sent one."""
    from ops.heartbeat import HEARTBEAT_TASK, beat_published

    if sender == HEARTBEAT_TASK:
        beat_published()
