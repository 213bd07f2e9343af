"""The pages a player can reach, signed out and signed in: the list the page walks
share (every page fits a phone; every page reads in the player's language)."""

from __future__ import annotations

from accounts.addresses import translated_address
from games.engine import VARIANTS
from games.guide.data import GUIDE


def in_language(path: str, language: str) -> str:
    """The page at ``path`` as a reader of ``language`` reaches it: a public page at
    its address in the language (/es/rules/), any other page at its one address."""
    return translated_address(path, language)


def signed_out_pages(me: str) -> list[tuple[str, str | None]]:
    """``(path, selector to wait for)`` of the pages anyone may open."""
    pages: list[tuple[str, str | None]] = [
        ("/", None),
        ("/rules/", None),
        *((f"/rules/{variant}/", None) for variant in GUIDE),
        ("/accounts/login/", None),
        ("/accounts/signup/", None),
        ("/accounts/password/reset/", None),
        ("/league/top/", None),
        (f"/players/{me}/", None),
        ("/rooms/join/", None),
        ("/embed/code/", None),
        ("/embed/", "#embed-variant"),
        ("/tv/", "#tv-status"),
        ("/no-such-page/", None),
    ]
    pages += [(f"/leaderboard/{variant}/", None) for variant in VARIANTS]
    return pages


def signed_in_pages(me: str, other: str, ids: dict) -> list[tuple[str, str | None]]:
    live, ended = ids["live"], ids["ended"]
    return [
        ("/", None),
        ("/rules/", None),
        ("/play/", None),
        ("/play/online/", None),
        ("/play/stakes/", None),
        ("/tournaments/", None),
        (f"/tournaments/arenas/{ids['arena']}/", "#arena-standings tbody tr"),
        (f"/tournaments/sitgo/{ids['sitgo']}/", None),
        (f"/tournaments/swiss/{ids['swiss']}/", "#swiss-standings"),
        (f"/tournaments/arenas/{ids['battle']}/", "#battle-standings"),
        ("/league/", "#league-standings tbody tr"),
        ("/league/top/", None),
        ("/leaderboard/draw/", None),
        ("/wallet/", None),
        ("/shop/", None),
        ("/profile/", None),
        (f"/players/{me}/", None),
        (f"/players/{other}/", None),
        ("/friends/", None),
        ("/clubs/", None),
        (f"/clubs/{ids['club']}/", "#club-members tbody tr"),
        ("/watch/", None),
        ("/tv/", "#tv-status"),
        ("/invitations/", None),
        ("/games/", None),
        ("/rooms/new/", None),
        (f"/tables/{live}/", "#main-action"),
        (f"/tables/{ended}/", "#main-action"),
        (f"/tables/{ended}/history/", None),
        (f"/tables/{ended}/replay/", "#replay-faces li"),
        (f"/tables/{ended}/review/1/", "#review-progress, .review-seats"),
        ("/embed/code/", None),
        ("/accounts/password/change/", None),
        ("/accounts/email/", None),
    ]
