"""The Content-Security-Policy header of every response.

Django 5.2 has no CSP of its own. The pages load scripts, styles and images only
from this site, with no inline ``<script>``, event-handler attribute or ``style=``
attribute (``tests/config/test_security_headers.py`` checks the templates and the
rendered pages); JSON data blocks (``json_script``) are not scripts and need no
permission. Sockets connect to this site (``'self'`` covers ``ws:``/``wss:`` of the
same host).
"""

from __future__ import annotations

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
