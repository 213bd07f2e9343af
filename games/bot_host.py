"""The machine speed the platform's ``hard`` bots run at (``games.bots.hard.machine``).

``settings.BOT_MACHINE_SPEED`` fixes it, or is ``None`` ("auto"): then it is
measured once per process, at the first decision that needs it (a fraction of
a second of CPU), logged, and kept for the life of the process, so that every
decision of the process does the same amount of work for the same budget.
"""

from __future__ import annotations

import logging
from functools import cache

from django.conf import settings

from games.bots.hard.machine import measure_speed

log = logging.getLogger(__name__)


@cache
def machine_speed() -> float:
    """The figure ``hard`` bots of this process use."""
    fixed: float | None = settings.BOT_MACHINE_SPEED
    if fixed is not None:
        return fixed
    speed = measure_speed()
    log.info("hard bots: machine speed %.2f (measured)", speed)
    return speed
