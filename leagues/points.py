"""League points of one seat: by table shape and place, stake bonus, seat weight."""

from __future__ import annotations

from decimal import Decimal

from leagues import conf

FULL_WEIGHT = Decimal("1.0")


def table_shape(*, seats: int, partnership: bool) -> str:
    """``"4p"`` for partnerships, else the number of seats (``"2"`` to ``"4"``)."""
    return f"{seats}p" if partnership else str(seats)


def seat_weight(*, simulated: bool) -> Decimal:
    """1.0 when every seat was a person; less when simulated players filled it."""
    return conf.simulated_weight() if simulated else FULL_WEIGHT


def seat_points(
    *, shape: str, place: int, weight: Decimal, stake: int | None = None
) -> Decimal:
    """The points of finishing ``place`` (1 = best) at a table of ``shape``."""
    row = conf.points_table().get(shape, [])
    base = row[place - 1] if 1 <= place <= len(row) else 0
    total = (Decimal(base) + conf.stake_bonus(stake)) * weight
    return total.quantize(Decimal("0.1"))
