"""The online pools' settings: one table shape per pool (``MATCHMAKING_POOLS``), the
turn clocks each pool offers (``MATCHMAKING_SPEEDS``) and the rating gap a wave
allows (``MATCHMAKING_RATING_GAP``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import ngettext

from games import engine
from games.names import variant_title
from matchmaking.pools.waves import Gap


@dataclass(frozen=True, slots=True)
class Pool:
    """A table shape players queue for: variant preset, seats, partnership."""

    key: str
    variant: str
    seats: int
    partnership: bool
    options: dict[str, Any]
    hands: int | None = None  # the hands a match takes, about (MATCHMAKING_POOLS)

    @property
    def title(self) -> str:
        spec = engine.VARIANTS[self.variant]
        if self.partnership:
            return ngettext(
                "%(variant)s, %(n)d player in partnerships",
                "%(variant)s, %(n)d players in partnerships",
                self.seats,
            ) % {"variant": variant_title(spec.id), "n": self.seats}
        return ngettext(
            "%(variant)s, %(n)d player",
            "%(variant)s, %(n)d players",
            self.seats,
        ) % {"variant": variant_title(spec.id), "n": self.seats}

    @property
    def target(self) -> int:
        return engine.options_for(self.variant, **self.options).target


def _pool_of(entry: dict[str, Any]) -> Pool:
    options = {
        "seats": int(entry["seats"]),
        "partnership": bool(entry.get("partnership", False)),
        **entry.get("options", {}),
    }
    opts = engine.options_for(entry["variant"], **options)
    return Pool(
        key=str(entry["key"]),
        variant=opts.variant,
        seats=opts.seats,
        partnership=opts.partnership,
        options=options,
        hands=int(entry["hands"]) if entry.get("hands") else None,
    )


def pools_all() -> list[Pool]:
    """Every configured pool, in the lobby's order."""
    return [_pool_of(entry) for entry in settings.MATCHMAKING_POOLS]


def pool_get(key: object) -> Pool | None:
    """The pool named ``key``, or None for anything else (forged or stale keys)."""
    if not isinstance(key, str):
        return None
    return next((p for p in pools_all() if p.key == key), None)


DEFAULT_SPEED = "slow"


@dataclass(frozen=True, slots=True)
class Speed:
    """A turn clock a pool's tables may run: seconds a turn and a time bank."""

    key: str
    clock_seconds: int
    bank_seconds: int

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "clock": self.clock_seconds, "bank": self.bank_seconds}


def speeds_all() -> list[Speed]:
    """Every speed of ``MATCHMAKING_SPEEDS``, in its order (fast first)."""
    return [
        Speed(
            key=str(key),
            clock_seconds=int(entry["clock_seconds"]),
            bank_seconds=int(entry["bank_seconds"]),
        )
        for key, entry in settings.MATCHMAKING_SPEEDS.items()
    ]


def speed_get(key: object) -> Speed | None:
    """The speed named ``key`` ("fast", "slow"), or None for anything else."""
    if not isinstance(key, str):
        return None
    return next((s for s in speeds_all() if s.key == key), None)


def gap_setting() -> Gap:
    """The rating gap a wave allows between a group's players, as it widens with
    their wait (``MATCHMAKING_RATING_GAP``: start, growth per second, cap)."""
    start, per_second, cap = settings.MATCHMAKING_RATING_GAP
    return Gap(start=float(start), per_second=float(per_second), cap=float(cap))
