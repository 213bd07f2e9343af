"""The Create-a-room form: the Play page's rule choices, a turn clock, the level of
the computer players who take empty seats, and the host's seat."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import VARIANTS
from games.forms import MAX_BOTS, PlayForm, bot_field_name
from games.models import Seat
from games.speeds import DEFAULT_SPEED


class RoomForm(PlayForm):
    clock = forms.IntegerField(
        label=_("Turn clock (seconds, 0 = off)"),
        min_value=0,
        max_value=120,
        initial=30,
        help_text=_("Off, or 10 to 120 seconds per decision."),
    )
    bot_level = forms.ChoiceField(
        label=_("Computer players for empty seats"),
        choices=Seat.BotLevel.choices,
        initial=Seat.BotLevel.MEDIUM,
    )
    host_seat = forms.IntegerField(
        label=_("Your seat"), min_value=1, max_value=MAX_BOTS + 1, initial=1
    )
    allow_spectators = forms.BooleanField(
        label=_("Allow spectators"),
        required=False,
        initial=False,
        help_text=_(
            "Anyone signed in may watch the game. Off: only the players and "
            "the people you invite."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["bot_speed"]
        for i in range(1, MAX_BOTS + 1):
            del self.fields[bot_field_name(i)]

    def clean_clock(self) -> int | None:
        value: int = self.cleaned_data["clock"]
        if value == 0:
            return None
        if value < 10:
            raise forms.ValidationError(_("Off, or 10 to 120 seconds per decision."))
        return value

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = forms.Form.clean(self) or self.cleaned_data
        spec = VARIANTS.get(data.get("variant", ""))
        seats = data.get("seats")
        if spec is not None and spec.partnership == "forced" and seats == 4:
            data["partnership"] = True
        seat = data.get("host_seat")
        if seats is not None and seat is not None and seat > seats:
            self.add_error("host_seat", _("Choose one of the room's seats."))
        data["bot_levels"], data["bot_speed"] = [], DEFAULT_SPEED
        return data

    def room_arguments(self) -> dict[str, Any]:
        """Keyword arguments for ``room_create`` (after ``is_valid``)."""
        play = self.practice_arguments()
        data = self.cleaned_data
        return {
            "variant": play["variant"],
            "options": play["options"],
            "clock_seconds": data["clock"],
            "bot_level": data["bot_level"],
            "host_seat": data["host_seat"] - 1,
            "allow_spectators": bool(data.get("allow_spectators")),
        }
