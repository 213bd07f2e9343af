"""How the league's numbers, shapes and moments read to a player, in their language.

Points are stored with one decimal (half-weight tables give halves); a player reads
``10``, not ``10.0``, and ``7,5`` where their language writes a decimal comma. Table
shapes are settings keys (``"4p"``) and never shown as such.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext, ngettext

_SHAPE = re.compile(r"^(?P<seats>\d+)(?P<partnership>p?)$")


def points_text(points: Decimal | int) -> str:
    """Points as the reader's language writes them: ``10``, ``7.5`` or ``7,5``."""
    value = Decimal(points)
    if value == value.to_integral_value():
        return str(formats.number_format(int(value)))
    return str(formats.number_format(value.normalize()))


def weight_text(weight: Decimal) -> str:
    """A seat weight: ``1``, ``½`` for a table completed by simulated players."""
    if weight == Decimal("0.5"):
        return "½"
    return points_text(weight)


def shape_label(shape: str) -> str:
    """A points-table shape in words: ``"4p"`` is "4 players in partnership"."""
    match = _SHAPE.match(shape)
    if match is None:
        return gettext("other tables")
    seats = int(match["seats"])
    if match["partnership"]:
        words = ngettext(
            "%(count)s player in partnership",
            "%(count)s players in partnership",
            seats,
        )
    else:
        words = ngettext("%(count)s player", "%(count)s players", seats)
    return words % {"count": formats.number_format(seats)}


def utc_moment_text(moment: datetime) -> str:
    """A moment in UTC, named as such (the page shows it in the reader's own time
    zone when its script runs; this is what a browser without scripts shows)."""
    at = moment.astimezone(UTC)
    return gettext("%(day)s, %(date)s, %(time)s UTC") % {
        "day": formats.date_format(at, "l"),
        "date": formats.date_format(at, "DATE_FORMAT"),
        "time": at.strftime("%H:%M"),
    }
