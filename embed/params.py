"""The game a frame offers: variant, seats, target and computer level.

Read from the frame's URL (``?variant=&seats=&target=&level=&speed=``, or the
variant in the path) and from its form. A value that is missing or not one the
variant allows falls back to the default, silently: a snippet pasted with a typo
still shows a game, never an error page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games import engine
from games.models import Seat
from games.speeds import BOT_SPEEDS, DEFAULT_SPEED

DEFAULT_VARIANT = "draw"
DEFAULT_LEVEL = Seat.BotLevel.EASY.value
LEVELS = tuple(Seat.BotLevel.values)


@dataclass(frozen=True, slots=True)
class EmbedChoice:
    """A valid game: every field is one the variant allows."""

    variant: str
    seats: int
    target: int
    level: str
    speed: str = DEFAULT_SPEED

    def practice_arguments(self) -> dict[str, Any]:
        """Keyword arguments of ``games.services.table_practice_create``."""
        spec = engine.VARIANTS[self.variant]
        return {
            "variant": self.variant,
            "options": {
                "seats": self.seats,
                "target": self.target,
                "partnership": spec.partnership == "forced" and self.seats == 4,
            },
            "bot_levels": [self.level] * (self.seats - 1),
            "bot_speed": self.speed,
        }

    def key(self) -> str:
        """Names the game's shape, to keep one saved game per shape."""
        return f"{self.variant}/{self.seats}/{self.target}/{self.level}"

    def as_query(self) -> dict[str, str]:
        return {
            "variant": self.variant,
            "seats": str(self.seats),
            "target": str(self.target),
            "level": self.level,
            "speed": self.speed,
        }


def _number(raw: Any, allowed: tuple[int, ...], default: int) -> int:
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return default
    return value if value in allowed else default


def choice_from(data: Mapping[str, Any], variant: str | None = None) -> EmbedChoice:
    """The game ``data`` asks for, each bad or missing value replaced by its default.

    ``variant`` (from the path) wins over ``data["variant"]``; a hyphen stands for
    the underscore of a variant's id (``all-fives``).
    """
    name = variant if variant is not None else data.get("variant")
    name = str(name or "").strip().lower().replace("-", "_")
    spec = engine.VARIANTS.get(name) or engine.VARIANTS[DEFAULT_VARIANT]
    level = str(data.get("level") or "").strip().lower()
    speed = str(data.get("speed") or "").strip().lower()
    return EmbedChoice(
        variant=spec.id,
        seats=_number(data.get("seats"), spec.seats, spec.seats[0]),
        target=_number(data.get("target"), spec.targets, spec.default_target),
        level=level if level in LEVELS else DEFAULT_LEVEL,
        speed=speed if speed in BOT_SPEEDS else DEFAULT_SPEED,
    )


def variants_public() -> dict[str, dict[str, Any]]:
    """What the frame's form needs of each variant: seats and targets allowed."""
    return {
        key: {
            "seats": list(spec.seats),
            "targets": list(spec.targets),
            "default_target": spec.default_target,
        }
        for key, spec in engine.VARIANTS.items()
    }
