"""One room's rule options, validated against the variant presets."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from games.engine.messages import Param, gettext_noop, text
from games.engine.tiles import set_size
from games.engine.variants import (
    HIGHEST_DOUBLE,
    VARIANTS,
    WINNER,
    VariantSpec,
    deal_size,
)


class InvalidOptions(ValueError):
    """A rule option has a value the variant does not allow.

    ``option`` names the offending option; ``text`` is the explanation, an
    English template marked with ``gettext_noop`` and its values, for the caller
    to show translated (``text.render(gettext)``). ``message`` and ``str()`` are
    the English, for logs and tests.
    """

    def __init__(self, option: str, template: str, /, **params: Param) -> None:
        self.option = option
        self.text = text(template, **params)
        self.message = self.text.render()
        super().__init__(self.message)


OPTION_NAMES: dict[str, str] = {
    "variant": gettext_noop("variant"),
    "set_max": gettext_noop("domino set"),
    "seats": gettext_noop("number of players"),
    "partnership": gettext_noop("partnerships"),
    "target": gettext_noop("target score"),
    "tiles_per_seat": gettext_noop("tiles per player"),
    "deal": gettext_noop("deal"),
    "opening": gettext_noop("opening rule"),
    "no_double": gettext_noop("rule for a deal without doubles"),
}


@dataclass(frozen=True, slots=True)
class Options:
    """The rule options of one match. Build it with ``options_for``."""

    variant: str
    set_max: int
    seats: int
    partnership: bool
    target: int
    tiles_per_seat: int
    deal: str
    opening: str
    no_double: str

    @property
    def spec(self) -> VariantSpec:
        """The variant preset these options come from."""
        return VARIANTS[self.variant]

    @property
    def n_sides(self) -> int:
        """Number of scoring sides (2 with partnerships, else one per seat)."""
        return 2 if self.partnership else self.seats

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; ``Options.from_dict`` reads it back.

        Every field is a plain value (text, number, flag), so a shallow copy is
        the same dict as ``dataclasses.asdict`` at a fraction of its cost (which
        deep-copies each field): it runs for every view and stored state."""
        return {name: getattr(self, name) for name in _OPTION_FIELDS}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Options:
        """Validated options from a dict made by ``to_dict`` (or a room form)."""
        if not isinstance(d, dict) or "variant" not in d:
            raise InvalidOptions("variant", gettext_noop("Choose a variant."))
        rest = {k: v for k, v in d.items() if k != "variant"}
        return options_for(d["variant"], **rest)


_OPTION_FIELDS = tuple(f.name for f in fields(Options))

_FIELDS = (
    "set_max",
    "seats",
    "partnership",
    "target",
    "tiles_per_seat",
    "deal",
    "opening",
    "no_double",
)


def _check_int(option: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptions(
            option,
            gettext_noop("The %(option)s must be a whole number."),
            option=text(OPTION_NAMES[option]),
        )
    return value


def options_for(variant: str, **overrides: Any) -> Options:
    """Build a validated ``Options`` for a variant, with a room's overrides.

    Raises ``InvalidOptions`` naming the first offending option.
    """
    spec = VARIANTS.get(variant) if isinstance(variant, str) else None
    if spec is None:
        raise InvalidOptions("variant", gettext_noop("There is no such variant."))
    for key in overrides:
        if key not in _FIELDS:
            raise InvalidOptions(key, gettext_noop("There is no such rule option."))
    title = spec.title_text()

    set_max = _check_int("set_max", overrides.get("set_max", spec.default_set))
    if set_max not in spec.sets:
        raise InvalidOptions(
            "set_max",
            gettext_noop("%(variant)s is played with the double-%(low)s set only.")
            if len(spec.sets) == 1
            else gettext_noop(
                "%(variant)s is played with a double-%(low)s to double-%(high)s set."
            ),
            variant=title,
            low=spec.sets[0],
            high=spec.sets[-1],
        )
    seats = _check_int("seats", overrides.get("seats", spec.seats[0]))
    if seats not in spec.seats:
        raise InvalidOptions(
            "seats",
            gettext_noop("%(variant)s is played by %(low)s to %(high)s players.")
            if len(spec.seats) > 1
            else gettext_noop("%(variant)s is played by %(low)s players only."),
            variant=title,
            low=spec.seats[0],
            high=spec.seats[-1],
        )

    forced = spec.partnership == "forced" and seats == 4
    partnership = overrides.get("partnership", forced)
    if not isinstance(partnership, bool):
        raise InvalidOptions(
            "partnership", gettext_noop("Partnerships are chosen or not, nothing else.")
        )
    if partnership and (seats != 4 or spec.partnership == "never"):
        raise InvalidOptions(
            "partnership",
            gettext_noop("Partnerships need 4 players in %(variant)s.")
            if spec.partnership != "never"
            else gettext_noop("%(variant)s has no partnerships."),
            variant=title,
        )
    if forced and not partnership:
        raise InvalidOptions(
            "partnership",
            gettext_noop("Four players always play in pairs in %(variant)s."),
            variant=title,
        )

    target = _check_int("target", overrides.get("target", spec.default_target))
    if target not in spec.targets:
        raise InvalidOptions(
            "target",
            gettext_noop(
                "%(variant)s is played to %(targets)s points, not %(target)s."
            ),
            variant=title,
            targets=", ".join(str(t) for t in spec.targets),
            target=target,
        )

    choices = spec.choices
    deal = overrides.get("deal", "standard")
    opening = overrides.get("opening", spec.opening)
    no_double = overrides.get("no_double", spec.no_double)
    for name, value, fixed in (
        ("deal", deal, "standard"),
        ("opening", opening, spec.opening),
        ("no_double", no_double, spec.no_double),
    ):
        allowed_values = choices.get(name, (fixed,))
        if value not in allowed_values:
            raise InvalidOptions(
                name,
                gettext_noop("%(variant)s does not offer that %(option)s."),
                variant=title,
                option=text(OPTION_NAMES[name]),
            )

    tps_given = overrides.get("tiles_per_seat")
    if tps_given is not None:
        tps_given = _check_int("tiles_per_seat", tps_given)
        if "tiles_per_seat" in choices:
            if tps_given not in choices["tiles_per_seat"]:
                raise InvalidOptions(
                    "tiles_per_seat",
                    gettext_noop(
                        "%(variant)s deals %(counts)s tiles to each player,"
                        " not %(count)s."
                    ),
                    variant=title,
                    counts=", ".join(str(c) for c in choices["tiles_per_seat"]),
                    count=tps_given,
                )
        elif "deal" in choices and "deal" not in overrides:
            # A tile count picks the deal table that gives it.
            for d in choices["deal"]:
                if deal_size(variant, set_max, seats, d) == tps_given:
                    deal = d
                    break
    tiles = deal_size(variant, set_max, seats, deal, tps_given or 0)
    if tiles is None:
        raise InvalidOptions(
            "deal",
            gettext_noop("That deal of %(variant)s is not for %(seats)s players."),
            variant=title,
            seats=seats,
        )
    if tps_given is not None and tps_given != tiles:
        raise InvalidOptions(
            "tiles_per_seat",
            gettext_noop(
                "%(variant)s with %(seats)s players deals %(tiles)s tiles to each"
                " player, not %(count)s."
            ),
            variant=title,
            seats=seats,
            tiles=tiles,
            count=tps_given,
        )
    if tiles * seats > set_size(set_max) - spec.reserve:
        raise InvalidOptions(
            "seats",
            gettext_noop(
                "%(seats)s players with %(tiles)s tiles each need more than the"
                " double-%(set)s set."
            ),
            seats=seats,
            tiles=tiles,
            set=set_max,
        )
    return Options(
        variant=variant,
        set_max=set_max,
        seats=seats,
        partnership=partnership,
        target=target,
        tiles_per_seat=tiles,
        deal=deal,
        opening=opening,
        no_double=no_double,
    )


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the hot path needs, resolved once per ``Options``."""

    options: Options
    seats: int
    n_sides: int
    side_of: tuple[int, ...]
    set_max: int
    n_tiles: int
    full: int
    tiles_per_seat: int
    layout: str
    stock: str
    reserve: int
    scoring: str
    opening: str
    no_double: str
    claims: bool  # end-sums are claimed (all_fives, fives_and_threes)
    end_scoring: bool  # end-sums score at all
    threes: bool  # end-sums divisible by 3 score too


@lru_cache(maxsize=256)
def rules_for(options: Options) -> Rules:
    """The resolved rules of an ``Options`` (cached)."""
    spec = options.spec
    seats = options.seats
    side_of = (
        tuple(s % 2 for s in range(seats))
        if options.partnership
        else tuple(range(seats))
    )
    scoring = spec.scoring
    return Rules(
        options=options,
        seats=seats,
        n_sides=options.n_sides,
        side_of=side_of,
        set_max=options.set_max,
        n_tiles=set_size(options.set_max),
        full=(1 << set_size(options.set_max)) - 1,
        tiles_per_seat=options.tiles_per_seat,
        layout=spec.layout,
        stock=spec.stock,
        reserve=spec.reserve,
        scoring=scoring,
        opening=options.opening,
        no_double=options.no_double,
        claims=scoring in ("all_fives", "fives_and_threes"),
        end_scoring=scoring in ("all_fives", "fives_and_threes", "fives"),
        threes=scoring == "fives_and_threes",
    )


__all__ = [
    "HIGHEST_DOUBLE",
    "WINNER",
    "InvalidOptions",
    "Options",
    "Rules",
    "options_for",
    "rules_for",
]


def options_every() -> list[Options]:
    """Every allowed variant × set × seat count × partnership, at its lowest target.

    For tests and benchmarks that must cover each configuration a room can choose.
    """
    out = []
    for variant, spec in VARIANTS.items():
        for set_max in spec.sets:
            for seats in spec.seats:
                for partnership in (False, True):
                    try:
                        out.append(
                            options_for(
                                variant,
                                set_max=set_max,
                                seats=seats,
                                partnership=partnership,
                                target=min(spec.targets),
                            )
                        )
                    except InvalidOptions:
                        continue
    return out
