"""Parts of a club's page that belong to apps above clubs (a club's events).

``clubs`` imports none of those apps: each registers a section here, in its
``AppConfig.ready``, as ``accounts.relay`` takes the presence socket's frames.
A section renders its HTML for the page's reader (``viewer`` is their membership,
None for a visitor), or "" to show nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.utils.safestring import SafeString

from clubs.models import Club, Member

Section = Callable[[HttpRequest, Club, Member | None], SafeString]

_sections: dict[str, Section] = {}


def club_section_register(name: str, render: Section) -> None:
    """Register ``render`` under ``name`` (again: replaced, as a reloaded app)."""
    _sections[name] = render


def club_sections(
    request: HttpRequest, club: Club, viewer: Member | None
) -> list[SafeString]:
    """Every registered section's HTML for this page, in registration order."""
    return [
        html for render in _sections.values() if (html := render(request, club, viewer))
    ]
