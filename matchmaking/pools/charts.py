"""A rating-history line as SVG points (drawn by the template, no JS library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 300
HEIGHT = 80
PAD = 4


@dataclass(frozen=True, slots=True)
class Chart:
    points: str
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT


def history_chart(values: Sequence[int]) -> Chart | None:
    """Scale ratings into the box; None with fewer than two points."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = max(1, high - low)
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    scale = (HEIGHT - 2 * PAD) / span
    points = " ".join(
        f"{PAD + i * step:.1f},{HEIGHT - PAD - (v - low) * scale:.1f}"
        for i, v in enumerate(values)
    )
    return Chart(points=points, low=low, high=high)
