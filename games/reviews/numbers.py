"""A review's numbers in the reader's language: "−41,6" in Italian, "−41.6" in
English. Points carry one decimal, rounded half away from zero; a negative
number the minus sign (U+2212), never a hyphen; no thousands separator (a hand's
points stay far below it). The replay viewer writes them the same way
(``static/js/review/numbers.js``, with ``Intl.NumberFormat``). A chance of
winning the match is a whole percentage (``chance_text``)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import number_format
from django.utils.translation import pgettext

MINUS = "\u2212"
TENTH = Decimal("0.1")


def _tenths(value: float) -> Decimal:
    # From the shortest decimal that reads back as ``value`` (as Intl does), so
    # 21.25 is 21.3 on both pages; Django's number_format alone truncates floats.
    return Decimal(repr(abs(float(value)))).quantize(TENTH, rounding=ROUND_HALF_UP)


def points_text(value: float) -> str:
    """``value`` to one decimal in the active language: "41,6", "−2,8"."""
    tenths = _tenths(value)
    text = str(number_format(tenths, decimal_pos=1))
    return f"{MINUS}{text}" if value < 0 and tenths else text


def signed_points_text(value: float) -> str:
    """``value`` with its sign: "+3,5", "−2,8" (zero has none: "0,0")."""
    text = points_text(value)
    return f"+{text}" if value > 0 and _tenths(value) else text


def chance_text(value: float) -> str:
    """A chance (0-1) in whole percent, as the active language writes a
    percentage: "62 %", "%62" in Turkish."""
    return str(
        pgettext("a chance in percent", "%(n)s %%") % {"n": whole_text(100 * value)}
    )


def whole_text(value: float) -> str:
    """A whole number (or a count) in the active language: "12", "−5"."""
    whole = Decimal(repr(abs(float(value)))).quantize(1, rounding=ROUND_HALF_UP)
    text = str(number_format(whole, decimal_pos=0))
    return f"{MINUS}{text}" if value < 0 and whole else text
