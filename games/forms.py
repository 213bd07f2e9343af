"""The Play page's form: a practice table's variant, options, computers and speed.

The form checks that each value is one of the known choices and fills in what the
variant fixes (forced partnerships); every combination is validated again by the
engine through ``table_practice_create``, whose ``TableError.field`` names the
field at fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine import VARIANTS
from games.models import Seat
from games.names import variant_title
from games.speeds import BOT_SPEEDS, DEFAULT_SPEED

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise

MAX_BOTS = max(max(spec.seats) for spec in VARIANTS.values()) - 1
ALL_TARGETS = sorted({t for spec in VARIANTS.values() for t in spec.targets})
ALL_SETS = sorted({s for spec in VARIANTS.values() for s in spec.sets})
ALL_SEATS = sorted({n for spec in VARIANTS.values() for n in spec.seats})
# Rule options a variant may let a room choose (``VariantSpec.choices``).
CHOICE_LABELS: dict[str, tuple[_StrOrPromise, dict[Any, _StrOrPromise]]] = {
    "tiles_per_seat": (
        _("Tiles each"),
        {5: _("5 tiles each"), 7: _("7 tiles each")},
    ),
    "deal": (
        _("Deal"),
        {"standard": _("Standard deal"), "002": _("7 each (5 with 3–4 drawing)")},
    ),
    "opening": (
        _("Who opens"),
        {
            "highest_double": _("Highest double, every hand"),
            "winner": _("Last hand's winner, any tile"),
        },
    ),
    "no_double": (
        _("Nobody holds a double"),
        {"redeal": _("Deal again"), "heaviest": _("Heaviest tile opens")},
    ),
}
SPEED_LABELS = {
    "slow": _("Slow"),
    "normal": _("Normal"),
    "fast": _("Fast"),
    "instant": _("Instant"),
}


def bot_field_name(index: int) -> str:
    """Form field of the computer in seat ``index`` (1-based)."""
    return f"bot_{index}"


@dataclass(frozen=True)
class PlayFormLayout:
    """The parts of the Play form its chosen variant and seat count show.

    static/js/play.js shows and hides the same parts when a choice changes; the
    page renders them so from the start, so it does not move when the script runs.
    """

    variant: str  # the variant whose rules are shown
    seats: int  # computers 1..seats-1 are shown
    partnership: bool  # the partnership box is shown
    choices: frozenset[str]  # the house rules shown (none: the fieldset is hidden)


class PlayForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Variant"),
        choices=[(v.id, v.id) for v in VARIANTS.values()],  # titles: __init__
        initial="draw",
    )
    set_max = forms.TypedChoiceField(
        label=pgettext_lazy("domino set", "Set"),
        choices=[(n, str(n)) for n in ALL_SETS],  # labels: __init__
        coerce=int,
        initial=6,
    )
    seats = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in ALL_SEATS],
        coerce=int,
        initial=2,
    )
    partnership = forms.BooleanField(
        label=_("Partnerships: you and the player opposite against the other two"),
        required=False,
    )
    target = forms.TypedChoiceField(
        label=_("Play to"),
        choices=[(t, str(t)) for t in ALL_TARGETS],  # labels: __init__
        coerce=int,
        initial=100,
    )
    bot_speed = forms.ChoiceField(
        label=_("Computer speed"),
        choices=[(k, SPEED_LABELS.get(k, k)) for k in BOT_SPEEDS],
        initial=DEFAULT_SPEED,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Labels with a number or a variant's name are made per form, in the
        # request's language (a lazy text formatted at import stays English).
        fields = self.fields
        set_labels = [(n, gettext("Double-%(n)s") % {"n": n}) for n in ALL_SETS]
        target_labels = [
            (t, ngettext("%(t)s point", "%(t)s points", t) % {"t": t})
            for t in ALL_TARGETS
        ]
        cast(forms.ChoiceField, fields["variant"]).choices = [
            (v.id, variant_title(v.id)) for v in VARIANTS.values()
        ]
        cast(forms.ChoiceField, fields["set_max"]).choices = set_labels
        cast(forms.ChoiceField, fields["target"]).choices = target_labels
        for name, (label, values) in CHOICE_LABELS.items():
            self.fields[name] = forms.ChoiceField(
                label=label,
                choices=[("", _("Default"))] + [(str(k), v) for k, v in values.items()],
                required=False,
            )
        for i in range(1, MAX_BOTS + 1):
            self.fields[bot_field_name(i)] = forms.ChoiceField(
                label=gettext("Computer %(n)s") % {"n": i},
                choices=Seat.BotLevel.choices,
                initial=Seat.BotLevel.EASY,
                required=False,
            )

    def bot_fields(self) -> list[forms.BoundField]:
        return [self[bot_field_name(i)] for i in range(1, MAX_BOTS + 1)]

    def choice_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in CHOICE_LABELS]

    def layout(self) -> PlayFormLayout:
        """What the form shows for its current values (the submitted ones, else the
        initial ones), as static/js/play.js decides it: for an unknown variant the
        first one (which the list then shows as chosen), for a seat count the
        variant does not allow its smallest."""
        spec = VARIANTS.get(str(self["variant"].value())) or next(
            iter(VARIANTS.values())
        )
        try:
            seats = int(self["seats"].value())
        except (TypeError, ValueError):
            seats = spec.seats[0]
        if seats not in spec.seats:
            seats = spec.seats[0]
        return PlayFormLayout(
            variant=spec.id,
            seats=seats,
            partnership=seats == 4 and spec.partnership != "never",
            choices=frozenset(n for n in CHOICE_LABELS if spec.choices.get(n)),
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        spec = VARIANTS.get(data.get("variant", ""))
        seats = data.get("seats")
        if spec is None or seats is None:
            return data
        if spec.partnership == "forced" and seats == 4:
            data["partnership"] = True
        levels = []
        for i in range(1, seats):
            level = data.get(bot_field_name(i)) or ""
            if not level:
                self.add_error(
                    bot_field_name(i), _("Choose a level for this computer player.")
                )
            levels.append(level)
        data["bot_levels"] = levels
        return data

    def practice_arguments(self) -> dict[str, Any]:
        """Keyword arguments for ``table_practice_create`` (after ``is_valid``)."""
        data = self.cleaned_data
        spec = VARIANTS[data["variant"]]
        options: dict[str, Any] = {
            "set_max": data["set_max"],
            "seats": data["seats"],
            "partnership": bool(data["partnership"]),
            "target": data["target"],
        }
        for name in CHOICE_LABELS:
            raw = data.get(name)
            if not raw:
                continue
            if name not in spec.choices:
                # A choice this variant does not offer: let the engine say so.
                options[name] = raw
                continue
            allowed = {str(v): v for v in spec.choices[name]}
            options[name] = allowed.get(raw, raw)
        return {
            "variant": data["variant"],
            "options": options,
            "bot_levels": data["bot_levels"],
            "bot_speed": data["bot_speed"],
        }
