"""The Content-Security-Policy header of every response.

Django 5.2 has no CSP of its own. The pages load scripts, styles and images only
from this site, with no inline ``<script>``, event-handler attribute or ``style=``
attribute (``tests/config/test_security_headers.py`` checks the templates and the
rendered pages); JSON data blocks (``json_script``) are not scripts and need no
permission. Sockets connect to this site (``'self'`` covers ``ws:``/``wss:`` of the
same host).

The offline game's Web Worker (``static/js/offline/worker.js``) runs Pyodide,
which compiles WebAssembly: a dedicated worker is governed by the policy its own
script is served with, so that script alone is served with the site's policy plus
``'wasm-unsafe-eval'`` (compiling WebAssembly, not evaluating strings), through
whitenoise's ``WHITENOISE_ADD_HEADERS_FUNCTION`` (``static_headers``).
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

DEFAULT_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Add ``CONTENT_SECURITY_POLICY`` to responses that do not set their own."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        policy: str = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response.headers:
            response.headers["Content-Security-Policy"] = policy
        return response


# The worker script, by its source name or its hashed one (``worker.<12 hex>.js``).
_WORKER = re.compile(r"/js/offline/worker(?:\.[0-9a-f]{12})?\.js$")


def worker_policy(policy: str) -> str:
    """``policy`` with WebAssembly compilation allowed to scripts."""
    directives = [d.strip() for d in policy.split(";") if d.strip()]
    names = [d.split()[0] for d in directives]
    if "script-src" in names:
        at = names.index("script-src")
        directives[at] += " 'wasm-unsafe-eval'"
    elif "default-src" in names:
        at = names.index("default-src")
        directives.append(directives[at].replace("default-src", "script-src", 1))
        directives[-1] += " 'wasm-unsafe-eval'"
    return "; ".join(directives)


def static_headers(headers: Any, path: str, url: str) -> None:
    """whitenoise's hook for each static file: the worker's own policy."""
    policy: str = settings.CONTENT_SECURITY_POLICY
    if policy and _WORKER.search(url):
        headers["Content-Security-Policy"] = worker_policy(policy)
