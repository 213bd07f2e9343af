"""Channel-layer group names. A hand only ever goes to its own seat's group."""


def seat_group(table_id: int, position: int) -> str:
    return f"table.{table_id}.seat.{position}"


def watch_group(table_id: int) -> str:
    return f"table.{table_id}.watch"
