"""Every tournaments Celery task, for the worker's autodiscovery.

``Celery.autodiscover_tasks`` imports ``<app>.tasks`` only: importing the
subpackages' task modules here registers their tasks in every worker.
"""

from tournaments.sitgo import tasks as sitgo_tasks

__all__ = ["sitgo_tasks"]
