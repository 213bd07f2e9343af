"""Operations: health checks, metrics and the task-broker beacon."""

from typing import Any

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"

    def ready(self) -> None:
        from celery.signals import before_task_publish

        before_task_publish.connect(_note_beat_heartbeat, weak=False)


def _note_beat_heartbeat(sender: str | None = None, **_: Any) -> None:
    """Beat is the only sender of the heartbeat task: note when it sent one."""
    from ops.heartbeat import HEARTBEAT_TASK, beat_published

    if sender == HEARTBEAT_TASK:
        beat_published()
