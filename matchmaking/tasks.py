"""Every matchmaking Celery task, for the worker's autodiscovery.

``Celery.autodiscover_tasks`` imports ``<app>.tasks`` only: importing the
subpackages' task modules here registers their tasks in every worker.
"""

from matchmaking.pools import tasks as pools_tasks
from matchmaking.stakes import tasks as stakes_tasks

__all__ = ["pools_tasks", "stakes_tasks"]
