"""Announcements other apps listen to; ``games`` never imports them.

``table_finished`` is sent once per table, after the commit that finished it, with
``table_id``, ``mode``, ``variant``, ``simulated`` (whether simulated players sat) and
``results``: a list of ``SeatResult`` in seat order.
"""

from dataclasses import dataclass

from django.dispatch import Signal

table_finished = Signal()


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's outcome. ``place`` 1 is best; partners share their side's place."""

    position: int
    user_id: int | None
    bot_level: str
    simulated: bool
    team: int | None
    place: int
    score: int
    forfeited: bool
