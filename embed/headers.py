"""Who may frame a page: anyone for the game's frame, nobody for the rest.

Every other page keeps ``X-Frame-Options: DENY`` and the site policy's
``frame-ancestors 'none'`` (``config.security``). The frame drops the first
(``xframe_options_exempt``) and sends the site policy with ``frame-ancestors *``.
"""

from __future__ import annotations

from typing import TypeVar

from django.conf import settings
from django.http import HttpResponseBase

R = TypeVar("R", bound=HttpResponseBase)

FRAME_ANYWHERE = "frame-ancestors *"


def frame_policy() -> str:
    """The site's Content-Security-Policy with framing allowed from any page."""
    policy: str = settings.CONTENT_SECURITY_POLICY
    kept = [
        part.strip()
        for part in policy.split(";")
        if part.strip() and not part.strip().lower().startswith("frame-ancestors")
    ]
    return "; ".join([*kept, FRAME_ANYWHERE])


def frame_headers_set(response: R) -> R:
    response.headers["Content-Security-Policy"] = frame_policy()
    response.xframe_options_exempt = True  # type: ignore[attr-defined]
    return response
