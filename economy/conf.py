"""Economy settings, read when used (never at import time), each with its default.

Override any of them in ``config/settings.py``; see ``docs/economy.md``.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings

# Online rewards by table shape: ``"<seats>"`` for every-player-for-themself tables,
# ``"<seats>p"`` for partnerships (position = the side's rank). Each row is
# ``(coins, xp)`` for position 1, 2, …: every position earns, from most to least.
DEFAULT_ONLINE_REWARDS: dict[str, list[tuple[int, int]]] = {
    "2": [(100, 50), (25, 20)],
    "3": [(150, 60), (60, 35), (20, 20)],
    "4": [(200, 80), (100, 50), (50, 30), (20, 20)],
    "4p": [(150, 70), (30, 25)],
}

DEFAULT_SHOP = {
    "gold": {"price": 500, "percent": 200, "hours": 24},
    "vip": {"price": 3000, "percent": 150, "hours": 30 * 24},
}


@dataclass(frozen=True)
class ShopItem:
    code: str
    price: int
    percent: int
    duration: timedelta


def signup_grant() -> int:
    return int(getattr(settings, "ECONOMY_SIGNUP_GRANT", 2000))


def daily_bonus() -> int:
    return int(getattr(settings, "ECONOMY_DAILY_BONUS", 200))


def entry_fees() -> frozenset[int]:
    return frozenset(getattr(settings, "ECONOMY_ENTRY_FEES", (100, 250, 500, 1000)))


def online_rewards() -> dict[str, list[tuple[int, int]]]:
    rates: dict[str, list[tuple[int, int]]] = getattr(
        settings, "ECONOMY_ONLINE_REWARDS", DEFAULT_ONLINE_REWARDS
    )
    return rates


def friend_percent() -> int:
    """Friend rooms pay the winners this percentage of the online rate."""
    return int(getattr(settings, "ECONOMY_FRIEND_PERCENT", 50))


def shop_items() -> dict[str, ShopItem]:
    raw = getattr(settings, "ECONOMY_SHOP", DEFAULT_SHOP)
    return {
        code: ShopItem(
            code=code,
            price=int(item["price"]),
            percent=int(item["percent"]),
            duration=timedelta(hours=item["hours"]),
        )
        for code, item in raw.items()
    }


def table_url() -> str:
    """Where a table's page lives, ``{ref}`` replaced by the table reference."""
    return getattr(settings, "ECONOMY_TABLE_URL", "/tables/{ref}/")


# Pots that belong to something other than one table: ``<prefix>-<id>`` refs and
# where their page lives (``{id}`` replaced), e.g. a sit-and-go's single pot.
DEFAULT_POT_URLS = {"sitgo": "/tournaments/sitgo/{id}/"}


def pot_url(ref: str) -> str:
    """The page of the pot or table ``ref`` (a table id, or ``<prefix>-<id>``)."""
    prefix, _, rest = ref.rpartition("-")
    if prefix:
        urls: dict[str, str] = getattr(settings, "ECONOMY_POT_URLS", DEFAULT_POT_URLS)
        return urls[prefix].format(id=rest) if prefix in urls else ""
    return table_url().format(ref=ref)


def audit_alert_email() -> bool:
    """Mail the site admins (``ADMINS``) when the audit finds a breach."""
    return bool(getattr(settings, "ECONOMY_AUDIT_MAIL_ADMINS", True))
