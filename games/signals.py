"""What ``games`` tells other apps; it never imports them.

A finished table's consequences are registered with ``games.finish`` (durable, once
each). ``table_cancelled`` is sent once per table, after the commit that cancelled
it, with ``table_id``, ``mode`` and ``reason`` (the log entry's reason: ``staff``,
``idle`` or the caller's own), so an app holding something for the table (a stake
pot) can let it go whoever cancelled it.
"""

from dataclasses import dataclass

from django.dispatch import Signal

table_cancelled = Signal()


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's outcome. ``place`` 1 is best; partners share their side's place.

    ``unpaid`` says why the seat's owner earns no coins, XP or league points
    (``games.earning``: ``standin``, ``alone``); empty when they earn.
    """

    position: int
    user_id: int | None
    bot_level: str
    simulated: bool
    team: int | None
    place: int
    score: int
    forfeited: bool
    unpaid: str = ""
