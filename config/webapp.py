"""The installed app: the web app manifest, at the site root.

``/manifest.webmanifest`` names the app in the reader's language, with its icons
(``tools/app_icons.py``) and ``/play/`` as where it starts.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, get_language_bidi, gettext
from django.views.decorators.http import require_safe

from core.cookieless import cookieless

# site.css's --bg, the top bar's colour (base.html's theme-color says the same).
THEME_COLOUR = "#0f3d2e"
START_URL = "/play/"
# (file, size in px, purpose): tools/app_icons.py draws them.
ICONS = (
    ("img/app/icon-192.png", 192, "any"),
    ("img/app/icon-512.png", 512, "any"),
    ("img/app/maskable-192.png", 192, "maskable"),
    ("img/app/maskable-512.png", 512, "maskable"),
)


@cookieless
@require_safe
def webmanifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the reader's language."""
    data = {
        "id": START_URL,
        "name": gettext("Dominoes"),
        "short_name": gettext("Dominoes"),
        "description": gettext(
            "Play dominoes online against the computer, your friends or ranked "
            "opponents, in your own language. Fair play, no commission."
        ),
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": START_URL,
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": [
            {
                "src": static(path),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for path, size, purpose in ICONS
        ],
    }
    response = JsonResponse(
        data,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )
    response["Cache-Control"] = "no-cache"
    # The reader's language: their cookie, else their browser's.
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response
