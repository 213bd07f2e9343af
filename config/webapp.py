"""The installed app: the web app manifest and the service worker, at the site root.

``/manifest.webmanifest`` names the app in the reader's language, with its icons
(``tools/app_icons.py``) and ``/play/`` as where it starts. ``/sw.js`` is the
service worker (``templates/sw.js``), served from the root so that its scope is
the whole site, with what it may keep filled in here (:func:`worker_config`):

- the app shell, at install: the offline game's page and the page shown for any
  other page while offline (``games.offline_views``: public, nothing of a
  session in them), and the static files that page loads;
- per language, when a page in that language asks: the JavaScript catalog and the
  rules guide, fetched without credentials (so as a signed-out reader sees them);
- the runtime (Pyodide and the pure packages, ``games.offline_shell``), when a
  page that offers the offline game asks.

Nothing else is kept: every other request goes to the network (the worker answers
only GETs of this site, and a failed page with the offline notice). The cache's
name carries :func:`shell_version`, a digest of the static manifest: a deploy
installs a new worker, which fills a new cache and deletes the old ones.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, get_language_bidi, gettext
from django.views.decorators.http import require_safe

from config.catalog import catalog_release
from core.cookieless import cookieless
from games.guide.data import GUIDE
from games.offline_shell import (
    PYODIDE,
    RUNTIME_DIR,
    page_files,
    runtime_files,
    runtime_unhashed_url,
    static_files,
)

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


def _by_language(name: str, *args: str) -> dict[str, str]:
    """The address of a public page in every language of the site."""
    out = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            out[code] = reverse(name, args=args)
    return out


def _files_digest(paths: list[str]) -> str:
    """A digest of the files' sizes and times, where no manifest names them by
    their content (``STATIC_MANIFEST=false``): an edited file installs a new
    worker all the same."""
    digest = hashlib.sha256()
    for path in paths:
        found = finders.find(path)
        where = Path(found) if isinstance(found, str) else None
        if where is None or not where.is_file():
            where = Path(settings.STATIC_ROOT) / path
        if where.is_file():
            stat = where.stat()
            digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()


def shell_version(lists: dict[str, Any], files: list[str]) -> str:
    """The version in the cache's name: the static manifest's hash (a deploy
    changes it), the catalogs' release and the lists the worker keeps."""
    manifest: str = getattr(staticfiles_storage, "manifest_hash", "") or ""
    digest = hashlib.sha256()
    digest.update((manifest or _files_digest(files)).encode())
    digest.update(catalog_release().encode())
    digest.update(json.dumps(lists, sort_keys=True).encode())
    return digest.hexdigest()[:16]


def worker_config() -> dict[str, Any]:
    """What ``/sw.js`` keeps: every address it may cache, by when it caches it."""
    shell_files = page_files()
    runtime = runtime_files()
    pyodide_files = static_files(RUNTIME_DIR)
    rules = [_by_language("rules")] + [
        _by_language("rules-variant", variant) for variant in GUIDE
    ]
    lists: dict[str, Any] = {
        # The offline game's two pages, kept at install.
        "pages": {"offline": reverse("offline"), "notice": reverse("offline-notice")},
        # Never kept: offline, the worker answers it with the offline game.
        "play": reverse("play"),
        "shell": [static(path) for path in shell_files],
        # Pyodide's module by its hashed name (the page's config names it), its
        # siblings by their own (the module loads them so from its folder).
        "runtime": sorted(
            {
                runtime_unhashed_url(path)
                if path in pyodide_files and path != PYODIDE
                else static(path)
                for path in runtime
            }
        ),
        "catalogs": {
            code: reverse("javascript-catalog", args=[code, catalog_release()])
            for code, _name in settings.LANGUAGES
        },
        "rules": {
            code: [pages[code] for pages in rules] for code, _name in settings.LANGUAGES
        },
    }
    return {"version": shell_version(lists, [*shell_files, *runtime]), **lists}


# The script per deploy: files collected with hashes change only with a deploy
# (its manifest's hash) or a new catalogs' release.
_scripts: dict[tuple[str, str], str] = {}


def _script() -> str:
    manifest: str = getattr(staticfiles_storage, "manifest_hash", "") or ""
    key = (manifest, catalog_release())
    if manifest and key in _scripts:
        return _scripts[key]
    script = loader.render_to_string(
        "sw.js", {"config": json.dumps(worker_config(), sort_keys=True)}
    )
    if manifest:
        _scripts[key] = script
    return script


@cookieless
@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker, for the whole site's scope. The same for
    everyone: no cookie, nothing of the reader in it."""
    response = HttpResponse(_script(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # Browsers check for a new worker at every visit; a deploy brings one.
    response["Cache-Control"] = "no-cache"
    return response
