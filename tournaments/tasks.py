"""Every tournaments Celery task, for the worker's autodiscovery.

``Celery.autodiscover_tasks`` imports ``<app>.tasks`` only: importing the
subpackages' task modules here registers their tasks in every worker.
"""

from tournaments.arenas import tasks as arenas_tasks
from tournaments.sitgo import tasks as sitgo_tasks
from tournaments.swiss import tasks as swiss_tasks

__all__ = ["arenas_tasks", "sitgo_tasks", "swiss_tasks"]
