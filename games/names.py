"""The names players see for seats: the username, or a labelled computer player.

A computer seat is called by its place at the table and its level ("Computer 2 ·
easy", the style of seed 000), so every seat of a table has a distinct name on the
table page, the result, the history and My games. A simulated player filling an
online table shows its generated name with the computer label ("Vera42 ·
computer"), and a bot account's seat its username with the bot label ("Ada · BOT"),
so neither is ever taken for a person.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import Seat, Table

LEVEL_WORDS: dict[str, object] = {
    Seat.BotLevel.EASY: _("easy"),
    Seat.BotLevel.MEDIUM: _("medium"),
    Seat.BotLevel.HARD: _("hard"),
}


def seat_display_name(seat: Seat) -> str:
    """The seat's player name, "<name> · computer", or "Computer <place> · <level>"."""
    if seat.program:  # a bot account: always labelled as a computer
        return str(gettext("%(name)s · BOT") % {"name": seat.name})
    if seat.user_id is not None:
        if seat.name:
            return seat.name
        user = seat.user  # read only for a seat written without its name
        return str(user.get_username()) if user is not None else ""
    if seat.name:
        return str(gettext("%(name)s · computer") % {"name": seat.name})
    level = LEVEL_WORDS.get(seat.bot_level, seat.bot_level)
    return str(
        gettext("Computer %(number)s · %(level)s")
        % {
            "number": seat.position + 1,
            "level": level,
        }
    )


def variant_title(variant: str) -> str:
    """A variant's display name ("All Fives") in the current language, or its id
    if it is unknown (the engine marks the names; they are translated here)."""
    spec = engine.VARIANTS.get(variant)
    return pgettext(engine.TITLE_CONTEXT, spec.title) if spec else variant


def variant_dict(spec: engine.VariantSpec) -> dict[str, Any]:
    """``spec.to_dict()`` with its name and summary in the current language."""
    return {
        **spec.to_dict(),
        "title": variant_title(spec.id),
        "summary": gettext(spec.summary),
    }


def table_title(table: Table) -> str:
    """How players name a table: "All Fives · table 3"."""
    return str(
        gettext("%(variant)s · table %(id)s")
        % {
            "variant": variant_title(table.variant),
            "id": table.pk,
        }
    )
