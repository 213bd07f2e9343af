"""The channel-layer names of a table.

Every connection to a table (a seat's socket or API stream, a spectator's socket)
is in the table's one group, and a commit's frames reach it in one message, each
under its subject (``realtime.outbox``): a connection takes its own subject's frame
and nothing else, so a hand only ever reaches its own seat's client.
"""

WATCH_SUBJECT = "watch"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def seat_subject(position: int) -> str:
    return f"seat.{position}"
