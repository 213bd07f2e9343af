"""The JavaScript translation catalog, cached by browsers per language and release.

Every page loads ``/jsi18n/<language>/<release>/``. The release is a digest of the
compiled JavaScript catalogs, so a URL's content never changes: browsers keep it
for a year and a repeat visit asks nothing, and a new translation gets a new URL.
The rendered catalog is also kept in the cache, so the view renders each language
once per release and process, and it goes gzipped to a browser that accepts it.
"""

from __future__ import annotations

import hashlib
from functools import cache

from django import template
from django.conf import settings
from django.core.cache import cache as shared_cache
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

YEAR = 365 * 24 * 3600
register = template.Library()  # the ``catalog`` library (settings.TEMPLATES)


@cache
def catalog_release() -> str:
    """A digest of every compiled ``djangojs.mo`` (``dev`` when none is compiled)."""
    digest = hashlib.sha256()
    found = False
    for root in settings.LOCALE_PATHS:
        for path in sorted(root.glob("*/LC_MESSAGES/djangojs.mo")):
            digest.update(path.parent.parent.name.encode())
            digest.update(path.read_bytes())
            found = True
    return digest.hexdigest()[:12] if found else "dev"


@register.simple_tag
def catalog_url() -> str:
    """``{% load catalog %}{% catalog_url %}``: this page's catalog, in the active
    language (error pages rendered without a request included)."""
    return reverse("javascript-catalog", args=[get_language(), catalog_release()])


@require_safe
@gzip_page  # the catalog is public: ~3.3 KB of English gzip to ~1.3 KB
def javascript_catalog(
    request: HttpRequest, language: str, release: str
) -> HttpResponse:
    """The catalog of ``language``; cached for a year when ``release`` is current."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    current = release == catalog_release()
    key = f"jsi18n:{language}:{catalog_release()}"
    body = shared_cache.get(key) if current else None
    if body is None:
        with translation.override(language):
            rendered = JavaScriptCatalog.as_view()(request)
        assert isinstance(rendered, HttpResponse)  # rendered in full, never streamed
        body = rendered.content
        if current:
            shared_cache.set(key, body, YEAR)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # An old release's URL (a page cached before a deploy) gets today's catalog,
    # kept only briefly.
    response["Cache-Control"] = (
        f"public, max-age={YEAR}, immutable" if current else "public, max-age=300"
    )
    return response
