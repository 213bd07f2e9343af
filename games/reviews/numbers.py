"""A review's numbers in the reader's language: "−41,6" in Italian, "−41.6" in
English. Points carry one decimal, a negative number the minus sign (U+2212),
never a hyphen, as the replay viewer writes them too (``static/js/review/
numbers.js``); no thousands separator (a hand's points stay far below it)."""

from __future__ import annotations

from django.utils.formats import number_format

MINUS = "\u2212"


def points_text(value: float) -> str:
    """``value`` to one decimal in the active language: "41,6", "−2,8"."""
    text = str(number_format(abs(value), decimal_pos=1))
    return f"{MINUS}{text}" if round(value, 1) < 0 else text


def signed_points_text(value: float) -> str:
    """``value`` with its sign: "+3,5", "−2,8" (zero has none: "0,0")."""
    text = points_text(value)
    return f"+{text}" if round(value, 1) > 0 else text


def whole_text(value: float) -> str:
    """A whole number (or a count) in the active language: "12", "−5"."""
    text = str(number_format(abs(round(value)), decimal_pos=0))
    return f"{MINUS}{text}" if round(value) < 0 else text
