"""Announcements other apps listen to; ``games`` never imports them.

``table_finished`` is sent once per table, after the commit that finished it, with
``table_id``, ``mode``, ``variant``, ``simulated`` (whether simulated players sat) and
``results``: a list of ``SeatResult`` in seat order.

``table_cancelled`` is sent once per table, after the commit that cancelled it, with
``table_id``, ``mode`` and ``reason`` (the log entry's reason: ``staff``, ``idle`` or
the caller's own), so an app holding something for the table (a stake pot) can let
it go whoever cancelled it.
"""

from dataclasses import dataclass

from django.dispatch import Signal

table_finished = Signal()
table_cancelled = Signal()


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
