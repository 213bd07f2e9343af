"""Every tournaments Celery task, for the worker's autodiscovery (which imports
``<app>.tasks`` only)."""

from tournaments.arenas import tasks as arenas_tasks

__all__ = ["arenas_tasks"]
